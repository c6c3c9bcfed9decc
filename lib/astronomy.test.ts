/**
 * lib/astronomy.ts: polar days, the equator, DST days, the evening rule,
 * formatting and bad input; and that the fast searches find the instants
 * astronomy-engine's own searches find (SearchRiseSet, SearchAltitude,
 * SearchHourAngle, SearchMoonPhase, as the library called them before issue
 * 15). Accuracy against an independent implementation is in
 * test/astronomy-ephem.test.ts.
 */
import {
  Body,
  Illumination,
  MakeTime,
  MoonPhase,
  Observer,
  SearchAltitude,
  SearchHourAngle,
  SearchMoonPhase,
  SearchRiseSet,
  type AstroTime,
} from 'astronomy-engine';
import { describe, expect, it } from 'vitest';
import * as astronomy from './astronomy.js';
import { meeusPhaseInstant, type SunDay } from './astronomy.js';
import { localDateAt, type ZoneTimeline } from './zone-timeline.js';
import { sharedTimezones } from '../test/helpers.js';

/** A zone's offset history from the dataset: the one clock astronomy converts instants with. */
const zone = (id: string): ZoneTimeline => {
  const timeline = sharedTimezones().timeline(id);
  if (!timeline) throw new Error(`no zone ${id} in the dataset`);
  return timeline;
};
const sunDay = (lat: number, lon: number, date: string, tz: string) => astronomy.sunDay(lat, lon, date, zone(tz));
const moonDay = (lat: number, lon: number, date: string, tz: string) => astronomy.moonDay(lat, lon, date, zone(tz));
const sunEvents = (lat: number, lon: number, date: string, tz: string) => astronomy.sunEvents(lat, lon, date, zone(tz));
const formatLocal = (ms: number, tz: string) => astronomy.formatLocal(ms, zone(tz));

const TROMSO = [69.65, 18.96, 'Europe/Oslo'] as const;
const QUITO = [-0.22, -78.51, 'America/Guayaquil'] as const;
const minutesBetween = (a: string, b: string) => (Date.parse(b) - Date.parse(a)) / 60_000;
const nextDate = (date: string) => new Date(Date.parse(date) + 86_400_000).toISOString().slice(0, 10);
/** A sun day's times split into the morning ones (of the date) and the evening ones (after its sunrise). */
const sunTimes = (s: SunDay) => ({
  morning: [s.sunrise, s.twilight.civil.begin, s.twilight.nautical.begin, s.twilight.astronomical.begin, s.golden_hour.morning.begin, s.golden_hour.morning.end],
  evening: [s.sunset, s.twilight.civil.end, s.twilight.nautical.end, s.twilight.astronomical.end, s.golden_hour.evening.begin, s.golden_hour.evening.end],
});
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
  it('morning events, noon, moonrise and moonset fall on the requested local date; evening events between its sunrise and the next date\'s', () => {
    const places: [number, number, string][] = [[35.68, 139.69, 'Asia/Tokyo'], [-41.29, 174.78, 'Pacific/Auckland'], [64.15, -21.94, 'Atlantic/Reykjavik'], [40.71, -74.01, 'America/New_York']];
    for (const [lat, lon, tz] of places) {
      for (const date of ['2026-01-15', '2026-04-05', '2026-09-27', '2026-11-01']) {
        const s = sunDay(lat, lon, date, tz);
        const next = sunDay(lat, lon, nextDate(date), tz);
        const { morning, evening } = sunTimes(s);
        for (const t of [...morning, s.solar_noon]) if (t) expect(t.slice(0, 10), `${tz} ${date}`).toBe(date);
        for (const t of evening) if (t) expect(t > s.sunrise! && t < next.sunrise!, `${tz} ${date} ${t}`).toBe(true);
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
  it("takes the local date from the zone's own offsets", () => {
    expect(localDateAt(zone('Pacific/Kiritimati'), Date.parse('2026-01-01T10:30:00Z'))).toBe('2026-01-02');
    expect(localDateAt(zone('Pacific/Kiritimati'), Date.parse('2026-01-01T09:59:59Z'))).toBe('2026-01-01');
  });
  it("writes offsets with seconds in the dataset's whole minutes (Dublin Mean Time, -0:25:21, until 1916)", () => {
    // tzdata europe: Zone Europe/Dublin -0:25:21 - DMT 1916 May 21 2:00s (the Time (Ireland) Act 1916).
    expect(formatLocal(Date.UTC(1910, 0, 1, 12, 0, 0), 'Europe/Dublin')).toBe('1910-01-01T11:35:00-00:25');
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
  ];
  for (const [name, call] of cases) it(name, () => expect(call).toThrow(RangeError));
  it('accepts both ends of the range', () => {
    expect(sunDay(0, 0, '1900-01-01', 'UTC').date).toBe('1900-01-01');
    expect(moonDay(0, 0, '2100-12-31', 'UTC').date).toBe('2100-12-31');
  });
});

describe('the sunset that ends the day begun at sunrise', () => {
  it('Reykjavík 2026-06-21: sunrise 02:55, sunset 00:04 the next morning (PyEphem 00:03:55), not the 00:04 that ended the 20th', () => {
    const s = sunDay(64.15, -21.94, '2026-06-21', 'Atlantic/Reykjavik');
    expect(s).toMatchObject({ sunrise: '2026-06-21T02:55:00+00:00', sunset: '2026-06-22T00:04:00+00:00', day_length: '21:09', polar_condition: null });
    expect(s.day_length_minutes).toBe(minutesBetween(s.sunrise!, s.sunset!));
    // The sun stays above -6° all night: no dusk, no blue hour, but a golden hour from +6°.
    expect(s.twilight.civil).toEqual({ begin: null, end: null });
    expect(s.golden_hour.evening.begin).toMatch(/^2026-06-21T2\d:\d\d:00\+00:00$/);
  });
  it('Oslo 2026-06-21: the evening blue hour and civil dusk run past midnight, in order after the sunset', () => {
    const s = sunDay(59.91, 10.75, '2026-06-21', 'Europe/Oslo');
    expect(s.twilight.civil.begin).toMatch(/^2026-06-21T02:\d\d:00\+02:00$/);
    expect(s.twilight.civil.end).toMatch(/^2026-06-22T00:[23]\d:00\+02:00$/);
    const evening = [s.golden_hour.evening.begin, s.sunset, s.golden_hour.evening.end, s.blue_hour.evening.end];
    expect([...evening].sort()).toEqual(evening);
    expect(s.blue_hour.evening).toEqual({ begin: s.golden_hour.evening.end, end: s.twilight.civil.end });
  });
  it('Tromsø around the midnight sun: the last sunrise (2026-05-18) has no sunset; polar days as before', () => {
    const last = sunDay(69.65, 18.96, '2026-05-18', 'Europe/Oslo');
    expect(last.sunrise).toMatch(/^2026-05-18T00:5\d:00\+02:00$/);
    expect(last).toMatchObject({ sunset: null, polar_condition: null });
    // The time up within the date: all of it but the night from the 17th's sunset (00:28 on the 18th) to this sunrise.
    const before = sunDay(69.65, 18.96, '2026-05-17', 'Europe/Oslo');
    expect(before.sunset).toMatch(/^2026-05-18T00:\d\d:00\+02:00$/);
    expect(last.day_length_minutes).toBe(24 * 60 - minutesBetween(before.sunset!, last.sunrise!));
    expect(sunDay(69.65, 18.96, '2026-05-19', 'Europe/Oslo')).toMatchObject({ sunrise: null, sunset: null, polar_condition: 'midnight_sun' });
  });
  for (const [name, lat, lon, tz, exception] of [
    ['Tromsø', 69.65, 18.96, 'Europe/Oslo', '2026-07-26T00:36:00+02:00'],
    ['Longyearbyen', 78.22, 15.63, 'Arctic/Longyearbyen', '2026-08-25T00:28:00+02:00'],
    ['Reykjavík', 64.15, -21.94, 'Atlantic/Reykjavik', null],
  ] as const) {
    it(`${name}, 2026: every sunset astronomy-engine finds is one date's sunset, and no two dates share one${exception ? ` (but the first after the midnight sun, ${exception}, which ends a day begun weeks before)` : ''}`, () => {
      const observer = new Observer(lat, lon, 0);
      const theirs: number[] = [];
      for (let t = Date.parse('2026-01-01T00:00:00Z'); ; ) {
        const e = SearchRiseSet(Body.Sun, observer, -1, new Date(t), 366);
        if (!e || e.date.getTime() >= Date.parse('2026-12-31T00:00:00Z')) break;
        theirs.push(e.date.getTime());
        t = e.date.getTime() + 60_000;
      }
      const ours: string[] = [];
      for (let d = Date.parse('2025-12-31'); d <= Date.parse('2026-12-31'); d += 86_400_000) {
        const sunset = sunDay(lat, lon, new Date(d).toISOString().slice(0, 10), tz).sunset;
        if (sunset) ours.push(sunset);
      }
      expect(new Set(ours).size).toBe(ours.length);
      const unreported = theirs.filter((t) => !ours.some((o) => Math.abs(Date.parse(o) - t) <= 30_500)).map((t) => formatLocal(t, tz));
      expect(unreported).toEqual(exception ? [exception] : []);
    });
  }
});

/** mulberry32: the same pseudo-random places and dates on every run. */
function seeded(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const DAY = 86_400_000;
/** Places anywhere (poles included) and UTC dates 1900-2100: the local day is then [00:00Z, 24:00Z). */
function randomDays(seed: number, count: number) {
  const next = seeded(seed);
  return Array.from({ length: count }, () => {
    const latitude = Math.round((next() * 180 - 90) * 100) / 100;
    const longitude = Math.round((next() * 360 - 180) * 100) / 100;
    const date = new Date(Date.UTC(1900, 0, 1) + Math.floor(next() * 73_049) * DAY).toISOString().slice(0, 10);
    return { latitude, longitude, date, start: Date.parse(`${date}T00:00:00Z`), observer: new Observer(latitude, longitude, 0) };
  });
}
type Search = (from: AstroTime, limitDays: number) => AstroTime | null;
/** The first event of an astronomy-engine search in [start, end), as lib/astronomy.ts searched before its own interpolated searches. */
const firstIn = (search: Search, start: number, end: number) => {
  const t = search(MakeTime(new Date(start)), (end - start) / DAY);
  return t && t.date.getTime() < end ? t.date.getTime() : null;
};

describe("the fast searches find astronomy-engine's instants", () => {
  const cases = randomDays(15, 150);
  it('sun: every event within a second of SearchRiseSet, SearchAltitude and SearchHourAngle, on 150 random places and days', () => {
    let worst = 0;
    for (const c of cases) {
      const where = `${c.latitude},${c.longitude} ${c.date}`;
      const e = sunEvents(c.latitude, c.longitude, c.date, 'UTC');
      const [start, end] = [c.start, c.start + DAY];
      const close = (ours: number | null, theirs: number | null, what: string) => {
        expect(ours === null, `${where} ${what}: ours ${ours}, theirs ${theirs}`).toBe(theirs === null);
        if (ours !== null) worst = Math.max(worst, Math.abs(ours - theirs!));
      };
      const rises = (from: number, to: number) => firstIn((f, l) => SearchRiseSet(Body.Sun, c.observer, +1, f, l), from, to);
      close(e.sunrise, rises(start, end), 'sunrise');
      for (const a of [-18, -12, -6, -4, 6] as const) close(e.rising[a], firstIn((f, l) => SearchAltitude(Body.Sun, c.observer, +1, f, l, a), start, end), `rising ${a}`);
      const noon = firstIn((f, l) => {
        const h = SearchHourAngle(Body.Sun, c.observer, 0, f, +1);
        return h.time.ut - f.ut <= l ? h.time : null;
      }, start, end);
      close(e.noon, noon, 'noon');
      // Evening events: the same crossing, searched from between the sunrise and ours (a search started
      // exactly at the sunrise can stop at the sunrise itself); without a sunrise, within the date.
      const evening = (ours: number | null, search: Search, what: string) => {
        if (e.sunrise === null) close(ours, firstIn(search, start, end), what);
        else if (ours !== null) close(ours, firstIn(search, (e.sunrise + ours) / 2, ours + DAY), what);
      };
      evening(e.sunset, (f, l) => SearchRiseSet(Body.Sun, c.observer, -1, f, l), 'sunset');
      for (const a of [-18, -12, -6, -4, 6] as const) evening(e.setting[a], (f, l) => SearchAltitude(Body.Sun, c.observer, -1, f, l, a), `setting ${a}`);
    }
    expect(worst).toBeLessThan(1000);
  });

  it('moon: rise, set, phase, age, illumination and the next full and new moon as the searches give them, on 150 random places and days', () => {
    const aberration = 20.4898 / 3600;
    const phaseAt = (degrees: number, from: number, days: number) => SearchMoonPhase((degrees - aberration + 360) % 360, new Date(from), days)?.date.getTime() ?? null;
    /** Within rounding of an instant: the same minute, give or take the half-minute tie. */
    const sameMinute = (iso: string | null, t: number | null) => (iso === null || t === null ? iso === t : Math.abs(Date.parse(iso) - t) <= 30_500);
    for (const c of randomDays(14, 150)) {
      const where = `${c.latitude},${c.longitude} ${c.date}`;
      const m = moonDay(c.latitude, c.longitude, c.date, 'UTC');
      const [start, end, noon] = [c.start, c.start + DAY, c.start + DAY / 2];
      expect(sameMinute(m.moonrise, firstIn((f, l) => SearchRiseSet(Body.Moon, c.observer, +1, f, l), start, end)), `${where} moonrise ${m.moonrise}`).toBe(true);
      expect(sameMinute(m.moonset, firstIn((f, l) => SearchRiseSet(Body.Moon, c.observer, -1, f, l), start, end)), `${where} moonset ${m.moonset}`).toBe(true);
      const principal = [0, 1, 2, 3].find((q) => (phaseAt(q * 90, start, 2) ?? end) < end);
      const elongation = (MoonPhase(new Date(noon)) + aberration) % 360;
      expect(m.phase, where).toBe(principal !== undefined ? ['new_moon', 'first_quarter', 'full_moon', 'last_quarter'][principal] : ['waxing_crescent', 'waxing_gibbous', 'waning_gibbous', 'waning_crescent'][Math.floor(elongation / 90)]);
      let lastNew = phaseAt(0, noon - 31 * DAY, 40)!;
      for (let n = phaseAt(0, lastNew + DAY, 40)!; n <= noon; n = phaseAt(0, lastNew + DAY, 40)!) lastNew = n;
      // Rounded to 0.01 day from Meeus's new moon (18 s = 0.0002 day at worst).
      expect(Math.abs(m.age_days - (noon - lastNew) / DAY), where).toBeLessThanOrEqual(0.0053);
      expect(m.illumination).toBe(Math.round(Illumination(Body.Moon, new Date(noon)).phase_fraction * 1000) / 10);
      expect(sameMinute(m.next_full_moon, phaseAt(180, start, 40)), `${where} full ${m.next_full_moon}`).toBe(true);
      expect(sameMinute(m.next_new_moon, phaseAt(0, start, 40)), `${where} new ${m.next_new_moon}`).toBe(true);
    }
  });

  it("Meeus's phase instants (the first guess) are within 18 s of SearchMoonPhase's over 1900-2100", () => {
    const aberration = 20.4898 / 3600;
    const first = Math.floor(((Date.UTC(1900, 0, 1) - Date.UTC(2000, 0, 6)) / DAY / 29.530588861) * 4);
    let worst = 0;
    for (let q = first; q < first + 4 * 2487; q += 7) {
      const guess = meeusPhaseInstant(q);
      const exact = SearchMoonPhase((((q % 4) + 4) % 4) * 90 - aberration + 360, new Date(guess - DAY), 2)!.date.getTime();
      worst = Math.max(worst, Math.abs(guess - exact));
    }
    expect(worst).toBeLessThan(18_000);
  });
});
