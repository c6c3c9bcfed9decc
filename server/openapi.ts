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
import { MAX_URL_LENGTH } from './query.js';
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

/** Who may call: premium areas need a paid key, reference areas take anyone, service paths are outside the gate. */
type Area = 'premium' | 'reference' | 'service';

interface RouteDoc {
  path: string;
  operationId: string;
  tag: string;
  area: Area;
  summary: string;
  description?: string;
  parameters?: JsonObject[];
  /** Schema of the 200 body. */
  ok: JsonObject;
  /** Media type of the 200 body. */
  media?: string;
  /** Statuses the route itself answers; 401, 402, 429, 414 and 431 follow from the area. */
  errors?: (400 | 404)[];
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

function routes(range: { start: string; end: string }): RouteDoc[] {
  const served = `within the served range ${range.start}..${range.end}`;
  const date = (name: string, what: string, required = false) =>
    inQuery(name, `${what}, ${served}${required ? '' : "; default: today in the location's time zone"}.`, ref('PlainDate'), required);
  const days = inQuery('days', `Business days to move, 1 to ${MAX_DAYS}; the start day is not counted.`, { type: 'integer', minimum: 1, maximum: MAX_DAYS }, true);
  const astroDate = inQuery('date', `Local calendar date, ${FIRST_DATE}..${LAST_DATE}; default: today in the place's time zone.`, ref('PlainDate'));
  const coordinates = [
    inQuery('latitude', 'Degrees north, -90 to 90.', { type: 'number', minimum: -90, maximum: 90 }, true),
    inQuery('longitude', 'Degrees east, -180 to 180.', { type: 'number', minimum: -180, maximum: 180 }, true),
    inQuery('timezone', 'IANA time zone id of the place (`Europe/Oslo`); it decides the local day.', { ...ref('ZoneId'), maxLength: 64 }, true),
    astroDate,
  ];
  const capital = inPath('code', 'ISO 3166-1 alpha-2 country code, standing for its capital. Region codes have no coordinates yet (404): use the coordinates form.', ASTRONOMY_CODE, 'NO');
  const bd = { tag: 'Business days', area: 'premium' as const };
  const astro = { tag: 'Astronomy', area: 'premium' as const, errors: [400, 404] as (400 | 404)[] };
  return [
    { ...bd, path: '/v1/business-days', operationId: 'listBusinessDayLocations', summary: 'List locations', description: 'Every location with business-day data (code, name, kind, time zone), the served range, and the countries without holiday data (they answer 404 `no_holiday_data`).', ok: ref('BusinessDaysLocations') },
    { ...bd, path: '/v1/business-days/{location}', operationId: 'checkBusinessDay', summary: 'Check whether a date is a business day', description: 'With the holiday on that date (if any); when the date is closed, `reason` and the previous and next business days.', parameters: [LOCATION, date('date', 'Date to check'), TYPE], ok: ref('BusinessDayCheck'), errors: [400, 404] },
    { ...bd, path: '/v1/business-days/{location}/add', operationId: 'addBusinessDays', summary: 'Add business days', description: 'The date `days` business days after `start`.', parameters: [LOCATION, date('start', 'Start date'), days, TYPE], ok: ref('BusinessDayShift'), errors: [400, 404] },
    { ...bd, path: '/v1/business-days/{location}/subtract', operationId: 'subtractBusinessDays', summary: 'Subtract business days', description: 'The date `days` business days before `start`.', parameters: [LOCATION, date('start', 'Start date'), days, TYPE], ok: ref('BusinessDayShift'), errors: [400, 404] },
    { ...bd, path: '/v1/business-days/{location}/count', operationId: 'countBusinessDays', summary: 'Count business days in a range', description: `Business, weekend and holiday days in [start, end], both included, at most ${MAX_COUNT_DAYS} days.`, parameters: [LOCATION, date('start', 'First day (inclusive)', true), date('end', 'Last day (inclusive)', true), TYPE], ok: ref('BusinessDayCount'), errors: [400, 404] },
    { ...bd, path: '/v1/business-days/{location}/next', operationId: 'nextBusinessDay', summary: 'Next business day', description: 'The first business day strictly after `from`.', parameters: [LOCATION, date('from', 'Day to start from'), TYPE], ok: ref('BusinessDayNext'), errors: [400, 404] },
    { ...bd, path: '/v1/business-days/{location}/holidays', operationId: 'listHolidays', summary: 'Holidays of a year', description: 'Every holiday of the location in one calendar year, one row per local date.', parameters: [LOCATION, inQuery('year', `Calendar year, ${range.start.slice(0, 4)} to ${range.end.slice(0, 4)}; default: the current year in the location's time zone.`, { type: 'integer', minimum: Number(range.start.slice(0, 4)), maximum: Number(range.end.slice(0, 4)) })], ok: ref('BusinessDaysYear'), errors: [400, 404] },
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
      ok: { type: 'string', description: 'An iCalendar (RFC 5545) document.' },
      media: 'text/calendar',
      errors: [400, 404],
    },
    { path: '/v1/timezones', operationId: 'listTimezones', tag: 'Timezones', area: 'reference', summary: 'List time zones', description: 'Every canonical IANA zone, sorted by id, with the offset in force now.', parameters: PAGE, ok: ref('TimezoneList'), errors: [400] },
    { path: '/v1/timezones/{identifier}', operationId: 'getTimezone', tag: 'Timezones', area: 'reference', summary: 'Look up a time zone', description: 'Aliases answer with their canonical zone.', parameters: [inPath('identifier', 'IANA id, URL-encoded (`America%2FNew_York`); the unencoded form (`America/New_York`) and any letter case are accepted too.', { type: 'string', minLength: 1, maxLength: 64 }, 'America/New_York')], ok: ref('Timezone'), errors: [404] },
    { path: '/v1/countries', operationId: 'listCountries', tag: 'Countries', area: 'reference', summary: 'List countries', description: 'Every ISO 3166-1 country, sorted by code.', parameters: PAGE, ok: ref('CountryList'), errors: [400] },
    { path: '/v1/countries/{code}', operationId: 'getCountry', tag: 'Countries', area: 'reference', summary: 'Look up a country', parameters: [inPath('code', 'ISO 3166-1 alpha-2 code, any letter case.', { type: 'string', pattern: '^[A-Za-z]{2}$' }, 'CH')], ok: ref('Country'), errors: [404] },
    { path: '/v1/travel/{destination}', operationId: 'getTravelInfo', tag: 'Travel', area: 'premium', summary: 'Travel facts for a destination', description: 'Power, emergency numbers, phone code and driving side of a country or ISO 3166-2 region (regions without their own facts answer with their country\'s).', parameters: [inPath('destination', 'ISO 3166-1 alpha-2 or ISO 3166-2 code, any letter case.', CODE, 'JP'), inQuery('from', 'Origin country or region code: fills `power_compatibility`.', CODE), inQuery('date', 'Travel date (any year): fills `climate` with that month\'s normals.', ref('PlainDate'))], ok: ref('TravelInfo'), errors: [400, 404] },
    { ...astro, path: '/v1/astronomy/sun/{code}', operationId: 'getSunForCountry', summary: 'Sun at a country\'s capital', parameters: [capital, astroDate], ok: ref('AstronomySun') },
    { ...astro, path: '/v1/astronomy/moon/{code}', operationId: 'getMoonForCountry', summary: 'Moon at a country\'s capital', parameters: [capital, astroDate], ok: ref('AstronomyMoon') },
    { ...astro, path: '/v1/astronomy/sun/coordinates', operationId: 'getSunAtCoordinates', summary: 'Sun at coordinates', parameters: coordinates, ok: ref('AstronomySun'), errors: [400] },
    { ...astro, path: '/v1/astronomy/moon/coordinates', operationId: 'getMoonAtCoordinates', summary: 'Moon at coordinates', parameters: coordinates, ok: ref('AstronomyMoon'), errors: [400] },
    { path: '/healthz', operationId: 'getHealth', tag: 'Service', area: 'service', summary: 'Health', description: 'Not counted, needs no key. `degraded` when the shared rate-limit store is unreachable (the service then fails open).', ok: ref('Health'), conditional: false },
    { path: '/v1/openapi.json', operationId: 'getOpenApi', tag: 'Service', area: 'service', summary: 'This description', ok: { type: 'object', description: 'An OpenAPI 3.1 document.', required: ['openapi', 'info', 'paths'], properties: { openapi: { type: 'string', pattern: '^3\\.1\\.' }, info: { type: 'object' }, paths: { type: 'object' } } } },
    { path: '/docs', operationId: 'getDocs', tag: 'Service', area: 'service', summary: 'This description, rendered', ok: { type: 'string' }, media: 'text/html' },
  ];
}

/** GET /healthz has no file in schemas/ (it is no dataset document), so its schema lives here. */

// ---- Responses and headers --------------------------------------------------

const header = (description: string, schema: JsonObject, required = false): JsonObject => ({ description, required, schema });
const HEADERS: Record<string, JsonObject> = {
  ETag: header('Strong entity tag: the dataset version and a hash of the body. Send it back in If-None-Match.', { type: 'string', pattern: '^"[^"]+"$' }, true),
  'Cache-Control': header('`public` on the reference areas and this description (timezones only until their next transition, at most an hour), `private, no-cache` on the premium areas, `no-store` on health and errors.', { type: 'string', minLength: 1 }, true),
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
    'A parameter is missing, malformed or out of range; `parameter` names it. Codes: `missing_parameter`, `duplicate_parameter` (given twice), `invalid_date`, `out_of_range`, `invalid_type`, `invalid_days`, `invalid_range`, `range_too_large`, `invalid_year`, `invalid_page`, `invalid_per_page`, `invalid_destination`, `invalid_from`, `invalid_location`, `invalid_latitude`, `invalid_longitude`, `invalid_timezone`.',
    'Cache-Control', 'X-Dataset-Version', ...RATE_LIMIT,
  ),
  InvalidApiKey: jsonError('`invalid_api_key`: X-API-Key holds an unknown, revoked or malformed key (omit the header to call the reference areas anonymously). Not counted.', 'Cache-Control'),
  PaidPlanRequired: jsonError('`paid_plan_required`: anonymous and free callers cannot use the premium areas. Not counted.', 'Cache-Control'),
  NotFound: jsonError('Unknown code (`unknown_location`, `unknown_timezone`, `unknown_country`, `unknown_destination`, `unknown_from`) or no data for it (`no_holiday_data`, `no_travel_data`).', 'Cache-Control', 'X-Dataset-Version', ...RATE_LIMIT),
  UriTooLong: jsonError(`\`uri_too_long\`: the request target is longer than ${MAX_URL_LENGTH} characters.`, 'Cache-Control'),
  RateLimited: jsonError('`rate_limited`: the quota or the burst window of the plan is used up. Not counted.', 'Cache-Control', ...RATE_LIMIT, 'Retry-After'),
  HeadersTooLarge: jsonError('`headers_too_large`: the request header block exceeds 8 KiB.'),
});

function operation(r: RouteDoc): JsonObject {
  const counted = r.area !== 'service';
  const conditional = r.conditional !== false;
  const okHeaders = [...(conditional ? ['ETag'] : []), 'Cache-Control', 'X-Dataset-Version', ...(counted ? RATE_LIMIT : [])];
  const responses: JsonObject = {
    200: { description: 'OK', headers: headerRefs(...okHeaders), content: { [r.media ?? 'application/json']: { schema: r.ok } } },
  };
  if (conditional) responses[304] = { description: 'Not Modified: If-None-Match names the current ETag. No body.', headers: headerRefs(...okHeaders) };
  const use = (status: number, name: string) => (responses[status] = { $ref: `#/components/responses/${name}` });
  if (r.errors?.includes(400)) use(400, 'BadRequest');
  if (counted) use(401, 'InvalidApiKey');
  if (r.area === 'premium') use(402, 'PaidPlanRequired');
  if (r.errors?.includes(404)) use(404, 'NotFound');
  use(414, 'UriTooLong');
  if (counted) use(429, 'RateLimited');
  use(431, 'HeadersTooLarge');
  const security: Json = { premium: [{ ApiKey: [] }], reference: [{}, { ApiKey: [] }], service: [] }[r.area];
  return {
    operationId: r.operationId,
    tags: [r.tag],
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    security,
    parameters: [...(r.parameters ?? []), ...(conditional ? [{ $ref: '#/components/parameters/IfNoneMatch' }] : [])],
    responses,
  };
}

// ---- The document -----------------------------------------------------------

export interface DatasetInfo {
  /** manifest.json's version (content hash). */
  version: string;
  /** The served business-day range (business-days/index.json). */
  range: { start: string; end: string };
}

const TAGS = [
  ['Business days', 'Premium. Check, add, subtract, count and find business days (three day types), and list the holidays of a year.'],
  ['Travel', 'Premium. Power, emergency numbers, phone code, driving side, climate normals.'],
  ['Astronomy', 'Premium. Sun and moon on a local calendar day.'],
  ['Timezones', 'Reference: anonymous callers welcome.'],
  ['Countries', 'Reference: anonymous callers welcome.'],
  ['Service', 'Outside /v1 areas: free and not counted.'],
];

function description(data: DatasetInfo): string {
  return [
    `Open reference data for business days, travel, astronomy, time zones and countries. Dataset version \`${data.version}\`; the data is licensed under CC BY-SA 3.0 (holiday data from date-holidays), with every source's attribution in the dataset's attribution.json; the code is MIT.`,
    'Premium areas (business days, travel, astronomy) need an `X-API-Key` on a paid plan (starter, pro, growth); the reference areas (timezones, countries) also answer anonymous callers. Every counted answer carries `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`.',
    'Every error is JSON (`ErrorResponse`). The API is read-only: GET and HEAD (and OPTIONS) only, any other method gets 405 `method_not_allowed` with `Allow`. Answers carry an ETag; `If-None-Match` with it gets 304.',
  ].join('\n\n');
}

function packageVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The OpenAPI 3.1 document for a dataset. */
export function openApiDocument(data: DatasetInfo): JsonObject {
  const paths: JsonObject = {};
  for (const r of routes(data.range)) paths[r.path] = { get: operation(r) };
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

const bytesByDataset = new Map<string, Uint8Array<ArrayBuffer>>();

/** The document as UTF-8 JSON, built once per dataset (a server has one). */
export function openApiBytes(data: DatasetInfo): Uint8Array<ArrayBuffer> {
  const key = `${data.version}|${data.range.start}|${data.range.end}`;
  let bytes = bytesByDataset.get(key);
  if (!bytes) {
    bytes = new TextEncoder().encode(JSON.stringify(openApiDocument(data)));
    bytesByDataset.set(key, bytes);
  }
  return bytes;
}
