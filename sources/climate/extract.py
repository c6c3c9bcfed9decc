#!/usr/bin/env python3
"""Filters the 14.7 MB long file of the WMO 1991-2020 normals to the stations the
climate stage may use, so that sources/climate stays small.

A station may be used when it is a capital candidate (derived/capital_station_candidates.csv,
any rank) or is named in station-choices.csv. Rows are copied byte for byte, in file
order, with the header; nothing else is changed. Standard library only.

    python3 sources/climate/extract.py /path/to/sources-raw/climate-wmo-normals-9120

writes sources/climate/derived/wmo9120_selected_params_long.used-stations.csv.
Run it again whenever station-choices.csv names a new station (the stage fails
closed on a chosen station that has no rows here).
"""
import csv
import io
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'derived', 'wmo9120_selected_params_long.used-stations.csv')


def used_station_files():
    """Paths like Region-1-WMO-Normals-9120/BurkinaFaso/CSV/OUAGADOUGOU_65503.csv."""
    paths = set()
    with open(os.path.join(HERE, 'derived', 'capital_station_candidates.csv'), newline='', encoding='utf-8') as f:
        paths.update(r['station_file'] for r in csv.DictReader(f) if r['station_file'])
    with open(os.path.join(HERE, 'station-choices.csv'), newline='', encoding='utf-8') as f:
        paths.update(r['station_file'] for r in csv.DictReader(f) if r['station_file'])
    return paths


def main(raw_dir):
    wanted = used_station_files()
    src = os.path.join(raw_dir, 'derived', 'wmo9120_selected_params_long.csv')
    kept = 0
    seen = set()
    with open(src, newline='', encoding='utf-8') as f, open(OUT + '.tmp', 'w', newline='', encoding='utf-8') as out:
        header = f.readline()
        out.write(header)
        cols = next(csv.reader([header]))
        # Rows hold no quoted newlines (checked: every line parses to len(cols) fields).
        for line in f:
            row = next(csv.reader([line]))
            if len(row) != len(cols):
                raise SystemExit(f'unexpected row shape: {line[:80]!r}')
            r = dict(zip(cols, row))
            path = f"Region-{r['region']}-WMO-Normals-9120/{r['country_dir']}/CSV/{r['station_file']}.csv"
            if path in wanted:
                out.write(line)
                kept += 1
                seen.add(path)
    os.replace(OUT + '.tmp', OUT)
    missing = sorted(wanted - seen)
    print(f'{kept} rows for {len(seen)} stations -> {os.path.relpath(OUT)}')
    if missing:
        print(f'{len(missing)} wanted stations have no rows in the long file: {missing}', file=sys.stderr)


if __name__ == '__main__':
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    main(sys.argv[1])
