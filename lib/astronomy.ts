/**
 * Sun and moon for a place and a local calendar day, from astronomy-engine
 * (https://github.com/cosinekitty/astronomy, MIT). Pure: no I/O, no clock.
 *
 * Conventions (each one matches what the differential test asks PyEphem):
 * - "The day" is the local calendar date in `timeZone`: events are searched from
 *   local midnight to the next local midnight, so a day can last 23 or 25 hours
 *   across a DST change. Where midnight itself is skipped, the day starts at the
 *   first instant that has its date.
 * - Sunrise and sunset: the sun's upper limb on a sea-level horizon, with 34′ of
 *   standard refraction (astronomy-engine's SearchRiseSet; PyEphem's
 *   horizon -0:34, pressure 0). Moonrise and moonset likewise, topocentric.
 * - Twilight, golden and blue hour: the geometric altitude of the sun's centre,
 *   no refraction (the usual convention below the horizon). Civil -6°, nautical
 *   -12°, astronomical -18°; golden hour from -4° to +6°, blue hour from -6° to
 *   -4° (the photographers' definitions). "begin"/"morning" is the sun rising
 *   through the altitude, "end"/"evening" setting through it; a crossing that
 *   does not happen on that day is null (high latitudes in summer).
 * - Times are ISO 8601 with the offset of `timeZone` at that instant, rounded to
 *   the minute. Offsets come from Intl (Node's ICU tz data, which may lag the
 *   newest tzdata release by a few versions). Local mean time offsets before
 *   standard time (seconds, e.g. +00:19:32) are rounded to the minute.
 */
import {
  Body,
  Equator,
  Horizon,
  Illumination,
  MakeTime,
  MoonPhase,
  Observer,
  SearchAltitude,
  SearchHourAngle,
  SearchMoonPhase,
  SearchRiseSet,
  type AstroTime,
} from 'astronomy-engine';
import { civilFromDays, parseDate } from './plain-date.js';

export interface TimeRange {
  begin: string | null;
  end: string | null;
}
export interface DayParts {
  morning: TimeRange;
  evening: TimeRange;
}
export type PolarCondition = 'midnight_sun' | 'polar_night';
export interface SunDay {
  date: string;
  sunrise: string | null;
  sunset: string | null;
  solar_noon: string | null;
  day_length: string;
  day_length_minutes: number;
  polar_condition: PolarCondition | null;
  twilight: { civil: TimeRange; nautical: TimeRange; astronomical: TimeRange };
  golden_hour: DayParts;
  blue_hour: DayParts;
}
export const MOON_PHASES = [
  'new_moon',
  'waxing_crescent',
  'first_quarter',
  'waxing_gibbous',
  'full_moon',
  'waning_gibbous',
  'last_quarter',
  'waning_crescent',
] as const;
export type MoonPhaseName = (typeof MOON_PHASES)[number];
export interface MoonDay {
  date: string;
  moonrise: string | null;
  moonset: string | null;
  phase: MoonPhaseName;
  age_days: number;
  illumination: number;
  next_full_moon: string;
  next_new_moon: string;
}

/** Dates we answer for: astronomy-engine is good far beyond, tz data is not. */
export const FIRST_DATE = '1900-01-01';
export const LAST_DATE = '2100-12-31';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Geometric altitude of the sun's centre at sunrise: 34′ refraction + 16′ semi-diameter. */
const HORIZON_CENTRE = -50 / 60;

// ---------------------------------------------------------------- local time

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size < 1000) formatters.set(timeZone, f);
  }
  return f;
}

/** True when Intl knows the zone (IANA ids, any letter case, plus UTC). */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** Local wall-clock time at instant `ms`, as if it were a UTC timestamp (whole seconds). */
function wallClock(timeZone: string, ms: number): number {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(new Date(ms))) p[part.type] = Number(part.value);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
}

/** Offset in seconds east of UTC in force at instant `ms`. */
export function offsetSeconds(timeZone: string, ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return (wallClock(timeZone, whole) - whole) / 1000;
}

/** The local calendar date of an instant (today's, for the caller's clock). */
export function localDate(timeZone: string, instant: Date): string {
  return new Date(wallClock(timeZone, instant.getTime())).toISOString().slice(0, 10);
}

/**
 * The first instant whose local wall clock reads `wall` (a UTC-style
 * timestamp), or, when that wall time is skipped by a DST gap, the end of the gap.
 */
function instantOfWall(timeZone: string, wall: number): number {
  // A zone changes offset at most once a day, so the offsets a day either side cover both.
  const offsets = new Set([offsetSeconds(timeZone, wall - DAY), offsetSeconds(timeZone, wall + DAY), offsetSeconds(timeZone, wall)]);
  const hits = [...offsets].map((o) => wall - o * 1000).filter((t) => wallClock(timeZone, t) === wall);
  if (hits.length) return Math.min(...hits);
  let [lo, hi] = [wall - 2 * DAY, wall + 2 * DAY];
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2);
    if (wallClock(timeZone, mid) >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** [start, end) instants (ms) of a local calendar day. */
function localDay(date: string, timeZone: string): [number, number] {
  const days = parseDate(date);
  if (days === undefined) throw new RangeError(`not a calendar date: ${date}`);
  if (date < FIRST_DATE || date > LAST_DATE) throw new RangeError(`date outside ${FIRST_DATE}..${LAST_DATE}: ${date}`);
  if (!isTimeZone(timeZone)) throw new RangeError(`unknown time zone: ${timeZone}`);
  return [instantOfWall(timeZone, days * DAY), instantOfWall(timeZone, (days + 1) * DAY)];
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** ISO 8601 with the zone's offset at that instant, rounded to the minute: 2026-06-21T04:43:00+02:00. */
export function formatLocal(ms: number, timeZone: string): string {
  const t = Math.round(ms / MINUTE) * MINUTE;
  const offsetMinutes = Math.round(offsetSeconds(timeZone, t) / 60);
  const local = new Date(t + offsetMinutes * MINUTE);
  const [y, m, d] = civilFromDays(Math.floor(local.getTime() / DAY));
  const sign = offsetMinutes < 0 ? '-' : '+';
  return (
    `${pad(y, 4)}-${pad(m)}-${pad(d)}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:00` +
    `${sign}${pad(Math.trunc(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`
  );
}

// ---------------------------------------------------------------- searches

function checkPlace(latitude: number, longitude: number): Observer {
  if (!(latitude >= -90 && latitude <= 90)) throw new RangeError(`latitude outside [-90, 90]: ${latitude}`);
  if (!(longitude >= -180 && longitude <= 180)) throw new RangeError(`longitude outside [-180, 180]: ${longitude}`);
  return new Observer(latitude, longitude, 0);
}

type Search = (from: AstroTime, limitDays: number) => AstroTime | null;

/** Every event of a search in [start, end), in order. */
function eventsIn(search: Search, start: number, end: number): number[] {
  const found: number[] = [];
  let from = start;
  while (from < end && found.length < 4) {
    const t = search(MakeTime(new Date(from)), (end - from) / DAY);
    if (!t || t.date.getTime() >= end) break;
    found.push(t.date.getTime());
    from = t.date.getTime() + MINUTE;
  }
  return found;
}

/** The first event of a search in [start, end), or null. */
function firstIn(search: Search, start: number, end: number): number | null {
  const t = search(MakeTime(new Date(start)), (end - start) / DAY);
  return t && t.date.getTime() < end ? t.date.getTime() : null;
}

/** Geometric altitude of the sun's centre. */
function sunAltitude(observer: Observer, ms: number): number {
  const eq = Equator(Body.Sun, new Date(ms), observer, true, true);
  return Horizon(new Date(ms), observer, eq.ra, eq.dec).altitude;
}

// ---------------------------------------------------------------- sun

/**
 * Sun events of one local calendar day.
 * @example sunDay(35.68, 139.69, '2026-06-21', 'Asia/Tokyo').sunrise // "2026-06-21T04:26:00+09:00"
 */
export function sunDay(latitude: number, longitude: number, date: string, timeZone: string): SunDay {
  const observer = checkPlace(latitude, longitude);
  const [start, end] = localDay(date, timeZone);
  const iso = (ms: number | null) => (ms === null ? null : formatLocal(ms, timeZone));
  const altitude = (direction: 1 | -1, degrees: number) =>
    firstIn((from, limit) => SearchAltitude(Body.Sun, observer, direction, from, limit, degrees), start, end);
  const range = (begin: number | null, finish: number | null): TimeRange => ({ begin: iso(begin), end: iso(finish) });

  const rises = eventsIn((from, limit) => SearchRiseSet(Body.Sun, observer, +1, from, limit), start, end);
  const sets = eventsIn((from, limit) => SearchRiseSet(Body.Sun, observer, -1, from, limit), start, end);
  const noon = firstIn((from, limit) => {
    const e = SearchHourAngle(Body.Sun, observer, 0, from, +1);
    return e.time.ut - from.ut <= limit ? e.time : null;
  }, start, end);

  let polar: PolarCondition | null = null;
  if (!rises.length && !sets.length) {
    polar = sunAltitude(observer, noon ?? (start + end) / 2) > HORIZON_CENTRE ? 'midnight_sun' : 'polar_night';
  }
  const minutes = minutesUp(rises, sets, start, end, polar);
  const [civilDawn, civilDusk] = [altitude(+1, -6), altitude(-1, -6)];
  const [goldenLow, goldenHigh] = [[altitude(+1, -4), altitude(-1, -4)], [altitude(+1, 6), altitude(-1, 6)]];
  return {
    date,
    sunrise: iso(rises[0] ?? null),
    sunset: iso(sets[0] ?? null),
    solar_noon: iso(noon),
    day_length: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`,
    day_length_minutes: minutes,
    polar_condition: polar,
    twilight: {
      civil: range(civilDawn, civilDusk),
      nautical: range(altitude(+1, -12), altitude(-1, -12)),
      astronomical: range(altitude(+1, -18), altitude(-1, -18)),
    },
    golden_hour: { morning: range(goldenLow[0], goldenHigh[0]), evening: range(goldenHigh[1], goldenLow[1]) },
    blue_hour: { morning: range(civilDawn, goldenLow[0]), evening: range(goldenLow[1], civilDusk) },
  };
}

/**
 * Minutes the sun is up during [start, end), from the minute-rounded events,
 * so that a plain day's length is exactly sunset minus sunrise as displayed.
 */
function minutesUp(rises: number[], sets: number[], start: number, end: number, polar: PolarCondition | null): number {
  const round = (ms: number) => Math.round(ms / MINUTE);
  const events = [...rises.map((t) => [t, +1] as const), ...sets.map((t) => [t, -1] as const)].sort((a, b) => a[0] - b[0]);
  let up = events.length ? events[0][1] === -1 : polar === 'midnight_sun';
  let since = round(start);
  let total = 0;
  for (const [t, kind] of events) {
    if (up && kind === -1) total += round(t) - since;
    up = kind === +1;
    since = round(t);
  }
  if (up) total += round(end) - since;
  return total;
}

// ---------------------------------------------------------------- moon

const SYNODIC_MONTH = 29.530588853;
/**
 * astronomy-engine's MoonPhase/SearchMoonPhase take the Sun's longitude without
 * annual aberration (PairLongitude uses GeoVector(…, false)), which puts every
 * phase about 40 s after the almanacs' instant (full moon 2018-07-27: USNO 20:20,
 * astronomy-engine alone 20:21:03). Almanacs use apparent longitudes, where the
 * Sun lags by 20.49″ (±0.35″ over the year, under a second of phase time).
 */
const SUN_ABERRATION = 20.4898 / 3600;
const normalize = (degrees: number) => ((degrees % 360) + 360) % 360;
/** Apparent sun-moon elongation, 0 = new moon, 180 = full moon. */
const elongationAt = (ms: number) => normalize(MoonPhase(new Date(ms)) + SUN_ABERRATION);
/** The first instant at or after `from` when the apparent elongation reaches `degrees`. */
function searchPhase(degrees: number, from: number, limitDays: number): number | null {
  return SearchMoonPhase(normalize(degrees - SUN_ABERRATION), new Date(from), limitDays)?.date.getTime() ?? null;
}

/**
 * Moon of one local calendar day. The phase is a principal phase (new moon,
 * first quarter, full moon, last quarter) when that instant falls within the
 * local day, as calendars print it; otherwise the crescent or gibbous between
 * them, from the sun-moon elongation at local noon. `age_days` and
 * `illumination` (geocentric illuminated fraction of the disc, percent) are
 * for local noon too; `next_full_moon`/`next_new_moon` are the first at or
 * after the start of the local day (today's, when there is one).
 */
export function moonDay(latitude: number, longitude: number, date: string, timeZone: string): MoonDay {
  const observer = checkPlace(latitude, longitude);
  const [start, end] = localDay(date, timeZone);
  const iso = (ms: number) => formatLocal(ms, timeZone);
  const noon = instantOfWall(timeZone, parseDate(date)! * DAY + DAY / 2);
  const rise = firstIn((from, limit) => SearchRiseSet(Body.Moon, observer, +1, from, limit), start, end);
  const set = firstIn((from, limit) => SearchRiseSet(Body.Moon, observer, -1, from, limit), start, end);

  const elongation = elongationAt(noon);
  const principal = [0, 1, 2, 3].find((q) => (searchPhase(q * 90, start, 2) ?? end) < end);
  const phase = principal !== undefined ? MOON_PHASES[principal * 2] : MOON_PHASES[1 + 2 * Math.floor(elongation / 90)];
  // The last new moon: about elongation/360 of a month ago (the orbit's eccentricity moves it by hours).
  const approxAge = (elongation / 360) * SYNODIC_MONTH;
  const lastNew = searchPhase(0, noon - (approxAge + 2) * DAY, 4);
  const ageDays = lastNew !== null && lastNew <= noon ? (noon - lastNew) / DAY : approxAge;
  return {
    date,
    moonrise: rise === null ? null : iso(rise),
    moonset: set === null ? null : iso(set),
    phase,
    age_days: Math.round(ageDays * 100) / 100,
    illumination: Math.round(Illumination(Body.Moon, new Date(noon)).phase_fraction * 1000) / 10,
    next_full_moon: iso(searchPhase(180, start, 40)!),
    next_new_moon: iso(searchPhase(0, start, 40)!),
  };
}
