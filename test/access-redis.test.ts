/**
 * Counters in a real Redis (Debian's redis-server, installed by .ci/run):
 * two server processes enforce one quota, the count survives a restart, and
 * when Redis dies the service keeps answering (fail open) and says so in its
 * log and /healthz. No key ever appears in a log line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeKeys, freePort } from './helpers.js';

const ROOT = join(import.meta.dirname, '..');
const logs: string[] = [];
const children = new Set<ChildProcess>();


async function waitFor(url: string, ms = 30_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

function track(child: ChildProcess, name: string): ChildProcess {
  children.add(child);
  child.stdout?.on('data', (d) => logs.push(`${name}: ${d}`));
  child.stderr?.on('data', (d) => logs.push(`${name}: ${d}`));
  child.on('exit', () => children.delete(child));
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

let redis: ChildProcess;
let redisUrl: string;
const { file, keys } = makeKeys();

async function instance(name: string): Promise<{ base: string; proc: ChildProcess }> {
  const port = await freePort();
  const proc = track(
    spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', API_KEYS_FILE: file, REDIS_URL: redisUrl, PLAN_LIMITS: '{"free":{"burst":1000}}' },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
    name,
  );
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/healthz`);
  return { base, proc };
}

const call = (base: string, key: string, path = '/v1/timezones/Asia%2FTokyo') => fetch(base + path, { headers: { 'x-api-key': key } });

beforeAll(async () => {
  const port = await freePort();
  redisUrl = `redis://127.0.0.1:${port}`;
  redis = track(spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] }), 'redis');
  redis.on('error', (err) => logs.push(`redis-server could not start (is Debian's redis-server installed? .ci/run installs it): ${err.message}`));
  const until = Date.now() + 10_000;
  while (!logs.some((l) => l.includes('Ready to accept connections'))) {
    if (Date.now() > until || redis.exitCode !== null) throw new Error(`redis-server did not start:\n${logs.join('')}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}, 30_000);

afterAll(async () => {
  await Promise.all([...children].map(stop));
});

describe('quota shared through Redis', () => {
  it('two instances enforce one free quota of 60 requests a day, and the count survives a restart', async () => {
    const a = await instance('a');
    const b = await instance('b');
    for (let i = 0; i < 30; i++) {
      expect((await call(a.base, keys.free)).status).toBe(200);
      expect((await call(b.base, keys.free)).status).toBe(200);
    }
    const last = await call(b.base, keys.free);
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toMatch(/^\d+$/);
    expect((await call(a.base, keys.free)).status).toBe(429);
    expect((await call(a.base, keys.starter)).status).toBe(200); // another key is not affected

    await Promise.all([stop(a.proc), stop(b.proc)]);
    const c = await instance('c');
    expect((await call(c.base, keys.free)).status).toBe(429);
    expect(await (await fetch(`${c.base}/healthz`)).json()).toMatchObject({ status: 'ok', limits: { store: 'redis', reachable: true } });
    await stop(c.proc);
  }, 90_000);

  it('Redis killed mid-test: answers go on (fail open), the log and /healthz say limits are degraded', async () => {
    const d = await instance('d');
    expect((await call(d.base, keys.pro, '/v1/travel/JP')).status).toBe(200);
    await stop(redis);
    await new Promise((r) => setTimeout(r, 500));
    for (let i = 0; i < 5; i++) {
      const res = await call(d.base, keys.pro, '/v1/travel/JP');
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('100000');
    }
    expect(await (await fetch(`${d.base}/healthz`)).json()).toMatchObject({ status: 'degraded', limits: { store: 'redis', reachable: false, on_store_failure: 'open' } });
    expect(logs.join('')).toMatch(/redis unreachable, limits degraded/);
    await stop(d.proc);
  }, 60_000);

  it('no key appears in any log line', () => {
    const all = logs.join('');
    expect(all.length).toBeGreaterThan(0);
    for (const key of Object.values(keys)) expect(all).not.toContain(key);
  });
});
