/**
 * Climate normals arithmetic, no I/O: distances, parsing the WMO files' numbers,
 * unit conversion, range checks and the twelve months of one station.
 */
import type { ClimateMonth, Station } from './schema-types.js';

export interface Capital {
  name: string;
  latitude: number;
  longitude: number;
}

/** A same-country candidate farther than this is not taken without a reviewed row. */
export const MAX_AUTO_DISTANCE_KM = 50;
/** No station farther than this is ever published (the candidate search radius). */
export const MAX_DISTANCE_KM = 100;
/**
 * A region's station is the nearest one of its country within this distance of the region's seat: 100 km keeps
 * the station in the seat's landscape for most of the world (a coastal seat and an inland station 100 km apart
 * still share their season), and is the radius the capital candidates were searched in.
 */
export const MAX_REGION_DISTANCE_KM = MAX_DISTANCE_KM;

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

/** The travel answer's sources.climate for normals of this station: "WMO normals 1991-2020, station NAME (ID), D km". */
export function climateSourceText(station: Pick<Station, 'name' | 'wmo_id' | 'distance_km'>): string {
  return `WMO normals 1991-2020, station ${station.name} (${station.wmo_id}), ${station.distance_km} km`;
}

/** Whether twelve months report both a mean daily high and low in at least one month (what a traveller asks first). */
export function hasTemperatures(months: readonly ClimateMonth[]): boolean {
  return months.some((m) => m.temp_high_c !== null && m.temp_low_c !== null);
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

/** One parameter row of the long file: its unit (lower-cased) and the twelve monthly texts. */
export interface ParamRow {
  unit: string;
  values: (string | undefined)[];
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
