/**
 * A mixed hostile soak (issue 24): a real server with a 512 MB heap takes, all at once and for a fixed time,
 * distinct time-zone lookups and astronomy points (the polygon cache), 10-year calendar feeds, whole-history
 * transitions, business-day questions, malformed and oversized requests, and two callers spending small quotas
 * (a starter key, and anonymous IPv6 callers of one /64 behind a proxy). It must answer everything without a 5xx,
 * stay under its memory bound, and grant each quota exactly: no request more, none fewer.
 * `npm test`: 10 s; `npm run test:memory`: 60 s.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_DIR, FULL, makeKeys } from './helpers.js';
import { Processes, rssMb } from './processes.js';

const processes = new Processes();
afterAll(() => processes.stopAll());

const SECONDS = FULL ? 60 : 10;
const RSS_BOUND_MB = 640;
const STARTER_QUOTA = 40;
const ANON_QUOTA = 25;

describe('a mixed hostile soak', () => {
  it(`${SECONDS} s of mixed traffic against a 512 MB heap: no 5xx, RSS under ${RSS_BOUND_MB} MB, quotas exact`, async () => {
    const { file, keys } = makeKeys();
    const { base, proc } = await processes.server('soak', {
      DATA_DIR,
      API_KEYS_FILE: file,
      REDIS_URL: '',
      TRUST_PROXY: '1',
      GEO_CACHE_MB: '32',
      NODE_OPTIONS: '--max-old-space-size=512',
      PLAN_LIMITS: JSON.stringify({ growth: { quota: 1e9, burst: 1e9 }, starter: { quota: STARTER_QUOTA, burst: 1e9 }, anonymous: { quota: ANON_QUOTA, burst: 1e9 } }),
    });
    let seed = 24_2026;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)];
    const coordinate = (limit: number) => (random() * 2 * limit - limit).toFixed(5);
    const growth = { 'x-api-key': keys.growth };
    const junk = ['/v1/business-days/US?date=2026-02-30', '/v1/business-days/ZZ', '/v1/timezones/lookup?latitude=91&longitude=0', '/v1/timezones/Nowhere%2FLand',
      `/v1/countries/JP?x=${'a'.repeat(3000)}`, '/v1/business-days/US/add?start=2026-01-01&days=99999999999', '/v1/astronomy/sun?latitude=abc&longitude=1', '/v1/../../etc/passwd',
      '/v1/business-days/US/holidays.ics?from_year=1800&to_year=3000', '/v1/countries?page=-1', '/%ff%fe', '/v1/timezones/America%2FNew_York?at=2026-13-01T00:00:00Z'];
    /** One request of the mix, by kind. */
    const requests: Array<() => [string, Record<string, string>, string]> = [
      () => [`/v1/timezones/lookup?latitude=${coordinate(60)}&longitude=${coordinate(180)}`, growth, 'lookup'],
      () => [`/v1/astronomy/sun?latitude=${coordinate(60)}&longitude=${coordinate(180)}&date=2026-06-01`, growth, 'astronomy'],
      () => [`/v1/business-days/${pick(['CN', 'US', 'IN-MH', 'DE-BY', 'JP'])}/holidays.ics?from_year=2017&to_year=2026`, growth, 'feed'],
      () => [`/v1/timezones/${pick(['America%2FNew_York', 'Europe%2FLondon', 'Asia%2FTokyo', 'Australia%2FLord_Howe'])}/transitions`, growth, 'transitions'],
      () => [`/v1/business-days/${pick(['US', 'GB', 'CN', 'RU', 'IN'])}/add?start=2026-0${1 + Math.floor(random() * 9)}-15&days=${1 + Math.floor(random() * 400)}`, growth, 'add'],
      () => [pick(junk), pick([growth, {}]), 'malformed'],
      () => ['/v1/travel/JP', { 'x-api-key': keys.starter }, 'starter'],
      () => ['/v1/countries/DE', { 'x-forwarded-for': `2001:db8:24:1:${Math.floor(random() * 65536).toString(16)}::1` }, 'anonymous'],
    ];
    const statuses = new Map<string, Map<number, number>>();
    const until = Date.now() + SECONDS * 1000;
    const worker = async () => {
      while (Date.now() < until) {
        const [path, headers, kind] = pick(requests)();
        const res = await fetch(base + path, { headers: { ...headers, 'accept-encoding': pick(['gzip', 'br', 'identity']) } });
        await res.arrayBuffer();
        const byStatus = statuses.get(kind) ?? new Map<number, number>();
        byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
        statuses.set(kind, byStatus);
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const seen = Object.fromEntries([...statuses].map(([kind, m]) => [kind, Object.fromEntries(m)]));
    const rss = rssMb(proc.pid!);
    const total = [...statuses.values()].reduce((n, m) => n + [...m.values()].reduce((a, b) => a + b, 0), 0);
    console.log(`soak: ${total} requests in ${SECONDS} s, RSS ${rss.toFixed(0)} MB; ${JSON.stringify(seen)}`);

    const fivexx = [...statuses].flatMap(([kind, m]) => [...m].filter(([s]) => s >= 500).map(([s, n]) => `${kind} ${s} ×${n}`));
    expect(fivexx, processes.logOf('soak')).toEqual([]);
    for (const kind of ['lookup', 'astronomy', 'feed', 'transitions', 'add']) expect(Object.keys(seen[kind] ?? {}), kind).toEqual(['200']);
    expect(Object.keys(seen.malformed).every((s) => Number(s) >= 400 && Number(s) < 500)).toBe(true);
    // Each quota granted exactly, whatever the concurrency: the /64 is one anonymous caller.
    for (const [kind, quota] of [['starter', STARTER_QUOTA], ['anonymous', ANON_QUOTA]] as const) {
      const m = seen[kind] ?? {};
      expect(m[200], kind).toBe(quota);
      expect(Object.keys(m).sort(), kind).toEqual(['200', '429']);
    }
    expect(rss).toBeLessThan(RSS_BOUND_MB);
  }, (SECONDS + 120) * 1000);
});
