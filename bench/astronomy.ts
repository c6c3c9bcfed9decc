/**
 * `npx tsx bench/astronomy.ts`: the cost of one computed sun day and one moon
 * day in lib/astronomy.ts, in-process (no HTTP, no answer cache).
 *
 * 400 places and dates drawn with a fixed seed (latitudes -80..80, so polar
 * days and nights are in; dates 1900..2100; the zone at each point from
 * server/geo.ts, looked up before timing). Each round times every case once
 * and reports the median µs per call; ROUNDS rounds (default 7) after a
 * warm-up, then the median of the round medians.
 *
 * `ASTRONOMY_LIB=/path/to/astronomy.ts` times another copy of the library
 * (an older revision, for before/after numbers; it must take a zone timeline,
 * as lib/astronomy.ts does).
 *
 * Then the API's astronomy routes in-process (server/routes/astronomy.ts, no
 * HTTP, every answer computed: a new date each time): a country code, a region
 * code and coordinates without a zone, over the places of
 * REFDATA_DATA_DIR (default dist-data).
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { astronomyRoutes, type AstronomyPlace } from '../server/routes/astronomy.js';
import { Clock } from '../server/clock.js';
import { zoneAt } from '../server/geo.js';
import { TimezoneStore } from '../server/timezone-store.js';
import type { ZoneTimeline } from '../lib/zone-timeline.js';

type DayFn = (latitude: number, longitude: number, date: string, zone: ZoneTimeline) => unknown;
const dataDir = process.env.REFDATA_DATA_DIR ?? join(import.meta.dirname, '..', 'dist-data');
const zones = new TimezoneStore(dataDir);
const lib: { sunDay: DayFn; moonDay: DayFn } = await import(
  pathToFileURL(process.env.ASTRONOMY_LIB ?? join(import.meta.dirname, '..', 'lib', 'astronomy.ts')).href
);

const CASES = 400;
const ROUNDS = Number(process.env.ROUNDS ?? 7);

/** mulberry32: a small seeded generator, so every run times the same cases. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const next = random(20260621);
const cases = Array.from({ length: CASES }, () => {
  const latitude = Math.round((next() * 160 - 80) * 100) / 100;
  const longitude = Math.round((next() * 360 - 180) * 100) / 100;
  const day = Math.floor(next() * 73_049); // 1900-01-01 .. 2099-12-31
  const date = new Date(Date.UTC(1900, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
  return { latitude, longitude, date, zone: zones.timeline(zoneAt(latitude, longitude))! };
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function round(fn: DayFn): number {
  const times: number[] = [];
  for (const c of cases) {
    const t0 = performance.now();
    fn(c.latitude, c.longitude, c.date, c.zone);
    times.push((performance.now() - t0) * 1000);
  }
  return median(times);
}

for (const fn of [lib.sunDay, lib.moonDay]) round(fn); // warm-up: JIT
const results: Record<string, number[]> = { sun: [], moon: [] };
for (let r = 0; r < ROUNDS; r++) {
  results.sun.push(round(lib.sunDay));
  results.moon.push(round(lib.moonDay));
}
for (const [name, xs] of Object.entries(results)) {
  console.log(`${name} day: median ${median(xs).toFixed(1)} µs (rounds: ${xs.map((x) => x.toFixed(1)).join(', ')}; ${CASES} cases each)`);
}

const { places } = JSON.parse(readFileSync(join(dataDir, 'v1', 'astronomy', 'places.json'), 'utf8')) as { places: Record<string, AstronomyPlace> };
const app = astronomyRoutes({ capitalOf: (code) => places[code], clock: new Clock(), zones });
const dates = cases.map((c) => c.date);
const routes: [string, (date: string) => string][] = [
  ['country NO (Oslo)', (date) => `/sun/NO?date=${date}`],
  ['region NO-21 (Longyearbyen)', (date) => `/sun/NO-21?date=${date}`],
  ['coordinates without a zone (Tromsø)', (date) => `/sun?latitude=69.65&longitude=18.96&date=${date}`],
];
for (const [name, path] of routes) {
  if ((await app.request(path('2026-06-21'))).status !== 200) {
    console.log(`API ${name}: not answered by this dataset (${dataDir})`);
    continue;
  }
  const medians: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const times: number[] = [];
    for (const date of dates) {
      const t0 = performance.now();
      // A date not asked before in this run: every answer is computed, none comes from the cache.
      await app.request(path(new Date(Date.parse(date) + (r + 1) * 86_400_000).toISOString().slice(0, 10)));
      times.push((performance.now() - t0) * 1000);
    }
    medians.push(median(times));
  }
  console.log(`API sun answer, ${name}: median ${median(medians).toFixed(1)} µs`);
}
