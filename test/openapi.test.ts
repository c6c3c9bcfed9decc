/**
 * The served OpenAPI description against a real validator, against the
 * app's routes, and against real answers: every operation is called on a
 * real server for every status it documents, and every body and header is
 * validated with the schema the document itself assigns to it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS, PLANS, type Plan, type PlanLimits } from '../server/access/plans.js';
import { startServer } from '../server/main.js';
import { DOCS_CSP } from '../server/routes/docs.js';
import { appAt, DATA_DIR, makeKeys, UNLIMITED } from './helpers.js';

type Doc = { paths: Record<string, { get: Operation }>; components: Record<string, Record<string, any>>; tags: { name: string; description: string }[] };
type Operation = { responses: Record<string, any>; security: object[]; parameters: any[]; tags?: string[] };
type Caller = 'paid' | 'free' | 'bad' | 'anonymous';

interface Case {
  /** The described path the request belongs to. */
  op: string;
  url: string;
  status: number;
  caller?: Caller;
  headers?: Record<string, string>;
  /** The server whose every quota is used up. */
  exhausted?: boolean;
}

const { file: keysFile, keys } = makeKeys();
const KEY: Record<Caller, string | undefined> = { paid: keys.growth, free: keys.free, bad: 'rdk_' + 'x'.repeat(32), anonymous: undefined };
/** One request per quota period: after the first, every counted request gets a 429. */
const ONE_REQUEST = Object.fromEntries(PLANS.map((p) => [p, { ...DEFAULT_LIMITS[p], quota: 1, burst: 1000 }])) as Record<Plan, PlanLimits>;
/** Routes that are not operations: the Redoc bundle is an asset of /docs, Swagger UI's files of /docs/try. */
const ASSETS = [
  '/docs/redoc.standalone.js',
  '/docs/try/swagger-ui-bundle.js',
  '/docs/try/swagger-ui.css',
  '/docs/try/init.js',
  // The Markdown guides of docs/, linked from the description's text.
  '/docs/guides/api.md',
  '/docs/guides/dataset.md',
  '/docs/guides/operations.md',
  '/docs/guides/data-sources.md',
];
/** The one operation without an example answer: the description cannot hold itself. */
const WITHOUT_EXAMPLE = ['/v1/openapi.json'];

const BD = '/v1/business-days/{location}';
const SUN = '/v1/astronomy/sun/{code}';
const MOON = '/v1/astronomy/moon/{code}';
const SUN_AT = '/v1/astronomy/sun/coordinates';
const MOON_AT = '/v1/astronomy/moon/coordinates';
const SUN_POINT = '/v1/astronomy/sun';
const MOON_POINT = '/v1/astronomy/moon';
const OSLO = 'latitude=59.91&longitude=10.75&timezone=Europe%2FOslo';
const c = (op: string, url: string, status: number, caller?: Caller): Case => ({ op, url, status, caller });

/** Hand-picked requests: the first 200 of each operation is also its sample for the sweeps below. */
const CASES: Case[] = [
  c('/v1', '/v1', 200),
  c('/v1', '/v1?areas=all', 400),
  c('/', '/', 200, 'anonymous'),
  c('/healthz', '/healthz', 200),
  c('/v1/openapi.json', '/v1/openapi.json', 200),
  c('/docs', '/docs', 200),
  c('/docs/try', '/docs/try', 200),
  c('/v1/business-days', '/v1/business-days', 200),
  c(BD, '/v1/business-days/US?date=2026-01-19', 200),
  c(BD, '/v1/business-days/us?date=2026-07-03&type=government', 200),
  c(BD, '/v1/business-days/DE?date=2026-12-24&type=banking', 200),
  c(BD, '/v1/business-days/DE-BY-A', 200),
  c(BD, '/v1/business-days/US?date=2025-02-30', 400),
  c(BD, '/v1/business-days/US?date=1989-12-31', 400),
  c(BD, '/v1/business-days/US?type=weekly', 400),
  c(BD, '/v1/business-days/US?date=2026-01-01&date=2026-01-02', 400),
  c(BD, '/v1/business-days/US?dat=2026-07-03', 400),
  c(BD, '/v1/business-days/ZZ', 404),
  c(BD, '/v1/business-days/AQ', 404),
  c(`${BD}/add`, '/v1/business-days/US/add?start=2026-01-15&days=10', 200),
  c(`${BD}/add`, '/v1/business-days/AE/add?days=1', 200),
  c(`${BD}/add`, '/v1/business-days/US/add?start=2026-01-15', 400),
  c(`${BD}/add`, '/v1/business-days/US/add?days=0', 400),
  c(`${BD}/add`, '/v1/business-days/US/add?days=10001', 400),
  c(`${BD}/add`, '/v1/business-days/US/add?start=2099-12-28&days=5', 400),
  c(`${BD}/add`, '/v1/business-days/XX/add?days=1', 404),
  c(`${BD}/subtract`, '/v1/business-days/GB-SCT/subtract?start=2026-01-05&days=3', 200),
  c(`${BD}/subtract`, '/v1/business-days/US/subtract?start=1990-01-04&days=5', 400),
  c(`${BD}/subtract`, '/v1/business-days/HM/subtract?days=1', 404),
  c(`${BD}/count`, '/v1/business-days/IL/count?start=2025-09-21&end=2025-09-27', 200),
  c(`${BD}/count`, '/v1/business-days/US/count?start=2026-01-01', 400),
  c(`${BD}/count`, '/v1/business-days/US/count?start=2026-02-01&end=2026-01-01', 400),
  c(`${BD}/count`, '/v1/business-days/US/count?start=2000-01-01&end=2020-01-01', 400),
  c(`${BD}/count`, '/v1/business-days/ZZ/count?start=2026-01-01&end=2026-01-31', 404),
  c(`${BD}/next`, '/v1/business-days/GB-SCT/next?from=2026-12-24', 200),
  c(`${BD}/next`, '/v1/business-days/JP/next', 200),
  c(`${BD}/next`, '/v1/business-days/US/next?from=2099-12-31', 400),
  c(`${BD}/next`, '/v1/business-days/US/next?type=business&type=banking', 400),
  c(`${BD}/next`, '/v1/business-days/ZZ/next', 404),
  c(`${BD}/holidays`, '/v1/business-days/US/holidays?year=2026', 200),
  c(`${BD}/holidays`, '/v1/business-days/de-by/holidays', 200),
  c(`${BD}/holidays`, '/v1/business-days/US/holidays?year=1989', 400),
  c(`${BD}/holidays`, '/v1/business-days/US/holidays?year=26', 400),
  c(`${BD}/holidays`, '/v1/business-days/ZZ/holidays?year=2026', 404),
  c(`${BD}/holidays.ics`, '/v1/business-days/CN/holidays.ics?from_year=2025&to_year=2025', 200),
  c(`${BD}/holidays.ics`, '/v1/business-days/US/holidays.ics?type=banking', 200),
  c(`${BD}/holidays.ics`, '/v1/business-days/US/holidays.ics?from_year=26', 400),
  c(`${BD}/holidays.ics`, '/v1/business-days/ZZ/holidays.ics', 404),
  c('/v1/timezones', '/v1/timezones', 200),
  c('/v1/timezones', '/v1/timezones?page=9&per_page=2', 200, 'anonymous'),
  c('/v1/timezones', '/v1/timezones?page=999', 200),
  c('/v1/timezones', '/v1/timezones?per_page=500', 400),
  c('/v1/timezones', '/v1/timezones?page=0', 400),
  c('/v1/timezones/{identifier}', '/v1/timezones/America%2FNew_York', 200),
  c('/v1/timezones/{identifier}', '/v1/timezones/America/Edmonton', 200, 'free'),
  c('/v1/timezones/{identifier}', '/v1/timezones/Asia%2FCalcutta', 200, 'anonymous'),
  c('/v1/timezones/{identifier}', '/v1/timezones/Mars%2FOlympus', 404),
  c('/v1/timezones', '/v1/timezones?include=all&at=2026-07-01T12:00:00Z', 200),
  c('/v1/timezones', '/v1/timezones?at=2026-07-01', 400),
  c('/v1/timezones/{identifier}', '/v1/timezones/UTC?at=2026-07-01T12:00:00Z', 200, 'anonymous'),
  c('/v1/timezones/{identifier}', '/v1/timezones/America%2FNew_York?at=1899-12-31T23:59:59Z', 400),
  c('/v1/timezones/{identifier}/transitions', '/v1/timezones/America%2FNew_York/transitions?year=2026', 200),
  c('/v1/timezones/{identifier}/transitions', '/v1/timezones/Etc%2FGMT%2B5/transitions', 200, 'anonymous'),
  c('/v1/timezones/{identifier}/transitions', '/v1/timezones/America%2FNew_York/transitions?year=2101', 400),
  c('/v1/timezones/{identifier}/transitions', '/v1/timezones/Mars%2FOlympus/transitions', 404),
  c('/v1/timezones/lookup', '/v1/timezones/lookup?latitude=31.7619&longitude=-106.485', 200),
  c('/v1/timezones/lookup', '/v1/timezones/lookup?latitude=30&longitude=-40&at=2026-07-01T12:00:00Z', 200, 'anonymous'),
  c('/v1/timezones/lookup', '/v1/timezones/lookup?latitude=91&longitude=0', 400),
  c('/v1/countries', '/v1/countries', 200),
  c('/v1/countries', '/v1/countries?page=3&per_page=100', 200, 'anonymous'),
  c('/v1/countries', '/v1/countries?per_page=0', 400),
  c('/v1/countries/{code}', '/v1/countries/ch', 200),
  c('/v1/countries/{code}', '/v1/countries/JP', 200, 'free'),
  c('/v1/countries/{code}', '/v1/countries/XK', 404),
  c('/v1/countries/{code}', '/v1/countries/CHE', 404),
  c('/v1/travel/{destination}', '/v1/travel/JP', 200),
  c('/v1/travel/{destination}', '/v1/travel/jp-27?from=US', 200),
  c('/v1/travel/{destination}', '/v1/travel/AR?date=2026-01-15&from=GB', 200),
  c('/v1/travel/{destination}', '/v1/travel/J', 400),
  c('/v1/travel/{destination}', '/v1/travel/JP?from=U', 400),
  c('/v1/travel/{destination}', '/v1/travel/JP?date=2026-13-01', 400),
  c('/v1/travel/{destination}', '/v1/travel/AQ', 404),
  c('/v1/travel/{destination}', '/v1/travel/ZZ', 404),
  c('/v1/travel/{destination}', '/v1/travel/JP?from=ZZ', 404),
  c(SUN, '/v1/astronomy/sun/NO?date=2026-06-21', 200),
  c(SUN, '/v1/astronomy/sun/jp', 200),
  c(SUN, '/v1/astronomy/sun/NO?date=2026-02-30', 400),
  c(SUN, '/v1/astronomy/sun/NO?date=1899-12-31', 400),
  c(SUN, '/v1/astronomy/sun/N0RWAY', 400),
  c(SUN, '/v1/astronomy/sun/us-ca?date=2026-06-21', 200),
  c(SUN, '/v1/astronomy/sun/AQ', 404),
  c(MOON, '/v1/astronomy/moon/JP?date=2026-11-21', 200),
  c(MOON, '/v1/astronomy/moon/JP?date=tomorrow', 400),
  c(MOON, '/v1/astronomy/moon/ZZ', 404),
  c(SUN_AT, '/v1/astronomy/sun/coordinates?latitude=69.65&longitude=18.96&timezone=Europe%2FOslo&date=2026-12-21', 200),
  c(SUN_AT, `/v1/astronomy/sun/coordinates?${OSLO}`, 200),
  c(SUN_AT, '/v1/astronomy/sun/coordinates?longitude=10.75&timezone=Europe%2FOslo', 400),
  c(SUN_AT, '/v1/astronomy/sun/coordinates?latitude=91&longitude=10.75&timezone=Europe%2FOslo', 400),
  c(SUN_AT, '/v1/astronomy/sun/coordinates?latitude=59.91&longitude=10.75&timezone=%2B05%3A00', 400),
  c(MOON_AT, `/v1/astronomy/moon/coordinates?${OSLO}&date=2026-11-24`, 200),
  c(MOON_AT, '/v1/astronomy/moon/coordinates?latitude=59.91&longitude=10.75', 200),
  c(MOON_AT, '/v1/astronomy/moon/coordinates?latitude=59.91', 400),
  c(SUN_POINT, '/v1/astronomy/sun?latitude=64.15&longitude=-21.94&date=2026-06-21', 200),
  c(SUN_POINT, `/v1/astronomy/sun?${OSLO}`, 200),
  c(SUN_POINT, '/v1/astronomy/sun?longitude=10.75', 400),
  c(MOON_POINT, '/v1/astronomy/moon?latitude=59.91&longitude=10.75&date=2026-11-24', 200),
  c(MOON_POINT, '/v1/astronomy/moon?latitude=59.91&longitude=10.75&timezone=Mars%2FOlympus', 400),
];

let doc: Doc;
let ajv: InstanceType<typeof Ajv2020.default>;
/** For parameter schemas, which narrow a $ref without restating its type ({ $ref: ZoneId, maxLength: 64 }). */
let parameterAjv: InstanceType<typeof Ajv2020.default>;
let servers: { main: string; exhausted: string };
let stop: (() => Promise<void>)[] = [];
const DOC_ID = 'https://refdata.test/v1/openapi.json';
/** "path status" pairs answered for real and validated. */
const exercised = new Set<string>();
let answersChecked = 0;
/** Answers of premium operations whose Cache-Control was checked not to be public. */
let premiumChecked = 0;

beforeAll(async () => {
  const start = (limits: Record<Plan, PlanLimits>) => startServer({ port: 0, hostname: '127.0.0.1', dataDir: DATA_DIR, keysFile, limits, redisUrl: '' });
  const [main, exhausted] = await Promise.all([start(UNLIMITED), start(ONE_REQUEST)]);
  stop = [main.close, exhausted.close];
  servers = { main: `http://127.0.0.1:${main.port}`, exhausted: `http://127.0.0.1:${exhausted.port}` };
  doc = (await (await fetch(`${servers.main}/v1/openapi.json`)).json()) as Doc;
  ajv = new Ajv2020.default({ allErrors: true, strict: true });
  addFormats.default(ajv);
  // The document's own top-level keys are no schema keywords; strict mode stays on for every schema in it.
  ajv.addVocabulary(['openapi', 'info', 'servers', 'tags', 'paths', 'components']);
  ajv.addSchema(doc, DOC_ID);
  parameterAjv = new Ajv2020.default({ allErrors: true, strict: true, strictTypes: false });
  addFormats.default(parameterAjv);
  parameterAjv.addVocabulary(['openapi', 'info', 'servers', 'tags', 'paths', 'components']);
  parameterAjv.addSchema(doc, DOC_ID);
  // Uses up the one request of the paid key on the exhausted server.
  expect((await fetch(`${servers.exhausted}/v1/countries/JP`, { headers: { 'x-api-key': keys.growth } })).status).toBe(200);
});
afterAll(() => Promise.all(stop.map((s) => s())));

const pointer = (...parts: string[]) => parts.map((p) => '/' + encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('');
const validators = new Map<string, ReturnType<typeof ajv.compile>>();
/** A validator for the schema at a JSON pointer of the served document. */
function validatorAt(ptr: string) {
  let v = validators.get(ptr);
  if (!v) validators.set(ptr, (v = ajv.compile({ $ref: `${DOC_ID}#${ptr}` })));
  return v;
}

/** The tags of the premium areas, as the description says them (its tag texts start "Premium"). */
const premiumTags = () => new Set<string>(doc.tags.filter((t) => t.description.startsWith('Premium')).map((t) => t.name));

/** The response object and its pointer, following a $ref into components.responses. */
function describedResponse(op: string, status: number): { response: any; at: string } | undefined {
  const response = doc.paths[op]?.get.responses[status];
  if (!response?.$ref) return response && { response, at: pointer('paths', op, 'get', 'responses', String(status)) };
  const name = response.$ref.replace('#/components/responses/', '');
  return { response: doc.components.responses[name], at: pointer('components', 'responses', name) };
}

async function call(k: Case): Promise<Response> {
  const key = KEY[k.caller ?? 'paid'];
  return fetch((k.exhausted ? servers.exhausted : servers.main) + k.url, { headers: { ...(key ? { 'x-api-key': key } : {}), ...k.headers } });
}

/** Calls a case and checks status, media type, body and headers against the description; returns the answer. */
async function check(k: Case): Promise<Response> {
  const res = await call(k);
  const where = `${k.caller ?? 'paid'} GET ${k.url.slice(0, 120)}`;
  expect(res.status, `${where}: ${await res.clone().text().then((t) => t.slice(0, 300))}`).toBe(k.status);
  const described = describedResponse(k.op, k.status);
  expect(described, `${k.op} documents no ${k.status}`).toBeDefined();
  const { response, at } = described!;
  const text = await res.clone().text();
  if (!response.content) {
    expect(text, `${where}: ${k.status} has no body`).toBe('');
  } else {
    const media = (res.headers.get('content-type') ?? '').split(';')[0].trim();
    expect(Object.keys(response.content), where).toContain(media);
    const validate = validatorAt(`${at}${pointer('content', media, 'schema')}`);
    const body = media === 'application/json' ? JSON.parse(text) : text;
    expect(validate(body), `${where}: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 300)}`).toBe(true);
    // The description lists the error codes of each status: every code met must be in it.
    if (k.status >= 400) expect(response.description, where).toContain(`\`${body.error.code}\``);
  }
  // A premium answer is never publicly cacheable: shared caches would replay it to callers without a key.
  if (doc.paths[k.op]?.get.tags?.some((t: string) => premiumTags().has(t))) {
    expect(res.headers.get('cache-control') ?? '', `${where}: premium answer's Cache-Control`).not.toMatch(/\bpublic\b/);
    premiumChecked++;
  }
  for (const [name, h] of Object.entries<any>(response.headers ?? {})) {
    const ref = h.$ref as string | undefined;
    const declared = ref ? doc.components.headers[ref.split('/').pop()!] : h;
    const value = res.headers.get(name);
    if (value === null) {
      expect(declared.required, `${where}: header ${name} is required`).not.toBe(true);
      continue;
    }
    const parsed = declared.schema.type === 'integer' ? Number(value) : value;
    const validate = validatorAt(ref ? pointer('components', 'headers', ref.split('/').pop()!, 'schema') : `${at}${pointer('headers', name, 'schema')}`);
    expect(validate(parsed), `${where}: header ${name}: ${value}`).toBe(true);
  }
  exercised.add(`${k.op} ${k.status}`);
  answersChecked++;
  return res;
}

/** The first 200 case of every described operation: the request the sweeps vary. */
function samples(): [string, Case][] {
  return Object.keys(doc.paths).map((op) => {
    const sample = CASES.find((k) => k.op === op && k.status === 200);
    expect(sample, `no 200 case for ${op}`).toBeDefined();
    return [op, sample!];
  });
}
const documents = (op: string, status: number) => status in doc.paths[op].get.responses;

describe('the description', () => {
  it('is a valid OpenAPI 3.1 document whose $refs all resolve', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as Record<string, unknown>);
    expect(result.errors, JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('holds every schema of schemas/ as a component that compiles, with no $id or $schema left', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of ['BusinessDayCheck', 'BusinessDaysYear', 'Holiday', 'ErrorResponse', 'TravelInfo', 'AstronomySun', 'PlainDate', 'ZoneId', 'Pagination']) expect(names).toContain(name);
    for (const name of names) expect(() => validatorAt(pointer('components', 'schemas', name)), name).not.toThrow();
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/"\$id"|"\$schema"|"\$defs"|\.schema\.json/);
    for (const [, target] of text.matchAll(/"\$ref":"([^"]+)"/g)) expect(target).toMatch(/^#\/components\/(schemas|responses|headers|parameters)\//);
  });

  it('says which dataset and licence it describes', async () => {
    const health = (await (await fetch(`${servers.main}/healthz`)).json()) as { dataset_version: string };
    const info = (doc as unknown as { info: { version: string; description: string } }).info;
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.description).toContain(health.dataset_version);
    expect(info.description).toContain('CC BY-SA 3.0');
  });
});

describe('the route table and the app agree', () => {
  const app = appAt();
  const routes = [...new Set(app.routes.filter((r) => r.method === 'GET').map((r) => r.path))];
  /** Hono's pattern as a regular expression: `:name{re}` and `:name` match one parameter. */
  const regexOf = (pattern: string) => new RegExp('^' + pattern.replace(/:\w+(\{([^}]+)\})?/g, (_m, _b, re: string | undefined) => `(${re ?? '[^/]+'})`) + '$');
  /** A described path with its parameters filled in, as a request would send it. */
  const concrete = (path: string) => path.replace(/\{\w+\}/g, 'X1');

  it('the routes left out are assets that exist', () => {
    for (const asset of ASSETS) expect(routes).toContain(asset);
  });

  it('every route of the app is described', () => {
    const described = Object.keys(doc.paths).map(concrete);
    const undescribed = routes.filter((r) => !ASSETS.includes(r) && !described.some((p) => regexOf(r).test(p)));
    expect(undescribed).toEqual([]);
  });

  it('every described path is a route of the app', () => {
    const missing = Object.keys(doc.paths).filter((p) => !routes.some((r) => regexOf(r).test(concrete(p))));
    expect(missing).toEqual([]);
  });
});

describe('the examples', () => {
  const okContent = (op: string): [string, any] => Object.entries<any>(doc.paths[op].get.responses[200].content)[0];

  it('every operation but the description itself has a 200 example, and every parameter an example that fits its schema', () => {
    for (const op of Object.keys(doc.paths)) {
      const [, content] = okContent(op);
      if (WITHOUT_EXAMPLE.includes(op)) {
        expect(content.examples, op).toBeUndefined();
        continue;
      }
      expect(Object.keys(content.examples ?? {}).length, `${op} has no 200 example`).toBeGreaterThan(0);
      doc.paths[op].get.parameters.forEach((p, i) => {
        if (p.$ref) return;
        expect(p.example, `${op}: ${p.name} has no example`).toBeDefined();
        const validate = parameterAjv.compile({ $ref: `${DOC_ID}#${pointer('paths', op, 'get', 'parameters', String(i), 'schema')}` });
        expect(validate(p.example), `${op}: ${p.name} = ${JSON.stringify(p.example)}: ${parameterAjv.errorsText(validate.errors)}`).toBe(true);
      });
    }
    // No example ETag: the console would send it with every request it tries.
    expect(doc.components.parameters.IfNoneMatch.example).toBeUndefined();
  });

  /** Whether `example` is `real` with some arrays cut to their first items (and at least one cut). */
  function shortenedFrom(example: unknown, real: unknown): { same: boolean; cut: boolean } {
    if (Array.isArray(example) && Array.isArray(real)) {
      if (example.length > real.length) return { same: false, cut: false };
      const items = example.map((e, i) => shortenedFrom(e, real[i]));
      return { same: items.every((r) => r.same), cut: example.length < real.length || items.some((r) => r.cut) };
    }
    if (example && real && typeof example === 'object' && typeof real === 'object' && !Array.isArray(example) && !Array.isArray(real)) {
      const keys = Object.keys(real);
      if (JSON.stringify(Object.keys(example)) !== JSON.stringify(keys)) return { same: false, cut: false };
      const fields = keys.map((k) => shortenedFrom((example as any)[k], (real as any)[k]));
      return { same: fields.every((r) => r.same), cut: fields.some((r) => r.cut) };
    }
    return { same: example === real, cut: false };
  }

  it('every example validates against its schema and is the answer its request gets', async () => {
    let compared = 0;
    for (const op of Object.keys(doc.paths)) {
      const [media, content] = okContent(op);
      const validate = validatorAt(pointer('paths', op, 'get', 'responses', '200', 'content', media, 'schema'));
      for (const [target, example] of Object.entries<any>(content.examples ?? {})) {
        expect(example.summary).toBe(`GET ${target}`);
        expect(validate(example.value), `${op} example ${target}: ${ajv.errorsText(validate.errors)}`).toBe(true);
        const res = await call({ op, url: target, status: 200 });
        const text = await res.text();
        expect(res.status, `GET ${target}: ${text.slice(0, 200)}`).toBe(200);
        expect((res.headers.get('content-type') ?? '').split(';')[0]).toBe(media);
        if (media !== 'application/json') expect(example.value, target).toBe(text);
        else if (example.description === undefined) expect(JSON.stringify(example.value), target).toBe(text.startsWith('{\n') ? JSON.stringify(JSON.parse(text)) : text);
        else {
          // A long answer is shown shortened, and says so: the rest of it must be the real answer.
          expect(example.description, target).toMatch(/^Shortened for this page: each array keeps its first \d+ items \(the answer has [\d,]+ bytes\)\.$/);
          expect(shortenedFrom(example.value, JSON.parse(text)), target).toEqual({ same: true, cut: true });
        }
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(Object.keys(doc.paths).length);
  });
});

describe('the docs page', () => {
  it('is HTML under a strict Content-Security-Policy that loads Redoc and the description from this server', async () => {
    const res = await fetch(`${servers.main}/docs`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("default-src 'none'");
    const html = await res.text();
    expect(html).toContain('<redoc spec-url="/v1/openapi.json"');
    expect(html).toMatch(/<script src="\/docs\/redoc\.standalone\.js\?v=\d+\.\d+\.\d+">/);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('has a console page (Swagger UI) under the same policy, loading only this server\'s files', async () => {
    const res = await fetch(`${servers.main}/docs/try`);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).toBe(DOCS_CSP);
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="(\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets).toHaveLength(3);
    for (const asset of assets) {
      const file = await fetch(servers.main + asset);
      expect(file.status, asset).toBe(200);
      const text = await file.text();
      expect(text, asset).not.toContain('sourceMappingURL');
      if (asset.startsWith('/docs/try/init.js')) expect(text).toContain('validatorUrl: null');
    }
  });

  it('serves the installed Redoc bundle with a year of cache, minus its CDN logo, and revalidates it', async () => {
    const res = await fetch(`${servers.main}/docs/redoc.standalone.js?v=2.5.4`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const js = await res.text();
    expect(js.length).toBeGreaterThan(1_000_000);
    expect(js).not.toContain('cdn.redoc.ly');
    const again = await fetch(`${servers.main}/docs/redoc.standalone.js`, { headers: { 'if-none-match': res.headers.get('etag')! } });
    expect(again.status).toBe(304);
  });
});

describe('the guides', () => {
  it("are docs/'s Markdown files, each linked from the description's text, and a name that is not one is a 404", async () => {
    const doc = (await (await fetch(`${servers.main}/v1/openapi.json`)).json()) as { info: { description: string } };
    const linked = [...doc.info.description.matchAll(/\]\((\/docs\/guides\/[a-z-]+\.md)\)/g)].map((m) => m[1]!);
    expect(linked.sort()).toEqual(ASSETS.filter((a) => a.startsWith('/docs/guides/')).sort());
    for (const path of linked) {
      const res = await fetch(servers.main + path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
      expect(await res.text()).toBe(readFileSync(join(import.meta.dirname, '..', 'docs', path.split('/').pop()!), 'utf8'));
    }
    const missing = await fetch(`${servers.main}/docs/guides/secrets.md`);
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});

describe('every operation answers as described', () => {
  for (const k of CASES) it(`${k.caller ?? 'paid'} ${k.url} → ${k.status}`, () => check(k).then(() => undefined));

  it('405 for other methods, with Allow and an ErrorResponse', async () => {
    const res = await fetch(`${servers.main}/v1/timezones`, { method: 'POST' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const validate = validatorAt(pointer('components', 'schemas', 'ErrorResponse'));
    expect(validate(await res.json())).toBe(true);
  });

  it('401 with an unknown key on every counted operation', async () => {
    for (const [op, s] of samples()) if (documents(op, 401)) await check({ ...s, caller: 'bad', status: 401 });
  });

  it('402 for free and anonymous callers on every premium operation', async () => {
    for (const [op, s] of samples()) {
      if (!documents(op, 402)) continue;
      await check({ ...s, caller: 'free', status: 402 });
      await check({ ...s, caller: 'anonymous', status: 402 });
    }
  });

  it('429 on every counted operation once the quota is used up', async () => {
    for (const [op, s] of samples()) if (documents(op, 429)) await check({ ...s, exhausted: true, status: 429 });
  });

  it('414 for a request target over 2,048 characters, on every operation', async () => {
    for (const [op, s] of samples()) await check({ ...s, url: `${s.url}${s.url.includes('?') ? '&' : '?'}pad=${'x'.repeat(2100)}`, status: 414 });
  });

  it('400 unknown_parameter on every operation, naming the parameter and the query parameters it documents', async () => {
    const english = (names: string[]) => (names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`);
    for (const [op, s] of samples()) {
      const res = await check({ ...s, url: `${s.url}${s.url.includes('?') ? '&' : '?'}dat=2026-07-03`, status: 400 });
      const { error } = (await res.json()) as { error: { code: string; message: string; parameter: string } };
      expect(error.code).toBe('unknown_parameter');
      expect(error.parameter).toBe('dat');
      const documented = doc.paths[op].get.parameters.filter((p) => p.in === 'query').map((p) => p.name as string);
      const takes = documented.length === 0 ? 'this endpoint takes no query parameters' : `this endpoint accepts ${english(documented)}`;
      const guess = documented.includes('date') ? ' (did you mean date?)' : '';
      expect(error.message, op).toBe(`Unknown parameter "dat"${guess}: ${takes}.`);
    }
  });

  it('431 for a header block over 8 KiB, on every operation', async () => {
    for (const [op, s] of samples()) await check({ ...s, headers: { 'x-pad': 'x'.repeat(9000) }, status: 431 });
  });

  it('304 when If-None-Match names the current ETag, on every conditional operation', async () => {
    for (const [op, s] of samples()) {
      const etag = (await call(s)).headers.get('etag');
      if (!documents(op, 304)) {
        expect(etag, `${op} sends an ETag but documents no 304`).toBeNull();
        continue;
      }
      expect(etag, `${op} documents 304 but sends no ETag`).not.toBeNull();
      await check({ ...s, headers: { 'if-none-match': etag! }, status: 304 });
      await check({ ...s, headers: { 'if-none-match': '"stale"' }, status: 200 });
    }
  });

  it('every documented status of every operation was answered for real', () => {
    const documented = Object.entries(doc.paths).flatMap(([op, item]) => Object.keys(item.get.responses).map((s) => `${op} ${s}`));
    expect(documented.filter((d) => !exercised.has(d))).toEqual([]);
    // Every premium operation's answers were among those checked not to carry `public` (server/areas.ts).
    expect(premiumTags().size).toBe(3);
    expect(premiumChecked).toBeGreaterThan(50);
    console.log(`openapi: ${Object.keys(doc.paths).length} operations, ${documented.length} documented responses, all answered; ${answersChecked} answers validated, ${premiumChecked} of premium operations without public caching`);
  });
});
