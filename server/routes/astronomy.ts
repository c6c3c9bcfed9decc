/**
 * GET /v1/astronomy/sun/{location} and /v1/astronomy/moon/{location}: the sun
 * or the moon on one local calendar day (`date`, default today there). The
 * location is a country or ISO 3166-2 code, answered for its capital or
 * principal city through `capitalOf`, or the literal `coordinates` with
 * `latitude`, `longitude` and `timezone` query parameters. Computation is
 * lib/astronomy.ts; this file only parses and answers.
 */
import { Hono, type Context } from 'hono';
import { FIRST_DATE, LAST_DATE, isTimeZone, localDate, moonDay, sunDay } from '../../lib/astronomy.js';
import { parseDate } from '../../lib/plain-date.js';
import { answer, answerJson, utf8 } from '../answer-headers.js';
import { ApiError, badRequest, notFound } from '../errors.js';
import { single } from '../query.js';

export interface AstronomyPlace {
  name: string;
  latitude: number;
  longitude: number;
  timezone: string;
}

export interface AstronomyRoutesOptions {
  /** The capital or principal city of a country or region code (upper case), with its zone. */
  capitalOf: (code: string) => AstronomyPlace | undefined;
  /** The clock that decides the default date. */
  now: () => Date;
}

export const CODE_RE = /^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/;
/** defs.schema.json ZoneId: IANA ids only (Intl would also take offsets such as +05:00). */
const ZONE_RE = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/;
const NUMBER_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const PARAMETERS = ['date', 'latitude', 'longitude', 'timezone'] as const;
type Parameter = (typeof PARAMETERS)[number];

interface Request {
  date: string;
  location: { latitude: number; longitude: number; name: string | null };
  timezone: string;
}

function parameters(c: Context): Partial<Record<Parameter, string>> {
  const q = c.req.queries();
  const out: Partial<Record<Parameter, string>> = {};
  for (const name of PARAMETERS) out[name] = single(q, name);
  return out;
}

function coordinate(raw: string | undefined, name: 'latitude' | 'longitude', limit: number): number {
  if (raw === undefined) throw badRequest('missing_parameter', `${name} is required with /coordinates`, name);
  const value = Number(raw);
  if (!NUMBER_RE.test(raw) || !(Math.abs(value) <= limit)) {
    throw badRequest(`invalid_${name}`, `${name} must be a number from -${limit} to ${limit}, got "${raw.slice(0, 40)}"`, name);
  }
  return value;
}

/** The zone as asked, or Intl's spelling of it when it differs only in letter case. */
function timeZone(raw: string | undefined): string {
  if (raw === undefined) throw badRequest('missing_parameter', 'timezone (an IANA id such as Europe/Oslo) is required with /coordinates', 'timezone');
  if (raw.length > 64 || !ZONE_RE.test(raw) || !isTimeZone(raw)) throw badRequest('invalid_timezone', `timezone must be an IANA time zone id such as Europe/Oslo, got "${raw.slice(0, 40)}"`, 'timezone');
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone: raw }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === raw.toLowerCase() ? resolved : raw;
}

function parseRequest(c: Context, now: () => Date, capitalOf: AstronomyRoutesOptions['capitalOf']): Request {
  const q = parameters(c);
  const raw = c.req.param('location') ?? '';
  let location: Request['location'];
  let timezone: string;
  if (raw === 'coordinates') {
    location = { latitude: coordinate(q.latitude, 'latitude', 90), longitude: coordinate(q.longitude, 'longitude', 180), name: null };
    timezone = timeZone(q.timezone);
  } else {
    if (!CODE_RE.test(raw)) {
      throw badRequest('invalid_location', `location must be an ISO 3166-1 alpha-2 or ISO 3166-2 code (JP, JP-13) or "coordinates", got "${raw.slice(0, 40)}"`, 'location');
    }
    const place = capitalOf(raw.toUpperCase());
    if (!place) throw notFound('unknown_location', `Unknown location "${raw.slice(0, 40)}": use an ISO 3166-1 alpha-2 country code (it stands for its capital; region codes have no coordinates yet), or /coordinates?latitude=&longitude=&timezone=`, 'location');
    location = { latitude: place.latitude, longitude: place.longitude, name: place.name };
    timezone = place.timezone;
  }
  const date = q.date ?? localDate(timezone, now());
  if (parseDate(date) === undefined) throw badRequest('invalid_date', `date must be a real calendar date in YYYY-MM-DD form, got "${date.slice(0, 40)}"`, 'date');
  if (date < FIRST_DATE || date > LAST_DATE) throw badRequest('out_of_range', `date must be from ${FIRST_DATE} to ${LAST_DATE}, got ${date}`, 'date');
  return { date, location, timezone };
}

/**
 * @example app.route('/v1/astronomy', astronomyRoutes({ capitalOf, now }))
 */
/** Answers kept, most recent last; a computed answer costs about a millisecond. */
const CACHE_SIZE = 20_000;

export function astronomyRoutes({ capitalOf, now }: AstronomyRoutesOptions) {
  const app = new Hono();
  // An answer depends only on the kind, place, zone and date: repeats are served from bytes.
  const cache = new Map<string, Uint8Array<ArrayBuffer>>();
  // Errors are thrown by the parsers and answered here, so that the sub-app
  // answers the same JSON on its own (tests) as mounted; anything else goes on
  // to the app's error handler.
  const handle = (kind: string, compute: (r: Request) => object) => (c: Context) => {
    try {
      const r = parseRequest(c, now, capitalOf);
      const key = `${kind}|${r.location.latitude}|${r.location.longitude}|${r.location.name}|${r.timezone}|${r.date}`;
      let bytes = cache.get(key);
      if (bytes) {
        cache.delete(key); // re-inserted below: least recently used entries leave first
      } else {
        const { date: _, ...rest } = compute(r) as { date: string };
        bytes = utf8.encode(JSON.stringify({ date: r.date, location: r.location, timezone: r.timezone, ...rest }));
        if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(key, bytes);
      return answer(c, bytes);
    } catch (err) {
      if (err instanceof ApiError) return answerJson(c, err.toBody(), err.status);
      throw err;
    }
  };
  app.get('/sun/:location', handle('sun', (r) => sunDay(r.location.latitude, r.location.longitude, r.date, r.timezone)));
  app.get('/moon/:location', handle('moon', (r) => moonDay(r.location.latitude, r.location.longitude, r.date, r.timezone)));
  return app;
}
