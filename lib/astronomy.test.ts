/**
 * lib/astronomy.ts: polar days, the equator, DST days, formatting and bad
 * input. Accuracy against an independent implementation is in
 * test/astronomy-ephem.test.ts; here the checks are about conventions.
 */
import { describe, expect, it } from 'vitest';
import { formatLocal, isTimeZone, localDate, moonDay, sunDay } from './astronomy.js';

const TROMSO = [69.65, 18.96, 'Europe/Oslo'] as const;
const QUITO = [-0.22, -78.51, 'America/Guayaquil'] as const;
const minutesBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 60_000;
const allTimes = (value: unknown): string[] =>
  typeof value === 'string' && value.includes('T') ? [value] : value && typeof value === 'object' ? Object.values(value).flatMap(allTimes) : [];

describe('sunDay at polar latitudes', () => {
  it('Tromsø 2026-06-21: midnight sun, no sunrise or sunset, 24 h of daylight, no twilight', () => {
    const s = sunDay(TROMSO[0], TROMSO[1], '2026-06-21', TROMSO[2]);
    expect(s).toMatchObject({ sunrise: null, sunset: null, polar_condition: 'midnight_sun', day_length: '24:00', day_length_minutes: 1440 });
    expect(s.twilight.civil).toEqual({ begin: null, end: null });
    expect(s.solar_noon).toMatch(/^2026-06-21T12:4\d:00\+02:00$/);
  });
  it('Tromsø 2026-12-21: polar night, yet civil twilight around noon', () => {
    const s = sunDay(TROMSO[0], TROMSO[1], '2026-12-21', TROMSO[2]);
    expect(s).toMatchObject({ sunrise: null, sunset: null, polar_condition: 'polar_night', day_length: '00:00', day_length_minutes: 0 });
    expect(s.twilight.civil.begin).toMatch(/^2026-12-21T(09|10):\d\d:00\+01:00$/);
    expect(s.twilight.civil.end).toMatch(/^2026-12-21T1[34]:\d\d:00\+01:00$/);
    // The sun never climbs to +6°: the golden hour starts at -4° and has no morning end.
    expect(s.golden_hour.morning.end).toBeNull();
  });
  it('a normal Tromsø day in March has a sunrise and a sunset', () => {
    const s = sunDay(TROMSO[0], TROMSO[1], '2026-03-20', TROMSO[2]);
    expect(s.polar_condition).toBeNull();
    expect(s.day_length_minutes).toBe(minutesBetween(s.sunrise!, s.sunset!));
  });
  it('the South Pole in June: polar night; in December: midnight sun', () => {
    expect(sunDay(-90, 0, '2026-06-21', 'UTC').polar_condition).toBe('polar_night');
    expect(sunDay(-90, 0, '2026-12-21', 'UTC').polar_condition).toBe('midnight_sun');
  });
});

describe('sunDay at the equator (Quito)', () => {
  for (const date of ['2026-03-20', '2026-06-21', '2026-12-21']) {
    it(`${date}: about 12 h 7 min of daylight (refraction and the sun's radius add ~7 min), short twilight`, () => {
      const s = sunDay(QUITO[0], QUITO[1], date, QUITO[2]);
      expect(s.day_length_minutes).toBeGreaterThanOrEqual(726);
      expect(s.day_length_minutes).toBeLessThanOrEqual(729);
      expect(s.sunrise).toMatch(new RegExp(`^${date}T06:\\d\\d:00-05:00$`));
      expect(minutesBetween(s.twilight.civil.begin!, s.sunrise!)).toBeLessThan(25);
    });
  }
});

describe('sunDay on DST days: the local calendar day, with the offset in force at each instant', () => {
  it('Paris 2026-03-29 (clocks forward at 02:00): every time is +02:00; the day before is +01:00', () => {
    const s = sunDay(48.86, 2.35, '2026-03-29', 'Europe/Paris');
    for (const t of allTimes(s)) expect(t).toMatch(/^2026-03-29T\d\d:\d\d:00\+02:00$/);
    expect(s.sunrise).toMatch(/^2026-03-29T07:3\d/);
    const before = sunDay(48.86, 2.35, '2026-03-28', 'Europe/Paris');
    expect(before.sunrise).toMatch(/^2026-03-28T06:3\d:00\+01:00$/);
  });
  it('Paris 2026-10-25 (clocks back at 03:00, a 25-hour day): +01:00 after the change', () => {
    const s = sunDay(48.86, 2.35, '2026-10-25', 'Europe/Paris');
    expect(s.sunrise).toMatch(/^2026-10-25T07:\d\d:00\+01:00$/);
    expect(s.day_length_minutes).toBe(minutesBetween(s.sunrise!, s.sunset!));
  });
  it('Santiago 2026-09-06 (local midnight skipped: 00:00 becomes 01:00): events belong to that date', () => {
    const s = sunDay(-33.45, -70.67, '2026-09-06', 'America/Santiago');
    for (const t of allTimes(s)) expect(t).toMatch(/^2026-09-06T\d\d:\d\d:00-03:00$/);
  });
  it('every time of a sample of days falls on the requested local date', () => {
    const places: [number, number, string][] = [[35.68, 139.69, 'Asia/Tokyo'], [-41.29, 174.78, 'Pacific/Auckland'], [64.15, -21.94, 'Atlantic/Reykjavik'], [40.71, -74.01, 'America/New_York']];
    for (const [lat, lon, tz] of places) {
      for (const date of ['2026-01-15', '2026-04-05', '2026-09-27', '2026-11-01']) {
        const s = sunDay(lat, lon, date, tz);
        for (const t of allTimes(s)) expect(t.slice(0, 10), `${tz} ${date}`).toBe(date);
        const m = moonDay(lat, lon, date, tz);
        for (const t of [m.moonrise, m.moonset]) if (t) expect(t.slice(0, 10)).toBe(date);
      }
    }
  });
});

describe('golden and blue hour', () => {
  it('blue hour (-6° to -4°) comes right before the morning golden hour (-4° to +6°) and after the evening one', () => {
    const s = sunDay(35.68, 139.69, '2026-06-21', 'Asia/Tokyo');
    expect(s.blue_hour.morning.begin).toBe(s.twilight.civil.begin);
    expect(s.blue_hour.morning.end).toBe(s.golden_hour.morning.begin);
    expect(s.golden_hour.evening.end).toBe(s.blue_hour.evening.begin);
    expect(s.blue_hour.evening.end).toBe(s.twilight.civil.end);
    // The sunrise (-0.83°) is inside the golden hour.
    expect(s.golden_hour.morning.begin! < s.sunrise! && s.sunrise! < s.golden_hour.morning.end!).toBe(true);
  });
});

describe('moonDay', () => {
  it('names the principal phase on the local day it happens (full moon 2026-06-29 23:57 UTC is the 30th in Tokyo)', () => {
    expect(moonDay(35.68, 139.69, '2026-06-30', 'Asia/Tokyo').phase).toBe('full_moon');
    expect(moonDay(35.68, 139.69, '2026-06-29', 'Asia/Tokyo').phase).toBe('waxing_gibbous');
    expect(moonDay(51.51, -0.13, '2026-06-30', 'Europe/London').phase).toBe('full_moon');
    expect(moonDay(40.71, -74.01, '2026-06-29', 'America/New_York').phase).toBe('full_moon');
  });
  it('walks through all eight phases in order over a lunation', () => {
    const names: string[] = [];
    for (let d = 1; d <= 30; d++) {
      const { phase } = moonDay(0, 0, `2026-07-${String(d).padStart(2, '0')}`, 'UTC');
      if (names.at(-1) !== phase) names.push(phase);
    }
    expect(names).toEqual(['waning_gibbous', 'last_quarter', 'waning_crescent', 'new_moon', 'waxing_crescent', 'first_quarter', 'waxing_gibbous', 'full_moon', 'waning_gibbous']);
  });
  it('illumination and age agree with the phase', () => {
    const full = moonDay(0, 0, '2026-06-29', 'UTC');
    expect(full.illumination).toBeGreaterThan(99);
    expect(full.age_days).toBeGreaterThan(14);
    expect(full.age_days).toBeLessThan(16);
    const fresh = moonDay(0, 0, '2026-07-15', 'UTC');
    expect(fresh.illumination).toBeLessThan(3);
    expect(fresh.age_days).toBeLessThan(2);
    expect(fresh.next_new_moon < '2026-07-15').toBe(false);
  });
  it('next_full_moon is today when the full moon is today', () => {
    const m = moonDay(51.51, -0.13, '2026-06-30', 'Europe/London');
    expect(m.next_full_moon).toMatch(/^2026-06-30T00:5\d:00\+01:00$/);
  });
});

describe('formatting and zones', () => {
  it('rounds to the minute and writes the offset in force, with half and quarter hours', () => {
    const t = Date.UTC(2026, 5, 21, 2, 43, 29);
    expect(formatLocal(t, 'Europe/Paris')).toBe('2026-06-21T04:43:00+02:00');
    expect(formatLocal(t + 1000, 'Europe/Paris')).toBe('2026-06-21T04:44:00+02:00');
    expect(formatLocal(t, 'Asia/Kathmandu')).toBe('2026-06-21T08:28:00+05:45');
    expect(formatLocal(t, 'America/St_Johns')).toBe('2026-06-21T00:13:00-02:30');
    expect(formatLocal(t, 'UTC')).toBe('2026-06-21T02:43:00+00:00');
  });
  it('knows zones the way Intl does', () => {
    expect(isTimeZone('Europe/Oslo')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(localDate('Pacific/Kiritimati', new Date('2026-01-01T10:30:00Z'))).toBe('2026-01-02');
  });
});

describe('bad input throws RangeError', () => {
  const cases: [string, () => unknown][] = [
    ['latitude 91', () => sunDay(91, 0, '2026-01-01', 'UTC')],
    ['longitude -180.5', () => sunDay(0, -180.5, '2026-01-01', 'UTC')],
    ['NaN latitude', () => moonDay(NaN, 0, '2026-01-01', 'UTC')],
    ['2026-02-29', () => sunDay(0, 0, '2026-02-29', 'UTC')],
    ['1899-12-31', () => sunDay(0, 0, '1899-12-31', 'UTC')],
    ['2101-01-01', () => moonDay(0, 0, '2101-01-01', 'UTC')],
    ['an unknown zone', () => sunDay(0, 0, '2026-01-01', 'Nowhere/Land')],
  ];
  for (const [name, call] of cases) it(name, () => expect(call).toThrow(RangeError));
  it('accepts both ends of the range', () => {
    expect(sunDay(0, 0, '1900-01-01', 'UTC').date).toBe('1900-01-01');
    expect(moonDay(0, 0, '2100-12-31', 'UTC').date).toBe('2100-12-31');
  });
});
