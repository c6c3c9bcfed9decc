/**
 * Differential test: lib/astronomy.ts (astronomy-engine) against PyEphem
 * (Debian's python3-ephem, an independent implementation of the same
 * astronomy: libastro's VSOP87/ELP theories, its own root finding, and
 * zoneinfo's copy of tzdata for local midnight). See test/ephem/sun-moon.py
 * for how the conventions are matched: upper limb, 34′ refraction applied once
 * (horizon -0:34 with PyEphem's refraction off), events of the local calendar day.
 *
 * Tolerances: rise and set (sun and moon) within 60 s of PyEphem (our times
 * are rounded to the minute, so up to 30 s of that is rounding; unrounded,
 * astronomy-engine is within 0.4 s for the sun and 1.1 s for the moon on these
 * cases); illumination within 1 percentage point; next full and new moon
 * within 60 s.
 * Known disagreement, corrected in lib/astronomy.ts: astronomy-engine alone
 * puts phases ~40-66 s after PyEphem (it ignores the Sun's annual aberration
 * in MoonPhase); with the correction they agree within rounding.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { moonDay, sunDay } from '../lib/astronomy.js';

interface Place {
  name: string;
  latitude: number;
  longitude: number;
  timezone: string;
  dates: string[];
}

const PLACES: Place[] = [
  // Midnight sun (June), polar night (December), and the days between.
  { name: 'Tromsø', latitude: 69.65, longitude: 18.96, timezone: 'Europe/Oslo', dates: ['2026-06-21', '2026-12-21', '2026-03-20', '2026-01-20', '2026-08-10'] },
  { name: 'Quito', latitude: -0.22, longitude: -78.51, timezone: 'America/Guayaquil', dates: ['2026-03-20', '2026-06-21', '2026-12-21'] },
  { name: 'Reykjavík', latitude: 64.15, longitude: -21.94, timezone: 'Atlantic/Reykjavik', dates: ['2026-06-21', '2026-12-21', '2026-09-23'] },
  { name: 'Ushuaia', latitude: -54.8, longitude: -68.3, timezone: 'America/Argentina/Ushuaia', dates: ['2026-06-21', '2026-12-21'] },
  { name: 'Singapore', latitude: 1.29, longitude: 103.85, timezone: 'Asia/Singapore', dates: ['2026-01-01', '2026-07-01'] },
  // Each side of a DST change: Europe 2026-03-29 and 2026-10-25, US 2026-03-08 and 2026-11-01,
  // Australia 2026-04-05 and 2026-10-04, Chile 2026-09-06 (local midnight is skipped there).
  { name: 'Paris', latitude: 48.86, longitude: 2.35, timezone: 'Europe/Paris', dates: ['2026-03-28', '2026-03-29', '2026-10-24', '2026-10-25'] },
  { name: 'New York', latitude: 40.71, longitude: -74.01, timezone: 'America/New_York', dates: ['2026-03-07', '2026-03-08', '2026-10-31', '2026-11-01'] },
  { name: 'Sydney', latitude: -33.87, longitude: 151.21, timezone: 'Australia/Sydney', dates: ['2026-04-04', '2026-04-05', '2026-10-03', '2026-10-04'] },
  { name: 'Santiago', latitude: -33.45, longitude: -70.67, timezone: 'America/Santiago', dates: ['2026-09-05', '2026-09-06'] },
  // Other latitudes and offsets (+05:45, +14:00), and both ends of the date range.
  { name: 'Tokyo', latitude: 35.68, longitude: 139.69, timezone: 'Asia/Tokyo', dates: ['2026-06-21'] },
  { name: 'Cape Town', latitude: -33.92, longitude: 18.42, timezone: 'Africa/Johannesburg', dates: ['2026-06-21'] },
  { name: 'Anchorage', latitude: 61.22, longitude: -149.9, timezone: 'America/Anchorage', dates: ['2026-12-21'] },
  { name: 'Kathmandu', latitude: 27.72, longitude: 85.32, timezone: 'Asia/Kathmandu', dates: ['2026-02-01'] },
  { name: 'Kiritimati', latitude: 1.87, longitude: -157.4, timezone: 'Pacific/Kiritimati', dates: ['2026-05-05'] },
  { name: 'McMurdo', latitude: -77.85, longitude: 166.67, timezone: 'Antarctica/McMurdo', dates: ['2026-06-21', '2026-12-21'] },
  { name: 'London', latitude: 51.51, longitude: -0.13, timezone: 'Europe/London', dates: ['1950-06-21', '2000-01-01'] },
  { name: 'Delhi', latitude: 28.61, longitude: 77.21, timezone: 'Asia/Kolkata', dates: ['2100-12-31'] },
];

const cases = PLACES.flatMap((p) => p.dates.map((date) => ({ ...p, date })));
const ephem: Record<string, number | null>[] = JSON.parse(
  execFileSync('/usr/bin/python3', [join(import.meta.dirname, 'ephem', 'sun-moon.py')], {
    input: JSON.stringify(cases.map(({ latitude, longitude, timezone, date }) => ({ latitude, longitude, timezone, date }))),
    encoding: 'utf8',
  }),
);

const diffs: Record<string, number[]> = { rise_set_s: [], moon_rise_set_s: [], illumination_pp: [], quarter_s: [] };
const seconds = (iso: string | null, ms: number | null) => (iso === null || ms === null ? NaN : Math.abs(Date.parse(iso) - ms) / 1000);

describe('astronomy-engine agrees with PyEphem', () => {
  it(`covers at least 30 places and dates (${cases.length})`, () => expect(cases.length).toBeGreaterThanOrEqual(30));

  cases.forEach((c, i) => {
    it(`${c.name} ${c.date}: sunrise, sunset, moonrise, moonset, illumination, next full and new moon`, () => {
      const sun = sunDay(c.latitude, c.longitude, c.date, c.timezone);
      const moon = moonDay(c.latitude, c.longitude, c.date, c.timezone);
      const e = ephem[i];
      for (const key of ['sunrise', 'sunset'] as const) {
        expect(sun[key] === null, `${key}: ours ${sun[key]}, PyEphem ${e[key]}`).toBe(e[key] === null);
        if (e[key] === null) continue;
        const d = seconds(sun[key], e[key]);
        diffs.rise_set_s.push(d);
        expect(d, `${key}: ours ${sun[key]}, PyEphem ${new Date(e[key]!).toISOString()}`).toBeLessThanOrEqual(60);
      }
      expect(sun.polar_condition !== null).toBe(e.sunrise === null && e.sunset === null);
      for (const key of ['moonrise', 'moonset'] as const) {
        expect(moon[key] === null, `${key}: ours ${moon[key]}, PyEphem ${e[key]}`).toBe(e[key] === null);
        if (e[key] === null) continue;
        const d = seconds(moon[key], e[key]);
        diffs.moon_rise_set_s.push(d);
        expect(d, key).toBeLessThanOrEqual(60);
      }
      const pp = Math.abs(moon.illumination - e.illumination!);
      diffs.illumination_pp.push(pp);
      expect(pp).toBeLessThanOrEqual(1);
      for (const key of ['next_full_moon', 'next_new_moon'] as const) {
        const d = seconds(moon[key], e[key]);
        diffs.quarter_s.push(d);
        expect(d, key).toBeLessThanOrEqual(60);
      }
    });
  });

  afterAll(() => {
    const stat = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      return `n=${s.length} median=${s[Math.floor(s.length / 2)]?.toFixed(2)} max=${s.at(-1)?.toFixed(2)}`;
    };
    console.info(Object.entries(diffs).map(([k, v]) => `${k}: ${stat(v)}`).join('\n'));
  });
});
