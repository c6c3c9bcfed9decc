/**
 * The HTTP server under hostile clients, against a real server process on a
 * free port, with raw sockets: requests Node's parser or the adapter rejects
 * get the JSON error shape with X-Dataset-Version and no-store; CONNECT gets
 * 405; half-sent headers get 408 at the configured 5 s; the docs bundle and
 * large answers are compressed, cached and metered; clients pipelining
 * requests for the bundle and never reading do not slow a normal client.
 *
 * HARDENING_SERVER_ROOT=<a checkout> runs the same tests against another
 * version of the server (how the "before" numbers in the report were taken).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { dirname, join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR, makeKeys, freePort } from './helpers.js';
import { assertMatchesSchema } from './schemas.js';

const ROOT = process.env.HARDENING_SERVER_ROOT ?? join(import.meta.dirname, '..');
const VERSION = (JSON.parse(readFileSync(join(DATA_DIR, 'v1', 'manifest.json'), 'utf8')) as { version: string }).version;
const { file: keysFile, keys } = makeKeys();
const logs: string[] = [];
let server: ChildProcess;
let port: number;


beforeAll(async () => {
  port = await freePort();
  server = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    // TRUST_PROXY: each attacking socket below gets its own address, so the docs budget does not hide the socket limits.
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR, API_KEYS_FILE: keysFile, REDIS_URL: '', TRUST_PROXY: '1', PLAN_LIMITS: '{"growth":{"burst":1000000000,"quota":1000000000}}' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d) => logs.push(String(d)));
  server.stderr!.on('data', (d) => logs.push(String(d)));
  const until = Date.now() + 30_000;
  while (!logs.join('').includes('listening on')) {
    if (Date.now() > until || server.exitCode !== null) throw new Error(`server did not start:\n${logs.join('')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}, 40_000);

afterAll(async () => {
  if (server.exitCode === null) {
    const exited = new Promise((r) => server.once('exit', r));
    server.kill('SIGTERM');
    await exited;
  }
  rmSync(dirname(keysFile), { recursive: true, force: true });
});

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  ms: number;
}

/** Parses one HTTP/1.1 answer from `buf`, or undefined while it is incomplete. */
function parseAnswer(buf: Buffer, head: boolean): Omit<RawAnswer, 'ms'> & { rest: Buffer } | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = buf.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const status = Number(statusLine.split(' ')[1]);
  const length = head || status === 304 || status === 204 ? 0 : Number(headers['content-length'] ?? NaN);
  if (Number.isNaN(length) || buf.length < end + 4 + length) return undefined;
  return { status, headers, body: buf.subarray(end + 4, end + 4 + length), rest: buf.subarray(end + 4 + length) };
}

/** Sends raw bytes on a new connection and reads one answer (or what arrived before the server closed). */
function raw(request: string | Buffer, timeoutMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = connect(port, '127.0.0.1');
    let buf = Buffer.alloc(0);
    const done = (status?: number) => {
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseAnswer(buf, false);
      if (parsed) resolve({ ...parsed, ms: performance.now() - started });
      else if (status !== undefined) resolve({ status, headers: {}, body: buf, ms: performance.now() - started });
      else reject(new Error(`no complete answer: ${JSON.stringify(buf.toString('latin1').slice(0, 200))}`));
    };
    const timer = setTimeout(() => done(), timeoutMs);
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      if (parseAnswer(buf, false)) done();
    });
    socket.on('close', () => done(buf.length === 0 ? 0 : undefined)); // status 0: closed without a byte
    socket.on('error', () => undefined);
    socket.write(request);
  });
}

/** A keep-alive client sending one request at a time, as a normal client does. */
class Client {
  private buf: Buffer = Buffer.alloc(0);
  private waiter?: () => void;
  private readonly socket: Socket;
  constructor() {
    this.socket = connect(port, '127.0.0.1');
    this.socket.setNoDelay(true);
    this.socket.on('data', (d) => {
      this.buf = Buffer.concat([this.buf, d]);
      this.waiter?.();
    });
  }
  async get(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
    const started = performance.now();
    const lines = Object.entries({ host: `127.0.0.1:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`).join('');
    this.socket.write(`GET ${path} HTTP/1.1\r\n${lines}\r\n`);
    for (;;) {
      const parsed = parseAnswer(this.buf, false);
      if (parsed) {
        this.buf = parsed.rest;
        return { ...parsed, ms: performance.now() - started };
      }
      await new Promise<void>((r, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${path} within 10 s`)), 10_000);
        this.waiter = () => {
          clearTimeout(timer);
          r();
        };
      });
    }
  }
  close() {
    this.socket.destroy();
  }
}

function expectJsonError(res: RawAnswer, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.headers['x-dataset-version']).toBe(VERSION);
  expect(res.headers['cache-control']).toBe('no-store');
  const body = JSON.parse(res.body.toString('utf8'));
  assertMatchesSchema('error.schema.json', body);
  expect(body.error.status).toBe(status);
  return body;
}

const host = () => `Host: 127.0.0.1:${port}\r\n`;

describe('requests the parser or the adapter rejects get the JSON error shape', () => {
  const cases: Array<[string, () => string, number]> = [
    ['a Host with a space', () => 'GET /v1/countries/JP HTTP/1.1\r\nHost: a b\r\n\r\n', 400],
    ['a backslash path', () => `GET /v1\\countries/JP HTTP/1.1\r\n${host()}\r\n`, 400],
    ['no Host', () => 'GET /v1/countries/JP HTTP/1.1\r\n\r\n', 400],
    ['a Host port of 99999', () => 'GET /v1/countries/JP HTTP/1.1\r\nHost: 127.0.0.1:99999\r\n\r\n', 400],
    ['OPTIONS *', () => `OPTIONS * HTTP/1.1\r\n${host()}\r\n`, 400],
    ['an unparsable absolute URL', () => `GET http://[/v1/countries/JP HTTP/1.1\r\n${host()}\r\n`, 400],
    ['a TLS handshake', () => '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03', 400],
    ['a header block over 8 KiB', () => `GET /healthz HTTP/1.1\r\n${host()}X-Big: ${'a'.repeat(9000)}\r\n\r\n`, 431],
    // Node's parser counts the request line with the headers; the target is what is too long, as for 3 KB targets.
    ['a request target over 8 KiB', () => `GET /v1/countries/JP?x=${'a'.repeat(9000)} HTTP/1.1\r\n${host()}\r\n`, 414],
    ['a request target of 3 KB', () => `GET /v1/countries/JP?x=${'a'.repeat(3000)} HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`, 414],
  ];
  it.each(cases)('%s', async (_name, request, status) => {
    const res = await raw(request());
    const body = expectJsonError(res, status);
    expect(JSON.stringify(body)).not.toMatch(/99999|\[|\\\\/); // nothing of the request is echoed
  });

  it('CONNECT gets 405 with Allow', async () => {
    const res = await raw(`CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n`);
    expectJsonError(res, 405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('a client that sends half its headers gets 408 at the configured 5 s', async () => {
    const res = await raw(`GET /healthz HTTP/1.1\r\n${host()}X-Half: `, 12_000);
    console.log(`half-sent headers answered ${res.status} after ${(res.ms / 1000).toFixed(2)} s`);
    expectJsonError(res, 408);
    expect(res.ms).toBeGreaterThan(4_500);
    expect(res.ms).toBeLessThan(6_500);
  }, 15_000);

  it('the server still answers normally afterwards', async () => {
    const res = await raw(`GET /healthz HTTP/1.1\r\n${host()}Connection: close\r\n\r\n`);
    expect(res.status).toBe(200);
  });
});

describe('large static answers are cached and compressed', () => {
  const BUNDLE = '/docs/redoc.standalone.js?v=2';

  it('the docs bundle: brotli and gzip, each with its own strong ETag, and 304 on revalidation', async () => {
    const c = new Client();
    const xff = { 'x-forwarded-for': '198.51.100.1' };
    const plain = await c.get(BUNDLE, { ...xff, 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(1_000_000);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const br = await c.get(BUNDLE, { ...xff, 'accept-encoding': 'gzip, deflate, br' });
    const gz = await c.get(BUNDLE, { ...xff, 'accept-encoding': 'gzip;q=1, br;q=0' });
    console.log(`docs bundle: ${plain.body.length} bytes, brotli ${br.body.length}, gzip ${gz.body.length}`);
    expect(br.headers['content-encoding']).toBe('br');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    const tags = new Set([plain, br, gz].map((r) => r.headers.etag));
    expect(tags.size).toBe(3);
    // Any encoding's tag revalidates: a cache holding the gzip form may ask for brotli now.
    expect((await c.get(BUNDLE, { ...xff, 'accept-encoding': 'br', 'if-none-match': gz.headers.etag! })).status).toBe(304);
    for (const r of [plain, br, gz]) expect(r.headers.etag).toMatch(new RegExp(`^"${VERSION}-[A-Za-z0-9_-]{16}"$`));
    const revalidated = await c.get(BUNDLE, { ...xff, 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(br.headers.etag);
    c.close();
  });

  it.each([
    ['/v1/countries?per_page=100', { 'x-api-key': keys.growth }],
    ['/v1/openapi.json', { 'x-forwarded-for': '198.51.100.2' }],
  ])('%s', async (path, headers) => {
    const c = new Client();
    const plain = await c.get(path, headers);
    const gz = await c.get(path, { ...headers, 'accept-encoding': 'gzip' });
    expect(plain.status).toBe(200);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers.vary).toBe('Accept-Encoding');
    expect(gz.headers['cache-control']).toMatch(/^public, max-age=3600/);
    expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
    expect((await c.get(path, { ...headers, 'accept-encoding': 'gzip', 'if-none-match': gz.headers.etag! })).status).toBe(304);
    c.close();
  });

  it('the docs are metered per address: 24 MiB per 10 minutes, then 429', async () => {
    const c = new Client();
    const statuses: number[] = [];
    let refused: RawAnswer | undefined;
    for (let i = 0; i < 30 && !refused; i++) {
      const res = await c.get(BUNDLE, { 'x-forwarded-for': '198.51.100.3', 'accept-encoding': 'identity' });
      statuses.push(res.status);
      if (res.status !== 200) refused = res;
    }
    console.log(`docs bundle: ${statuses.filter((s) => s === 200).length} full answers to one address, then ${refused?.status}`);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(refused).toBeDefined();
    const { error } = expectJsonError(refused!, 429);
    expect(error.code).toBe('rate_limited');
    expect(Number(refused!.headers['retry-after'])).toBeGreaterThan(0);
    // The message names the instant the window ends, as the gate's 429s do: Retry-After seconds from now.
    const at = /resets in (\d+) s \(at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)\)\.$/.exec(error.message);
    expect(at, error.message).not.toBeNull();
    expect(Math.abs(Date.parse(at![2]) - (Date.now() + Number(at![1]) * 1000))).toBeLessThan(5_000);
    // Another address is not affected.
    expect((await c.get(BUNDLE, { 'x-forwarded-for': '198.51.100.4', 'accept-encoding': 'br' })).status).toBe(200);
    c.close();
  });
});

describe('clients that pipeline and never read do not stall the others', () => {
  const ATTACKERS = Number(process.env.HARDENING_ATTACKERS ?? 50);
  const p99 = (ms: number[]) => [...ms].sort((a, b) => a - b)[Math.ceil(ms.length * 0.99) - 1]!;
  async function measure(n: number): Promise<number[]> {
    const c = new Client();
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const res = await c.get('/v1/countries/JP', { 'x-api-key': keys.growth });
      expect(res.status).toBe(200);
      times.push(res.ms);
    }
    c.close();
    return times;
  }

  it('50 non-reading pipeliners of the docs bundle: a normal client keeps p99 under 50 ms, and they are closed', async () => {
    await measure(50); // warm-up
    const before = p99(await measure(300));
    // 25 sockets pipeline 40 requests (past the pending limit), 25 pipeline 12 (within it); none reads.
    const attackers: Socket[] = [];
    const received: number[] = [];
    const closed: Promise<boolean>[] = [];
    const measured = measure(400); // from before the attack starts to after its answers are queued
    await new Promise((r) => setTimeout(r, 20));
    for (let i = 0; i < ATTACKERS; i++) {
      const s = connect(port, '127.0.0.1');
      s.pause();
      s.on('error', () => undefined);
      received.push(0);
      s.on('data', (d) => (received[i]! += d.length));
      closed.push(new Promise((r) => s.once('close', () => r(true))));
      const one = `GET /docs/redoc.standalone.js HTTP/1.1\r\n${host()}X-Forwarded-For: 203.0.${i >> 8}.${i & 255}\r\n\r\n`;
      s.write(one.repeat(i % 2 ? 40 : 12));
      attackers.push(s);
    }
    const during = p99(await measured);
    console.log(`normal client p99: ${before.toFixed(1)} ms before the attack, ${during.toFixed(1)} ms during it`);
    // A paused socket does not see the server's close: after the stall limit (10 s), read
    // what the kernel holds; a socket the server closed then ends at once, one it kept streams on.
    await new Promise((r) => setTimeout(r, 12_000));
    for (const s of attackers) s.resume();
    const all = await Promise.race([Promise.all(closed), new Promise<null>((r) => setTimeout(() => r(null), 3_000))]);
    const open = attackers.filter((s) => !s.destroyed && s.readyState !== 'closed').length;
    for (const s of attackers) s.destroy();
    const mb = (n: number) => (n / 1e6).toFixed(1);
    console.log(`attacking sockets: ${all ? 'all closed by the server' : `${open} of ${ATTACKERS} still open`} after 12 s; each received at most ${mb(Math.max(...received))} MB (${mb(received.reduce((a, b) => a + b, 0))} MB in all)`);
    expect(during).toBeLessThan(50);
    expect(all).not.toBeNull();
    expect(Math.max(...received)).toBeLessThan(8e6); // what the kernel held: one send buffer, not a queue of bundles
  }, 40_000);

  it('a non-reading pipeliner of a kept answer (the fast path, which skips the counting on an idle connection) is closed past the pending limit', async () => {
    const c = new Client();
    expect((await c.get('/v1/countries/JP', { 'x-api-key': keys.growth })).status).toBe(200); // now kept
    c.close();
    const s = connect(port, '127.0.0.1');
    s.pause();
    s.on('error', () => undefined);
    let received = 0;
    s.on('data', (d) => (received += d.length));
    const closed = new Promise<boolean>((r) => s.once('close', () => r(true)));
    // 200 answers of 13.8 kB would be 2.8 MB; the first is sent on the idle connection, the
    // rest are counted, and the 17th waiting one closes the connection.
    s.write(`GET /v1/countries/JP HTTP/1.1\r\n${host()}X-API-Key: ${keys.growth}\r\n\r\n`.repeat(200));
    await new Promise((r) => setTimeout(r, 500));
    s.resume();
    expect(await Promise.race([closed, new Promise<boolean>((r) => setTimeout(() => r(false), 5_000))])).toBe(true);
    const answers = received / 13_000;
    expect(answers).toBeGreaterThanOrEqual(1);
    expect(answers).toBeLessThan(20);
  });
});
