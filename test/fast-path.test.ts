/**
 * The hot path of server/main.ts (issue 15): a GET whose answer was kept is
 * answered again without its route (no WHATWG Request, no Hono, no promise).
 * Its answers must be the app's, header for header and byte for byte, refusals
 * included; and answer() must offer it only answers that are a function of the
 * request target and the dataset, or that hold until a known instant.
 */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { entityTag, keep, KEEPER, precompress, respond, type AnswerKeeper, type Kept } from '../server/answer-headers.js';
import { GATE_HEADER_NAMES } from '../server/access/gate.js';
import { Limiter } from '../server/access/limiter.js';
import { DEFAULT_LIMITS, type Plan, type PlanLimits } from '../server/access/plans.js';
import { startServer } from '../server/main.js';
import { DATA_DIR, sharedKeys, sharedStore, sharedTimezones, UNLIMITED } from './helpers.js';

interface Raw {
  status: number;
  /** Header lines, lower-cased names, sorted; without the ones that change from one request to the next. */
  headers: string[];
  /** The header names in the order sent, without those Node adds itself and Content-Length (see ORDERED). */
  order: string[];
  body: string;
}

/**
 * Names left out of the order compared: Node's own, and Content-Length, which the fast path has always
 * written with the answer's headers while Node adds it after its own to a string answer of the app.
 */
const UNORDERED = new Set(['date', 'connection', 'keep-alive', 'content-length']);

/** Headers whose value legitimately differs between two requests a second apart. */
const VARYING = new Set(['date', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after']);

function get(port: number, path: string, headers: Record<string, string>, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const lines: string[] = [];
        const order: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i].toLowerCase();
          if (!VARYING.has(name)) lines.push(`${name}: ${res.rawHeaders[i + 1]}`);
          if (!UNORDERED.has(name)) order.push(name);
        }
        // A 429's message names the seconds left, which may tick between two requests.
        const body = Buffer.concat(chunks).toString('latin1').replace(/resets in \d+ s \(at [^)]*\)/, 'resets in N s');
        resolve({ status: res.statusCode!, headers: lines.sort(), order, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('kept answers are the app answers, header for header', () => {
  let port: number;
  let close: () => Promise<void>;
  const { keys } = sharedKeys();

  beforeAll(async () => {
    const started = await startServer({ port: 0, hostname: '127.0.0.1', dataDir: DATA_DIR, keysFile: sharedKeys().file, limits: UNLIMITED, redisUrl: '' });
    port = started.port;
    close = started.close;
  });
  afterAll(() => close());

  const paths = [
    '/v1/business-days',
    '/v1/business-days/US?date=2026-01-19',
    '/v1/business-days/us?date=2026-07-03&type=government',
    '/v1/business-days/US',
    '/v1/business-days/DE-BY/count?start=2026-01-01&end=2026-12-31',
    '/v1/business-days/US/add?start=2026-01-15&days=10',
    '/v1/business-days/JP/next?from=2026-05-01',
    '/v1/business-days/US/holidays?year=2026',
    '/v1/business-days/US/holidays.ics?from_year=2026&to_year=2026',
    '/v1/countries',
    '/v1/countries/JP',
    '/v1/countries/gb',
    '/v1/travel/JP',
    '/v1/travel/JP-13',
    '/v1/travel/JP?from=US&date=2026-03-15',
    '/v1/timezones?page=2',
    '/v1/timezones/America%2FNew_York',
    '/v1/timezones/UTC',
    '/v1/timezones/Europe%2FLondon?at=2026-03-08T07:00:00Z',
    '/v1/timezones/Asia%2FTokyo/transitions?year=2026',
    '/v1/timezones/lookup?latitude=51.5&longitude=-0.12',
  ];
  const callers: Record<string, Record<string, string>> = {
    growth: { 'x-api-key': keys.growth },
    'growth, brotli': { 'x-api-key': keys.growth, 'accept-encoding': 'gzip, deflate, br' },
    'growth, gzip': { 'x-api-key': keys.growth, 'accept-encoding': 'gzip' },
    'free key': { 'x-api-key': keys.free },
    anonymous: {},
    'unknown key, Authorization': { 'x-api-key': 'rdk_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx', authorization: 'Bearer x' },
  };

  it.each(paths)('%s: the same answer the first time (the app) and after (kept), for every caller', async (path) => {
    for (const [who, headers] of Object.entries(callers)) {
      const first = await get(port, path, headers);
      // toEqual compares the order of the headers too: the fast path writes them as a list, in the app's order.
      for (let i = 0; i < 2; i++) expect(await get(port, path, headers), `${path} ${who} #${i + 2}`).toEqual(first);
      if (first.status !== 200) continue;
      const etag = first.headers.find((h) => h.startsWith('etag: '))!.slice(6);
      for (const inm of [etag, `"other", W/${etag}`]) {
        const a = await get(port, path, { ...headers, 'if-none-match': inm });
        expect(a.status, `${path} ${who} If-None-Match ${inm}`).toBe(304);
        expect(await get(port, path, { ...headers, 'if-none-match': inm })).toEqual(a);
      }
      // HEAD: GET's headers, Content-Length included, without a body (kept or not).
      const head = await get(port, path, headers, 'HEAD');
      expect(head.status).toBe(200);
      expect(head.body).toBe('');
      const length = (r: Raw) => r.headers.find((h) => h.startsWith('content-length: '));
      expect(length(head), `${path} ${who} HEAD`).toBe(length(first));
      expect(length(first)).toBeDefined();
    }
  });

  it('a target that names one area and reaches another is gated by the one it reaches, kept or not', async () => {
    for (const path of ['/v1/countries/../travel/JP', '/v1/countries/%2e%2e/travel/JP', '/v1/timezones/%2E%2E/business-days/US?date=2026-01-19']) {
      expect((await get(port, path, { 'x-api-key': keys.growth })).status, path).toBe(200);
      for (let i = 0; i < 2; i++) {
        expect((await get(port, path, {})).status, `${path} anonymous`).toBe(402);
        expect((await get(port, path, { 'x-api-key': keys.free })).status, `${path} free`).toBe(402);
        expect((await get(port, path, { 'x-api-key': keys.growth })).status, `${path} growth`).toBe(200);
      }
    }
  });

  it('a kept answer is not served for another Host than the adapter takes as it is (the app answers, 400 or not)', async () => {
    const path = '/v1/countries/JP';
    const plain = await get(port, path, {});
    expect(plain.status).toBe(200);
    const odd = await get(port, path, { host: 'EXAMPLE.com' });
    expect(odd.status).toBe(200);
    expect(odd.body).toBe(plain.body);
    expect((await get(port, path, { host: 'a b' })).status).toBe(400);
  });
});

describe('kept answers count against the limits like the others', () => {
  let port: number;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const started = await startServer({ port: 0, hostname: '127.0.0.1', dataDir: DATA_DIR, keysFile: sharedKeys().file, limits: DEFAULT_LIMITS, redisUrl: '' });
    port = started.port;
    close = started.close;
  });
  afterAll(() => close());

  it("an anonymous caller's burst ends in a 429 with Retry-After on a kept answer", async () => {
    const path = '/v1/countries/DE';
    const statuses: number[] = [];
    let last: Raw | undefined;
    for (let i = 0; i <= DEFAULT_LIMITS.anonymous.burst; i++) {
      last = await get(port, path, {});
      statuses.push(last.status);
    }
    expect(statuses).toEqual([...Array(DEFAULT_LIMITS.anonymous.burst).fill(200), 429]);
    expect(last!.headers).toContain(`ratelimit-limit: ${DEFAULT_LIMITS.anonymous.burst}`);
    expect(last!.headers).toContain('access-control-allow-origin: *');
    expect(JSON.parse(last!.body).error).toMatchObject({ status: 429, code: 'rate_limited' });
    expect(JSON.parse(last!.body).error.message).toMatch(/^The anonymous plan's limit of 5 requests is used up; it resets in N s\.$/);
  });
});

describe('answer() offers the fast path only answers it may send again', () => {
  const offered: Array<{ target: string; until: number; maxAge: boolean }> = [];
  const keeper: AnswerKeeper = { keep: (target: string, _kept: Kept, until: number, maxAge: boolean) => void offered.push({ target, until, maxAge }) };
  const app = createApp({ store: sharedStore(), timezones: sharedTimezones() });

  async function offer(target: string) {
    offered.length = 0;
    const incoming = { headers: {}, url: target, [KEEPER]: keeper };
    const res = await app.fetch(new Request(`http://localhost${target}`), { incoming } as never);
    await res.arrayBuffer();
    return { status: res.status, offered: offered.length ? offered[0] : undefined };
  }

  it('answers of the target and the dataset alone: for good', async () => {
    for (const target of [
      '/v1/business-days/US?date=2026-01-19',
      '/v1/business-days/US/count?start=2026-01-01&end=2026-12-31',
      '/v1/countries/JP',
      '/v1/travel/JP?from=US&date=2026-03-15',
      '/v1/timezones/Europe%2FLondon?at=2026-03-08T07:00:00Z',
      '/v1/timezones/Asia%2FTokyo/transitions?year=2026',
      // Years given: the default year (which reads the clock) is not computed, so the answer is kept for good.
      '/v1/business-days/US/holidays?year=2026',
      '/v1/business-days/CN/holidays.ics?from_year=2017&to_year=2026',
    ]) {
      expect(await offer(target), target).toEqual({ status: 200, offered: { target, until: Infinity, maxAge: false } });
    }
  });

  it("today's date (a default date or year): until the next whole minute, when no zone's date can have changed", async () => {
    for (const target of ['/v1/business-days/US', '/v1/business-days/JP/next', '/v1/business-days/US/holidays']) {
      const before = Date.now();
      const { status, offered: o } = await offer(target);
      expect(status).toBe(200);
      expect(o).toMatchObject({ target, maxAge: false });
      expect(o!.until % 60_000).toBe(0);
      expect(o!.until).toBeGreaterThan(before);
      expect(o!.until).toBeLessThanOrEqual(before + 60_000);
    }
  });

  it('time zones now: until their next transition, with a max-age remade per request', async () => {
    const utc = await offer('/v1/timezones/UTC');
    expect(utc.offered).toMatchObject({ until: Infinity, maxAge: true });
    const london = await offer('/v1/timezones/Europe%2FLondon');
    expect(london.offered!.maxAge).toBe(true);
    expect(london.offered!.until).toBeGreaterThan(Date.now());
    expect(london.offered!.until).toBeLessThan(Date.now() + 366 * 86_400_000);
  });

  it('errors are never offered, and a clock read before an error does not leak into the next answer', async () => {
    for (const target of ['/v1/business-days/ZZ', '/v1/business-days/US?date=2026-02-30', '/v1/business-days/US/add?days=abc', '/v1/countries/XX', '/v1/nothing']) {
      expect((await offer(target)).offered, target).toBeUndefined();
    }
    expect((await offer('/v1/countries/JP')).offered).toMatchObject({ until: Infinity });
  });
});

describe('respond(): the one way a kept answer becomes what one request gets (the app and the fast path)', () => {
  const version = 'v1test';
  const gate = (reference: boolean) => [
    'content-type', 'application/json; charset=utf-8', 'x-dataset-version', version,
    'ratelimit-limit', '100', 'ratelimit-remaining', '99', 'ratelimit-reset', '7',
    ...(reference ? ['access-control-allow-origin', '*', 'access-control-expose-headers', 'ETag'] : []),
  ];
  const large = JSON.stringify({ items: Array.from({ length: 600 }, (_, i) => ({ i, name: `Zone ${i} — Ōsaka` })) });
  const ics = Object.freeze({ 'content-type': 'text/calendar; charset=utf-8' });
  const kepts: Record<string, Kept> = {
    'small computed': keep(version, '{"date":"2026-01-19","business_day":false}', 'private, no-cache'),
    'large computed (stays uncompressed)': keep(version, large, 'public, max-age=60, must-revalidate'),
    'large precomputed (compressible)': keep(version, new TextEncoder().encode(large) as Uint8Array<ArrayBuffer>, 'public, max-age=3600'),
    'calendar (its own content type)': keep(version, new TextEncoder().encode(`BEGIN:VCALENDAR${'x'.repeat(9000)}`) as Uint8Array<ArrayBuffer>, 'private, no-cache', ics),
  };

  it('the gate never gives ETag, Cache-Control, Vary, Content-Encoding or Content-Length: respond() appends them', () => {
    for (const name of ['etag', 'cache-control', 'vary', 'content-encoding', 'content-length']) expect(GATE_HEADER_NAMES).not.toContain(name);
  });

  it('the gate\'s headers, then ETag, Cache-Control, the route\'s own (in place of the gate\'s), Vary, Content-Encoding, Content-Length', () => {
    for (const [name, kept] of Object.entries(kepts)) {
      for (const reference of [false, true]) {
        for (const acceptEncoding of [undefined, 'br', 'gzip', 'identity']) {
          const coding = kept.compressible && acceptEncoding !== undefined && acceptEncoding !== 'identity' ? acceptEncoding : undefined;
          const forms = kept.compressible ? precompress(kept.body as Uint8Array) : undefined;
          const sentBytes = coding ? forms![coding as 'br' | 'gzip'] : kept.body;
          const sentTag = coding ? entityTag(version, sentBytes) : kept.etag;
          for (const ifNoneMatch of [undefined, kept.etag, sentTag, `"other", W/${sentTag}`, '"other"']) {
            for (const cacheControl of [undefined, 'public, max-age=12, must-revalidate']) {
              const what = `${name}, reference ${reference}, ${acceptEncoding}, ${ifNoneMatch}, ${cacheControl}`;
              const headers = gate(reference);
              const sent = respond(kept, headers, acceptEncoding, ifNoneMatch, cacheControl);
              const notModified = ifNoneMatch !== undefined && ifNoneMatch !== '"other"';
              const expected = gate(reference);
              if (kept.extra) expected[1] = kept.extra['content-type'];
              if (notModified) expected.splice(0, 2);
              expected.push('etag', sentTag, 'cache-control', cacheControl ?? kept.cacheControl);
              if (kept.compressible) expected.push('vary', 'Accept-Encoding');
              if (!notModified && coding) expected.push('content-encoding', coding);
              if (!notModified) expected.push('content-length', String(typeof sentBytes === 'string' ? Buffer.byteLength(sentBytes) : sentBytes.byteLength));
              expect(headers, what).toEqual(expected);
              expect(sent.status, what).toBe(notModified ? 304 : 200);
              expect(sent.body === null ? null : Buffer.from(sent.body), what).toEqual(notModified ? null : Buffer.from(sentBytes));
            }
          }
        }
      }
    }
  });

  it('a computed answer kept as bytes keeps its ETag and is never compressed', () => {
    expect(entityTag(version, Buffer.from(large, 'utf8'))).toBe(entityTag(version, large));
    const kept = { ...kepts['large computed (stays uncompressed)'], body: Buffer.from(large, 'utf8') as Uint8Array<ArrayBuffer> };
    expect(kept.compressible).toBe(false);
    const pairs = gate(true);
    const sent = respond(kept, pairs, 'br, gzip', undefined);
    expect(pairs).not.toContain('content-encoding');
    expect(Buffer.from(sent.body as Uint8Array).toString('utf8')).toBe(large);
  });
});

describe('the gate counts exactly, day and month quotas alike, across period ends', () => {
  const limits = (quota: number, period: 'day' | 'month'): PlanLimits => ({ quota, period, burst: 1_000, burstSeconds: 1 });
  const plans = { ...DEFAULT_LIMITS, anonymous: limits(3, 'day'), growth: limits(4, 'month') } as Record<Plan, PlanLimits>;

  it('each period counts from zero, and a day caller and a month caller with one identity count apart', async () => {
    const limiter = new Limiter(plans);
    const day1 = Date.UTC(2026, 10, 30, 23, 0);
    const day2 = Date.UTC(2026, 11, 1, 1, 0); // also a new month
    const day3 = Date.UTC(2026, 11, 2, 1, 0);
    const seen = (plan: Plan, now: number, n: number) => Array.from({ length: n }, (_, i) => limiter.checkNow(plan, 'ip:1', now + i * 2000)!).map((v) => (v.allowed ? v.remaining : 'refused'));
    expect(seen('anonymous', day1, 4)).toEqual([2, 1, 0, 'refused']);
    expect(seen('growth', day1, 3)).toEqual([3, 2, 1]);
    expect(seen('anonymous', day2, 2)).toEqual([2, 1]);
    expect(seen('growth', day2, 5)).toEqual([3, 2, 1, 0, 'refused']);
    expect(seen('anonymous', day3, 1)).toEqual([2]);
    expect(seen('growth', day3, 1)).toEqual(['refused']);
    await limiter.close();
  });
});

function chunk(pairs: string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i < pairs.length; i += 2) out.push([pairs[i], pairs[i + 1]]);
  return out;
}
