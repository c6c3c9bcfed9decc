/**
 * Countries: the ingest rules on small hand-made inputs, the emitted files
 * (schemas, all 249 ISO codes, every field), facts typed in by hand from
 * official sources (test/golden/countries.json), cross-checks against
 * independent sources (mledoze calling codes, CLDR subdivision codes,
 * zone.tab, the business-day data), and the HTTP sub-app.
 *
 * Reads dist-data/v1/countries when the build has it; otherwise builds the
 * countries into a temporary folder the way pipeline/run.ts does.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paginate } from '../lib/paginate.js';
import type { CountriesIndex, Country, Workweek } from '../lib/schema-types.js';
import { COUNTRY_SCHEMA_ROUTES, emitCountries } from '../pipeline/stages/emit-countries.js';
import { buildCountries, currentCurrencies, ingestCountries, listIsoCountries, loadCountrySources, phoneCode, primaryLanguage, type CountryInputs } from '../pipeline/stages/ingest-countries.js';
import { listTargets } from '../pipeline/stages/ingest-holidays.js';
import { loadCuration } from '../pipeline/stages/holidays/curation.js';
import { loadOverrides, workweeksFor } from '../pipeline/stages/ingest-workweeks.js';
import { createAjv } from '../pipeline/stages/validate.js';
import { stableJson } from '../lib/stable-json.js';
import { countriesRoutes } from '../server/routes/countries.js';
import { DATA_DIR } from './helpers.js';
import { assertMatchesSchema } from './schemas.js';

const ROOT = join(import.meta.dirname, '..');
const SOURCES = join(ROOT, 'sources');
const require = createRequire(import.meta.url);
const readJson = <T = any>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

const ISO_CODES = listIsoCountries(SOURCES);
const MONDAY_FRIDAY: Workweek = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];

function zoneTab(): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const line of readFileSync(join(SOURCES, 'tzdata', 'zone.tab'), 'utf8').split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const [cc, , id] = line.split('\t');
    (out[cc] ??= []).push(id);
  }
  return out;
}

const businessDaysIndex = () => {
  const path = join(DATA_DIR, 'v1', 'business-days', 'index.json');
  return existsSync(path) ? readJson<{ locations: { location: string }[]; no_holiday_data: { location: string }[] }>(path) : undefined;
};

/** The inputs pipeline/run.ts gives the stage: zone.tab, today's workweeks, holiday coverage. */
function realInputs(): CountryInputs {
  const overrides = loadOverrides(loadCuration(join(SOURCES, 'holidays')));
  const workweeks = Object.fromEntries(ISO_CODES.map((code) => [code, workweeksFor(code, overrides).at(-1)!.workweek]));
  const bd = businessDaysIndex();
  const locations = bd ? bd.locations.map((l) => l.location) : listTargets().map((t) => t.location);
  return { timezones: zoneTab(), workweeks, businessDayLocations: new Set(locations) };
}

let dataDir: string;
let tmp: string | undefined;
let index: Country[];
const file = <T = any>(path: string): T => readJson<T>(join(dataDir, 'v1', path));

beforeAll(() => {
  if (existsSync(join(DATA_DIR, 'v1', 'countries', 'index.json'))) {
    dataDir = DATA_DIR;
  } else {
    tmp = mkdtempSync(join(tmpdir(), 'refdata-countries-'));
    for (const [path, doc] of emitCountries(ingestCountries(SOURCES, realInputs()))) {
      const target = join(tmp, 'v1', path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, stableJson(doc));
    }
    dataDir = tmp;
  }
  index = file<CountriesIndex>('countries/index.json').countries;
});
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const byCode = (code: string) => index.find((c) => c.code === code)!;

describe('ingest rules (hand-made inputs)', () => {
  it('calling codes: plain, NANP, +7, none, and anything unreadable fails', () => {
    expect(phoneCode('GB', { root: '+4', suffixes: ['4'] })).toBe('+44');
    expect(phoneCode('NG', { root: '+2', suffixes: ['34'] })).toBe('+234');
    expect(phoneCode('US', { root: '+1', suffixes: ['201', '202'] })).toBe('+1');
    expect(phoneCode('CA', { root: '+1', suffixes: [''] })).toBe('+1');
    expect(phoneCode('AG', { root: '+1', suffixes: ['268'] })).toBe('+1 268');
    expect(phoneCode('DO', { root: '+1', suffixes: ['809', '829', '849'] })).toBe('+1 809');
    expect(phoneCode('RU', { root: '+7', suffixes: ['3', '4', '5', '8', '9'] })).toBe('+7');
    expect(phoneCode('AQ', { root: '', suffixes: [] })).toBeNull();
    expect(() => phoneCode('AX', { root: '+3', suffixes: ['5818'] })).toThrow(/add a correction/);
    expect(() => phoneCode('VA', { root: '+3', suffixes: ['906698', '79'] })).toThrow(/add a correction/);
  });

  it('primary language: official first, then population share, through CLDR aliases', () => {
    const alias = { prs: { _replacement: 'fa-AF' } };
    const pop = { fa: { _populationPercent: '50', _officialStatus: 'official' }, ps: { _populationPercent: '43', _officialStatus: 'official' }, uz: { _populationPercent: '60' } };
    expect(primaryLanguage(['ps', 'prs', 'uz'], pop, alias)).toBe('prs');
    expect(primaryLanguage(['uz', 'tk'], pop, alias)).toBe('uz');
    expect(primaryLanguage(['no'], undefined, alias)).toBe('no');
    expect(primaryLanguage([], pop, alias)).toBeNull();
  });

  it('currencies: legal tender today, in CLDR order', () => {
    const zw: Record<string, { _from?: string; _to?: string }>[] = [{ ZWG: { _from: '2024-06-25' } }, { USD: { _from: '2009-04-12' } }, { ZWL: { _from: '2009-02-02', _to: '2024-08-31' } }];
    expect(currentCurrencies(zw)).toEqual(['ZWG', 'USD']);
    expect(currentCurrencies([{ XXX: { _tender: 'false' } }])).toEqual([]);
    expect(currentCurrencies(undefined)).toEqual([]);
  });

  const src = loadCountrySources(SOURCES);
  const small: CountryInputs = {
    timezones: { US: ['America/New_York', 'America/Chicago'], JP: ['Asia/Tokyo'] },
    workweeks: Object.fromEntries(ISO_CODES.map((c) => [c, MONDAY_FRIDAY])),
    businessDayLocations: new Set(['JP']),
  };

  it('passes the given zones, workweek and holiday coverage through, with encoded links', () => {
    const built = buildCountries(src, { ...small, workweeks: { ...small.workweeks, IL: ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday'] } });
    const us = built.find((c) => c.code === 'US')!;
    expect(us.timezones).toEqual(['America/New_York', 'America/Chicago']);
    expect(us.links).toEqual({ self: '/v1/countries/US', timezones: ['/v1/timezones/America%2FNew_York', '/v1/timezones/America%2FChicago'], business_days: null });
    expect(built.find((c) => c.code === 'JP')!.links.business_days).toBe('/v1/business-days/JP');
    expect(built.find((c) => c.code === 'IL')!.workweek).toEqual(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday']);
    expect(built.find((c) => c.code === 'BV')!.timezones).toEqual([]);
    expect(built.map((c) => c.code)).toEqual(ISO_CODES);
  });

  it('fails closed: a missing workweek, a stale or unknown correction, a stale currency name', () => {
    const { JP: _jp, ...noJapan } = small.workweeks;
    expect(() => buildCountries(src, { ...small, workweeks: noJapan })).toThrow(/JP: no workweek/);
    const stale = src.corrections.map((r) => (r.country === 'GD' && r.field === 'capital' ? { ...r, upstream: "St. George's|0|0" } : r));
    expect(() => buildCountries({ ...src, corrections: stale }, small)).toThrow(/upstream is now/);
    const unknown = [...src.corrections, { country: 'ZZ', field: 'capital' as const, upstream: '', corrected: '', where: 'test row' }];
    expect(() => buildCountries({ ...src, corrections: unknown }, small)).toThrow(/unknown countries: test row/);
    const named = [...src.currencyNames, { code: 'JPY', name: 'Yen', symbol: '¥', where: 'test row' }];
    expect(() => buildCountries({ ...src, currencyNames: named }, small)).toThrow(/now names JPY/);
  });
});

describe('emitted files', () => {
  it('every file validates against its schema and each path has one', () => {
    const ajv = createAjv();
    const paths = ['countries/index.json', ...readdirSync(join(dataDir, 'v1', 'countries'), { recursive: true, encoding: 'utf8' }).map((p) => `countries/${p}`)];
    let checked = 0;
    for (const path of new Set(paths)) {
      if (!path.endsWith('.json')) continue;
      const schema = COUNTRY_SCHEMA_ROUTES.find(([re]) => re.test(path))?.[1];
      expect(schema, path).toBeDefined();
      const validate = ajv.getSchema(`https://refdata.dev/schemas/v1/${schema}`)!;
      expect(validate(file(path)), `${path}: ${ajv.errorsText(validate.errors)}`).toBe(true);
      checked++;
    }
    expect(checked).toBe(1 + 249 + 5);
  });

  it('lists exactly the 249 ISO 3166-1 codes, sorted, without XK', () => {
    expect(index.map((c) => c.code)).toEqual(ISO_CODES);
    expect(index).toHaveLength(249);
    expect(index.some((c) => c.code === 'XK')).toBe(false);
  });

  it('every field is present and filled for all 249', () => {
    const keys = ['alpha3', 'capital', 'cctld', 'code', 'continent', 'currencies', 'driving_side', 'languages', 'links', 'name', 'neighbors', 'numeric', 'official_name', 'phone_code', 'primary_currency', 'primary_language', 'subdivisions', 'timezones', 'workweek'];
    const tab = zoneTab();
    for (const c of index) {
      expect(Object.keys(c).sort(), c.code).toEqual(keys);
      expect(c.alpha3, c.code).toMatch(/^[A-Z]{3}$/);
      expect(c.numeric, c.code).toMatch(/^\d{3}$/);
      expect(c.name.length * c.official_name.length, c.code).toBeGreaterThan(0);
      expect(c.workweek.length, c.code).toBeGreaterThan(0);
      expect(c.links.self).toBe(`/v1/countries/${c.code}`);
      expect(c.timezones, c.code).toEqual(tab[c.code] ?? []);
      expect(c.links.timezones).toEqual(c.timezones.map((z) => `/v1/timezones/${encodeURIComponent(z)}`));
      // Only Antarctica has no currency or language; only a handful of territories no capital or calling code.
      if (c.code !== 'AQ') {
        expect(c.currencies.length * c.languages.length, c.code).toBeGreaterThan(0);
        expect(c.currencies[0].code).toBe(c.primary_currency);
        expect(c.languages[0].code).toBe(c.primary_language);
      }
    }
    expect(index.filter((c) => c.capital === null).map((c) => c.code)).toEqual(['AQ', 'BV', 'HM', 'MO', 'UM']);
    expect(index.filter((c) => c.phone_code === null).map((c) => c.code)).toEqual(['AQ', 'HM']);
    expect(index.filter((c) => c.cctld === null)).toEqual([]);
  });

  it('each country file and each page equals the index (same objects the route serves)', () => {
    for (const c of index) expect(file(`countries/${c.code}.json`)).toEqual(c);
    for (let page = 1; page <= 5; page++) expect(file(`countries/pages/${page}.json`)).toEqual(paginate(index, { page, per_page: 50 }));
  });

  it('workweeks and business-day links agree with the business-day data', () => {
    const bd = businessDaysIndex();
    if (!bd) return; // no dataset built: nothing to compare against
    const noData = new Set(bd.no_holiday_data.map((l) => l.location));
    for (const c of index) {
      expect(c.links.business_days === null, c.code).toBe(noData.has(c.code));
      if (c.links.business_days) {
        const periods = readJson(join(DATA_DIR, 'v1', 'business-days', c.code, 'index.json')).workweeks;
        expect(c.workweek, c.code).toEqual(periods.at(-1).workweek);
      }
    }
  });
});

interface GoldenCountry {
  code: string;
  alpha3: string;
  numeric: string;
  currency?: string;
  phone_code?: string;
  driving_side?: string;
  capital?: { name: string; latitude: number; longitude: number; source: string };
}
const golden = readJson<{ countries: GoldenCountry[]; phone_code_disagreements_with_mledoze: { code: string; ours: string; mledoze: string; why: string }[] }>(
  join(import.meta.dirname, 'golden', 'countries.json'),
);

/** Great-circle distance in km. */
function km(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}
const simpleName = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\bst\b\.?/g, 'saint').replace(/[^a-z]/g, '');

describe('facts', () => {
  it('match the golden facts typed in from UN M49, SIX ISO 4217, ITU E.164 and the Factbook', () => {
    expect(golden.countries.length).toBeGreaterThanOrEqual(25);
    for (const g of golden.countries) {
      const c = byCode(g.code);
      expect(c, g.code).toBeDefined();
      expect([c.alpha3, c.numeric], g.code).toEqual([g.alpha3, g.numeric]);
      if (g.currency) expect(c.primary_currency, g.code).toBe(g.currency);
      if (g.phone_code) expect(c.phone_code, g.code).toBe(g.phone_code);
      if (g.driving_side) expect(c.driving_side, g.code).toBe(g.driving_side);
      if (g.capital) {
        expect(g.capital.source).toMatch(/^https:\/\//);
        expect(simpleName(c.capital!.name), g.code).toBe(simpleName(g.capital.name));
        expect(km(c.capital!.latitude, c.capital!.longitude, g.capital.latitude, g.capital.longitude), g.code).toBeLessThan(50);
      }
    }
  });

  it('neighbors are valid codes and symmetric', () => {
    const codes = new Set(index.map((c) => c.code));
    for (const c of index) {
      expect(c.neighbors).toEqual([...c.neighbors].sort());
      for (const n of c.neighbors) {
        expect(codes.has(n), `${c.code} -> ${n}`).toBe(true);
        expect(byCode(n).neighbors, `${n} should border ${c.code}`).toContain(c.code);
      }
    }
    expect(byCode('FR').neighbors).toEqual(expect.arrayContaining(['BE', 'DE', 'ES', 'IT']));
    expect(byCode('RS').neighbors).not.toContain('XK');
    expect(byCode('JP').neighbors).toEqual([]);
  });

  it('calling codes agree with mledoze/countries, except the disagreements listed with a reason', () => {
    const mledoze = readJson<{ countries: { cca2: string; idd: { root?: string; suffixes?: string[] } }[] }>(join(SOURCES, 'countries', 'mledoze', 'slim-idd.json')).countries;
    const known = new Map(golden.phone_code_disagreements_with_mledoze.map((d) => [d.code, d]));
    const found: string[] = [];
    for (const c of index) {
      const m = mledoze.find((x) => x.cca2 === c.code)!;
      const candidates = m.idd.root ? (m.idd.suffixes ?? ['']).map((s) => m.idd.root + s) : [];
      const ours = c.phone_code?.replace(/ /g, '');
      // Ours is the code itself (plus an area code): a prefix of one of mledoze's numbers.
      const agrees = ours === undefined ? candidates.length === 0 : candidates.some((n) => n.startsWith(ours));
      if (!agrees) found.push(`${c.code} ${c.phone_code} vs ${candidates.slice(0, 3).join(',')}`);
    }
    expect(found.map((f) => f.split(' ')[0])).toEqual([...known.keys()]);
    for (const d of known.values()) expect(d.why.length).toBeGreaterThan(20);
  });

  it('subdivision codes equal CLDR subdivisionContainment (an independent copy of ISO 3166-2)', () => {
    const containment = require('cldr-core/supplemental/subdivisionContainment.json').supplemental.subdivisionContainment as Record<string, { _contains: string[] }>;
    const cldr = new Map<string, Set<string>>();
    for (const [parent, { _contains }] of Object.entries(containment)) {
      for (const id of /^[a-z]/.test(parent) ? [parent, ..._contains] : _contains) {
        if (!/^[a-z]{2}[a-z0-9]+$/.test(id)) continue;
        const cc = id.slice(0, 2).toUpperCase();
        cldr.set(cc, (cldr.get(cc) ?? new Set()).add(`${cc}-${id.slice(2).toUpperCase()}`));
      }
    }
    for (const c of index) expect(c.subdivisions.map((s) => s.code), c.code).toEqual([...(cldr.get(c.code) ?? [])].sort());
    expect(byCode('JP').subdivisions.find((s) => s.code === 'JP-13')).toMatchObject({ code: 'JP-13', name: 'Tokyo', type: 'Prefecture' });
    expect(byCode('US').subdivisions.find((s) => s.code === 'US-CA')).toMatchObject({ code: 'US-CA', name: 'California', type: 'State' });
    expect(index.filter((c) => c.subdivisions.length === 0)).toHaveLength(49);
  });

  it('every capital lies near its country (catches swapped or misplaced coordinates)', () => {
    const rc = readJson<{ countries: { cca2: string; latlng: number[]; area: number }[] }>(join(SOURCES, 'countries', 'restcountries', 'countries-v3.1.json')).countries;
    // Far from the centroid for real: atolls over 1,000 km (MH), a centroid in the South China Sea (MY).
    const spread = new Set(['MH', 'MY']);
    for (const c of index) {
      if (!c.capital || spread.has(c.code)) continue;
      const r = rc.find((x) => x.cca2 === c.code)!;
      const limit = Math.max(400, 2 * Math.sqrt(r.area));
      expect(km(c.capital.latitude, c.capital.longitude, r.latlng[0], r.latlng[1]), c.code).toBeLessThan(limit);
    }
  });

  it('languages and currencies are well formed and named in English', () => {
    for (const c of index) {
      expect(new Set(c.languages.map((l) => l.code)).size, c.code).toBe(c.languages.length);
      expect(new Set(c.currencies.map((x) => x.code)).size, c.code).toBe(c.currencies.length);
    }
    expect(byCode('CH').languages.map((l) => l.code)).toEqual(['de', 'fr', 'it', 'rm']);
    expect(byCode('JP').languages).toEqual([{ code: 'ja', name: 'Japanese' }]);
    expect(byCode('AF').primary_language).toBe('prs');
    expect(byCode('US').currencies).toEqual([{ code: 'USD', name: 'United States dollar', symbol: '$' }]);
    expect(byCode('PA').currencies.map((x) => x.code)).toEqual(['PAB', 'USD']);
  });
});

describe('HTTP: /v1/countries sub-app', () => {
  let app: ReturnType<typeof countriesRoutes>;
  beforeAll(() => {
    app = countriesRoutes(dataDir);
  });
  const get = async (path: string, init?: RequestInit) => {
    const res = await app.request(path, init);
    const text = await res.text();
    return { status: res.status, type: res.headers.get('content-type'), text, body: text ? JSON.parse(text) : undefined };
  };
  const expectError = async (path: string, status: number, code: string, parameter?: string) => {
    const r = await get(path);
    expect(r.status, path).toBe(status);
    expect(r.type).toMatch(/^application\/json/);
    assertMatchesSchema('error.schema.json', r.body);
    expect(r.body.error, path).toMatchObject({ status, code, ...(parameter ? { parameter } : {}) });
  };

  it('GET /{code} answers the static file, case-insensitively', async () => {
    const jp = await get('/JP');
    expect(jp.status).toBe(200);
    expect(jp.type).toBe('application/json; charset=utf-8');
    assertMatchesSchema('country.schema.json', jp.body);
    expect(jp.body).toEqual(file('countries/JP.json'));
    expect(jp.body.links).toEqual({ self: '/v1/countries/JP', timezones: ['/v1/timezones/Asia%2FTokyo'], business_days: '/v1/business-days/JP' });
    for (const p of ['/jp', '/Jp', '/jP']) expect((await get(p)).text).toBe(jp.text);
    for (const c of index) expect((await get(`/${c.code.toLowerCase()}`)).body).toEqual(c);
  });

  it('unknown codes are a JSON 404 unknown_country', async () => {
    for (const p of ['/XX', '/XK', '/JPN', '/J', '/j1', '/%20JP', '/392']) await expectError(p, 404, 'unknown_country', 'code');
  });

  it('answers carry the headers the gate passes in the env (X-Dataset-Version)', async () => {
    const env = { answerHeaders: { 'content-type': 'application/json; charset=utf-8', 'x-dataset-version': 'test-version' } };
    for (const p of ['/JP', '/?per_page=7']) expect((await app.request(p, undefined, env)).headers.get('x-dataset-version'), p).toBe('test-version');
  });

  it('HEAD works like GET without a body', async () => {
    const r = await app.request('/JP', { method: 'HEAD' });
    expect(r.status).toBe(200);
    expect(await r.text()).toBe('');
  });

  it('GET / is page 1 of 50 and equals the static page files', async () => {
    const first = await get('/');
    expect(first.status).toBe(200);
    assertMatchesSchema('country-list.schema.json', first.body);
    expect(first.body).toEqual(file('countries/pages/1.json'));
    expect(first.body.pagination).toEqual({ page: 1, per_page: 50, total_items: 249, total_pages: 5 });
    for (let page = 1; page <= 5; page++) expect((await get(`/?page=${page}`)).body).toEqual(file(`countries/pages/${page}.json`));
    expect((await get('/?page=5&per_page=50')).body.data).toHaveLength(49);
  });

  it('pagination edges: past the end, per_page 1 and 100', async () => {
    const past = await get('/?page=6');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], pagination: { page: 6, per_page: 50, total_items: 249, total_pages: 5 } });
    expect((await get('/?page=999999999')).body.data).toEqual([]);
    const one = await get('/?per_page=1&page=249');
    expect(one.body.data.map((c: Country) => c.code)).toEqual(['ZW']);
    expect(one.body.pagination).toEqual({ page: 249, per_page: 1, total_items: 249, total_pages: 249 });
    const hundred = await get('/?per_page=100&page=3');
    expect(hundred.body.data).toHaveLength(49);
    expect(hundred.body.pagination.total_pages).toBe(3);
    expect((await get('/?per_page=100&page=3')).text).toBe(hundred.text); // cached bytes are identical
    expect(hundred.body.data[0]).toEqual(index[200]);
  });

  it('bad page parameters are a JSON 400', async () => {
    for (const p of ['0', '-1', '1.5', 'x', '', '1e2']) await expectError(`/?page=${p}`, 400, 'invalid_page', 'page');
    for (const p of ['0', '101', 'x', '', '50.0']) await expectError(`/?per_page=${p}`, 400, 'invalid_per_page', 'per_page');
    await expectError('/?page=1&page=2', 400, 'duplicate_parameter', 'page');
    await expectError('/?per_page=1&per_page=1', 400, 'duplicate_parameter', 'per_page');
  });
});
