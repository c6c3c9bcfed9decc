/**
 * Work done once: answers computed from the request and the
 * dataset (range feeds, transitions, answers for an instant, business-day
 * checks) are kept by what they depend on, so another spelling of the same
 * request (letter case, parameter order, another offset for the same instant)
 * is not computed again; large ones go out compressed like the precomputed
 * files; HEAD gets GET's headers with Content-Length and no body.
 */
import { request } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComputedAnswers, answerCacheBytes } from '../server/computed-answers.js';
import { startServer } from '../server/main.js';
import { DATA_DIR, sharedKeys, UNLIMITED } from './helpers.js';

describe('ComputedAnswers', () => {
  it('computes once per key and keeps the same bytes', () => {
    const answers = new ComputedAnswers(1024 * 1024);
    let made = 0;
    const make = () => (made++, JSON.stringify({ a: 1 }));
    const first = answers.get('k', make);
    expect(answers.get('k', make)).toBe(first);
    expect(made).toBe(1);
    expect(answers.get('error', () => undefined)).toBeUndefined();
    expect(answers.stats().entries).toBe(1);
  });

  it('stays within its bytes, least recently used out first, and does not keep an answer over a sixteenth of them', () => {
    const answers = new ComputedAnswers(100_000);
    const big = 'x'.repeat(5_000);
    for (let i = 0; i < 100; i++) answers.get(`key${i}`, () => big);
    expect(answers.stats().bytes).toBeLessThanOrEqual(100_000);
    expect(answers.stats().entries).toBeLessThan(100);
    let made = 0;
    answers.get('key99', () => (made++, big));
    expect(made).toBe(0); // the newest stayed
    answers.get('key0', () => (made++, big));
    expect(made).toBe(1); // the oldest went
    const huge = 'y'.repeat(7_000);
    answers.get('huge', () => huge);
    answers.get('huge', () => (made++, huge));
    expect(made).toBe(2); // over 100,000 / 16: sent, not kept
  });

  it('reads ANSWER_CACHE_MB', () => {
    expect(answerCacheBytes(undefined)).toBe(32 * 1024 * 1024);
    expect(answerCacheBytes('8')).toBe(8 * 1024 * 1024);
    for (const bad of ['0', '-1', 'lots']) expect(() => answerCacheBytes(bad)).toThrow(/ANSWER_CACHE_MB must be a positive number/);
  });
});

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

describe('through the server', () => {
  let port: number;
  let close: () => Promise<void>;
  const key = { 'x-api-key': sharedKeys().keys.growth };

  beforeAll(async () => {
    const started = await startServer({ port: 0, hostname: '127.0.0.1', dataDir: DATA_DIR, keysFile: sharedKeys().file, limits: UNLIMITED, redisUrl: '' });
    port = started.port;
    close = started.close;
  });
  afterAll(() => close());

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Promise<Got>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method, headers: { ...key, ...headers } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on('error', reject);
      req.end();
    });
  const kept = async () => JSON.parse((await get('/healthz')).body.toString()).caches.computed_answers.entries as number;

  const FEED = '/v1/business-days/CN/holidays.ics?from_year=2017&to_year=2026';

  it('a 10-year feed is computed once: another spelling (case, order) is the same entry and the same bytes', async () => {
    const before = await kept();
    const plain = await get(FEED);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(await kept()).toBe(before + 1);
    for (const other of ['/v1/business-days/cn/holidays.ics?to_year=2026&from_year=2017', '/v1/business-days/Cn/holidays.ics?from_year=2017&to_year=2026']) {
      const again = await get(other);
      expect(again.body.equals(plain.body), other).toBe(true);
      expect(again.headers.etag).toBe(plain.headers.etag);
    }
    expect(await kept()).toBe(before + 1);
  });

  it('large computed answers are sent compressed, each coding decoding to the plain bytes', async () => {
    for (const path of [FEED, '/v1/timezones/America%2FNew_York/transitions', '/v1/timezones?include=all&per_page=100&at=2026-07-01T12:00:00Z']) {
      const plain = await get(path);
      expect(plain.status, path).toBe(200);
      expect(plain.body.byteLength, path).toBeGreaterThan(8 * 1024);
      expect(plain.headers['content-encoding'], path).toBeUndefined();
      const gz = await get(path, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding'], path).toBe('gzip');
      expect(gz.headers.vary, path).toBe('Accept-Encoding');
      expect(gunzipSync(gz.body).equals(plain.body), path).toBe(true);
      const br = await get(path, { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding'], path).toBe('br');
      expect(brotliDecompressSync(br.body).equals(plain.body), path).toBe(true);
      expect(br.body.byteLength, path).toBeLessThan(plain.body.byteLength / 3);
    }
  });

  it('the same instant in another offset, or another letter case of the zone, is the same entry', async () => {
    const before = await kept();
    const a = await get('/v1/timezones/Europe%2FBerlin?at=2031-03-30T01:00:00Z');
    for (const other of ['/v1/timezones/europe%2Fberlin?at=2031-03-30T03:00:00%2B02:00', '/v1/timezones/Europe/Berlin?at=2031-03-29T21:00:00-04:00']) {
      expect((await get(other)).body.equals(a.body), other).toBe(true);
    }
    expect(await kept()).toBe(before + 1);
  });

  it('HEAD: the headers GET sends, Content-Length included, no body; first time and kept', async () => {
    for (const path of ['/v1/business-days/JP/holidays.ics?from_year=2020&to_year=2029', '/v1/business-days/JP/count?start=2026-01-01&end=2026-12-31', '/v1/timezones/Asia%2FTokyo/transitions', '/v1/countries/JP', '/v1/business-days/XX']) {
      const head = await get(path, {}, 'HEAD');
      const got = await get(path);
      const again = await get(path, {}, 'HEAD');
      for (const h of [head, again]) {
        expect(h.status, path).toBe(got.status);
        expect(h.body.byteLength, path).toBe(0);
        expect(h.headers['content-length'], path).toBe(String(got.body.byteLength));
        expect(h.headers.etag, path).toBe(got.headers.etag);
      }
    }
  });
});
