#!/usr/bin/env python3
"""Extracts the ISO 3166-2 -> GeoNames admin1 join of the npm package iso3166-2-db
2.3.11 (MIT) into iso3166-2-db-admin1.csv: one row per region the package lists,
with its ISO 3166-2 code as the package spells it, its GeoNames admin1 code
('admin') and the GeoNames id of the region itself. Names and other fields are
not copied. Standard library only.

    cd "$(mktemp -d)" && npm pack iso3166-2-db@2.3.11 && tar xzf iso3166-2-db-2.3.11.tgz
    python3 sources/seats/extract-iso3166-2-db.py "$PWD/package"
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'iso3166-2-db-admin1.csv')


def main(package_dir):
    meta = json.load(open(os.path.join(package_dir, 'package.json'), encoding='utf-8'))
    if meta['name'] != 'iso3166-2-db' or meta['version'] != '2.3.11':
        raise SystemExit(f"expected iso3166-2-db 2.3.11, got {meta['name']} {meta['version']}")
    data = json.load(open(os.path.join(package_dir, 'data', 'iso3166-2.json'), encoding='utf-8'))
    rows = []
    for country, c in data.items():
        for r in c['regions']:
            if not r.get('iso') or not r.get('admin'):
                continue
            rows.append({'code': f"{country}-{r['iso']}", 'geonames_admin1': r['admin'], 'region_geonames_id': r['reference'].get('geonames') or ''})
    # A few codes appear twice with different admin1 codes (AZ-SUS, NZ-WTC, TZ-30, YE-SA): all rows are kept,
    # and the stage treats such a code as ambiguous unless the seats agree.
    rows.sort(key=lambda r: (r['code'], r['geonames_admin1']))
    with open(OUT + '.tmp', 'w', newline='', encoding='utf-8') as f:
        w = csv.DictWriter(f, fieldnames=['code', 'geonames_admin1', 'region_geonames_id'], lineterminator='\n')
        w.writeheader()
        w.writerows(rows)
    os.replace(OUT + '.tmp', OUT)
    print(f'{len(rows)} regions -> {os.path.relpath(OUT)}')


if __name__ == '__main__':
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
