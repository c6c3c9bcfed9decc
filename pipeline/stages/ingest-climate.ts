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
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import type { ClimateMonth, ClimateNormals } from '../../lib/schema-types.js';

export type { ClimateNormals };

export interface Capital {
  name: string;
  latitude: number;
  longitude: number;
}

/** A same-country candidate farther than this is not taken without a reviewed row. */
export const MAX_AUTO_DISTANCE_KM = 50;
/** No station farther than this is ever published (the candidate search radius). */
export const MAX_DISTANCE_KM = 100;

export const MONTHS = [
  'January', 'February', 'March', 'April', 'May', 'June',
  'July', 'August', 'September', 'October', 'November', 'December',
] as const;
/** Mean days per month over the normal period; February counts leap years (28.25). */
export const MONTH_DAYS = [31, 28.25, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Fields of ClimateMonth that a station can supply (precipitation_hours never). */
export const CLIMATE_FIELDS = [
  'temp_high_c', 'temp_low_c', 'precipitation_mm', 'precipitation_days', 'humidity_percent',
  'cloud_cover_percent', 'sunshine_hours', 'wind_speed_kmh',
] as const;
export type ClimateField = (typeof CLIMATE_FIELDS)[number];

const EARTH_RADIUS_KM = 6371.0088; // IUGG mean radius

/** Great-circle distance by the haversine formula. */
export function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Rounds half away from zero to one decimal, never returning -0. */
export function round1(x: number): number {
  const r = (Math.sign(x) * Math.round(Math.abs(x) * 10 + 1e-9)) / 10;
  return r === 0 ? 0 : r;
}

const NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;
/** Missing-value codes of the composites and station files (SOURCE.md, "Known problems"). */
const SENTINELS = new Set([-99.9, -100, -999, -999.9, -9999]);

/** A number, or null for blank, NA, #DIV/0!, ***, percent strings and sentinels. */
export function parseValue(text: string | undefined): number | null {
  const t = (text ?? '').trim();
  if (!NUMBER.test(t)) return null;
  const x = Number(t);
  return Number.isFinite(x) && !SENTINELS.has(x) ? x : null;
}

/** Magnus formula (WMO-No. 8, over water): relative humidity from vapour pressure e (hPa) and temperature t (°C). */
export function magnusRelativeHumidity(e: number, t: number): number {
  return (100 * e) / (6.112 * Math.exp((17.62 * t) / (243.12 + t)));
}

// ---------------------------------------------------------------- sources

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

type Csv = Record<string, string>[];
const readCsv = (path: string): Csv =>
  parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true, bom: true }) as Csv;

const MISSING_ID = /^(?:|NA|N\/A|X+)$/i;

function loadStations(dir: string): Map<string, Station> {
  const iso = new Map(readCsv(join(dir, 'derived', 'country_dir_to_iso2.csv')).map((r) => [r.country_dir, r.iso2_guess.split(' ')]));
  const stations = new Map<string, Station>();
  for (const r of readCsv(join(dir, 'derived', 'wmo9120_stations.csv'))) {
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
  for (const r of readCsv(join(dir, 'derived', 'capital_station_candidates.csv'))) {
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
  readCsv(csvPath).forEach((r, i) => {
    const where = `${csvPath} row ${i + 2} (${r.cca2})`;
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
  });
  return choices;
}

// ---------------------------------------------------------------- values

/** One parameter row of the long file: its unit (lower-cased) and the twelve monthly texts. */
export interface ParamRow {
  unit: string;
  values: (string | undefined)[];
}
/** station path -> "param/calc_code" (e.g. "TMAX_C/1") -> rows (more than one only if the file repeats a block). */
type StationValues = Map<string, Map<string, ParamRow[]>>;

const MONTH_COLUMNS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

function loadValues(dir: string): StationValues {
  const out: StationValues = new Map();
  for (const r of readCsv(join(dir, 'derived', 'wmo9120_selected_params_long.used-stations.csv'))) {
    const path = `Region-${r.region}-WMO-Normals-9120/${r.country_dir}/CSV/${r.station_file}.csv`;
    const params = out.get(path) ?? new Map<string, ParamRow[]>();
    const key = `${r.param}/${r.calc_code}`;
    params.set(key, [...(params.get(key) ?? []), { unit: r.unit_in_file.trim().toLowerCase(), values: MONTH_COLUMNS.map((m) => r[m]) }]);
    out.set(path, params);
  }
  return out;
}

/**
 * How each quantity is read: parameter, calculation codes in order of preference
 * (use calc_code, never calc_name), unit factors (by unit_in_file, lower-cased).
 * Ireland labels its means of humidity and wind as code 5 (Count); code 5 is
 * taken for those only when no code-1 row exists. count_% (Korea, Sudan, South
 * Africa) holds day counts, not percentages (checked: none of its 128 rows exceeds 22.1).
 */
const READERS = {
  tmax: { param: 'TMAX_C', calc: ['1'], units: { deg_c: 1 } },
  tmin: { param: 'TMIN_C', calc: ['1'], units: { deg_c: 1 } },
  tavg: { param: 'TAVG_C', calc: ['1'], units: { deg_c: 1 } },
  prcp: { param: 'PRCP_mm', calc: ['4'], units: { mm: 1 } },
  dp01: { param: 'DP01_days', calc: ['5'], units: { count: 1, 'count_%': 1 } },
  mnvp: { param: 'MNVP_hPa', calc: ['1'], units: { hpa: 1 } },
  tsun: { param: 'TSUN_hours', calc: ['4'], units: { hours: 1 } },
  cloud: { param: 'CLOUD_okta', calc: ['1'], units: { okta: 12.5, oktas: 12.5, tenths: 10, '%': 1 } },
  wind: { param: 'WIND_ms', calc: ['1', '5'], units: { 'm/s': 3.6, 'm/sec': 3.6, 'km/h': 1 } },
  rh: { param: 'RH_pct', calc: ['1', '5'], units: { '%': 1 } },
} as const satisfies Record<string, { param: string; calc: readonly string[]; units: Record<string, number> }>;
type Quantity = keyof typeof READERS;

/** Physical limits after conversion (the schema's, tightened where physics allows). */
const LIMITS: Record<Quantity, (x: number, month: number) => boolean> = {
  tmax: (x) => x >= -90 && x <= 60,
  tmin: (x) => x >= -90 && x <= 60,
  tavg: (x) => x >= -90 && x <= 60,
  prcp: (x) => x >= 0 && x <= 3000,
  dp01: (x, m) => x >= 0 && x <= MONTH_DAYS[m],
  mnvp: (x) => x > 0 && x <= 80,
  tsun: (x, m) => x >= 0 && x <= 24 * MONTH_DAYS[m], // monthly total
  cloud: (x) => x >= 0 && x <= 100,
  wind: (x) => x >= 0 && x <= 200,
  rh: (x) => x >= 1 && x <= 100,
};

type Series = (number | null)[];

/** Twelve converted, range-checked monthly values of one quantity (null where unusable). */
function readSeries(params: Map<string, ParamRow[]>, q: Quantity): Series {
  const reader = READERS[q];
  for (const calc of reader.calc) {
    const rows = params.get(`${reader.param}/${calc}`);
    if (!rows) continue;
    const factor = (reader.units as Record<string, number>)[rows[0].unit];
    // A repeated block that disagrees is ambiguous; an unknown unit is unreadable.
    if (factor === undefined || rows.some((r) => r.unit !== rows[0].unit || r.values.join() !== rows[0].values.join())) {
      return Array(12).fill(null);
    }
    return rows[0].values.map((text, m) => {
      const raw = parseValue(text);
      if (raw === null) return null;
      const x = raw * factor;
      return LIMITS[q](x, m) ? x : null;
    });
  }
  return Array(12).fill(null);
}

/**
 * Humidity is derived only from months with a mean of at least 0 °C. Against the 16,176
 * station-months that report both (all 6,682 files), the derived value is within -2.3..+4.9
 * points of the reported one for 80 % of months overall, but runs high as it gets colder:
 * median +3.8 at -5..0 °C, +6.8 at -10..-5 °C, +14 below -25 °C.
 */
const MIN_DERIVE_C = 0;

/** Drops a monthly temperature that stands out from both neighbours in the same direction by more than this. */
const SPIKE_C = 10;
function dropSpikes(s: Series): Series {
  return s.map((x, m) => {
    const prev = s[(m + 11) % 12];
    const next = s[(m + 1) % 12];
    if (x === null || prev === null || next === null) return x;
    const a = x - prev;
    const b = x - next;
    return Math.sign(a) === Math.sign(b) && Math.min(Math.abs(a), Math.abs(b)) > SPIKE_C ? null : x;
  });
}

/** The twelve ClimateMonths of one station, or null when it supplies no field at all. */
export function buildMonths(params: Map<string, ParamRow[]>, drop: readonly ClimateField[] = []): ClimateMonth[] | null {
  const tmax = dropSpikes(readSeries(params, 'tmax'));
  const tmin = dropSpikes(readSeries(params, 'tmin'));
  const tavg = dropSpikes(readSeries(params, 'tavg'));
  const [prcp, dp01, mnvp, tsun, cloud, wind, rh] = (['prcp', 'dp01', 'mnvp', 'tsun', 'cloud', 'wind', 'rh'] as const).map((q) =>
    readSeries(params, q),
  );
  const months = MONTHS.map((month, m): ClimateMonth => {
    let hi = tmax[m];
    let lo = tmin[m];
    let mean = tavg[m];
    // A high below the low means one of them is wrong, and the row cannot tell which.
    if (hi !== null && lo !== null && hi < lo) hi = lo = null;
    // A mean outside (low, high) is a copied or shifted value (Abuja's January mean equals its high).
    if (mean !== null && ((hi !== null && mean >= hi) || (lo !== null && mean <= lo))) mean = null;
    // Each day counted in DP01 brings at least 1 mm, so the days cannot exceed the total in mm
    // (0.1 for rounding); where they do (Cairo: 0.6 days in a 0 mm June) the count is wrong.
    const days = dp01[m] !== null && prcp[m] !== null && dp01[m]! > prcp[m]! + 0.1 ? null : dp01[m];
    let humidity = rh[m];
    let derived = false;
    if (humidity === null && mnvp[m] !== null && mean !== null && mean >= MIN_DERIVE_C) {
      const h = magnusRelativeHumidity(mnvp[m]!, mean);
      if (h >= 1 && h <= 100) [humidity, derived] = [h, true];
    }
    const out: ClimateMonth = {
      month,
      temp_high_c: hi,
      temp_low_c: lo,
      precipitation_mm: prcp[m],
      precipitation_hours: null,
      humidity_percent: humidity,
      cloud_cover_percent: cloud[m],
      sunshine_hours: tsun[m] === null ? null : tsun[m]! / MONTH_DAYS[m],
      wind_speed_kmh: wind[m],
      precipitation_days: days,
      humidity_derived: derived,
    };
    for (const f of drop) out[f] = null;
    if (out.humidity_percent === null) out.humidity_derived = false;
    for (const f of CLIMATE_FIELDS) if (out[f] !== null) out[f] = round1(out[f]!);
    return out;
  });
  return months.some((mo) => CLIMATE_FIELDS.some((f) => mo[f] !== null)) ? months : null;
}

// ---------------------------------------------------------------- choice

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

/**
 * Climate normals for every code of `capitals` that has a usable station.
 * `sourcesDir` is the repository's sources/ folder; capitals are restcountries'
 * (capitalInfo.latlng, capital[0]) or already corrected ones, null when none.
 */
export function ingestClimate(
  sourcesDir: string,
  capitals: Record<string, { name: string; latitude: number; longitude: number } | null>,
): Record<string, ClimateNormals> {
  const dir = join(sourcesDir, 'climate');
  const stations = loadStations(dir);
  const candidates = loadCandidates(dir);
  const values = loadValues(dir);
  const choices = loadStationChoices(join(dir, 'station-choices.csv'));

  // Station coordinates are a property of the station: a reviewed fix applies wherever it is used.
  const fixedCoords = new Map<string, [number, number]>();
  for (const c of choices.values()) {
    if (c.stationLat === null) continue;
    const prev = fixedCoords.get(c.stationFile);
    if (prev && (prev[0] !== c.stationLat || prev[1] !== c.stationLon)) throw new Error(`${c.where}: conflicting coordinates for ${c.stationFile}`);
    fixedCoords.set(c.stationFile, [c.stationLat, c.stationLon!]);
  }
  const coordsOf = (s: Station): [number, number] | null => fixedCoords.get(s.path) ?? (s.lat === null || s.lon === null ? null : [s.lat, s.lon]);

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
