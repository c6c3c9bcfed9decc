/**
 * The time-zone polygon cache has a budget (server/geo.ts): geo-tz keeps every cell it decodes in the store it is
 * given, and its default Map never let go (100,000 distinct points grew the server by 1 GB, and one started with a
 * 512 MB heap died of "heap out of memory"). Here a real server with a 512 MB heap answers distinct points from
 * /v1/timezones/lookup and /v1/astronomy/sun without `timezone` (both look the point up):
 * - `npm test`: 10,000 points with a 16 MB budget, so cells are evicted hundreds of times over;
 * - `npm run test:memory`: 100,000 points at the default budget (128 MB).
 * Every answer is a 200, /healthz's count of the cache stays within its budget, and the process's RSS within the
 * stated bound.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cellBytes, geoCacheBytes, GEO_CACHE_DEFAULT_MB, BYTES_PER_POSITION } from '../server/geo.js';
import { FULL } from './helpers.js';
import { Processes, rssMb } from './processes.js';

const processes = new Processes();
afterAll(() => processes.stopAll());

/** `n` distinct points (a seeded generator), `concurrency` at a time; returns the statuses seen, by count. */
async function sweep(base: string, n: number, concurrency = 16): Promise<Map<number, number>> {
  let seed = 20261127;
  const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const statuses = new Map<number, number>();
  let i = 0;
  const worker = async () => {
    while (i < n) {
      const k = i++;
      const lat = (next() * 150 - 60).toFixed(5);
      const lon = (next() * 360 - 180).toFixed(5);
      const path = k % 5 === 4 ? `/v1/astronomy/sun?latitude=${lat}&longitude=${lon}&date=2026-06-01` : `/v1/timezones/lookup?latitude=${lat}&longitude=${lon}`;
      const res = await fetch(base + path);
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return statuses;
}

describe('the polygon cache budget', () => {
  it('GEO_CACHE_MB: a positive number of megabytes, 128 by default; anything else fails with what was wrong', () => {
    expect(geoCacheBytes(undefined)).toBe(GEO_CACHE_DEFAULT_MB * 1024 * 1024);
    expect(geoCacheBytes('16')).toBe(16 * 1024 * 1024);
    expect(geoCacheBytes('0.5')).toBe(512 * 1024);
    for (const bad of ['0', '-3', 'lots', 'Infinity']) expect(() => geoCacheBytes(bad)).toThrow(/GEO_CACHE_MB must be a positive number of megabytes/);
  });

  it('a cell costs its coordinate pairs times the measured bytes per pair', () => {
    const ring = [[0, 0], [1, 0], [1, 1], [0, 0]];
    expect(cellBytes({ features: [{ geometry: { coordinates: [ring] } }, { geometry: { coordinates: [[ring], [ring]] } }] })).toBe(12 * BYTES_PER_POSITION);
  });

  const cases = FULL ? [{ points: 100_000, mb: GEO_CACHE_DEFAULT_MB, rss: 640 }] : [{ points: 10_000, mb: 16, rss: 400 }];
  for (const { points, mb, rss } of cases) {
    it(`${points.toLocaleString('en')} distinct points against a 512 MB heap with a ${mb} MB budget: every answer 200, the cache within budget, RSS under ${rss} MB`, async () => {
      const { base, proc } = await processes.server('geo', { ACCESS_CONTROL: 'off', GEO_CACHE_MB: String(mb), NODE_OPTIONS: '--max-old-space-size=512' });
      const statuses = await sweep(base, points);
      expect(Object.fromEntries(statuses), processes.logOf('geo')).toEqual({ 200: points });
      const health = (await (await fetch(`${base}/healthz`)).json()) as { caches: { geo_polygons: { cells: number; bytes: number; max_bytes: number } } };
      expect(health.caches.geo_polygons.max_bytes).toBe(mb * 1024 * 1024);
      expect(health.caches.geo_polygons.bytes).toBeLessThanOrEqual(mb * 1024 * 1024);
      expect(health.caches.geo_polygons.cells).toBeGreaterThan(10);
      const used = rssMb(proc.pid!);
      console.log(`geo cache: ${points} points, ${health.caches.geo_polygons.cells} cells held (${(health.caches.geo_polygons.bytes / 1048576).toFixed(1)} of ${mb} MB), RSS ${used.toFixed(0)} MB`);
      expect(used).toBeLessThan(rss);
    }, 600_000);
  }
});
