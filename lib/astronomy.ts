/**
 * Sun and moon for a place and a local calendar day, from astronomy-engine
 * (https://github.com/cosinekitty/astronomy, MIT). Pure: no I/O, no clock.
 *
 * Conventions (each one matches what the differential test asks PyEphem):
 * - "The day" is the local calendar date in the zone, from local midnight to
 *   the next local midnight, so a day can last 23 or 25 hours across a DST
 *   change. Where midnight itself is skipped, the day starts at the first
 *   instant that has its date.
 * - Morning events (sunrise, dawns, the morning golden and blue hours) and
 *   solar noon are the first of their kind within the local date.
 * - Sunset and the evening events (dusks, the evening golden and blue hours)
 *   belong to the day that begins at that date's sunrise: they are the
 *   crossings of the sun's first descent after that sunrise (from the day's
 *   highest point to the night's lowest), even when that descent reaches past
 *   midnight. Reykjavík 2026-06-21: sunrise 02:55, sunset 00:03 on the 22nd, as
 *   almanacs print it. On a date without a sunrise (midnight sun,
 *   polar night, or a date whose only event is a sunset) the evening events
 *   are the first within the local date, as the morning ones.
 * - Sunrise and sunset: the sun's upper limb on a sea-level horizon, with 34′ of
 *   standard refraction (astronomy-engine's SearchRiseSet; PyEphem's
 *   horizon -0:34, pressure 0). Moonrise and moonset likewise, topocentric,
 *   the first of each within the local date.
 * - Twilight, golden and blue hour: the geometric altitude of the sun's centre,
 *   no refraction (the usual convention below the horizon). Civil -6°, nautical
 *   -12°, astronomical -18°; golden hour from -4° to +6°, blue hour from -6° to
 *   -4° (the photographers' definitions). "begin"/"morning" is the sun rising
 *   through the altitude, "end"/"evening" setting through it; a crossing that
 *   does not happen is null (high latitudes in summer).
 * - Times are ISO 8601 with the offset of the zone at that instant, rounded to
 *   the minute. The zone is its timeline in the dataset (our compiled tzdata,
 *   the offsets /v1/timezones answers, 1900-2100), never the runtime's tz data.
 *   Local mean time offsets before standard time are whole minutes there, as
 *   the zone documents publish them (Amsterdam's +00:19:32 is +00:20).
 *
 * How it is computed (five times fewer microseconds than calling the library's searches, same answers):
 * astronomy-engine's SearchRiseSet and SearchAltitude evaluate the full theory
 * (VSOP87, the lunar series, precession, nutation) at every step of every
 * search, a dozen searches a day. Here the theory is evaluated at three (sun)
 * or four (moon) instants only; in between, the body's apparent geocentric
 * position is interpolated and the observer turns with the Earth (see Sky),
 * which reproduces astronomy-engine's topocentric altitude to well under an
 * arcsecond. Every search then runs on that cheap altitude. Phases start from
 * Meeus's series (within 18 s over 1900-2100) and are refined once with
 * astronomy-engine where an instant is shown.
 */
import {
  Body,
  GeoVector,
  Illumination,
  KM_PER_AU,
  MakeTime,
  MoonPhase,
  Observer,
  ObserverVector,
  RotateVector,
  Rotation_EQJ_EQD,
  SiderealTime,
} from 'astronomy-engine';
import { civilFromDays, parseDate } from './plain-date.js';
import { offsetMinutesAt, type ZoneTimeline } from './zone-timeline.js';

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

const SECOND = 1000;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
const RAD = Math.PI / 180;
/** Standard refraction at the horizon, degrees (astronomy-engine's REFRACTION_NEAR_HORIZON, PyEphem's -0:34). */
const REFRACTION = 34 / 60;
/** astronomy-engine's radii (SUN_RADIUS_KM, MOON_EQUATORIAL_RADIUS_KM; not exported), in AU. */
const SUN_RADIUS_AU = 695_700 / KM_PER_AU;
const MOON_RADIUS_AU = 1738.1 / KM_PER_AU;

// ---------------------------------------------------------------- local time

/**
 * What a zone's clock says at any instant: the dataset's own offsets (the
 * zone's timeline, from our compiled tzdata, lib/zone-timeline.ts), the same
 * facts /v1/timezones answers. Offsets are whole minutes, as the zone
 * documents publish them.
 */
class ZoneClock {
  constructor(private readonly zone: ZoneTimeline) {}

  /** Local wall-clock time at instant `ms`, as if it were a UTC timestamp (whole seconds). */
  wallClock(ms: number): number {
    const whole = Math.floor(ms / SECOND) * SECOND;
    return whole + this.offset(whole) * MINUTE;
  }

  /** Offset in minutes east of UTC in force at instant `ms`. */
  offset(ms: number): number {
    return offsetMinutesAt(this.zone, ms);
  }

  /**
   * The first instant whose local wall clock reads `wall` (a UTC-style
   * timestamp), or, when that wall time is skipped by a DST gap, the end of the gap.
   */
  instantOfWall(wall: number): number {
    // The offsets a day either side are the only ones in force around `wall`
    // (no zone changes its offset twice within two days).
    const offsets = new Set([this.offset(wall - DAY), this.offset(wall + DAY)]);
    const hits = [...offsets].map((o) => wall - o * MINUTE).filter((t) => this.offset(t) * MINUTE === wall - t);
    if (hits.length) return Math.min(...hits);
    let [lo, hi] = [wall - 2 * DAY, wall + 2 * DAY];
    while (hi - lo > SECOND) {
      const mid = Math.floor((lo + hi) / 2);
      if (this.wallClock(mid) >= wall) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  /** ISO 8601 with the offset at that instant, rounded to the minute: 2026-06-21T04:43:00+02:00. */
  format8601(ms: number): string {
    const t = Math.round(ms / MINUTE) * MINUTE;
    const offsetMinutes = this.offset(t);
    const local = new Date(t + offsetMinutes * MINUTE);
    const [y, m, d] = civilFromDays(Math.floor(local.getTime() / DAY));
    const sign = offsetMinutes < 0 ? '-' : '+';
    return (
      `${pad(y, 4)}-${pad(m)}-${pad(d)}T${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}:00` +
      `${sign}${pad(Math.trunc(offsetMinutes / 60))}:${pad(offsetMinutes % 60)}`
    );
  }
}

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** ISO 8601 with the zone's offset at that instant, rounded to the minute: 2026-06-21T04:43:00+02:00. */
export function formatLocal(ms: number, zone: ZoneTimeline): string {
  return new ZoneClock(zone).format8601(ms);
}

/** [start, end) instants (ms) of a local calendar day. */
function localDay(date: string, clock: ZoneClock): [number, number] {
  const days = parseDate(date);
  if (days === undefined) throw new RangeError(`not a calendar date: ${date}`);
  if (date < FIRST_DATE || date > LAST_DATE) throw new RangeError(`date outside ${FIRST_DATE}..${LAST_DATE}: ${date}`);
  return [clock.instantOfWall(days * DAY), clock.instantOfWall((days + 1) * DAY)];
}

// ---------------------------------------------------------------- the sky, cheaply

function checkPlace(latitude: number, longitude: number): Observer {
  if (!(latitude >= -90 && latitude <= 90)) throw new RangeError(`latitude outside [-90, 90]: ${latitude}`);
  if (!(longitude >= -180 && longitude <= 180)) throw new RangeError(`longitude outside [-180, 180]: ${longitude}`);
  return new Observer(latitude, longitude, 0);
}

/** Greenwich sidereal angle per millisecond of UT: ERA's rate plus precession in right ascension. */
const SIDEREAL_RATE = (360.98564736629 * RAD) / DAY;

/**
 * The sun or the moon seen from one observer over a window of one to three
 * days: what astronomy-engine's Equator(body, t, observer, ofdate, aberration)
 * and Horizon compute, at a fraction of the cost. The apparent geocentric
 * position on the true equator of date (GeoVector with aberration, then
 * precession and nutation) is evaluated at `count` Chebyshev nodes of the
 * window and interpolated (barycentric form): the motion is smooth on that
 * scale, so the interpolation error is below 0.1″ for the sun (3 nodes, 56 h)
 * and the moon (4 nodes, 28 h). The observer's position and zenith turn about
 * the axis at the sidereal rate from one exact sidereal time; subtracting the
 * observer gives the topocentric position (the moon's parallax, up to 1°).
 * Tested against astronomy-engine's own searches in lib/astronomy.test.ts.
 */
class Sky {
  private readonly nodes: number[] = [];
  private readonly weights: number[] = [];
  private readonly xs: number[] = [];
  private readonly ys: number[] = [];
  private readonly zs: number[] = [];
  private readonly mid: number;
  private readonly half: number;
  private readonly sinLat: number;
  private readonly cosLat: number;
  private readonly rho: number;
  private readonly zObserver: number;
  private readonly theta0: number;
  /** Set by at(): altitude of the centre (degrees), distance (AU), hour angle (radians, -π..π). */
  altitude = 0;
  distance = 0;
  hourAngle = 0;

  constructor(body: Body, observer: Observer, from: number, to: number, count: number) {
    this.mid = (from + to) / 2;
    this.half = (to - from) / 2;
    for (let j = 0; j < count; j++) {
      const angle = ((2 * j + 1) * Math.PI) / (2 * count);
      const x = Math.cos(angle);
      const time = MakeTime(new Date(this.mid + this.half * x));
      const v = RotateVector(Rotation_EQJ_EQD(time), GeoVector(body, time, true));
      this.nodes.push(x);
      this.weights.push((j % 2 ? -1 : 1) * Math.sin(angle));
      this.xs.push(v.x);
      this.ys.push(v.y);
      this.zs.push(v.z);
    }
    const time = MakeTime(new Date(this.mid));
    const o = ObserverVector(time, observer, true);
    this.rho = Math.hypot(o.x, o.y);
    this.zObserver = o.z;
    this.theta0 = (15 * SiderealTime(time) + observer.longitude) * RAD;
    this.sinLat = Math.sin(observer.latitude * RAD);
    this.cosLat = Math.cos(observer.latitude * RAD);
  }

  /** Computes altitude, distance and hour angle at instant `ms`. */
  at(ms: number): this {
    const x = (ms - this.mid) / this.half;
    let gx = 0, gy = 0, gz = 0, sum = 0;
    for (let j = 0; j < this.nodes.length; j++) {
      const d = x - this.nodes[j];
      if (d === 0) {
        [gx, gy, gz, sum] = [this.xs[j], this.ys[j], this.zs[j], 1];
        break;
      }
      const w = this.weights[j] / d;
      gx += w * this.xs[j];
      gy += w * this.ys[j];
      gz += w * this.zs[j];
      sum += w;
    }
    const theta = this.theta0 + SIDEREAL_RATE * (ms - this.mid);
    const c = Math.cos(theta), s = Math.sin(theta);
    const vx = gx / sum - this.rho * c, vy = gy / sum - this.rho * s, vz = gz / sum - this.zObserver;
    const meridian = c * vx + s * vy;
    this.distance = Math.sqrt(vx * vx + vy * vy + vz * vz);
    this.altitude = Math.asin((this.cosLat * meridian + this.sinLat * vz) / this.distance) / RAD;
    this.hourAngle = Math.atan2(s * vx - c * vy, meridian);
    return this;
  }

  /** Apparent radius (degrees) of a body of `radiusAu` at the last at() instant. */
  semidiameter(radiusAu: number): number {
    return Math.asin(radiusAu / this.distance) / RAD;
  }
}

type Fn = (ms: number) => number;

/**
 * The root of f in [a, b], where fa and fb have opposite signs (Illinois
 * false position: the window is at most an hour and f nearly straight there,
 * so a few steps reach the millisecond).
 */
function root(f: Fn, a: number, b: number, fa: number, fb: number): number {
  let side = 0;
  let c = a;
  for (let i = 0; i < 60; i++) {
    const next = (a * fb - b * fa) / (fb - fa);
    if (Math.abs(next - c) < 1 && i > 0) return next;
    c = next;
    const fc = f(c);
    if (fc === 0) return c;
    if (fc * fb > 0) {
      [b, fb] = [c, fc];
      if (side === -1) fa /= 2;
      side = -1;
    } else {
      [a, fa] = [c, fc];
      if (side === 1) fb /= 2;
      side = 1;
    }
  }
  return c;
}

const GOLDEN = (Math.sqrt(5) - 1) / 2;

/** The instant of f's extremum (sign +1 maximum, -1 minimum) in [a, b], to a second. */
function extremum(f: Fn, a: number, b: number, sign: number): [number, number] {
  let c = b - GOLDEN * (b - a), d = a + GOLDEN * (b - a);
  let fc = sign * f(c), fd = sign * f(d);
  while (b - a > SECOND) {
    if (fc > fd) {
      [b, d, fd] = [d, c, fc];
      c = b - GOLDEN * (b - a);
      fc = sign * f(c);
    } else {
      [a, c, fc] = [c, d, fd];
      d = a + GOLDEN * (b - a);
      fd = sign * f(d);
    }
  }
  const t = (a + b) / 2;
  return [t, f(t)];
}

/**
 * A smooth function of time (an altitude) over a window, sampled every hour
 * with each turning point located to a second: between two neighbouring
 * points it is monotone, so a level crossed between them is crossed once,
 * and found by a bracketed root search. Turning points closer than an hour
 * (a wobble of the altitude near a pole, thousandths of a degree) are not
 * resolved: astronomy-engine likewise ignores rise/set pairs under a second apart.
 */
class Profile {
  readonly t: number[] = [];
  readonly v: number[] = [];
  /** +1 at a maximum, -1 at a minimum, 0 at a sample. */
  readonly turn: number[] = [];

  constructor(private readonly f: Fn, from: number, to: number) {
    const n = Math.ceil((to - from) / HOUR);
    const grid = Array.from({ length: n + 1 }, (_, i) => (i === n ? to : from + i * HOUR));
    const values = grid.map(f);
    for (let i = 0; i <= n; i++) {
      if (i > 0 && i < n) {
        const rising = values[i] - values[i - 1], after = values[i + 1] - values[i];
        if (rising * after < 0) {
          const sign = rising > 0 ? 1 : -1;
          const [at, value] = extremum(f, grid[i - 1], grid[i + 1], sign);
          if (at > this.t.at(-1)! && at < grid[i]) this.push(at, value, sign);
          this.push(grid[i], values[i], 0);
          if (at > grid[i] && at < grid[i + 1]) this.push(at, value, sign);
          continue;
        }
      }
      this.push(grid[i], values[i], 0);
    }
  }

  private push(t: number, v: number, turn: number) {
    this.t.push(t);
    this.v.push(v);
    this.turn.push(turn);
  }

  /** The crossing of `level` between points i and i+1 in `direction` (+1 up, -1 down), or null. */
  private crossing(i: number, level: number, direction: number): number | null {
    const [a, b] = [this.v[i] - level, this.v[i + 1] - level];
    if (direction > 0 ? !(a < 0 && b >= 0) : !(a > 0 && b <= 0)) return null;
    return root((t) => this.f(t) - level, this.t[i], this.t[i + 1], a, b);
  }

  /** The first crossing of `level` in `direction` within [from, to), or null. */
  first(level: number, direction: number, from: number, to: number): number | null {
    return this.all(level, direction, from, to, 1)[0] ?? null;
  }

  /** Every crossing of `level` in `direction` within [from, to), in order (the first `limit`). */
  all(level: number, direction: number, from: number, to: number, limit = Infinity): number[] {
    const found: number[] = [];
    for (let i = 0; i + 1 < this.t.length && this.t[i] < to && found.length < limit; i++) {
      if (this.t[i + 1] < from) continue;
      const t = this.crossing(i, level, direction);
      if (t !== null && t >= from && t < to) found.push(t);
    }
    return found;
  }

  /**
   * The points [i, j] of the first descent after instant `after`: from the next
   * maximum to the minimum that follows it (or the window's end); null when no
   * maximum follows within the window.
   */
  descentAfter(after: number): [number, number] | null {
    let i = this.t.findIndex((t, k) => t > after && this.turn[k] === 1);
    if (i < 0) return null;
    let j = i + 1;
    while (j < this.t.length - 1 && this.turn[j] !== -1) j++;
    return [i, j];
  }

  /** The crossing of `level` in `direction` between points i and j, or null. */
  firstBetween(level: number, direction: number, [i, j]: [number, number]): number | null {
    for (let k = i; k < j; k++) {
      const t = this.crossing(k, level, direction);
      if (t !== null) return t;
    }
    return null;
  }
}

// ---------------------------------------------------------------- sun

/** Raw instants (ms) of one sun day, before formatting; exported for the accuracy tests. */
export interface SunEvents {
  sunrise: number | null;
  sunset: number | null;
  noon: number | null;
  dayLengthMinutes: number;
  polar: PolarCondition | null;
  /** Morning (rising) and evening (setting) crossings of the sun's centre, by altitude. */
  rising: Record<Altitude, number | null>;
  setting: Record<Altitude, number | null>;
}
const ALTITUDES = [-18, -12, -6, -4, 6] as const;
type Altitude = (typeof ALTITUDES)[number];

/** The instants of sunDay, unrounded (see the conventions above). */
export function sunEvents(latitude: number, longitude: number, date: string, zone: ZoneTimeline): SunEvents {
  return computeSun(checkPlace(latitude, longitude), date, new ZoneClock(zone));
}

function computeSun(observer: Observer, date: string, clock: ZoneClock): SunEvents {
  const [start, end] = localDay(date, clock);
  // The date, and the descent after its sunrise: a maximum within ~13 h of the
  // sunrise and the minimum ~13 h after that, so at most 27 h past the day.
  const [from, to] = [start - 2 * HOUR, end + 30 * HOUR];
  const sky = new Sky(Body.Sun, observer, from, to, 3);
  const altitude = (t: number) => sky.at(t).altitude;
  const profile = new Profile(altitude, from, to);
  // The sun's apparent radius changes by 0.3″ a day at most: one value serves the window.
  const horizon = -REFRACTION - sky.at((start + end) / 2).semidiameter(SUN_RADIUS_AU);

  const rises = profile.all(horizon, +1, start, end);
  const sets = profile.all(horizon, -1, start, end);
  const sunrise = rises[0] ?? null;
  const descent = sunrise === null ? null : profile.descentAfter(sunrise);
  const evening = (level: number) =>
    sunrise === null ? profile.first(level, -1, start, end) : descent && profile.firstBetween(level, -1, descent);
  const sunset = evening(horizon);
  const rising = {} as SunEvents['rising'];
  const setting = {} as SunEvents['setting'];
  for (const a of ALTITUDES) {
    rising[a] = profile.first(a, +1, start, end);
    setting[a] = evening(a);
  }
  const noon = upperTransit(sky, start, end);

  let polar: PolarCondition | null = null;
  if (!rises.length && !sets.length) polar = altitude(noon ?? (start + end) / 2) > horizon ? 'midnight_sun' : 'polar_night';
  const minutes = sunrise !== null && sunset !== null ? roundMinutes(sunset) - roundMinutes(sunrise) : minutesUp(rises, sets, start, end, polar);
  return { sunrise, sunset, noon, dayLengthMinutes: minutes, polar, rising, setting };
}

/** The first upper transit (hour angle 0, rising through it) within [start, end), or null. */
function upperTransit(sky: Sky, start: number, end: number): number | null {
  const hourAngle = (t: number) => sky.at(t).hourAngle;
  let [a, ha] = [start, hourAngle(start)];
  while (a < end) {
    const b = Math.min(a + HOUR, end);
    const hb = hourAngle(b);
    // An hour is 15° of hour angle: a step from -π to π is the lower transit, not this one.
    if (ha < 0 && hb >= 0 && hb - ha < Math.PI) {
      const t = root(hourAngle, a, b, ha, hb);
      if (t < end) return t;
    }
    [a, ha] = [b, hb];
  }
  return null;
}

const roundMinutes = (ms: number) => Math.round(ms / MINUTE);

/**
 * Sun events of one local calendar day.
 * @example sunDay(35.68, 139.69, '2026-06-21', 'Asia/Tokyo').sunrise // "2026-06-21T04:26:00+09:00"
 */
export function sunDay(latitude: number, longitude: number, date: string, zone: ZoneTimeline): SunDay {
  const clock = new ZoneClock(zone);
  const e = computeSun(checkPlace(latitude, longitude), date, clock);
  const iso = (ms: number | null) => (ms === null ? null : clock.format8601(ms));
  const range = (begin: number | null, finish: number | null): TimeRange => ({ begin: iso(begin), end: iso(finish) });
  const minutes = e.dayLengthMinutes;
  return {
    date,
    sunrise: iso(e.sunrise),
    sunset: iso(e.sunset),
    solar_noon: iso(e.noon),
    day_length: `${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`,
    day_length_minutes: minutes,
    polar_condition: e.polar,
    twilight: {
      civil: range(e.rising[-6], e.setting[-6]),
      nautical: range(e.rising[-12], e.setting[-12]),
      astronomical: range(e.rising[-18], e.setting[-18]),
    },
    golden_hour: { morning: range(e.rising[-4], e.rising[6]), evening: range(e.setting[6], e.setting[-4]) },
    blue_hour: { morning: range(e.rising[-6], e.rising[-4]), evening: range(e.setting[-4], e.setting[-6]) },
  };
}

/**
 * Minutes the sun is up during [start, end), from the minute-rounded events,
 * for a date without both a sunrise and its sunset (where the day length is
 * sunset minus sunrise as displayed).
 */
function minutesUp(rises: number[], sets: number[], start: number, end: number, polar: PolarCondition | null): number {
  const events = [...rises.map((t) => [t, +1] as const), ...sets.map((t) => [t, -1] as const)].sort((a, b) => a[0] - b[0]);
  let up = events.length ? events[0][1] === -1 : polar === 'midnight_sun';
  let since = roundMinutes(start);
  let total = 0;
  for (const [t, kind] of events) {
    if (up && kind === -1) total += roundMinutes(t) - since;
    up = kind === +1;
    since = roundMinutes(t);
  }
  if (up) total += roundMinutes(end) - since;
  return total;
}

// ---------------------------------------------------------------- moon phases

/**
 * astronomy-engine's MoonPhase takes the Sun's longitude without annual
 * aberration (PairLongitude uses GeoVector(…, false)), which puts every phase
 * about 40 s after the almanacs' instant (full moon 2018-07-27: USNO 20:20,
 * astronomy-engine alone 20:21:03). Almanacs use apparent longitudes, where the
 * Sun lags by 20.49″ (±0.35″ over the year, under a second of phase time).
 */
const SUN_ABERRATION = 20.4898 / 3600;
/** Apparent sun-moon elongation, 0 = new moon, 180 = full moon. */
const elongationAt = (ms: number) => MoonPhase(new Date(ms)) + SUN_ABERRATION;
const J2000 = Date.UTC(2000, 0, 1, 12);
const SYNODIC_MONTH = 29.530588861;
const mod4 = (q: number) => ((q % 4) + 4) % 4;
const sin = (degrees: number) => Math.sin(degrees * RAD);
const cos = (degrees: number) => Math.cos(degrees * RAD);

/**
 * Meeus, Astronomical Algorithms (2nd ed.), chapter 49: the instant (JDE, TT)
 * of principal phase q: lunation floor(q/4) counted from the new moon of
 * 2000-01-06, phase q mod 4 (0 new, 1 first quarter, 2 full, 3 last quarter).
 * Within 18 s of astronomy-engine's instant over 1900-2100 (lib/astronomy.test.ts).
 */
function meeusPhase(q: number): number {
  const k = q / 4, phase = mod4(q);
  const T = k / 1236.85, T2 = T * T, T3 = T2 * T, T4 = T3 * T;
  const E = 1 - 0.002516 * T - 0.0000074 * T2, E2 = E * E;
  const M = 2.5534 + 29.1053567 * k - 0.0000014 * T2 - 0.00000011 * T3;
  const Mp = 201.5643 + 385.81693528 * k + 0.0107582 * T2 + 0.00001238 * T3 - 0.000000058 * T4;
  const F = 160.7108 + 390.67050284 * k - 0.0016118 * T2 - 0.00000227 * T3 + 0.000000011 * T4;
  const O = 124.7746 - 1.56375588 * k + 0.0020672 * T2 + 0.00000215 * T3;
  let x: number;
  if (phase === 0 || phase === 2) {
    const n = phase === 0;
    x = (n ? -0.4072 : -0.40614) * sin(Mp) + (n ? 0.17241 : 0.17302) * E * sin(M) + (n ? 0.01608 : 0.01614) * sin(2 * Mp)
      + (n ? 0.01039 : 0.01043) * sin(2 * F) + (n ? 0.00739 : 0.00734) * E * sin(Mp - M) - (n ? 0.00514 : 0.00515) * E * sin(Mp + M)
      + (n ? 0.00208 : 0.00209) * E2 * sin(2 * M) - 0.00111 * sin(Mp - 2 * F) - 0.00057 * sin(Mp + 2 * F) + 0.00056 * E * sin(2 * Mp + M)
      - 0.00042 * sin(3 * Mp) + 0.00042 * E * sin(M + 2 * F) + 0.00038 * E * sin(M - 2 * F) - 0.00024 * E * sin(2 * Mp - M)
      - 0.00017 * sin(O) - 0.00007 * sin(Mp + 2 * M) + 0.00004 * sin(2 * Mp - 2 * F) + 0.00004 * sin(3 * M)
      + 0.00003 * sin(Mp + M - 2 * F) + 0.00003 * sin(2 * Mp + 2 * F) - 0.00003 * sin(Mp + M + 2 * F) + 0.00003 * sin(Mp - M + 2 * F)
      - 0.00002 * sin(Mp - M - 2 * F) - 0.00002 * sin(3 * Mp + M) + 0.00002 * sin(4 * Mp);
  } else {
    x = -0.62801 * sin(Mp) + 0.17172 * E * sin(M) - 0.01183 * E * sin(Mp + M) + 0.00862 * sin(2 * Mp) + 0.00804 * sin(2 * F)
      + 0.00454 * E * sin(Mp - M) + 0.00204 * E2 * sin(2 * M) - 0.0018 * sin(Mp - 2 * F) - 0.0007 * sin(Mp + 2 * F) - 0.0004 * sin(3 * Mp)
      - 0.00034 * E * sin(2 * Mp - M) + 0.00032 * E * sin(M + 2 * F) + 0.00032 * E * sin(M - 2 * F) - 0.00028 * E2 * sin(Mp + 2 * M)
      + 0.00027 * E * sin(2 * Mp + M) - 0.00017 * sin(O) - 0.00005 * sin(Mp - M - 2 * F) + 0.00004 * sin(2 * Mp + 2 * F)
      - 0.00004 * sin(Mp + M + 2 * F) + 0.00004 * sin(Mp - 2 * M) + 0.00003 * sin(Mp + M - 2 * F) + 0.00003 * sin(3 * M)
      + 0.00002 * sin(2 * Mp - 2 * F) + 0.00002 * sin(Mp - M + 2 * F) - 0.00002 * sin(3 * Mp + M);
    const W = 0.00306 - 0.00038 * E * cos(M) + 0.00026 * cos(Mp) - 0.00002 * cos(Mp - M) + 0.00002 * cos(Mp + M) + 0.00002 * cos(2 * F);
    x += phase === 1 ? W : -W;
  }
  // Planetary arguments, common to all phases.
  const A: [number, number][] = [
    [299.77 + 0.107408 * k - 0.009173 * T2, 0.000325], [251.88 + 0.016321 * k, 0.000165], [251.83 + 26.651886 * k, 0.000164],
    [349.42 + 36.412478 * k, 0.000126], [84.66 + 18.206239 * k, 0.00011], [141.74 + 53.303771 * k, 0.000062],
    [207.14 + 2.453732 * k, 0.00006], [154.84 + 7.30686 * k, 0.000056], [34.52 + 27.261239 * k, 0.000047],
    [207.19 + 0.121824 * k, 0.000042], [291.34 + 1.844379 * k, 0.00004], [161.72 + 24.198154 * k, 0.000037],
    [239.56 + 25.513099 * k, 0.000035], [331.55 + 3.592518 * k, 0.000023],
  ];
  for (const [angle, amplitude] of A) x += amplitude * sin(angle);
  return 2451550.09766 + 29.530588861 * k + 0.00015437 * T2 - 0.00000015 * T3 + 0.00000000073 * T4 + x;
}

/**
 * The rate of the elongation (degrees per day) from the main terms of the
 * Moon's and the Sun's longitude (Meeus ch. 47 arguments): within 1 % of the
 * true rate, so one Newton step from Meeus's instant lands within a second.
 */
function elongationRate(ms: number): number {
  const T = (ms - J2000) / DAY / 36525;
  const D = 297.8501921 + 445267.1114034 * T;
  const M = 357.5291092 + 35999.0502909 * T;
  const Mp = 134.9633964 + 477198.8675055 * T;
  return 12.190749 + 1.434 * cos(Mp) + 0.2516 * cos(2 * D - Mp) + 0.28 * cos(2 * D) - 0.0976 * cos(2 * Mp) - 0.0361 * cos(M);
}

/** Meeus's instant of principal phase q as UT milliseconds (see meeusPhase); exported for the accuracy test. */
export const meeusPhaseInstant = (q: number) => utOfJde(meeusPhase(q));

/** An instant of TT (Julian ephemeris day) as UT milliseconds. */
function utOfJde(jde: number): number {
  const tt = jde - 2451545;
  const probe = MakeTime(new Date(J2000 + tt * DAY));
  return J2000 + (tt - (probe.tt - probe.ut)) * DAY;
}

/** The mean new moon of lunation 0 (2000-01-06), UT. */
const NEW_MOON_2000 = utOfJde(2451550.09766);

/** Meeus's instants (18 s at worst) where that is enough to decide, astronomy-engine's (refined once) where it is not. */
class Phases {
  /** More than Meeus's worst error: an instant further than this from a boundary is on its side. */
  private static readonly MARGIN = MINUTE;
  private readonly guesses = new Map<number, number>();
  private readonly exacts = new Map<number, number>();

  guess(q: number): number {
    let t = this.guesses.get(q);
    if (t === undefined) this.guesses.set(q, (t = meeusPhaseInstant(q)));
    return t;
  }

  /** The instant the apparent elongation reaches q × 90°: one Newton step from Meeus's. */
  exact(q: number): number {
    let t = this.exacts.get(q);
    if (t === undefined) {
      const g = this.guess(q);
      const off = ((((elongationAt(g) - mod4(q) * 90) % 360) + 540) % 360) - 180;
      this.exacts.set(q, (t = g - (off / elongationRate(g)) * DAY));
    }
    return t;
  }

  /** The best instant known without more work: exact if computed, else Meeus's. */
  known(q: number): number {
    return this.exacts.get(q) ?? this.guess(q);
  }

  /** Whether phase q comes before instant ms. */
  before(q: number, ms: number): boolean {
    const g = this.guess(q);
    return Math.abs(g - ms) > Phases.MARGIN ? g < ms : this.exact(q) < ms;
  }

  /** The first phase at or after instant ms. */
  firstAtOrAfter(ms: number): number {
    let q = Math.floor(((ms - NEW_MOON_2000) / DAY / SYNODIC_MONTH) * 4);
    while (!this.before(q, ms)) q--;
    while (this.before(q, ms)) q++;
    return q;
  }
}

// ---------------------------------------------------------------- moon

/**
 * Moon of one local calendar day. The phase is a principal phase (new moon,
 * first quarter, full moon, last quarter) when that instant falls within the
 * local day, as calendars print it; otherwise the crescent or gibbous between
 * them, from the last principal phase before local noon. `age_days` (since the
 * last new moon) and `illumination` (geocentric illuminated fraction of the
 * disc, percent) are for local noon too; `next_full_moon`/`next_new_moon` are
 * the first at or after the start of the local day (today's, when there is one).
 */
export function moonDay(latitude: number, longitude: number, date: string, zone: ZoneTimeline): MoonDay {
  const observer = checkPlace(latitude, longitude);
  const clock = new ZoneClock(zone);
  const [start, end] = localDay(date, clock);
  const noon = clock.instantOfWall(parseDate(date)! * DAY + DAY / 2);
  const [from, to] = [start - 2 * HOUR, end + 2 * HOUR];
  const sky = new Sky(Body.Moon, observer, from, to, 4);
  // The upper limb against a horizon lowered by refraction (SearchRiseSet's altdiff, level 0).
  const limb = (t: number) => sky.at(t).altitude + sky.semidiameter(MOON_RADIUS_AU) + REFRACTION;
  const profile = new Profile(limb, from, to);
  const rise = profile.first(0, +1, start, end);
  const set = profile.first(0, -1, start, end);

  const phases = new Phases();
  const first = phases.firstAtOrAfter(start);
  const lastBeforeNoon = phases.firstAtOrAfter(noon) - 1;
  const phase = phases.before(first, end) ? MOON_PHASES[2 * mod4(first)] : MOON_PHASES[1 + 2 * mod4(lastBeforeNoon)];
  const next = (kind: number) => phases.exact(first + mod4(kind - first));
  const nextFull = next(2);
  const nextNew = next(0);
  const lastNew = phases.known(lastBeforeNoon - mod4(lastBeforeNoon));
  const iso = (ms: number) => clock.format8601(ms);
  return {
    date,
    moonrise: rise === null ? null : iso(rise),
    moonset: set === null ? null : iso(set),
    phase,
    age_days: Math.round(((noon - lastNew) / DAY) * 100) / 100,
    illumination: Math.round(Illumination(Body.Moon, new Date(noon)).phase_fraction * 1000) / 10,
    next_full_moon: iso(nextFull),
    next_new_moon: iso(nextNew),
  };
}
