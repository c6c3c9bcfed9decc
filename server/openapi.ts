/**
 * The OpenAPI 3.1 description of the API, built at start. Data types come
 * from schemas/ (the one source of truth, see STYLE.md): every schema and
 * every `$defs` entry becomes a component and every `$ref` is rewritten to
 * point inside the document. Operations are API description, not data
 * types, so they are written here, by hand, from what the routes accept.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIRST_DATE, LAST_DATE } from '../lib/astronomy.js';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE } from '../lib/paginate.js';
import type { ApiIndex } from '../lib/schema-types.js';
import { parameterExample, type Examples } from './openapi-examples.js';
import { MAX_URL_LENGTH } from './query.js';
import { areaOf, gatedAreaOf, type Access } from './areas.js';
import { CODE_RE as ASTRONOMY_CODE_RE } from './routes/astronomy.js';
import { LOCATION_RE, MAX_COUNT_DAYS, MAX_DAYS, MAX_FEED_YEARS } from './routes/business-days.js';
import { CODE_RE as TRAVEL_CODE_RE } from './routes/travel.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const ROOT = join(import.meta.dirname, '..');
const SCHEMA_BASE = 'https://refdata.dev/schemas/v1/';
/** Keywords of a schema file that describe no type: a file holding only these is a container of `$defs`. */
const CONTAINER_KEYWORDS = new Set(['$schema', '$id', '$defs', '$comment', 'title', 'description']);

const pascalCase = (file: string) =>
  file.replace(/\.schema\.json$/, '').split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join('');

/**
 * components.schemas from the JSON Schemas in `dir`: one per file (named by
 * its title) and one per `$defs` entry (hoisted, so a reader sees PlainDate
 * rather than Defs/$defs/PlainDate); `$id` and `$schema` are dropped.
 */
export function schemaComponents(dir = join(ROOT, 'schemas')): Record<string, JsonObject> {
  const files = readdirSync(dir).filter((f) => f.endsWith('.schema.json')).sort();
  const docs = new Map(files.map((f) => [f, JSON.parse(readFileSync(join(dir, f), 'utf8')) as JsonObject]));
  const nameOf = (file: string) => (docs.get(file)!.title as string | undefined) ?? pascalCase(file);
  const defsOf = (file: string) => (docs.get(file)!.$defs ?? {}) as JsonObject;

  // Every file that describes a type, and every $defs entry, under one name each.
  const isContainer = (s: JsonObject) => Object.keys(s).every((k) => CONTAINER_KEYWORDS.has(k));
  const entries: [name: string, file: string, schema: Json][] = [];
  for (const [file, schema] of docs) {
    if (!isContainer(schema)) entries.push([nameOf(file), file, schema]);
    for (const [def, s] of Object.entries(defsOf(file))) entries.push([def, file, s]);
  }
  const owners = new Map<string, string>();
  for (const [name, file] of entries) {
    if (owners.has(name)) throw new Error(`openapi: component ${name} is defined by both ${owners.get(name)} and ${file}`);
    owners.set(name, file);
  }

  /** A $ref of `file` (relative, absolute or local) as a pointer into components.schemas. */
  const target = (ref: string, file: string): string => {
    const url = new URL(ref, SCHEMA_BASE + file);
    const base = url.href.slice(0, url.href.length - url.hash.length);
    const to = base.slice(SCHEMA_BASE.length);
    if (!base.startsWith(SCHEMA_BASE) || !docs.has(to)) throw new Error(`openapi: ${file}: $ref ${ref} leaves schemas/`);
    const pointer = decodeURIComponent(url.hash.slice(1));
    const def = /^\/\$defs\/([^/]+)(.*)$/.exec(pointer);
    if (def ? !(def[1] in defsOf(to)) : isContainer(docs.get(to)!)) throw new Error(`openapi: ${file}: $ref ${ref} names no schema`);
    return def ? `#/components/schemas/${def[1]}${def[2]}` : `#/components/schemas/${nameOf(to)}${pointer}`;
  };
  const rewrite = (node: Json, file: string): Json => {
    if (Array.isArray(node)) return node.map((n) => rewrite(n, file));
    if (node === null || typeof node !== 'object') return node;
    const out: JsonObject = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === '$id' || k === '$schema' || k === '$defs') continue;
      out[k] = k === '$ref' && typeof v === 'string' ? target(v, file) : rewrite(v, file);
    }
    return out;
  };

  entries.sort(([a], [b]) => (a < b ? -1 : 1));
  return Object.fromEntries(entries.map(([name, file, schema]) => [name, rewrite(schema, file) as JsonObject]));
}

// ---- Operations -------------------------------------------------------------

interface RouteDoc {
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  parameters?: JsonObject[];
  /** Schema of the 200 body. */
  ok: JsonObject;
  /** Media type of the 200 body. */
  media?: string;
  /** 404 when the route answers it; 400 (every route refuses unknown parameters), 401, 402, 429, 414 and 431 follow from the area. */
  errors?: 404[];
  /**
   * Example requests (path and query), answered through the app at start:
   * their answers are the 200 examples, and each parameter's example is its
   * value in the first request that gives it.
   */
  examples: string[];
  /** False for answers without an ETag (health is never cached). */
  conditional?: boolean;
}

const ref = (name: string): JsonObject => ({ $ref: `#/components/schemas/${name}` });
const inPath = (name: string, description: string, schema: JsonObject, example?: string): JsonObject =>
  ({ name, in: 'path', required: true, description, schema, ...(example ? { example } : {}) });
const inQuery = (name: string, description: string, schema: JsonObject, required = false): JsonObject =>
  ({ name, in: 'query', required, description, schema });

/** The routes' own patterns: the description cannot drift from what they accept. */
const LOCATION = inPath('location', 'ISO 3166-1 alpha-2 code (`US`), ISO 3166-2 region code (`US-CA`) or date-holidays sub-region (`DE-BY-A`), any letter case. `GET /v1/business-days` lists them.', { type: 'string', pattern: LOCATION_RE.source }, 'US');
const CODE = { type: 'string', pattern: TRAVEL_CODE_RE.source };
const ASTRONOMY_CODE = { type: 'string', pattern: ASTRONOMY_CODE_RE.source };
const TYPE = inQuery('type', 'Day type: `business` (weekends and public holidays), `banking` (plus bank holidays), `government` (plus authority closures).', { ...ref('DayType'), default: 'business' });
const PAGE = [
  inQuery('page', 'Page number, from 1; a page past the end has empty `data`.', { type: 'integer', minimum: 1, maximum: 999_999_999, default: 1 }),
  inQuery('per_page', `Items per page, 1 to ${MAX_PER_PAGE}.`, { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE }),
];

const TZ_ID = inPath('identifier', 'IANA id or alias, URL-encoded (`America%2FNew_York`, `Etc%2FGMT%2B5`); the unencoded form (`America/New_York`, `UTC`) and any letter case are accepted too.', { type: 'string', minLength: 1, maxLength: 64 }, 'America/New_York');
/** `at`, within the years the dataset's zones cover. */
const tzAt = ({ first_year: TZ_FIRST_YEAR, last_year: TZ_LAST_YEAR }: DatasetInfo['zones']) => inQuery('at', `An RFC 3339 instant with its offset (\`2026-07-01T12:00:00Z\`, \`2026-07-01T08:00:00-04:00\`; encode \`+\` as \`%2B\`) from ${TZ_FIRST_YEAR}-01-01T00:00:00Z to before ${TZ_LAST_YEAR + 1}-01-01T00:00:00Z: the answer is for that instant, from the compiled tzdata, instead of now. Before 1970 tzdata is less sure (its main data merges zones that agree since 1970). Default: now.`, { type: 'string', format: 'date-time' });
const TZ_INCLUDE = inQuery('include', '`all`: list the zones outside zone.tab too. Default: the zone.tab zones only (the static pages timezones/pages/{N}.json).', { type: 'string', enum: ['all'] });

function routes({ range, zones }: DatasetInfo): RouteDoc[] {
  const { first_year: TZ_FIRST_YEAR, last_year: TZ_LAST_YEAR } = zones;
  const TZ_AT = tzAt(zones);
  const served = `within the served range ${range.start}..${range.end}`;
  const date = (name: string, what: string, required = false) =>
    inQuery(name, `${what}, ${served}${required ? '' : "; default: today in the location's time zone"}.`, ref('PlainDate'), required);
  const days = inQuery('days', `Business days to move, 1 to ${MAX_DAYS}; the start day is not counted.`, { type: 'integer', minimum: 1, maximum: MAX_DAYS }, true);
  const astroDate = inQuery('date', `Local calendar date, ${FIRST_DATE}..${LAST_DATE}; default: today in the place's time zone.`, ref('PlainDate'));
  const coordinates = [
    inQuery('latitude', 'Degrees north, -90 to 90.', { type: 'number', minimum: -90, maximum: 90 }, true),
    inQuery('longitude', 'Degrees east, -180 to 180.', { type: 'number', minimum: -180, maximum: 180 }, true),
    inQuery('timezone', "IANA time zone id of the place (`Europe/Oslo`); it decides the local day and the offsets. Default: the zone at the point, from timezone-boundary-builder's polygons (at sea, the nautical zone of the longitude, `Etc/GMT+2`).", { ...ref('ZoneId'), maxLength: 64 }),
    astroDate,
  ];
  const capital = inPath('code', 'ISO 3166-1 alpha-2 country code (`NO`), standing for its capital, or ISO 3166-2 region code (`US-CA`), standing for its seat; any letter case. Answered in the zone of that place (`astronomy/places.json` in the dataset). A code without a place answers 404 `unknown_location` saying why: Antarctica (`AQ`), Bouvet Island, Heard and McDonald Islands and the US Minor Outlying Islands have no capital, so ask for a point (`/v1/astronomy/sun?latitude=-90&longitude=0`, the South Pole).', ASTRONOMY_CODE, 'NO');
  const sunRule = "Morning events (sunrise, dawns, the morning golden and blue hours) and solar noon are the first of their kind within the local date. Sunset and the evening events (dusks, the evening golden and blue hours) belong to the day that begins at that date's sunrise: they are the crossings of the sun's first descent after it, past midnight if need be (Reykjavík 2026-06-21: sunrise 02:55, sunset `2026-06-22T00:04:00+00:00`), as almanacs print them. On a date without a sunrise (midnight sun, polar night) they are the first within the date; `polar_condition` says which.";
  const moonRule = 'Moonrise and moonset are the first within the local date; the phase is a principal phase when its instant falls within the date.';
  const bd = { tag: 'Business days' };
  const astro = { tag: 'Astronomy', errors: [404] as 404[] };
  return [
    { ...bd, path: '/v1/business-days', operationId: 'listBusinessDayLocations', summary: 'List locations', description: 'Every location with business-day data (code, name, kind, time zone), the served range, and the countries without holiday data (they answer 404 `no_holiday_data`).', examples: ['/v1/business-days'], ok: ref('BusinessDaysLocations') },
    { ...bd, path: '/v1/business-days/{location}', operationId: 'checkBusinessDay', summary: 'Check whether a date is a business day', description: 'With the holiday on that date (if any); when the date is closed, `reason` and the previous and next business days.', parameters: [LOCATION, date('date', 'Date to check'), TYPE], examples: ['/v1/business-days/US?date=2026-07-03&type=government', '/v1/business-days/US?date=2026-07-03&type=banking', '/v1/business-days/CN?date=2025-01-26'], ok: ref('BusinessDayCheck'), errors: [404] },
    { ...bd, path: '/v1/business-days/{location}/add', operationId: 'addBusinessDays', summary: 'Add business days', description: 'The date `days` business days after `start`.', parameters: [LOCATION, date('start', 'Start date'), days, TYPE], examples: ['/v1/business-days/US/add?start=2026-01-15&days=10', '/v1/business-days/US/add?start=2026-07-02&days=1&type=government'], ok: ref('BusinessDayShift'), errors: [404] },
    { ...bd, path: '/v1/business-days/{location}/subtract', operationId: 'subtractBusinessDays', summary: 'Subtract business days', description: 'The date `days` business days before `start`.', parameters: [LOCATION, date('start', 'Start date'), days, TYPE], examples: ['/v1/business-days/GB-SCT/subtract?start=2026-01-05&days=3', '/v1/business-days/US/subtract?start=2026-07-06&days=1&type=banking'], ok: ref('BusinessDayShift'), errors: [404] },
    { ...bd, path: '/v1/business-days/{location}/count', operationId: 'countBusinessDays', summary: 'Count business days in a range', description: `Business, weekend and holiday days in [start, end], both included, at most ${MAX_COUNT_DAYS} days.`, parameters: [LOCATION, date('start', 'First day (inclusive)', true), date('end', 'Last day (inclusive)', true), TYPE], examples: ['/v1/business-days/IL/count?start=2025-09-21&end=2025-09-27', '/v1/business-days/US/count?start=2026-07-01&end=2026-07-31&type=government'], ok: ref('BusinessDayCount'), errors: [404] },
    { ...bd, path: '/v1/business-days/{location}/next', operationId: 'nextBusinessDay', summary: 'Next business day', description: 'The first business day strictly after `from`.', parameters: [LOCATION, date('from', 'Day to start from'), TYPE], examples: ['/v1/business-days/GB-SCT/next?from=2026-12-24', '/v1/business-days/US/next?from=2026-07-02&type=government'], ok: ref('BusinessDayNext'), errors: [404] },
    { ...bd, path: '/v1/business-days/{location}/holidays', operationId: 'listHolidays', summary: 'Holidays of a year', description: 'Every holiday of the location in one calendar year, one row per local date.', parameters: [LOCATION, inQuery('year', `Calendar year, ${range.start.slice(0, 4)} to ${range.end.slice(0, 4)}; default: the current year in the location's time zone.`, { type: 'integer', minimum: Number(range.start.slice(0, 4)), maximum: Number(range.end.slice(0, 4)) })], examples: ['/v1/business-days/JP/holidays?year=2026'], ok: ref('BusinessDaysYear'), errors: [404] },
    {
      ...bd,
      path: '/v1/business-days/{location}/holidays.ics',
      operationId: 'getHolidayFeed',
      summary: 'Holidays as an iCalendar feed',
      description: `RFC 5545 all-day events for a calendar app to subscribe to: one per holiday and one per working day outside the workweek (CATEGORIES:WORKING-DAY), stable UIDs, at most ${MAX_FEED_YEARS} years. With from_year = to_year and no type, the bytes of the static file business-days/{LOCATION}/{YEAR}.ics.`,
      parameters: [
        LOCATION,
        inQuery('from_year', "First year; default: the current year in the location's time zone.", { type: 'integer', minimum: Number(range.start.slice(0, 4)), maximum: Number(range.end.slice(0, 4)) }),
        inQuery('to_year', 'Last year (inclusive); default: the year after from_year.', { type: 'integer', minimum: Number(range.start.slice(0, 4)), maximum: Number(range.end.slice(0, 4)) }),
        inQuery('type', 'Only the days off of this day type (and partial days) and the working days that apply to it; default: every row.', ref('DayType')),
      ],
      examples: ['/v1/business-days/US/holidays.ics?from_year=2026&to_year=2026&type=government'], ok: { type: 'string', description: 'An iCalendar (RFC 5545) document.' },
      media: 'text/calendar',
      errors: [404],
    },
    { path: '/v1/timezones', operationId: 'listTimezones', tag: 'Timezones', summary: 'List time zones', description: 'The zones of zone.tab (one or more per country), sorted by id, with the offset in force now or at `at`. `include=all` adds the zones outside zone.tab: Etc/UTC, Etc/GMT, the fixed offsets Etc/GMT-14..Etc/GMT+12 and the rule-named CET, EET, MET, WET, EST, MST, HST, EST5EDT, CST6CDT, MST7MDT, PST8PDT (they have no `country`).', parameters: [...PAGE, TZ_INCLUDE, TZ_AT], examples: ['/v1/timezones?page=9&per_page=2&at=2026-07-01T12:00:00Z', '/v1/timezones?include=all&per_page=2&at=2026-07-01T12:00:00Z'], ok: ref('TimezoneList') },
    { path: '/v1/timezones/{identifier}', operationId: 'getTimezone', tag: 'Timezones', summary: 'Look up a time zone', description: 'Any zone of tzdata but Factory (zone.tab zones, `UTC`, `Etc/GMT+5`, `CET`, ...); aliases (tzdata links such as `UTC`, `GMT`, `US/Eastern`, `Asia/Calcutta`) answer with their zone. The offset, abbreviation and DST flag are those in force now, or at `at`, with the next transition after that instant.', parameters: [TZ_ID, TZ_AT], examples: ['/v1/timezones/America%2FNew_York?at=2026-07-01T12:00:00Z', '/v1/timezones/Europe%2FLondon?at=1970-06-01T12:00:00%2B01:00'], ok: ref('Timezone'), errors: [404] },
    { path: '/v1/timezones/{identifier}/transitions', operationId: 'listTimezoneTransitions', tag: 'Timezones', summary: "A zone's transitions", description: `Every change of offset, abbreviation or DST flag in one UTC year, or in the whole window (${TZ_FIRST_YEAR}-${TZ_LAST_YEAR}) without \`year\`, with the state in force at the period's start. Without \`year\`, the facts of the static file timezones/zones/{id}.json.`, parameters: [TZ_ID, inQuery('year', `UTC calendar year, ${TZ_FIRST_YEAR} to ${TZ_LAST_YEAR}: transitions from 1 January 00:00:00Z (included) to the next (excluded). Default: the whole window.`, { type: 'integer', minimum: TZ_FIRST_YEAR, maximum: TZ_LAST_YEAR })], examples: ['/v1/timezones/America%2FNew_York/transitions?year=2026'], ok: ref('TimezoneTransitions'), errors: [404] },
    { path: '/v1/timezones/lookup', operationId: 'lookupTimezone', tag: 'Timezones', summary: 'Time zone at a point', description: "The zone at a latitude and longitude from timezone-boundary-builder's polygons (land and territorial waters; data ODbL 1.0, © OpenStreetMap contributors), answered as `GET /v1/timezones/{identifier}` answers it. At sea, the nautical zone of the longitude (Etc/GMT±N, 15° wide). On a border or in a disputed area `candidates` lists every zone found, the answered one first.", parameters: [inQuery('latitude', 'Degrees north (WGS 84), -90 to 90.', { type: 'number', minimum: -90, maximum: 90 }, true), inQuery('longitude', 'Degrees east (WGS 84), -180 to 180.', { type: 'number', minimum: -180, maximum: 180 }, true), TZ_AT], examples: ['/v1/timezones/lookup?latitude=35.6807&longitude=-109.0526&at=2026-07-01T12:00:00Z'], ok: ref('TimezoneLookup') },
    { path: '/v1/countries', operationId: 'listCountries', tag: 'Countries', summary: 'List countries', description: 'Every ISO 3166-1 country, sorted by code.', parameters: PAGE, examples: ['/v1/countries?page=2&per_page=1'], ok: ref('CountryList') },
    { path: '/v1/countries/{code}', operationId: 'getCountry', tag: 'Countries', summary: 'Look up a country', parameters: [inPath('code', 'ISO 3166-1 alpha-2 code, any letter case.', { type: 'string', pattern: '^[A-Za-z]{2}$' }, 'CH')], examples: ['/v1/countries/CH'], ok: ref('Country'), errors: [404] },
    { path: '/v1/travel/{destination}', operationId: 'getTravelInfo', tag: 'Travel', summary: 'Travel facts for a destination', description: 'Power, emergency numbers, phone code and driving side of a country or ISO 3166-2 region (regions without their own facts answer with their country\'s).', parameters: [inPath('destination', 'ISO 3166-1 alpha-2 or ISO 3166-2 code, any letter case.', CODE, 'JP'), inQuery('from', 'Origin country or region code: fills `power_compatibility`.', CODE), inQuery('date', 'Travel date (any year): fills `climate` with that month\'s normals, from the station at a country\'s capital or the one nearest a region\'s seat (within 100 km), and `sources.climate` with that station; where there is none, `climate` stays null and `climate_note` says why.', ref('PlainDate'))], examples: ['/v1/travel/JP-27?from=US', '/v1/travel/AR?date=2026-01-15'], ok: ref('TravelInfo'), errors: [404] },
    { ...astro, path: '/v1/astronomy/sun', operationId: 'getSunAtPoint', summary: 'Sun at a point', description: `Sunrise, sunset, solar noon, day length, twilight, golden and blue hours at a latitude and longitude. ${sunRule}`, parameters: coordinates, examples: ['/v1/astronomy/sun?latitude=69.65&longitude=18.96&timezone=Europe%2FOslo&date=2026-12-21', '/v1/astronomy/sun?latitude=-90&longitude=0&date=2026-06-21'], errors: [], ok: ref('AstronomySun') },
    { ...astro, path: '/v1/astronomy/moon', operationId: 'getMoonAtPoint', summary: 'Moon at a point', description: `Moonrise, moonset, phase, age, illumination and the next full and new moon at a latitude and longitude. ${moonRule}`, parameters: coordinates, examples: ['/v1/astronomy/moon?latitude=59.91&longitude=10.75&timezone=Europe%2FOslo&date=2026-11-24'], errors: [], ok: ref('AstronomyMoon') },
    { ...astro, path: '/v1/astronomy/sun/{code}', operationId: 'getSunForCountry', summary: "Sun at a country's capital or a region's seat", description: sunRule, parameters: [capital, astroDate], examples: ['/v1/astronomy/sun/IS?date=2026-06-21', '/v1/astronomy/sun/US-CA?date=2026-06-21'], ok: ref('AstronomySun') },
    { ...astro, path: '/v1/astronomy/moon/{code}', operationId: 'getMoonForCountry', summary: "Moon at a country's capital or a region's seat", description: moonRule, parameters: [capital, astroDate], examples: ['/v1/astronomy/moon/JP?date=2026-11-21'], ok: ref('AstronomyMoon') },
    { ...astro, path: '/v1/astronomy/sun/coordinates', operationId: 'getSunAtCoordinates', summary: 'Sun at coordinates (the older form of /v1/astronomy/sun)', description: `The same answer as \`GET /v1/astronomy/sun\` with the same parameters. ${sunRule}`, parameters: coordinates, examples: ['/v1/astronomy/sun/coordinates?latitude=69.65&longitude=18.96&timezone=Europe%2FOslo&date=2026-12-21'], errors: [], ok: ref('AstronomySun') },
    { ...astro, path: '/v1/astronomy/moon/coordinates', operationId: 'getMoonAtCoordinates', summary: 'Moon at coordinates (the older form of /v1/astronomy/moon)', description: 'The same answer as `GET /v1/astronomy/moon` with the same parameters.', parameters: coordinates, examples: ['/v1/astronomy/moon/coordinates?latitude=59.91&longitude=10.75&timezone=Europe%2FOslo&date=2026-11-24'], errors: [], ok: ref('AstronomyMoon') },
    { path: '/v1', operationId: 'getIndex', tag: 'Service', summary: 'What this API offers', description: 'The areas with their paths and access, the links to the documentation, this description and health, and the dataset version. Not counted, needs no key.', examples: ['/v1'], ok: ref('ApiIndex') },
    { path: '/', operationId: 'getRootIndex', tag: 'Service', summary: 'What this API offers (at the root)', description: 'The same answer as `GET /v1`.', examples: ['/'], ok: ref('ApiIndex') },
    { path: '/healthz', operationId: 'getHealth', tag: 'Service', summary: 'Health', description: 'Not counted, needs no key. `degraded` when the shared rate-limit store is unreachable (the service then fails open). `caches` says what the bounded in-process caches hold against their budget.', examples: ['/healthz'], ok: ref('Health'), conditional: false },
    { path: '/v1/openapi.json', operationId: 'getOpenApi', tag: 'Service', summary: 'This description', description: 'The one operation without an example answer: a document cannot hold itself.', examples: [], ok: { type: 'object', description: 'An OpenAPI 3.1 document.', required: ['openapi', 'info', 'paths'], properties: { openapi: { type: 'string', pattern: '^3\\.1\\.' }, info: { type: 'object' }, paths: { type: 'object' } } } },
    { path: '/docs', operationId: 'getDocs', tag: 'Service', summary: 'This description, rendered', description: 'Redoc, served from this server: the page loads nothing from any other host.', examples: ['/docs'], ok: { type: 'string' }, media: 'text/html' },
    { path: '/docs/try', operationId: 'getConsole', tag: 'Service', summary: 'This description with a console to try requests', description: 'Swagger UI, served from this server (the page loads nothing from any other host), every parameter filled with its example. Its requests are real and counted like any other: premium operations need a key of a paid plan (Authorize), which the page keeps only until it is closed.', examples: ['/docs/try'], ok: { type: 'string' }, media: 'text/html' },
  ];
}

// ---- Responses and headers --------------------------------------------------

const header = (description: string, schema: JsonObject, required = false): JsonObject => ({ description, required, schema });
const HEADERS: Record<string, JsonObject> = {
  ETag: header('Strong entity tag: the dataset version and a hash of the body. Send it back in If-None-Match.', { type: 'string', pattern: '^"[^"]+"$' }, true),
  'Cache-Control': header('`public` on the reference areas and this description (timezone answers for now only until their next transition, at most an hour), `private, no-cache` on the premium areas, `no-store` on health and errors.', { type: 'string', minLength: 1 }, true),
  'X-Dataset-Version': header("The dataset's content hash.", { type: 'string', pattern: '^[0-9a-f]{16}$' }, true),
  'RateLimit-Limit': header('Requests allowed in the current quota period (or burst window, when that refused the request).', { type: 'integer', minimum: 0 }, true),
  'RateLimit-Remaining': header('Requests left in it.', { type: 'integer', minimum: 0 }, true),
  'RateLimit-Reset': header('Seconds until it resets.', { type: 'integer', minimum: 0 }, true),
  'Retry-After': header('Seconds to wait before retrying.', { type: 'integer', minimum: 0 }, true),
};
const headerRefs = (...names: string[]): JsonObject => Object.fromEntries(names.map((n) => [n, { $ref: `#/components/headers/${n}` }]));
const RATE_LIMIT = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
const jsonError = (description: string, ...headers: string[]): JsonObject => ({
  description,
  ...(headers.length ? { headers: headerRefs(...headers) } : {}),
  content: { 'application/json': { schema: ref('ErrorResponse') } },
});

/**
 * Error answers; those of a counted request (400, 404, 429) carry the rate-limit headers.
 */
const errorResponses = (): Record<string, JsonObject> => ({
  BadRequest: jsonError(
    'A parameter is unknown, missing, malformed or out of range; `parameter` names it. Codes: `unknown_parameter` (a query parameter the path does not take, such as a misspelled one: it is refused rather than ignored, and the message lists the ones the path takes), `missing_parameter`, `duplicate_parameter` (given twice), `invalid_date`, `invalid_at`, `invalid_include`, `out_of_range`, `invalid_type`, `invalid_days`, `invalid_range`, `range_too_large`, `invalid_year`, `invalid_page`, `invalid_per_page`, `invalid_destination`, `invalid_from`, `invalid_location`, `invalid_latitude`, `invalid_longitude`, `invalid_timezone`.',
    'Cache-Control', 'X-Dataset-Version', ...RATE_LIMIT,
  ),
  UnknownParameter: jsonError('`unknown_parameter`: a query parameter this path does not take (the message lists the ones it does); `parameter` names it.', 'Cache-Control', 'X-Dataset-Version'),
  InvalidApiKey: jsonError('`invalid_api_key`: X-API-Key holds an unknown, revoked or malformed key (omit the header to call the reference areas anonymously). Not counted.', 'Cache-Control'),
  PaidPlanRequired: jsonError('`paid_plan_required`: anonymous and free callers cannot use the premium areas. Not counted.', 'Cache-Control'),
  NotFound: jsonError('Unknown code (`unknown_location`, `unknown_timezone`, `unknown_country`, `unknown_destination`, `unknown_from`) or no data for it (`no_holiday_data`, `no_travel_data`).', 'Cache-Control', 'X-Dataset-Version', ...RATE_LIMIT),
  UriTooLong: jsonError(`\`uri_too_long\`: the request target is longer than ${MAX_URL_LENGTH} characters.`, 'Cache-Control'),
  RateLimited: jsonError('`rate_limited`: the quota or the burst window of the plan is used up. Not counted.', 'Cache-Control', ...RATE_LIMIT, 'Retry-After'),
  HeadersTooLarge: jsonError('`headers_too_large`: the request header block exceeds 8 KiB.'),
});

/** The 200 examples of a route: its example requests with the answers they got. */
function okExamples(r: RouteDoc, examples: Examples): JsonObject | undefined {
  const answered = r.examples.filter((target) => examples.has(target));
  if (answered.length === 0) return undefined;
  return Object.fromEntries(
    answered.map((target) => {
      const { value, note } = examples.get(target)!;
      return [target, { summary: `GET ${target}`, ...(note ? { description: note } : {}), value: value as Json }];
    }),
  );
}

/** Who may call, from the one table of areas (server/areas.ts): every documented path must have a row. */
function accessOf(path: string): Access {
  const row = areaOf(path);
  if (!row) throw new Error(`${path} is documented but belongs to no area of server/areas.ts`);
  return row.access;
}

function operation(r: RouteDoc, examples: Examples): JsonObject {
  const area = accessOf(r.path);
  const counted = area !== 'service';
  const conditional = r.conditional !== false;
  const okHeaders = [...(conditional ? ['ETag'] : []), 'Cache-Control', 'X-Dataset-Version', ...(counted ? RATE_LIMIT : [])];
  const okExample = okExamples(r, examples);
  const responses: JsonObject = {
    200: { description: 'OK', headers: headerRefs(...okHeaders), content: { [r.media ?? 'application/json']: { schema: r.ok, ...(okExample ? { examples: okExample } : {}) } } },
  };
  if (conditional) responses[304] = { description: 'Not Modified: If-None-Match names the current ETag. No body.', headers: headerRefs(...okHeaders) };
  const use = (status: number, name: string) => (responses[status] = { $ref: `#/components/responses/${name}` });
  use(400, counted ? 'BadRequest' : 'UnknownParameter');
  if (counted) use(401, 'InvalidApiKey');
  if (area === 'premium') use(402, 'PaidPlanRequired');
  if (r.errors?.includes(404)) use(404, 'NotFound');
  use(414, 'UriTooLong');
  if (counted) use(429, 'RateLimited');
  use(431, 'HeadersTooLarge');
  const security: Json = { premium: [{ ApiKey: [] }], reference: [{}, { ApiKey: [] }], service: [] }[area];
  return {
    operationId: r.operationId,
    tags: [r.tag],
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    security,
    parameters: [
      ...(r.parameters ?? []).map((p) => ({ ...p, example: parameterExample(p as Parameters<typeof parameterExample>[0], r.path, r.examples) as Json })),
      ...(conditional ? [{ $ref: '#/components/parameters/IfNoneMatch' }] : []),
    ],
    responses,
  };
}

// ---- The document -----------------------------------------------------------

export interface DatasetInfo {
  /** manifest.json's version (content hash). */
  version: string;
  /** The served business-day range (business-days/index.json). */
  range: { start: string; end: string };
  /** The UTC years the time zones' transitions cover (their documents' window). */
  zones: { first_year: number; last_year: number };
}

/** The areas of /v1, as the tags of the description and the index (GET /v1) list them; who may call each is its row in server/areas.ts. */
const AREA_DOCS: { tag: string; name: string; description: string }[] = [
  { tag: 'Business days', name: 'business-days', description: 'Check, add, subtract, count and find business days (three day types), and list the holidays of a year.' },
  { tag: 'Travel', name: 'travel', description: 'Power, emergency numbers, phone code, driving side, climate normals.' },
  { tag: 'Astronomy', name: 'astronomy', description: 'Sun and moon on a local calendar day.' },
  { tag: 'Timezones', name: 'timezones', description: 'IANA time zones: the offset now or at any instant, transitions, the zone at a point.' },
  { tag: 'Countries', name: 'countries', description: 'ISO 3166-1 countries with their ISO 3166-2 subdivisions.' },
];
const AREAS = AREA_DOCS.map((a) => {
  const access = gatedAreaOf(`/v1/${a.name}`);
  if (!access) throw new Error(`/v1/${a.name} has no premium or reference row in server/areas.ts`);
  return { ...a, access };
});
const ACCESS_TEXT = { premium: 'Premium: a key of a paid plan.', reference: 'Reference: anonymous callers welcome.' };
const TAGS = [
  ...AREAS.map(({ tag, access, description }) => [tag, `${ACCESS_TEXT[access]} ${description}`]),
  ['Service', 'Outside the /v1 areas: free and not counted.'],
];

/** Where the documentation lives on this server (GET /v1 lists them). */
export const DOCS_PATHS = { docs: '/docs', console: '/docs/try', openapi: '/v1/openapi.json', health: '/healthz' };
/** Where docs/<name>.md is served (server/routes/docs.ts): the guides the description links to. */
export const GUIDES_PATH = '/docs/guides';

/** The answer of GET / and GET /v1: what the API offers and where its documentation is. */
export function apiIndex(data: DatasetInfo): ApiIndex {
  const table = routes(data);
  return {
    name: 'refdata API',
    description: 'Open reference data for business days, travel, astronomy, time zones and countries.',
    dataset_version: data.version,
    ...DOCS_PATHS,
    areas: AREAS.map(({ tag, name, access, description }) => ({ name, access, description, paths: table.filter((r) => r.tag === tag).map((r) => r.path) })),
  };
}

function description(data: DatasetInfo): string {
  return [
    `Open reference data for business days, travel, astronomy, time zones and countries. Dataset version \`${data.version}\`; the data is licensed under CC BY-SA 3.0 (holiday data from date-holidays), with every source's attribution in the dataset's attribution.json; the code is MIT.`,
    'Premium areas (business days, travel, astronomy) need an `X-API-Key` on a paid plan (starter, pro, growth); the reference areas (timezones, countries) also answer anonymous callers. Every counted answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`.',
    'Every error is JSON (`ErrorResponse`). A query parameter a path does not take is refused with 400 `unknown_parameter` (a misspelled `dat` is never ignored in favour of a default). The API is read-only: GET and HEAD (and OPTIONS) only, any other method gets 405 `method_not_allowed` with `Allow`. Answers carry an ETag; `If-None-Match` with it gets 304.',
    `Every example here is a real request, answered by this server from this dataset. [${DOCS_PATHS.docs}](${DOCS_PATHS.docs}) renders this description for reading, [${DOCS_PATHS.console}](${DOCS_PATHS.console}) with a console that sends the requests; \`GET /v1\` lists the areas. The guides say what a description cannot: [the API's semantics](${GUIDES_PATH}/api.md), [the dataset and its hosting contract](${GUIDES_PATH}/dataset.md), [operations](${GUIDES_PATH}/operations.md) (keys, limits, Redis, faults, health) and [the data sources](${GUIDES_PATH}/data-sources.md).`,
  ].join('\n\n');
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Every example request of the description, in the order of its operations. */
export function exampleTargets(data: DatasetInfo): string[] {
  return routes(data).flatMap((r) => r.examples);
}

/**
 * The OpenAPI 3.1 document for a dataset, with the answers of its example
 * requests (answerExamples) as the 200 examples; without them it has the
 * parameters' examples only.
 */
export function openApiDocument(data: DatasetInfo, examples: Examples = new Map()): JsonObject {
  const paths: JsonObject = {};
  for (const r of routes(data)) paths[r.path] = { get: operation(r, examples) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'refdata API',
      version: packageVersion(),
      description: description(data),
      license: { name: 'CC BY-SA 3.0 (data), MIT (code)', url: 'https://creativecommons.org/licenses/by-sa/3.0/' },
    },
    servers: [{ url: '/' }],
    tags: TAGS.map(([name, text]) => ({ name, description: text })),
    paths,
    components: {
      schemas: schemaComponents(),
      responses: errorResponses(),
      headers: HEADERS,
      parameters: {
        IfNoneMatch: { name: 'If-None-Match', in: 'header', required: false, description: 'An ETag from an earlier answer: if it is still current the answer is 304 without a body.', schema: { type: 'string' } },
      },
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'A key (`rdk_…`) from `npm run keys -- create`. Keep it on your backend.' },
      },
    },
  };
}

/** The document as UTF-8 JSON. */
export function openApiBytes(data: DatasetInfo, examples?: Examples): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(JSON.stringify(openApiDocument(data, examples)));
}
