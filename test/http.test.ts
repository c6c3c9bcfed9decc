/**
 * HTTP tests against the real server on a free port: every endpoint, every
 * default, every error status, and fuzzed bad input that must always get a
 * 4xx with a JSON error body (never a 5xx, never a crash).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startServer } from '../server/main.js';
import { MAX_COUNT_DAYS, MAX_DAYS } from '../server/routes/business-days.js';
import { appAt, DATA_DIR, getJson, sharedKeys, UNLIMITED } from './helpers.js';
import { assertMatchesSchema } from './schemas.js';

let close: () => Promise<void>;
let base: string;
const KEY = { 'x-api-key': sharedKeys().keys.growth };

beforeAll(async () => {
  const started = await startServer({ port: 0, hostname: '127.0.0.1', dataDir: DATA_DIR, keysFile: sharedKeys().file, limits: UNLIMITED, redisUrl: '' });
  close = started.close;
  base = `http://127.0.0.1:${started.port}`;
});
afterAll(() => close());

/** A request with a growth-plan key (premium areas need a paid plan). */
async function get(path: string, init?: RequestInit) {
  const res = await fetch(base + path, { ...init, headers: { ...KEY, ...(init?.headers as Record<string, string>) } });
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, body, headers: res.headers };
}

describe('the five endpoints answer with the spec fields', () => {
  it('check', async () => {
    const { status, body, headers } = await get('/v1/business-days/US?date=2026-01-19');
    expect(status).toBe(200);
    expect(headers.get('content-type')).toMatch(/^application\/json/);
    expect(headers.get('x-dataset-version')).toMatch(/^[0-9a-f]{16}$/);
    assertMatchesSchema('business-day-check.schema.json', body);
    expect(body).toMatchObject({ date: '2026-01-19', location: 'US', type: 'business', is_business_day: false, reason: 'holiday', next_business_day: '2026-01-20', prev_business_day: '2026-01-16' });
    expect(body.holiday.name).toBe('Martin Luther King Jr. Day');
  });

  it('check on a business day has no reason or next/prev fields', async () => {
    const { body } = await get('/v1/business-days/US?date=2026-01-20');
    assertMatchesSchema('business-day-check.schema.json', body);
    expect(body.is_business_day).toBe(true);
    expect(body.holiday).toBeNull();
    for (const k of ['reason', 'next_business_day', 'prev_business_day']) expect(body).not.toHaveProperty(k);
  });

  it('a weekend holiday reports reason weekend and still names the holiday', async () => {
    const { body } = await get('/v1/business-days/US?date=2026-07-04');
    expect(body).toMatchObject({ is_business_day: false, reason: 'weekend' });
    expect(body.holiday.name).toBe('Independence Day');
  });

  it('add and subtract do not count the start day', async () => {
    const add = await get('/v1/business-days/US/add?start=2026-01-15&days=10');
    assertMatchesSchema('business-day-shift.schema.json', add.body);
    expect(add.body).toMatchObject({ start: '2026-01-15', days: 10, result: '2026-01-30' });
    expect((await get('/v1/business-days/US/add?start=2026-01-17&days=1')).body.result).toBe('2026-01-20'); // Saturday + 1 skips MLK Monday
    expect((await get('/v1/business-days/US/add?start=2026-01-23&days=1')).body.result).toBe('2026-01-26'); // Friday + 1 = Monday
    const sub = await get('/v1/business-days/US/subtract?start=2026-01-30&days=10');
    assertMatchesSchema('business-day-shift.schema.json', sub.body);
    expect(sub.body.result).toBe('2026-01-15');
  });

  it('count is inclusive and its parts add up', async () => {
    const { status, body } = await get('/v1/business-days/US/count?start=2026-07-01&end=2026-07-31');
    expect(status).toBe(200);
    assertMatchesSchema('business-day-count.schema.json', body);
    expect(body).toMatchObject({ total_days: 31, business_days: 22, weekend_days: 8, holidays: 1 });
    expect(body.business_days + body.weekend_days + body.holidays).toBe(body.total_days);
    expect(body.holiday_list.map((h: any) => h.date)).toEqual(['2026-07-03', '2026-07-04']);
    const one = await get('/v1/business-days/US/count?start=2026-07-06&end=2026-07-06');
    expect(one.body).toMatchObject({ total_days: 1, business_days: 1 });
  });

  it('next is strictly after from', async () => {
    const { body } = await get('/v1/business-days/US/next?from=2026-07-02');
    assertMatchesSchema('business-day-next.schema.json', body);
    expect(body).toMatchObject({ from: '2026-07-02', next: '2026-07-06', days_until: 4 });
    expect((await get('/v1/business-days/US/next?from=2026-07-06')).body.next).toBe('2026-07-07');
  });

  it('lists the locations', async () => {
    const { status, body } = await get('/v1/business-days');
    expect(status).toBe(200);
    assertMatchesSchema('business-days-locations.schema.json', body);
    const manifest = JSON.parse(readFileSync(join(DATA_DIR, 'v1', 'manifest.json'), 'utf8'));
    expect(body.locations.length).toBe(manifest.counts.locations);
  });

  it('accepts lower-case codes and answers with the canonical one', async () => {
    expect((await get('/v1/business-days/us-ca?date=2026-03-31')).body).toMatchObject({ location: 'US-CA', is_business_day: false });
  });

  it('HEAD works like GET without a body', async () => {
    const res = await fetch(`${base}/v1/business-days/US?date=2026-01-19`, { method: 'HEAD', headers: KEY });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});

describe('defaults', () => {
  it('type defaults to business and date to today in the location', async () => {
    const { body } = await get('/v1/business-days/JP');
    expect(body.type).toBe('business');
    // Japan keeps UTC+9 all year (no DST since 1951): today there is UTC plus nine hours.
    expect(body.date).toBe(new Date(Date.now() + 9 * 3_600_000).toISOString().slice(0, 10));
  });

  it('"today" is the location\'s own date (frozen clock: 03:00 UTC is still yesterday in New York)', async () => {
    const app = appAt(new Date('2026-11-21T03:00:00Z'));
    expect((await getJson(app, '/v1/business-days/US')).body.date).toBe('2026-11-20');
    expect((await getJson(app, '/v1/business-days/JP')).body.date).toBe('2026-11-21');
    expect((await getJson(app, '/v1/business-days/US/add?days=1')).body).toMatchObject({ start: '2026-11-20', result: '2026-11-23' });
    expect((await getJson(app, '/v1/business-days/JP/subtract?days=1')).body).toMatchObject({ start: '2026-11-21', result: '2026-11-20' });
    expect((await getJson(app, '/v1/business-days/JP/next')).body).toMatchObject({ from: '2026-11-21', next: '2026-11-24' }); // Mon 23 is Labour Thanksgiving Day
  });
});

describe('errors: status, JSON body, machine code', () => {
  const cases: [string, number, string][] = [
    ['/v1/business-days/US?date=2025-02-30', 400, 'invalid_date'],
    ['/v1/business-days/US?date=2025-2-3', 400, 'invalid_date'],
    ['/v1/business-days/US?date=tomorrow', 400, 'invalid_date'],
    ['/v1/business-days/US?date=1989-12-31', 400, 'out_of_range'],
    ['/v1/business-days/US?date=2100-01-01', 400, 'out_of_range'],
    ['/v1/business-days/US?type=school', 400, 'invalid_type'],
    ['/v1/business-days/US?type=', 400, 'invalid_type'],
    ['/v1/business-days/US/add?start=2026-01-01', 400, 'missing_parameter'],
    ['/v1/business-days/US/add?start=2026-01-01&days=0', 400, 'invalid_days'],
    ['/v1/business-days/US/add?start=2026-01-01&days=-3', 400, 'invalid_days'],
    ['/v1/business-days/US/add?start=2026-01-01&days=1.5', 400, 'invalid_days'],
    ['/v1/business-days/US/add?start=2026-01-01&days=1e3', 400, 'invalid_days'],
    ['/v1/business-days/US/add?start=2026-01-01&days=abc', 400, 'invalid_days'],
    [`/v1/business-days/US/add?start=2026-01-01&days=${MAX_DAYS + 1}`, 400, 'invalid_days'],
    ['/v1/business-days/US/add?start=2026-01-01&days=99999999999999999999', 400, 'invalid_days'],
    ['/v1/business-days/US/add?start=2026-01-01&days=9007199254740992', 400, 'invalid_days'],
    ['/v1/business-days/US/add?start=2099-12-01&days=100', 400, 'out_of_range'],
    ['/v1/business-days/US/subtract?start=1990-01-10&days=100', 400, 'out_of_range'],
    ['/v1/business-days/US/count?start=2026-01-01', 400, 'missing_parameter'],
    ['/v1/business-days/US/count?end=2026-01-01', 400, 'missing_parameter'],
    ['/v1/business-days/US/count?start=2026-02-01&end=2026-01-01', 400, 'invalid_range'],
    [`/v1/business-days/US/count?start=1990-01-01&end=2099-12-31`, 400, 'range_too_large'],
    ['/v1/business-days/US/next?from=2099-12-31', 400, 'out_of_range'],
    ['/v1/business-days/ZZ', 404, 'unknown_location'],
    ['/v1/business-days/US-XX', 404, 'unknown_location'],
    ['/v1/business-days/AQ', 404, 'no_holiday_data'],
    ['/v1/business-days/BV/add?days=3', 404, 'no_holiday_data'],
    ['/v1/business-days/..%2F..%2Fetc%2Fpasswd', 404, 'unknown_location'],
    ['/v1/business-days/%2e%2e', 404, 'not_found'], // the URL parser resolves %2e%2e to ..
    ['/v1/business-days/US/add?days=1&days=2', 400, 'duplicate_parameter'],
    ['/v1/business-days/US?date=2026-01-01&date=2026-01-02', 400, 'duplicate_parameter'],
    ['/v1/business-days/US%00', 404, 'unknown_location'],
    ['/v1/business-days/US/nope', 404, 'not_found'],
    ['/v2/business-days/US', 404, 'not_found'],
  ];
  for (const [path, status, code] of cases) {
    it(`${path.slice(0, 90)} → ${status} ${code}`, async () => {
      const res = await get(path);
      expect(res.status).toBe(status);
      assertMatchesSchema('error.schema.json', res.body);
      expect(res.body.error).toMatchObject({ status, code });
      expect(res.body.error.message.length).toBeGreaterThan(10);
    });
  }

  it(`a count of exactly ${MAX_COUNT_DAYS} days is allowed`, async () => {
    const { status, body } = await get('/v1/business-days/US/count?start=2026-01-01&end=2036-01-08');
    expect(status).toBe(200);
    expect(body.total_days).toBe(MAX_COUNT_DAYS);
  });

  it('a days over the limit is told the limit, however many digits it has', async () => {
    for (const days of ['10001', '9007199254740992', '9'.repeat(60)]) {
      const { body } = await get(`/v1/business-days/US/add?start=2026-01-01&days=${days}`);
      expect(body.error.message, days).toMatch(new RegExp(`^days must be at most ${MAX_DAYS}, got \\d{1,40}…?$`));
    }
    expect((await get('/v1/business-days/US/add?start=2026-01-01&days=0')).body.error.message).toBe(`days must be a whole number from 1 to ${MAX_DAYS}, got "0"`);
  });

  it('POST, PUT, DELETE and PATCH get 405 with Allow', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const res = await get('/v1/business-days/US', { method });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toContain('GET');
      expect(res.body.error.code).toBe('method_not_allowed');
    }
  });

  it('an oversized query gets 414', async () => {
    const res = await get(`/v1/business-days/US?date=2026-01-01&pad=${'x'.repeat(3000)}`);
    expect(res.status).toBe(414);
    expect(res.body.error.code).toBe('uri_too_long');
  });
});

describe('fuzzed input never crashes and always gets a JSON answer', () => {
  const app = appAt();
  const junk = fc.oneof(
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.constantFrom('..', '%2e%2e%2f', '%252e', '%00', '%ff', '\u0000', 'US-CA-XX-YY', '2026-02-29', '9999-99-99', '-1', '1e309', 'NaN', 'Infinity', '__proto__', 'constructor'),
    fc.integer().map(String),
    fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  );
  it('in-process: 2,000 random requests', async () => {
    await fc.assert(
      fc.asyncProperty(junk, junk, junk, fc.constantFrom('', '/add', '/subtract', '/count', '/next'), async (loc, p1, p2, op) => {
        const path = `/v1/business-days/${encodeURIComponent(loc)}${op}?date=${encodeURIComponent(p1)}&start=${encodeURIComponent(p1)}&end=${encodeURIComponent(p2)}&days=${encodeURIComponent(p2)}&from=${encodeURIComponent(p1)}&type=${encodeURIComponent(p2)}`;
        const res = await app.request(path, { headers: KEY });
        expect(res.status, path).toBeLessThan(500);
        const body = await res.json();
        if (res.status >= 400) assertMatchesSchema('error.schema.json', body);
      }),
      { numRuns: 2000 },
    );
  });

  it('over the socket: raw, unencoded and doubly encoded path tricks', async () => {
    const paths = ['/v1/business-days/%2e%2e/%2e%2e/package.json', '/v1/business-days/US%2F..%2F..%2Fmanifest', '/v1/business-days/%25%32%65', '/v1/business-days/%E0%A4%A', '/v1/business-days/US?date=%E0%A4%A', '/v1/business-days/US/count?start=2026-01-01&end=2026-01-05&end=2026-01-06', `/v1/business-days/${'A'.repeat(500)}`, '/v1/business-days/US/add?start=2026-01-01&days=%20%31'];
    for (const p of paths) {
      const res = await get(p);
      expect(res.status, p).toBeGreaterThanOrEqual(400);
      expect(res.status, p).toBeLessThan(500);
      assertMatchesSchema('error.schema.json', res.body);
    }
    // The server is still up and answering correctly afterwards.
    expect((await get('/v1/business-days/US?date=2026-01-19')).body.is_business_day).toBe(false);
  });
});

describe('every area answers through the one app with the dataset version', () => {
  for (const path of ['/v1/countries/JP', '/v1/countries?page=2', '/v1/timezones/Asia%2FTokyo', '/v1/timezones', '/v1/business-days/JP?date=2026-01-01', '/v1/business-days']) {
    it(path, async () => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('x-dataset-version')).toMatch(/^[0-9a-f]{16}$/);
    });
  }
});

describe('a year\'s holidays: /v1/business-days/{location}/holidays', () => {
  it('lists the year of a state with its own holidays', async () => {
    const res = await get('/v1/business-days/us-ca/holidays?year=2026');
    expect(res.status).toBe(200);
    assertMatchesSchema('business-days-year.schema.json', res.body);
    expect(res.body.location).toBe('US-CA');
    expect(res.body.year).toBe(2026);
    // CalHR state holidays 2026 (https://www.calhr.ca.gov/employees/pages/state-holidays.aspx): César Chávez Day, Tuesday March 31.
    expect(res.body.holidays).toContainEqual(expect.objectContaining({ date: '2026-03-31', name: 'César Chávez Day' }));
    // Independence Day 2026 falls on a Saturday; federal offices observe Friday July 3 (OPM 2026 federal holidays).
    expect(res.body.holidays).toContainEqual(expect.objectContaining({ date: '2026-07-03', observed_for: '2026-07-04', substitute: true }));
  });

  it('defaults to the current year in the location\'s own time zone', async () => {
    // 2026-12-31T16:00Z is already 2027-01-01 01:00 in Tokyo, still 2026 in New York.
    const app = appAt(new Date('2026-12-31T16:00:00Z'));
    expect((await getJson(app, '/v1/business-days/JP/holidays')).body.year).toBe(2027);
    expect((await getJson(app, '/v1/business-days/US/holidays')).body.year).toBe(2026);
  });

  it.each([
    ['?year=1989', 400, 'out_of_range'],
    ['?year=2100', 400, 'out_of_range'],
    ['?year=20x6', 400, 'invalid_year'],
    ['?year=02026', 400, 'invalid_year'],
    ['?year=2026&year=2027', 400, 'repeated_parameter'],
  ])('%s gets %i %s', async (query, status, code) => {
    const res = await get(`/v1/business-days/US/holidays${query}`);
    expect(res.status).toBe(status);
    assertMatchesSchema('error.schema.json', res.body);
    if (code !== 'repeated_parameter') expect(res.body.error.code).toBe(code);
  });

  it('an unknown location gets 404', async () => {
    expect((await get('/v1/business-days/ZZ/holidays?year=2026')).status).toBe(404);
  });
});
