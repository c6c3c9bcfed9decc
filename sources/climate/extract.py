#!/usr/bin/env python3
"""Filters the 14.7 MB long file of the WMO 1991-2020 normals to the stations the
climate stage may use, so that sources/climate stays small.

A station may be used when it is a capital candidate (derived/capital_station_candidates.csv,
any rank), is named in station-choices.csv, or lies within SEAT_RADIUS_KM of a subdivision
seat of derived/seat-points.csv in the seat's own country (the regional climate rule, see
SOURCE.md). Rows are copied byte for byte, in file order, with the header; nothing else is
changed. Standard library only.

    python3 sources/climate/extract.py /path/to/sources-raw/climate-wmo-normals-9120

writes sources/climate/derived/wmo9120_selected_params_long.used-stations.csv.
Run it again whenever station-choices.csv names a new station (the stage fails
closed on a chosen station that has no rows here) or seat-points.csv changes.
"""
import csv
import io
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, 'derived', 'wmo9120_selected_params_long.used-stations.csv')


# The regional rule's 100 km (lib/climate.ts MAX_REGION_DISTANCE_KM), plus 1 km for station
# coordinates that station-choices.csv corrects.
SEAT_RADIUS_KM = 101


def haversine_km(lat1, lon1, lat2, lon2):
    r = math.pi / 180
    h = math.sin((lat2 - lat1) * r / 2) ** 2 + math.cos(lat1 * r) * math.cos(lat2 * r) * math.sin((lon2 - lon1) * r / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1, math.sqrt(h)))


# (param, calc_code) rows the stage reads (lib/climate.ts READERS); the other rows (counts of years,
# extremes, other thresholds) are not copied.
READ = {('TMAX_C', '1'), ('TMIN_C', '1'), ('TAVG_C', '1'), ('PRCP_mm', '4'), ('DP01_days', '5'), ('MNVP_hPa', '1'),
        ('TSUN_hours', '4'), ('CLOUD_okta', '1'), ('WIND_ms', '1'), ('WIND_ms', '5'), ('RH_pct', '1'), ('RH_pct', '5')}
# Per seat, stations are kept in order of distance until this many report highs and lows.
KEEP_WITH_TEMPERATURES = 2


def station_params(raw_dir):
    """station path -> set of params with at least one numeric monthly value (from the raw long file)."""
    out = {}
    with open(os.path.join(raw_dir, 'derived', 'wmo9120_selected_params_long.csv'), newline='', encoding='utf-8') as f:
        for r in csv.DictReader(f):
            if (r['param'], r['calc_code']) not in READ:
                continue
            path = f"Region-{r['region']}-WMO-Normals-9120/{r['country_dir']}/CSV/{r['station_file']}.csv"
            numeric = False
            for m in ('jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'):
                try:
                    float(r[m])
                    numeric = True
                    break
                except ValueError:
                    pass
            if numeric:
                out.setdefault(path, set()).add(r['param'])
    return out


def seat_station_files(raw_dir):
    """For each seat of derived/seat-points.csv: the stations of its country within SEAT_RADIUS_KM that have
    values, nearest first, up to and including the KEEP_WITH_TEMPERATURES-th that reports highs and lows."""
    params = station_params(raw_dir)
    with open(os.path.join(HERE, 'derived', 'country_dir_to_iso2.csv'), newline='', encoding='utf-8-sig') as f:
        iso = {r['country_dir']: r['iso2_guess'].split() for r in csv.DictReader(f)}
    stations = []
    with open(os.path.join(HERE, 'derived', 'wmo9120_stations.csv'), newline='', encoding='utf-8-sig') as f:
        for r in csv.DictReader(f):
            try:
                lat, lon = float(r['lat']), float(r['lon'])
            except ValueError:
                continue
            if r['file'] in params:
                stations.append((lat, lon, iso.get(r['country_dir'], []), r['file']))
    paths = set()
    with open(os.path.join(HERE, 'derived', 'seat-points.csv'), newline='', encoding='utf-8') as f:
        for seat in csv.DictReader(f):
            lat, lon, cc = float(seat['latitude']), float(seat['longitude']), seat['code'][:2]
            near = sorted((haversine_km(lat, lon, s_lat, s_lon), path) for s_lat, s_lon, countries, path in stations
                          if cc in countries and abs(s_lat - lat) < 1)
            with_temperatures = 0
            for d, path in near:
                if d > SEAT_RADIUS_KM or with_temperatures >= KEEP_WITH_TEMPERATURES:
                    break
                paths.add(path)
                if {'TMAX_C', 'TMIN_C'} <= params[path]:
                    with_temperatures += 1
    return paths


def used_station_files(raw_dir):
    """Paths like Region-1-WMO-Normals-9120/BurkinaFaso/CSV/OUAGADOUGOU_65503.csv."""
    paths = seat_station_files(raw_dir)
    with open(os.path.join(HERE, 'derived', 'capital_station_candidates.csv'), newline='', encoding='utf-8') as f:
        paths.update(r['station_file'] for r in csv.DictReader(f) if r['station_file'])
    with open(os.path.join(HERE, 'station-choices.csv'), newline='', encoding='utf-8') as f:
        paths.update(r['station_file'] for r in csv.DictReader(f) if r['station_file'])
    return paths


def main(raw_dir):
    wanted = used_station_files(raw_dir)
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
            if path in wanted and (r['param'], r['calc_code']) in READ:
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
