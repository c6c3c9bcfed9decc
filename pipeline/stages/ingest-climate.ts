/**
 * Stage: monthly climate normals per destination from the WMO 1991-2020 station
 * normals (sources/climate/, see its SOURCE.md). For each code the station is the
 * best-ranked capital candidate of the same country within MAX_AUTO_DISTANCE_KM,
 * unless sources/climate/station-choices.csv (hand-reviewed, every row with a
 * reason) names another station, rejects every candidate, or corrects a capital's
 * or a station's coordinates. Values are parsed strictly, converted by the unit
 * written in each row, range-checked, and published as null when missing or
 * implausible; no quantity is ever derived from another, except relative humidity
 * from vapour pressure and mean temperature (Magnus), flagged as derived.
 * Fails closed: a choice that names an unknown station, a station without data, a
 * distance beyond MAX_DISTANCE_KM or a capital correction that no longer matches
 * its input stops the build.
 */
import { join } from 'node:path';
import type { ClimateNormals, ClimateNote } from '../../lib/schema-types.js';
import {
  buildMonths,
  CLIMATE_FIELDS,
  hasTemperatures,
  haversineKm,
  MAX_AUTO_DISTANCE_KM,
  MAX_DISTANCE_KM,
  MAX_REGION_DISTANCE_KM,
  parseValue,
  round1,
  type Capital,
  type ClimateField,
  type ParamRow,
} from '../../lib/climate.js';
import { readCsv } from './read-csv.js';

export type { ClimateNormals, ClimateNote };

interface Station {
  path: string;
  name: string;
  wmo: string;
  lat: number | null;
  lon: number | null;
  countries: string[]; // ISO codes of the submitting folder
}

interface Choice {
  decision: 'use' | 'reject' | '';
  stationFile: string;
  stationCountry: string;
  stationLat: number | null;
  stationLon: number | null;
  capital: Capital | null;
  capitalUpstream: string; // "lat|lon" of the input being corrected; '' = none
  dropFields: ClimateField[];
  where: string;
}

/** The header of each CSV the stage reads (station-choices.csv is ours; derived/ is extract.py's output). */
const HEADERS = {
  choices: 'cca2,decision,station_file,station_country,station_lat,station_lon,capital,capital_lat,capital_lon,capital_upstream,drop_fields,reason,source',
  isoOfFolder: 'country_dir,iso2_guess',
  stations: 'region,country_dir,country_in_file,station_in_file,wmo,wigos,lat,lon,coord_flag,elev_m,file',
  candidates:
    'cca2,country,independent,capital,cap_lat,cap_lon,rank,station_country_dir,station_country_iso2_guess,same_country,station_file,station_name,' +
    'wmo_or_national_id,st_lat,st_lon,elev_m,dist_km,name_match,complete_12_month_fields,note',
  values:
    'wmo_id,region,country_dir,station_in_file,station_file,param_code,param,param_name_in_file,unit_in_file,calc_name,calc_code,row_in_block,' +
    'jan,feb,mar,apr,may,jun,jul,aug,sep,oct,nov,dec,annual',
  seatPoints: 'code,latitude,longitude',
};
/** The rows of a CSV whose header must be `header`. */
const rowsOf = (path: string, header: string) => readCsv(path, header).map((r) => r.row);

const MISSING_ID = /^(?:|NA|N\/A|X+)$/i;

function loadStations(dir: string): Map<string, Station> {
  const iso = new Map(rowsOf(join(dir, 'derived', 'country_dir_to_iso2.csv'), HEADERS.isoOfFolder).map((r) => [r.country_dir, r.iso2_guess.split(' ')]));
  const stations = new Map<string, Station>();
  for (const r of rowsOf(join(dir, 'derived', 'wmo9120_stations.csv'), HEADERS.stations)) {
    const countries = iso.get(r.country_dir);
    if (!countries) throw new Error(`climate: no ISO code for station folder ${r.country_dir}`);
    stations.set(r.file, {
      path: r.file,
      name: r.station_in_file.trim(),
      wmo: MISSING_ID.test(r.wmo.trim()) ? '' : r.wmo.trim(),
      lat: parseValue(r.lat),
      lon: parseValue(r.lon),
      countries,
    });
  }
  return stations;
}

/** code -> candidate station paths, best rank first. */
function loadCandidates(dir: string): Map<string, string[]> {
  const out = new Map<string, { rank: number; path: string }[]>();
  for (const r of rowsOf(join(dir, 'derived', 'capital_station_candidates.csv'), HEADERS.candidates)) {
    if (!r.station_file) continue;
    const list = out.get(r.cca2) ?? [];
    list.push({ rank: Number(r.rank), path: r.station_file });
    out.set(r.cca2, list);
  }
  return new Map([...out].map(([code, list]) => [code, list.sort((a, b) => a.rank - b.rank).map((c) => c.path)]));
}

function coordinate(text: string, max: number, where: string): number | null {
  if (text.trim() === '') return null;
  const x = parseValue(text);
  if (x === null || Math.abs(x) > max) throw new Error(`${where}: bad coordinate "${text}"`);
  return x;
}

/** Parses and checks sources/climate/station-choices.csv. */
export function loadStationChoices(csvPath: string): Map<string, Choice> {
  const choices = new Map<string, Choice>();
  for (const { row: r, where: line } of readCsv(csvPath, HEADERS.choices)) {
    const where = `${line} (${r.cca2})`;
    if (!/^[A-Z]{2}$/.test(r.cca2)) throw new Error(`${where}: bad code`);
    if (choices.has(r.cca2)) throw new Error(`${where}: duplicate code`);
    if (!['use', 'reject', ''].includes(r.decision)) throw new Error(`${where}: decision must be use, reject or empty`);
    if ((r.decision === 'use') !== (r.station_file !== '')) throw new Error(`${where}: station_file goes with decision=use`);
    if (!r.reason?.trim() || !r.source?.trim()) throw new Error(`${where}: every row needs a reason and a source`);
    if (r.station_country && !/^[A-Z]{2}$/.test(r.station_country)) throw new Error(`${where}: bad station_country`);
    const stationLat = coordinate(r.station_lat, 90, where);
    const stationLon = coordinate(r.station_lon, 180, where);
    if ((stationLat === null) !== (stationLon === null)) throw new Error(`${where}: station_lat and station_lon go together`);
    const capLat = coordinate(r.capital_lat, 90, where);
    const capLon = coordinate(r.capital_lon, 180, where);
    if ((capLat === null) !== (capLon === null) || (capLat === null) !== (r.capital === '')) {
      throw new Error(`${where}: capital, capital_lat and capital_lon go together`);
    }
    const dropFields = r.drop_fields.split(' ').filter(Boolean) as ClimateField[];
    for (const f of dropFields) if (!CLIMATE_FIELDS.includes(f)) throw new Error(`${where}: unknown field ${f} in drop_fields`);
    if (r.decision === '' && capLat === null) throw new Error(`${where}: a row without decision must correct the capital`);
    choices.set(r.cca2, {
      decision: r.decision as Choice['decision'],
      stationFile: r.station_file,
      stationCountry: r.station_country,
      stationLat,
      stationLon,
      capital: capLat === null ? null : { name: r.capital, latitude: capLat, longitude: capLon! },
      capitalUpstream: r.capital_upstream.trim(),
      dropFields,
      where,
    });
  }
  return choices;
}

// ---------------------------------------------------------------- values

/** station path -> "param/calc_code" (e.g. "TMAX_C/1") -> rows (more than one only if the file repeats a block). */
type StationValues = Map<string, Map<string, ParamRow[]>>;

const MONTH_COLUMNS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function loadValues(dir: string): StationValues {
  const out: StationValues = new Map();
  for (const r of rowsOf(join(dir, 'derived', 'wmo9120_selected_params_long.used-stations.csv'), HEADERS.values)) {
    const path = `Region-${r.region}-WMO-Normals-9120/${r.country_dir}/CSV/${r.station_file}.csv`;
    const params = out.get(path) ?? new Map<string, ParamRow[]>();
    const key = `${r.param}/${r.calc_code}`;
    params.set(key, [...(params.get(key) ?? []), { unit: r.unit_in_file.trim().toLowerCase(), values: MONTH_COLUMNS.map((m) => r[m]) }]);
    out.set(path, params);
  }
  return out;
}

const near = (a: number, b: number) => Math.abs(a - b) < 0.005;

/** The capital after the reviewed correction; throws when a correction no longer matches its input. */
function correctedCapital(code: string, input: Capital | null, choice: Choice | undefined): Capital | null {
  if (!choice?.capital) return input;
  const fixed = choice.capital;
  const alreadyFixed = input && near(input.latitude, fixed.latitude) && near(input.longitude, fixed.longitude);
  const [uLat, uLon] = choice.capitalUpstream.split('|').map((t) => parseValue(t));
  const isUpstream =
    choice.capitalUpstream === '' ? input === null : input !== null && uLat !== null && uLon !== null && near(input.latitude, uLat) && near(input.longitude, uLon);
  if (!alreadyFixed && !isUpstream) {
    throw new Error(`${choice.where}: capital correction for ${code} expects ${choice.capitalUpstream || 'no capital'}, got ${JSON.stringify(input)}; review it`);
  }
  return fixed;
}

/** Everything the climate stage reads, parsed once (ingestClimate and ingestRegionalClimate share it). */
export interface ClimateSources {
  dir: string;
  stations: Map<string, Station>;
  candidates: Map<string, string[]>;
  values: StationValues;
  choices: Map<string, Choice>;
  /** The station's coordinates after the reviewed corrections, or null. */
  coordsOf: (s: Station) => [number, number] | null;
}

export function loadClimateSources(sourcesDir: string): ClimateSources {
  const dir = join(sourcesDir, 'climate');
  const choices = loadStationChoices(join(dir, 'station-choices.csv'));
  // Station coordinates are a property of the station: a reviewed fix applies wherever it is used.
  const fixedCoords = new Map<string, [number, number]>();
  for (const c of choices.values()) {
    if (c.stationLat === null) continue;
    const prev = fixedCoords.get(c.stationFile);
    if (prev && (prev[0] !== c.stationLat || prev[1] !== c.stationLon)) throw new Error(`${c.where}: conflicting coordinates for ${c.stationFile}`);
    fixedCoords.set(c.stationFile, [c.stationLat, c.stationLon!]);
  }
  return {
    dir,
    stations: loadStations(dir),
    candidates: loadCandidates(dir),
    values: loadValues(dir),
    choices,
    coordsOf: (s) => fixedCoords.get(s.path) ?? (s.lat === null || s.lon === null ? null : [s.lat, s.lon]),
  };
}

/**
 * Climate normals for every code of `capitals` that has a usable station.
 * `sourcesDir` is the repository's sources/ folder (or its parsed ClimateSources); capitals are restcountries'
 * (capitalInfo.latlng, capital[0]) or already corrected ones, null when none.
 */
export function ingestClimate(
  sourcesDir: string | ClimateSources,
  capitals: Record<string, { name: string; latitude: number; longitude: number } | null>,
): Record<string, ClimateNormals> {
  const { stations, candidates, values, choices, coordsOf } = typeof sourcesDir === 'string' ? loadClimateSources(sourcesDir) : sourcesDir;

  const out: Record<string, ClimateNormals> = {};
  for (const code of Object.keys(capitals).sort()) {
    const choice = choices.get(code);
    const capital = correctedCapital(code, capitals[code], choice);
    if (!capital || choice?.decision === 'reject') continue;

    const attempt = (path: string) => {
      const station = stations.get(path);
      const coords = station && coordsOf(station);
      const params = values.get(path);
      if (!station || !coords || !params || !station.wmo) return null;
      const months = buildMonths(params, choice?.dropFields);
      if (!months) return null;
      const distance = haversineKm(capital.latitude, capital.longitude, coords[0], coords[1]);
      return { station, coords, months, distance };
    };

    let picked: NonNullable<ReturnType<typeof attempt>> | null = null;
    if (choice?.decision === 'use') {
      picked = attempt(choice.stationFile);
      if (!picked) throw new Error(`${choice.where}: ${choice.stationFile} has no id, coordinates or usable values (run sources/climate/extract.py?)`);
      if (picked.distance > MAX_DISTANCE_KM) throw new Error(`${choice.where}: station is ${picked.distance.toFixed(1)} km from ${capital.name}`);
    } else {
      for (const path of candidates.get(code) ?? []) {
        if (!stations.get(path)?.countries.includes(code)) continue; // another country's station needs a reviewed row
        const a = attempt(path);
        if (a && a.distance <= MAX_AUTO_DISTANCE_KM) {
          picked = a;
          break;
        }
      }
    }
    if (!picked) continue;

    const { station, coords, months, distance } = picked;
    const country = station.countries.includes(code) ? code : choice?.stationCountry || station.countries[0];
    out[code] = {
      station: {
        name: station.name,
        wmo_id: station.wmo,
        country,
        latitude: coords[0],
        longitude: coords[1],
        distance_km: round1(distance),
        period: '1991-2020',
      },
      months,
    };
  }
  return out;
}

// ---------------------------------------------------------------- regions


export interface RegionalClimate {
  /** Region code -> normals of the station nearest its seat. */
  normals: Record<string, ClimateNormals>;
  /** Region code -> why it has none. */
  notes: Record<string, ClimateNote>;
}

/** Above this annual mean of (high - low), a station's highs and lows are monthly extremes (SOURCE.md: 4.1-15.3 °C medians elsewhere). */
const MAX_MEAN_DAILY_RANGE_C = 18;
function meanDailyRange(months: { temp_high_c: number | null; temp_low_c: number | null }[]): number {
  const r = months.filter((m) => m.temp_high_c !== null && m.temp_low_c !== null).map((m) => m.temp_high_c! - m.temp_low_c!);
  return r.length ? r.reduce((a, b) => a + b) / r.length : 0;
}

/**
 * The seats sources/climate/derived/seat-points.csv was cut for (extract.py keeps the stations near them):
 * a seat that moved, appeared or went since would silently miss stations, so the stage stops instead.
 */
function checkSeatPoints(dir: string, seats: Map<string, { latitude: number; longitude: number } | null>): void {
  const listed = new Map(rowsOf(join(dir, 'derived', 'seat-points.csv'), HEADERS.seatPoints).map((r) => [r.code, [Number(r.latitude), Number(r.longitude)]]));
  const stale: string[] = [];
  for (const [code, seat] of seats) {
    const p = listed.get(code);
    if (seat ? !p || p[0] !== seat.latitude || p[1] !== seat.longitude : p) stale.push(code);
    listed.delete(code);
  }
  stale.push(...listed.keys());
  if (stale.length) {
    throw new Error(
      `climate: sources/climate/derived/seat-points.csv does not match the seats (${stale.slice(0, 5).join(', ')}${stale.length > 5 ? ', …' : ''}): ` +
        'run `npx tsx pipeline/stages/ingest-seats.ts > sources/climate/derived/seat-points.csv`, then sources/climate/extract.py, then `npm run lock:sources`',
    );
  }
}

/**
 * Climate normals for ISO 3166-2 regions: of the stations of the region's own country within
 * MAX_REGION_DISTANCE_KM of its seat, the nearest whose normals give daily highs and lows, else the nearest with
 * any usable value. Same parsing, corrections and checks as the capitals' (station coordinate fixes and dropped
 * fields of station-choices.csv apply wherever the station is used).
 */
export function ingestRegionalClimate(
  sourcesDir: string | ClimateSources,
  seats: Map<string, { name: string; latitude: number; longitude: number } | null>,
): RegionalClimate {
  const src = typeof sourcesDir === 'string' ? loadClimateSources(sourcesDir) : sourcesDir;
  checkSeatPoints(src.dir, seats);
  // The drops of station-choices.csv answer problems of a whole national submission (SOURCE.md, "Known
  // problems"), so they apply to every station of that country here; Turkmenistan's capital row rejects its
  // station outright, but its highs and lows are monthly extremes too.
  const dropBy = new Map<string, Set<ClimateField>>([['TM', new Set(['temp_high_c', 'temp_low_c'])]]);
  for (const [code, c] of src.choices) for (const f of c.dropFields) dropBy.set(code, (dropBy.get(code) ?? new Set()).add(f));
  const dropsOf = (s: Station) => [...new Set(s.countries.flatMap((cc) => [...(dropBy.get(cc) ?? [])]))];

  // Every station that can serve: a WMO id, coordinates and usable values; its months built once.
  const usable: { station: Station; coords: [number, number]; months: NonNullable<ReturnType<typeof buildMonths>>; temperatures: boolean }[] = [];
  for (const station of [...src.stations.values()].sort((a, b) => (a.path < b.path ? -1 : 1))) {
    const coords = src.coordsOf(station);
    const params = src.values.get(station.path);
    if (!coords || !params || !station.wmo) continue;
    let months = buildMonths(params, dropsOf(station));
    // Mean monthly extremes filed as daily highs and lows show as a day-night range no real station has.
    if (months && meanDailyRange(months) > MAX_MEAN_DAILY_RANGE_C) months = buildMonths(params, [...dropsOf(station), 'temp_high_c', 'temp_low_c']);
    if (months) usable.push({ station, coords, months, temperatures: hasTemperatures(months) });
  }

  const normals: Record<string, ClimateNormals> = {};
  const notes: Record<string, ClimateNote> = {};
  for (const [code, seat] of [...seats].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const cc = code.slice(0, 2);
    if (!seat) {
      notes[code] = { reason: 'no_seat', message: `The seat of ${code} is not known to our sources, so no station can be chosen.` };
      continue;
    }
    const near = usable
      .filter((u) => u.station.countries.includes(cc) && Math.abs(u.coords[0] - seat.latitude) < 1)
      .map((u) => ({ ...u, distance: haversineKm(seat.latitude, seat.longitude, u.coords[0], u.coords[1]) }))
      .filter((u) => u.distance <= MAX_REGION_DISTANCE_KM)
      .sort((a, b) => a.distance - b.distance || (a.station.path < b.station.path ? -1 : 1));
    const pick = near.find((u) => u.temperatures) ?? near[0];
    if (!pick) {
      notes[code] = {
        reason: 'no_station_near_seat',
        message: `No WMO 1991-2020 station of ${cc} with usable normals lies within ${MAX_REGION_DISTANCE_KM} km of the seat, ${seat.name}.`,
      };
      continue;
    }
    normals[code] = {
      station: {
        name: pick.station.name,
        wmo_id: pick.station.wmo,
        country: cc,
        latitude: pick.coords[0],
        longitude: pick.coords[1],
        distance_km: round1(pick.distance),
        period: '1991-2020',
      },
      months: pick.months,
    };
  }
  return { normals, notes };
}
