/**
 * Versioning and caching: every answer names the dataset version (header and
 * ETag), Cache-Control follows the area, and If-None-Match answers 304, both
 * in-process and over a real socket (where headers are read from Node's request).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../server/main.js';
import { matchesIfNoneMatch } from '../server/answer-headers.js';
import { DatasetStore } from '../server/store.js';
import { createApp } from '../server/app.js';
import { appAt, DATA_DIR, sharedKeys, sharedTimezones, UNLIMITED } from './helpers.js';

const KEY = { 'x-api-key': sharedKeys().keys.growth };
const version = new DatasetStore(DATA_DIR).manifest.version;

let close: () => Promise<void>;
let base: string;
beforeAll(async () => {
  const started = await startServer({ port: 0, hostname: '127.0.0.1', dataDir: DATA_DIR, keysFile: sharedKeys().file, limits: UNLIMITED, redisUrl: '' });
  close = started.close;
  base = `http://127.0.0.1:${started.port}`;
});
afterAll(() => close());

const get = (path: string, headers: Record<string, string> = {}) => fetch(base + path, { headers: { ...KEY, ...headers } });

const AREAS: [string, RegExp][] = [
  ['/v1/countries/JP', /^public, max-age=3600/],
  ['/v1/countries?page=2', /^public, max-age=3600/],
  ['/v1/countries?per_page=7', /^public, max-age=3600/],
  ['/v1/timezones/Asia%2FTokyo', /^public, max-age=\d+, must-revalidate$/],
  ['/v1/timezones?page=3', /^public, max-age=\d+, must-revalidate$/],
  ['/v1/business-days', /^private, no-cache$/],
  ['/v1/business-days/JP?date=2026-01-01', /^private, no-cache$/],
  ['/v1/business-days/US-CA/holidays?year=2026', /^private, no-cache$/],
  ['/v1/business-days/US/count?start=2026-01-01&end=2026-12-31', /^private, no-cache$/],
  ['/v1/travel/JP', /^private, no-cache$/],
  ['/v1/travel/JP?from=US&date=2026-07-01', /^private, no-cache$/],
  ['/v1/astronomy/sun/JP?date=2026-06-21', /^private, no-cache$/],
];

describe('every 200 carries the dataset version, an ETag and Cache-Control; If-None-Match gives 304', () => {
  for (const [path, cache] of AREAS) {
    it(path, async () => {
      const res = await get(path);
      expect(res.status).toBe(200);
      const etag = res.headers.get('etag')!;
      expect(res.headers.get('x-dataset-version')).toBe(version);
      expect(etag).toMatch(new RegExp(`^"${version}-[A-Za-z0-9_-]{16}"$`));
      expect(res.headers.get('cache-control')).toMatch(cache);
      const body = await res.arrayBuffer();

      // The same request again: the same ETag (the tag is a function of the bytes).
      expect((await get(path)).headers.get('etag')).toBe(etag);

      for (const inm of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const again = await get(path, { 'if-none-match': inm });
        expect(again.status, inm).toBe(304);
        expect(again.headers.get('etag')).toBe(etag);
        expect(again.headers.get('cache-control')).toMatch(cache);
        expect(again.headers.get('x-dataset-version')).toBe(version);
        expect((await again.arrayBuffer()).byteLength).toBe(0);
      }
      const stale = await get(path, { 'if-none-match': `"${version}-AAAAAAAAAAAAAAAA"` });
      expect(stale.status).toBe(200);
      expect(Buffer.from(await stale.arrayBuffer()).equals(Buffer.from(body))).toBe(true);
    });
  }

  it('in-process too (headers read from the WHATWG request)', async () => {
    const app = appAt();
    const first = await app.request('/v1/countries/FR', { headers: KEY });
    const etag = first.headers.get('etag')!;
    const again = await app.request('/v1/countries/FR', { headers: { ...KEY, 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});

describe('errors are never cached and carry no ETag', () => {
  for (const path of ['/v1/countries/ZZ', '/v1/business-days/US?date=2025-02-30', '/v1/nothing', '/v1/business-days/US-CA/holidays?year=1989']) {
    it(path, async () => {
      const res = await get(path);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.headers.get('etag')).toBeNull();
      expect(res.headers.get('cache-control')).toBe('no-store');
    });
  }
  it('the gate\'s 401 and 402 as well', async () => {
    for (const headers of [{ 'x-api-key': 'rdk_not_a_key' }, { 'x-api-key': sharedKeys().keys.free }]) {
      const res = await fetch(`${base}/v1/business-days/US`, { headers });
      expect([401, 402]).toContain(res.status);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });
});

describe('ETags follow the content', () => {
  it('a default date answers another body, and so another ETag, on another day', async () => {
    const a = await appAt(new Date('2026-11-20T12:00:00Z')).request('/v1/business-days/JP', { headers: KEY });
    const b = await appAt(new Date('2026-11-21T12:00:00Z')).request('/v1/business-days/JP', { headers: KEY });
    expect(a.headers.get('etag')).not.toBe(b.headers.get('etag'));
  });

  it('another dataset version gives another ETag for the same bytes', async () => {
    const store = new DatasetStore(DATA_DIR);
    (store.manifest as { version: string }).version = '0123456789abcdef';
    const app = createApp({ store, timezones: sharedTimezones() });
    const res = await app.request('/v1/countries/JP');
    expect(res.headers.get('etag')).toMatch(/^"0123456789abcdef-/);
    expect(res.headers.get('x-dataset-version')).toBe('0123456789abcdef');
    const current = await get('/v1/countries/JP');
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(await current.arrayBuffer()))).toBe(true);
    expect(current.headers.get('etag')).not.toBe(res.headers.get('etag'));
  });

  it('a time zone is cacheable only until its next transition', async () => {
    // US DST began 2026-03-08 at 2:00 EST = 07:00 UTC (15 U.S.C. 260a: second Sunday in March).
    const app = appAt(new Date('2026-03-08T06:59:00Z'));
    const res = await app.request('/v1/timezones/America%2FNew_York');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60, must-revalidate');
    // A page holding New York is bounded by the same transition.
    const page = await app.request('/v1/timezones?page=1&per_page=100');
    expect(page.headers.get('cache-control')).toMatch(/^public, max-age=(\d|[1-5]\d|60), must-revalidate$/);
  });
});

describe('If-None-Match parsing (RFC 9110 13.1.2)', () => {
  it.each([
    ['"a"', '"a"', true],
    ['W/"a"', '"a"', true],
    ['"b", "a"', '"a"', true],
    [' "b" ,W/"a" ', '"a"', true],
    ['*', '"a"', true],
    ['"b"', '"a"', false],
    ['a', '"a"', false],
    ['', '"a"', false],
  ])('%j against %j', (header, etag, expected) => {
    expect(matchesIfNoneMatch(header, etag)).toBe(expected);
  });
});
