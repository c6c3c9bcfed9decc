import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addBusinessDays,
  buildBusinessCalendar,
  countBusinessDays,
  isBusinessDay,
  nextBusinessDay,
  previousBusinessDay,
  subtractBusinessDays,
  type BusinessCalendar,
} from './business-calendar.js';
import { parseDate } from './plain-date.js';

/** Naive day-by-day versions: the reference the prefix-sum code must agree with. */
function naiveAdd(cal: BusinessCalendar, start: number, n: number): number | undefined {
  let d = start;
  while (n > 0) {
    d++;
    if (d > cal.lastDay) return undefined;
    if (isBusinessDay(cal, d)) n--;
  }
  return d;
}
function naiveSubtract(cal: BusinessCalendar, start: number, n: number): number | undefined {
  let d = start;
  while (n > 0) {
    d--;
    if (d < cal.firstDay) return undefined;
    if (isBusinessDay(cal, d)) n--;
  }
  return d;
}
function naiveCount(cal: BusinessCalendar, a: number, b: number): number {
  let n = 0;
  for (let d = a; d <= b; d++) if (isBusinessDay(cal, d)) n++;
  return n;
}

const calendarArb = fc
  .record({ first: fc.integer({ min: 0, max: 30_000 }), flags: fc.uint8Array({ min: 0, max: 1, minLength: 1, maxLength: 400 }) })
  .map(({ first, flags }) => buildBusinessCalendar(first, flags));

const withDay = calendarArb.chain((cal) => fc.tuple(fc.constant(cal), fc.integer({ min: cal.firstDay, max: cal.lastDay })));

describe('business calendar (prefix sums)', () => {
  // A Monday-Friday week with one holiday, 2026-01-19 (MLK Day).
  const first = parseDate('2026-01-01')!;
  const flags = new Uint8Array(120);
  for (let i = 0; i < flags.length; i++) flags[i] = (i + 3) % 7 < 5 ? 1 : 0; // 2026-01-01 is a Thursday
  flags[parseDate('2026-01-01')! - first] = 0;
  flags[parseDate('2026-01-19')! - first] = 0;
  const cal = buildBusinessCalendar(first, flags);
  const d = (s: string) => parseDate(s)!;

  it('does not count the start day: Saturday + 1 = Monday, Friday + 1 = Monday', () => {
    expect(addBusinessDays(cal, d('2026-01-10'), 1)).toBe(d('2026-01-12'));
    expect(addBusinessDays(cal, d('2026-01-09'), 1)).toBe(d('2026-01-12'));
    expect(addBusinessDays(cal, d('2026-01-15'), 10)).toBe(d('2026-01-30'));
    expect(subtractBusinessDays(cal, d('2026-01-20'), 1)).toBe(d('2026-01-16'));
    expect(subtractBusinessDays(cal, d('2026-01-11'), 1)).toBe(d('2026-01-09'));
  });

  it('counts inclusively and says when an answer leaves the window', () => {
    expect(countBusinessDays(cal, d('2026-01-12'), d('2026-01-16'))).toBe(5);
    expect(countBusinessDays(cal, d('2026-01-17'), d('2026-01-19'))).toBe(0);
    expect(countBusinessDays(cal, d('2026-01-20'), d('2026-01-19'))).toBe(0);
    expect(addBusinessDays(cal, d('2026-04-29'), 5)).toBeUndefined();
    expect(subtractBusinessDays(cal, d('2026-01-02'), 1)).toBeUndefined();
    expect(nextBusinessDay(cal, d('2026-01-16'))).toBe(d('2026-01-20'));
    expect(previousBusinessDay(cal, d('2026-01-20'))).toBe(d('2026-01-16'));
  });

  it('agrees with day-by-day counting on random calendars', () => {
    fc.assert(
      fc.property(withDay, fc.integer({ min: 1, max: 300 }), ([c, day], n) => {
        expect(addBusinessDays(c, day, n)).toBe(naiveAdd(c, day, n));
        expect(subtractBusinessDays(c, day, n)).toBe(naiveSubtract(c, day, n));
        const end = Math.min(c.lastDay, day + n);
        expect(countBusinessDays(c, day, end)).toBe(naiveCount(c, day, end));
      }),
      { numRuns: 500 },
    );
  });

  it('next(d) is a business day strictly after d', () => {
    fc.assert(
      fc.property(withDay, ([c, day]) => {
        const next = nextBusinessDay(c, day);
        if (next === undefined) return;
        expect(next).toBeGreaterThan(day);
        expect(isBusinessDay(c, next)).toBe(true);
        expect(countBusinessDays(c, day + 1, next - 1)).toBe(0);
      }),
    );
  });

  it('subtract(add(d, n), n) = d and count(d, add(d, n)) = n + 1 when d is a business day', () => {
    fc.assert(
      fc.property(withDay, fc.integer({ min: 1, max: 300 }), ([c, day], n) => {
        if (!isBusinessDay(c, day)) return;
        const later = addBusinessDays(c, day, n);
        if (later === undefined) return;
        expect(subtractBusinessDays(c, later, n)).toBe(day);
        expect(countBusinessDays(c, day, later)).toBe(n + 1);
      }),
      { numRuns: 500 },
    );
  });
});
