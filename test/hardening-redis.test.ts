/**
 * A hung Redis (issue fault 2), against real processes: redis-server on a free
 * loopback port, stopped with SIGSTOP so its socket stays open but nothing
 * answers. Keyed requests must keep being answered within a second (the gate
 * fails open after REDIS_COMMAND_TIMEOUT_MS), /healthz must say degraded, and
 * the hang and the recovery are each logged once. Also: a client that sends
 * its request and half-closes the socket still gets its whole answer.
 */
import type { ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_REDIS_TIMEOUT_MS, redisTimeoutMs } from '../server/access/limiter.js';
import { makeKeys } from './helpers.js';
import { Processes } from './processes.js';

const procs = new Processes();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const logOf = (name: string) => procs.logOf(name);
const count = (text: string, re: RegExp) => (text.match(new RegExp(re, 'g')) ?? []).length;

let redis: ChildProcess;
let redisUrl: string;
const { file, keys } = makeKeys();

async function instance(name: string): Promise<string> {
  // Bursts out of the way: this test is about waiting, not about refusing.
  const { base } = await procs.server(name, { API_KEYS_FILE: file, REDIS_URL: redisUrl, PLAN_LIMITS: '{"pro":{"burst":100000}}' });
  return base;
}

const health = async (base: string) => (await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(2000) })).json();

/** One keyed request: its status (0 if it got no answer within 5 s) and how long it took. */
async function timed(base: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  try {
    const res = await fetch(`${base}/v1/travel/JP`, { headers: { 'x-api-key': keys.pro }, signal: AbortSignal.timeout(5000) });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t0 };
  } catch {
    return { status: 0, ms: performance.now() - t0 };
  }
}

/** Sends `request` on a raw socket, half-closes it at once, and returns all the server wrote back. */
function halfClosed(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.end(request));
    socket.setTimeout(5000, () => socket.destroy(new Error('no answer within 5 s')));
    socket.on('data', (d) => chunks.push(d));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

beforeAll(async () => {
  ({ url: redisUrl, proc: redis } = await procs.redis());
}, 30_000);

afterAll(async () => {
  await procs.stopAll();
  rmSync(dirname(file), { recursive: true, force: true });
});

describe('a hung Redis', () => {
  it('SIGSTOP under load: every keyed request answered within 1 s, /healthz degraded, ok after SIGCONT, hang and recovery logged once', async () => {
    const [busy, idle] = await Promise.all([instance('busy'), instance('idle')]);
    expect((await timed(busy)).status).toBe(200);
    expect(await health(busy)).toMatchObject({ status: 'ok', limits: { store: 'redis', reachable: true } });

    redis.kill('SIGSTOP');
    const results: Promise<{ status: number; ms: number }>[] = [];
    let busyHealth: unknown;
    let idleHealth: unknown;
    try {
      // 200 keyed requests over ~3 s, /healthz of the busy instance read half-way through.
      for (let i = 0; i < 200; i++) {
        results.push(timed(busy));
        if (i === 100) busyHealth = await health(busy);
        await sleep(15);
      }
      await Promise.all(results);
      // The idle instance never saw a keyed request: only its heartbeat can have noticed the hang.
      idleHealth = await health(idle);
    } finally {
      redis.kill('SIGCONT');
    }
    const done = await Promise.all(results);
    const ms = done.map((r) => r.ms);
    console.log(`during the hang: ${done.length} requests, p50 ${quantile(ms, 0.5).toFixed(1)} ms, p99 ${quantile(ms, 0.99).toFixed(1)} ms, max ${Math.max(...ms).toFixed(1)} ms`);
    expect(done.filter((r) => r.status !== 200).length, 'requests without a 200 within 5 s').toBe(0);
    expect(Math.max(...ms)).toBeLessThan(1000);
    expect(busyHealth).toMatchObject({ status: 'degraded', limits: { store: 'redis', reachable: false, on_store_failure: 'open' } });
    expect(idleHealth).toMatchObject({ status: 'degraded', limits: { store: 'redis', reachable: false, on_store_failure: 'open' } });

    // After SIGCONT both come back on their own, without a restart.
    const until = Date.now() + 5000;
    while (Date.now() < until && ((await health(busy)).status !== 'ok' || (await health(idle)).status !== 'ok')) await sleep(100);
    expect(await health(busy)).toMatchObject({ status: 'ok', limits: { reachable: true } });
    expect(await health(idle)).toMatchObject({ status: 'ok', limits: { reachable: true } });
    expect((await timed(busy)).status).toBe(200);
    for (const name of ['busy', 'idle']) {
      expect(count(logOf(name), /redis unreachable, limits degraded/), logOf(name)).toBe(1);
      expect(count(logOf(name), /redis reachable again/), logOf(name)).toBe(1);
    }
  }, 45_000);

  it('a client that half-closes after its request gets the whole answer', async () => {
    const base = await instance('half');
    const port = Number(new URL(base).port);
    for (const connection of ['close', 'keep-alive']) {
      const reply = await halfClosed(port, `GET /v1/travel/JP HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${keys.pro}\r\nConnection: ${connection}\r\n\r\n`);
      expect(reply, `Connection: ${connection}`).toMatch(/^HTTP\/1\.1 200 /);
      const body = reply.slice(reply.indexOf('\r\n\r\n') + 4);
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(reply)?.[1]);
      if (length) expect(Buffer.byteLength(body)).toBe(length);
      expect(reply).toMatch(/\r\nratelimit-limit: 100000\r\n/i); // it went through the Redis-backed gate
    }
  }, 30_000);

  it('REDIS_COMMAND_TIMEOUT_MS: 100 ms by default, a whole number of ms from 1 to 60000, anything else refused', () => {
    expect(DEFAULT_REDIS_TIMEOUT_MS).toBe(100);
    expect(redisTimeoutMs(undefined)).toBe(100);
    expect(redisTimeoutMs('')).toBe(100);
    expect(redisTimeoutMs('250')).toBe(250);
    for (const bad of ['0', '-5', '1.5', '60001', 'abc', '100ms']) expect(() => redisTimeoutMs(bad), bad).toThrow(/REDIS_COMMAND_TIMEOUT_MS must be a whole number/);
  });

  it('no key appears in any log line', () => {
    const all = procs.allLogs();
    for (const key of Object.values(keys)) expect(all).not.toContain(key);
  });
});
