/**
 * Access control in process: every plan against every area (200/401/402),
 * the free quota's 61st request, the burst window, rate-limit headers, CORS
 * on the reference areas only, the health endpoint and key hygiene; and over
 * HTTP against a server process, what the 401, 402 and 429 messages say
 * (where the key goes, when the limit resets).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../server/app.js';
import { createKey, hashKey, KeyRing } from '../server/access/keys.js';
import { Limiter } from '../server/access/limiter.js';
import { DEFAULT_LIMITS, periodOf, type Plan, type PlanLimits } from '../server/access/plans.js';
import { DATA_DIR, makeKeys, sharedStore, sharedTimezones, UNLIMITED } from './helpers.js';
import { Processes } from './processes.js';
import { assertMatchesSchema } from './schemas.js';

const ROOT = join(import.meta.dirname, '..');

function appWith(file: string, limits: Record<Plan, PlanLimits>, proxy: { trustProxy: boolean; ipv6Prefix?: number } = { trustProxy: false }) {
  return createApp({ store: sharedStore(), timezones: sharedTimezones(), access: { keys: new KeyRing(file), limiter: new Limiter(limits), ...proxy } });
}

const AREAS = {
  timezones: '/v1/timezones/Asia%2FTokyo',
  countries: '/v1/countries/JP',
  'business-days': '/v1/business-days/US?date=2026-01-19',
  travel: '/v1/travel/JP',
  astronomy: '/v1/astronomy/sun/JP?date=2026-06-21',
};

describe('plans against areas', () => {
  const { file, keys } = makeKeys();
  const revoked = createKey(file, 'pro', 'to revoke');
  execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'keys.ts'), 'revoke', revoked.record.hash.slice(0, 12), '--file', file], { stdio: 'pipe' });
  const app = appWith(file, UNLIMITED);
  const callers: Record<string, string | undefined> = { anonymous: undefined, free: keys.free, starter: keys.starter, pro: keys.pro, growth: keys.growth, 'unknown key': 'rdk_' + 'x'.repeat(32), 'revoked key': revoked.key, 'malformed key': 'hunter2' };
  const expected = (caller: string, area: string): number => {
    if (caller.endsWith('key')) return 401;
    const premium = area === 'business-days' || area === 'travel' || area === 'astronomy';
    if (premium && (caller === 'anonymous' || caller === 'free')) return 402;
    return 200;
  };
  for (const [caller, key] of Object.entries(callers)) {
    for (const [area, path] of Object.entries(AREAS)) {
      const status = expected(caller, area);
      it(`${caller} → ${area}: ${status}`, async () => {
        const res = await app.request(path, key === undefined ? undefined : { headers: { 'x-api-key': key } });
        expect(res.status).toBe(status);
        const body = await res.json();
        if (status >= 400) {
          assertMatchesSchema('error.schema.json', body);
          expect(body.error.code).toBe({ 401: 'invalid_api_key', 402: 'paid_plan_required' }[status as 401 | 402]);
          if (key) expect(JSON.stringify(body)).not.toContain(key);
        }
        if (status === 402) expect(body.error.message).toMatch(/starter, pro or growth/);
      });
    }
  }
});

describe('quotas and bursts', () => {
  it('the 61st request of a free key in a UTC day gets 429 with Retry-After and the rate-limit headers', async () => {
    const { file, keys } = makeKeys();
    const app = appWith(file, { ...DEFAULT_LIMITS, free: { ...DEFAULT_LIMITS.free, burst: 1000 } });
    const call = () => app.request('/v1/timezones/Europe%2FParis', { headers: { 'x-api-key': keys.free } });
    for (let i = 1; i <= 60; i++) {
      const res = await call();
      expect(res.status, `request ${i}`).toBe(200);
      expect(res.headers.get('ratelimit-limit')).toBe('60');
      expect(res.headers.get('ratelimit-remaining')).toBe(String(60 - i));
    }
    const res = await call();
    expect(res.status).toBe(429);
    const body = await res.json();
    assertMatchesSchema('error.schema.json', body);
    expect(body.error.code).toBe('rate_limited');
    const untilMidnight = Math.ceil((periodOf(Date.now(), 'day').endsAt - Date.now()) / 1000);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Math.abs(Number(res.headers.get('retry-after')) - untilMidnight)).toBeLessThanOrEqual(2);
    expect(res.headers.get('ratelimit-remaining')).toBe('0');
    expect(res.headers.get('ratelimit-reset')).toBe(res.headers.get('retry-after'));
    const midnight = new Date(periodOf(Date.now(), 'day').endsAt).toISOString().slice(0, 19) + 'Z';
    expect(body.error.message).toBe(`The free plan's limit of 60 requests is used up; it resets in ${res.headers.get('retry-after')} s (at ${midnight}).`);
    // Another key of the same plan has its own quota; a key created while serving works at once.
    const other = createKey(file, 'free', 'other').key;
    expect((await app.request('/v1/timezones/Europe%2FParis', { headers: { 'x-api-key': other } })).status).toBe(200);
  });

  it('a burst beyond the short window gets 429 with a short Retry-After', async () => {
    const { file, keys } = makeKeys();
    const app = appWith(file, DEFAULT_LIMITS);
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < DEFAULT_LIMITS.free.burst + 1; i++) {
      last = await app.request('/v1/countries/FR', { headers: { 'x-api-key': keys.free } });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect(Number(last!.headers.get('retry-after'))).toBeLessThanOrEqual(DEFAULT_LIMITS.free.burstSeconds);
  });

  it("callers' counters leave memory when their period ends: 60,000 addresses one day, one request the next", () => {
    const limiter = new Limiter(DEFAULT_LIMITS);
    const day = Date.UTC(2026, 10, 27, 12);
    for (let i = 0; i < 60_000; i++) expect(limiter.checkNow('anonymous', `ip:10.${i >> 16}.${(i >> 8) & 255}.${i & 255}`, day + i)!.allowed).toBe(true);
    expect(limiter.memoryWindows).toBeGreaterThanOrEqual(60_000); // their day's quota windows (and bursts not yet swept)
    const verdict = limiter.checkNow('anonymous', 'ip:192.0.2.1', Date.UTC(2026, 10, 28, 0, 0, 5))!;
    expect(verdict).toMatchObject({ allowed: true, remaining: DEFAULT_LIMITS.anonymous.quota - 1 });
    expect(limiter.memoryWindows).toBe(2); // the new caller's quota and burst windows only
  });

  it('anonymous callers are counted per client address', async () => {
    const { file } = makeKeys();
    const app = appWith(file, { ...DEFAULT_LIMITS, anonymous: { ...DEFAULT_LIMITS.anonymous, burst: 1000 } });
    for (let i = 0; i < DEFAULT_LIMITS.anonymous.quota; i++) expect((await app.request('/v1/countries/DE')).status).toBe(200);
    expect((await app.request('/v1/countries/DE')).status).toBe(429);
  });

  it('anonymous IPv6 callers are counted per /64 (ANON_IPV6_PREFIX), IPv4 and IPv4-mapped callers per address', async () => {
    const { file } = makeKeys();
    const limits = { ...DEFAULT_LIMITS, anonymous: { ...DEFAULT_LIMITS.anonymous, quota: 3, burst: 1000 } };
    const from = async (app: ReturnType<typeof appWith>, address: string) => (await app.request('/v1/countries/DE', { headers: { 'x-forwarded-for': address } })).status;
    const app = appWith(file, limits, { trustProxy: true });
    // Three addresses of one /64 spend one quota of 3; the fourth is refused.
    for (const a of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff:ffff:ffff:ffff']) expect(await from(app, a), a).toBe(200);
    expect(await from(app, '2001:db8:1:2:abcd::9')).toBe(429);
    // The next /64, an IPv4 caller and another IPv4 caller seen through a dual-stack socket each have their own.
    expect(await from(app, '2001:db8:1:3::1')).toBe(200);
    expect(await from(app, '192.0.2.10')).toBe(200);
    expect(await from(app, '::ffff:192.0.2.11')).toBe(200);
    for (let i = 0; i < 2; i++) expect(await from(app, '192.0.2.11')).toBe(200);
    expect(await from(app, '::ffff:192.0.2.11')).toBe(429); // the same caller as 192.0.2.11
    // A wider prefix groups more: under /48 the two /64s above are one caller.
    const wide = appWith(file, limits, { trustProxy: true, ipv6Prefix: 48 });
    for (const a of ['2001:db8:1:2::1', '2001:db8:1:3::1', '2001:db8:1:ffff::1']) expect(await from(wide, a), a).toBe(200);
    expect(await from(wide, '2001:db8:1:4::1')).toBe(429);
  });
});

describe('headers, CORS and health', () => {
  const { file, keys } = makeKeys();
  const app = appWith(file, UNLIMITED);
  it('reference areas allow any origin; premium areas do not', async () => {
    const ref = await app.request('/v1/timezones', { headers: { origin: 'https://example.org' } });
    expect(ref.headers.get('access-control-allow-origin')).toBe('*');
    expect(ref.headers.get('access-control-expose-headers')).toContain('RateLimit-Remaining');
    const prem = await app.request('/v1/travel/JP', { headers: { origin: 'https://example.org', 'x-api-key': keys.pro } });
    expect(prem.status).toBe(200);
    expect(prem.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await app.request('/v1/countries/JP', { method: 'OPTIONS', headers: { origin: 'https://example.org', 'access-control-request-headers': 'x-api-key' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/X-API-Key/i);
    const premiumPreflight = await app.request('/v1/business-days/US', { method: 'OPTIONS' });
    expect(premiumPreflight.status).toBe(204);
    expect(premiumPreflight.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('OPTIONS answers 204 where GET has a route and 404 where GET gets 404, with or without the gate', async () => {
    const open = createApp({ store: sharedStore(), timezones: sharedTimezones() });
    for (const a of [app, open]) {
      for (const path of ['/healthz', '/docs', '/v1', '/v1/openapi.json', '/v1/countries/JP', '/v1/business-days/US']) {
        const res = await a.request(path, { method: 'OPTIONS' });
        expect(res.status, path).toBe(204);
        expect(res.headers.get('allow'), path).toBe('GET, HEAD, OPTIONS');
      }
      for (const path of ['/nope', '/v1/nope', '/v1/countries/JP/extra']) {
        const [options, get] = [await a.request(path, { method: 'OPTIONS' }), await a.request(path)];
        expect([options.status, get.status], path).toEqual([404, 404]);
        expect(await options.json()).toEqual(await get.json());
      }
    }
  });

  it('every counted answer carries RateLimit-Limit, -Remaining and -Reset, errors included', async () => {
    for (const path of ['/v1/countries/JP', '/v1/countries/XX', '/v1/business-days/US?date=2025-02-30']) {
      const res = await app.request(path, { headers: { 'x-api-key': keys.growth } });
      for (const h of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) expect(res.headers.get(h), `${path} ${h}`).toMatch(/^\d+$/);
    }
  });

  it('/healthz needs no key and reports the dataset and the counters store', async () => {
    const res = await app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      status: 'ok',
      dataset_version: sharedStore().manifest.version,
      limits: { store: 'memory', reachable: true, on_store_failure: 'open' },
      keys: { source: 'file', reload_failed: false, failing_since: null, reason: null },
      caches: {
        geo_polygons: { cells: expect.any(Number), bytes: expect.any(Number), max_bytes: 128 * 1024 * 1024 },
        computed_answers: { entries: expect.any(Number), bytes: expect.any(Number), max_bytes: 32 * 1024 * 1024 },
      },
    });
  });
});

describe('keys are secrets', () => {
  it('the keys file holds hashes only, list prints no key, and the CLI prints a new key exactly once', () => {
    const { file, keys } = makeKeys();
    const text = readFileSync(file, 'utf8');
    for (const key of Object.values(keys)) {
      expect(text).not.toContain(key);
      expect(text).toContain(hashKey(key));
    }
    const created = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'keys.ts'), 'create', '--plan', 'starter', '--name', 'ci', '--file', file]).toString();
    const key = /rdk_[A-Za-z0-9_-]{32}/.exec(created)![0];
    expect(readFileSync(file, 'utf8')).not.toContain(key);
    const listed = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'keys.ts'), 'list', '--file', file]).toString();
    expect(listed).toContain('starter');
    expect(listed).not.toMatch(/rdk_/);
    expect(listed).toContain(hashKey(key).slice(0, 12));
  });
});

describe('what the refusals say, over HTTP', () => {
  const procs = new Processes();
  afterAll(() => procs.stopAll());
  const { file, keys } = makeKeys();
  // Anonymous callers get a quota of 3 (a quick quota refusal); the free plan keeps its burst window of 10 per 10 s.
  let base: string;
  beforeAll(async () => {
    ({ base } = await procs.server('messages', { DATA_DIR, API_KEYS_FILE: file, REDIS_URL: '', PLAN_LIMITS: '{"anonymous":{"quota":3,"burst":1000}}' }));
  });
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, { headers });
    const body = await res.json();
    assertMatchesSchema('error.schema.json', body);
    return { res, body, message: body.error.message as string };
  };
  const RFC3339 = /\(at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)\)\.$/;

  it('402 for a key sent as "Authorization: Bearer": the message says the key goes in X-API-Key', async () => {
    const { res, body, message } = await get('/v1/travel/JP', { authorization: `Bearer ${keys.pro}` });
    expect(res.status).toBe(402);
    expect(body.error.code).toBe('paid_plan_required');
    expect(message).toBe(
      'Anonymous callers cannot use the business-days, travel and astronomy areas: they need a key of a starter, pro or growth plan in the X-API-Key header. ' +
        'This API does not read the Authorization header: send the key in the X-API-Key header instead (X-API-Key: <key>, no Bearer prefix).',
    );
    expect(JSON.stringify(body)).not.toContain(keys.pro.slice(4));
  });

  it('402 without an Authorization header says where a key goes, and no more', async () => {
    const { res, message } = await get('/v1/business-days/US?date=2026-01-19');
    expect(res.status).toBe(402);
    expect(message).toMatch(/in the X-API-Key header\.$/);
    expect(message).not.toMatch(/Authorization/);
  });

  it('402 for a free key in X-API-Key does not mention Authorization even when one is sent (the key was read)', async () => {
    const { res, message } = await get('/v1/travel/JP', { 'x-api-key': keys.free, authorization: 'Basic dXNlcjpwYXNz' });
    expect(res.status).toBe(402);
    expect(message).toMatch(/^The free plan cannot use/);
    expect(message).not.toMatch(/Authorization/);
  });

  it('401 with an Authorization header: the message says the key goes in X-API-Key', async () => {
    const { res, body, message } = await get('/v1/travel/JP', { 'x-api-key': 'rdk_' + 'n'.repeat(32), authorization: `Bearer ${keys.growth}` });
    expect(res.status).toBe(401);
    expect(body.error.code).toBe('invalid_api_key');
    expect(message).toMatch(/^The X-API-Key header does not hold a valid key \(unknown or revoked\)\./);
    expect(message).toMatch(/does not read the Authorization header: send the key in the X-API-Key header instead \(X-API-Key: <key>, no Bearer prefix\)\.$/);
    expect(JSON.stringify(body)).not.toContain(keys.growth.slice(4));
    const plain = await get('/v1/travel/JP', { 'x-api-key': 'rdk_' + 'n'.repeat(32) });
    expect(plain.res.status).toBe(401);
    expect(plain.message).not.toMatch(/Authorization/);
  });

  it('429 of the burst window: the message adds the reset instant (RFC 3339); RateLimit-Reset stays seconds', async () => {
    let last: Awaited<ReturnType<typeof get>> | undefined;
    for (let i = 1; i <= DEFAULT_LIMITS.free.burst + 1; i++) {
      const res = await fetch(base + '/v1/countries/FR', { headers: { 'x-api-key': keys.free } });
      if (i <= DEFAULT_LIMITS.free.burst) {
        expect(res.status, `request ${i}`).toBe(200);
        await res.arrayBuffer();
      } else last = { res, body: await res.json(), message: '' };
    }
    const { res, body } = last!;
    const sentAt = Date.now();
    expect(res.status).toBe(429);
    expect(body.error.code).toBe('rate_limited');
    const reset = res.headers.get('ratelimit-reset')!;
    expect(reset).toMatch(/^\d+$/);
    expect(Number(reset)).toBeGreaterThan(0);
    expect(Number(reset)).toBeLessThanOrEqual(DEFAULT_LIMITS.free.burstSeconds);
    expect(res.headers.get('retry-after')).toBe(reset);
    expect(res.headers.get('ratelimit-limit')).toBe(String(DEFAULT_LIMITS.free.burst));
    const message = body.error.message as string;
    expect(message).toMatch(new RegExp(`^The free plan's limit of 10 requests is used up; it resets in ${reset} s \\(at `));
    const at = Date.parse(RFC3339.exec(message)![1]!);
    // The instant is the window's end rounded up to the second; "in N s" is the same end, rounded up from now.
    expect(Math.abs(at - (sentAt + Number(reset) * 1000))).toBeLessThanOrEqual(2000);
  });

  it('429 of the daily quota: the instant is the next 00:00 UTC', async () => {
    for (let i = 0; i < 3; i++) expect((await fetch(base + '/v1/countries/DE')).status).toBe(200);
    const { res, body, message } = await get('/v1/countries/DE');
    expect(res.status).toBe(429);
    expect(body.error.code).toBe('rate_limited');
    const midnight = new Date(periodOf(Date.now(), 'day').endsAt).toISOString().slice(0, 19) + 'Z';
    expect(message).toBe(`The anonymous plan's limit of 3 requests is used up; it resets in ${res.headers.get('ratelimit-reset')} s (at ${midnight}).`);
    const untilMidnight = Math.ceil((periodOf(Date.now(), 'day').endsAt - Date.now()) / 1000);
    expect(Math.abs(Number(res.headers.get('ratelimit-reset')) - untilMidnight)).toBeLessThanOrEqual(2);
    expect(res.headers.get('retry-after')).toBe(res.headers.get('ratelimit-reset'));
  });
});
