/**
 * The sun or the moon on one local calendar day (`date`, default today there):
 * - GET /v1/astronomy/{sun,moon}?latitude=&longitude=[&timezone=]: any point.
 *   Without `timezone`, the zone at the point (server/geo.ts; at sea the
 *   nautical Etc/GMT±N zone). `/{sun,moon}/coordinates?…` is the same (the
 *   older form, kept as an alias).
 * - GET /v1/astronomy/{sun,moon}/{code}: a country code (ISO 3166-1, its
 *   capital) or a region code (ISO 3166-2, its seat), through `capitalOf`,
 *   with the zone stored for that place.
 * Computation is lib/astronomy.ts; this file only parses and answers.
 */
import { Hono, type Context } from 'hono';
import { FIRST_DATE, LAST_DATE, moonDay, sunDay } from '../../lib/astronomy.js';
import { ISO_SUBDIVISION_INPUT_RE } from '../../lib/location-code.js';
import { parseDate } from '../../lib/plain-date.js';
import { parseCoordinate } from '../../lib/coordinates.js';
import { localDateAt, type ZoneTimeline } from '../../lib/zone-timeline.js';
import { answer, answerError, utf8 } from '../answer-headers.js';
import type { Clock } from '../clock.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { zoneAt } from '../geo.js';
import { queryOf, single } from '../query.js';

export interface AstronomyPlace {
  name: string;
  latitude: number;
  longitude: number;
  timezone: string;
}

export interface AstronomyRoutesOptions {
  /** The capital of a country code, or the seat of a region code (upper case), with its zone. */
  capitalOf: (code: string) => AstronomyPlace | undefined;
  /** The clock that decides the default date (clock.ts). */
  clock: Clock;
  /** The dataset's zones (server/timezone-store.ts): the one clock every area converts instants with. */
  zones: Zones;
}

/** What astronomy needs of the dataset's zones: ids and aliases in any letter case, and their offset histories. */
export interface Zones {
  spelling(id: string): string | undefined;
  timeline(id: string): ZoneTimeline | undefined;
}

/** A country code (NO) or a region code (US-CA, GB-ENG, FR-75C): ISO 3166-2 subdivisions have 1-3 characters. */
export const CODE_RE = ISO_SUBDIVISION_INPUT_RE;
/** defs.schema.json ZoneId: IANA ids only. */
const ZONE_RE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const PARAMETERS = ['date', 'latitude', 'longitude', 'timezone'] as const;
type Parameter = (typeof PARAMETERS)[number];
type Kind = 'sun' | 'moon';

/**
 * ISO 3166-1 countries with no capital, so no place for their code to stand
 * for (countries/index.json has `capital: null` for each; a test checks it).
 * Antarctica has no capital and ten zones: rather than pick a station for it,
 * its 404 points at the South Pole as coordinates (Amundsen-Scott Station,
 * whose zone from the point is Antarctica/McMurdo, as zone.tab says).
 */
export const WITHOUT_CAPITAL: Record<string, string> = {
  AQ: 'Antarctica',
  BV: 'Bouvet Island',
  HM: 'Heard Island and McDonald Islands',
  UM: 'United States Minor Outlying Islands',
};

interface Request {
  date: string;
  location: { latitude: number; longitude: number; name: string | null };
  timezone: string;
  zone: ZoneTimeline;
}

/** The point forms take all four parameters; a code stands for its place and zone, so it takes only `date`. */
function parameters(c: Context, point: boolean): Partial<Record<Parameter, string>> {
  const q = queryOf(c, point ? 'latitude longitude timezone date' : 'date');
  const out: Partial<Record<Parameter, string>> = {};
  for (const name of PARAMETERS) out[name] = single(q, name);
  return out;
}

function coordinate(raw: string | undefined, name: 'latitude' | 'longitude', limit: number, kind: Kind): number {
  if (raw === undefined) {
    throw badRequest('missing_parameter', `${name} is required: give latitude and longitude (/v1/astronomy/${kind}?latitude=69.65&longitude=18.96), or a country or region code in the path (/v1/astronomy/${kind}/NO, /v1/astronomy/${kind}/US-CA)`, name);
  }
  const value = parseCoordinate(raw, limit);
  if (value === undefined) throw badRequest(`invalid_${name}`, `${name} must be a number from -${limit} to ${limit}, got "${raw.slice(0, 40)}"`, name);
  return value;
}

/**
 * The zone as asked (an id or alias /v1/timezones serves, in tzdata's spelling), or the zone at the point;
 * with its offsets.
 */
function timeZone(raw: string | undefined, latitude: number, longitude: number, zones: Zones): { timezone: string; zone: ZoneTimeline } {
  const timezone = raw === undefined ? zoneAt(latitude, longitude) : raw.length <= 64 && ZONE_RE.test(raw) ? zones.spelling(raw) : undefined;
  if (timezone === undefined) {
    throw badRequest('invalid_timezone', `timezone must be an IANA time zone id such as Europe/Oslo (any zone or alias /v1/timezones serves), got "${raw!.slice(0, 40)}"; leave it out to use the zone at the point`, 'timezone');
  }
  return { timezone, zone: zoneOf(zones, timezone) };
}

/** A zone the dataset itself names (a place's, the boundaries'): the build checks each is served. */
function zoneOf(zones: Zones, id: string): ZoneTimeline {
  const zone = zones.timeline(id);
  if (!zone) throw new Error(`time zone ${id} is not in the dataset`);
  return zone;
}

/** Why a well-formed code has no place, and what to ask instead. */
function noPlace(code: string, kind: Kind): ApiError {
  const point = `/v1/astronomy/${kind}?latitude=…&longitude=…`;
  const country = WITHOUT_CAPITAL[code];
  const message =
    code === 'AQ'
      ? `${country} (AQ) has no capital, and a country code stands for its capital: ask for a point instead, such as the South Pole (Amundsen-Scott Station): /v1/astronomy/${kind}?latitude=-90&longitude=0`
      : country
        ? `${country} (${code}) has no capital, and a country code stands for its capital: ask for a point instead, ${point}`
        : code.includes('-')
          ? `No place for ${code}: a region code stands for its seat, and ${code} is no ISO 3166-2 region with a seat in this dataset; ask for a point instead, ${point}`
          : `No place for ${code}: a country code stands for its capital, and ${code} is no ISO 3166-1 country with a capital in this dataset; ask for a point instead, ${point}`;
  return notFound('unknown_location', message, 'location');
}

function parseRequest(c: Context, kind: Kind, { clock, capitalOf, zones }: AstronomyRoutesOptions): Request {
  const raw = c.req.param('location');
  const q = parameters(c, raw === undefined || raw === 'coordinates');
  let location: Request['location'];
  let timezone: string;
  let zone: ZoneTimeline;
  if (raw === undefined || raw === 'coordinates') {
    location = { latitude: coordinate(q.latitude, 'latitude', 90, kind), longitude: coordinate(q.longitude, 'longitude', 180, kind), name: null };
    ({ timezone, zone } = timeZone(q.timezone, location.latitude, location.longitude, zones));
  } else {
    if (!CODE_RE.test(raw)) {
      throw badRequest('invalid_location', `location must be an ISO 3166-1 country code (NO), an ISO 3166-2 region code (US-CA) or "coordinates", got "${raw.slice(0, 40)}"`, 'location');
    }
    const code = raw.toUpperCase();
    const place = capitalOf(code);
    if (!place) throw noPlace(code, kind);
    location = { latitude: place.latitude, longitude: place.longitude, name: place.name };
    timezone = place.timezone;
    zone = zoneOf(zones, timezone);
  }
  const date = q.date ?? localDateAt(zone, clock.now(c));
  if (parseDate(date) === undefined) throw badRequest('invalid_date', `date must be a real calendar date in YYYY-MM-DD form, got "${date.slice(0, 40)}"`, 'date');
  if (date < FIRST_DATE || date > LAST_DATE) throw badRequest('out_of_range', `date must be from ${FIRST_DATE} to ${LAST_DATE}, got ${date}`, 'date');
  return { date, location, timezone, zone };
}

/** Answers kept, most recent last; a computed answer costs 0.1 ms (bench/astronomy.ts). */
const CACHE_SIZE = 20_000;

/**
 * @example app.route('/v1/astronomy', astronomyRoutes({ capitalOf, clock, zones: timezoneStore }))
 */
export function astronomyRoutes(options: AstronomyRoutesOptions) {
  const app = new Hono();
  // An answer depends only on the kind, place, zone and date: repeats are served from bytes.
  const cache = new Map<string, Uint8Array<ArrayBuffer>>();
  const compute: Record<Kind, (r: Request) => object> = {
    sun: (r) => sunDay(r.location.latitude, r.location.longitude, r.date, r.zone),
    moon: (r) => moonDay(r.location.latitude, r.location.longitude, r.date, r.zone),
  };
  // Errors are thrown by the parsers and answered here, so that the sub-app
  // answers the same JSON on its own (tests) as mounted; anything else goes on
  // to the app's error handler.
  const handle = (kind: Kind) => (c: Context) => {
    try {
      const r = parseRequest(c, kind, options);
      const key = `${kind}|${r.location.latitude}|${r.location.longitude}|${r.location.name}|${r.timezone}|${r.date}`;
      let bytes = cache.get(key);
      if (bytes) {
        cache.delete(key); // re-inserted below: least recently used entries leave first
      } else {
        const { date: _, ...rest } = compute[kind](r) as { date: string };
        bytes = utf8.encode(JSON.stringify({ date: r.date, location: r.location, timezone: r.timezone, ...rest }));
        if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(key, bytes);
      return answer(c, bytes, { holds: 'today' });
    } catch (err) {
      if (err instanceof ApiError) return answerError(c, err);
      throw err;
    }
  };
  for (const kind of ['sun', 'moon'] as const) {
    app.get(`/${kind}`, handle(kind));
    app.get(`/${kind}/:location`, handle(kind));
  }
  return app;
}
