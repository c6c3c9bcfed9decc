import { describe, expect, it } from 'vitest';
import { countBusinessDays, isBusinessDay } from './business-calendar.js';
import { isRelevant, LocationCalendar } from './location-calendar.js';
import { formatDate, parseDate } from './plain-date.js';
import { fixture, MON_FRI, SUN_THU } from './location-calendar.fixture.js';
import type { Holiday } from './schema-types.js';

const d = (s: string) => parseDate(s)!;

describe('LocationCalendar', () => {
  const { meta, years } = fixture();
  const cal = new LocationCalendar(meta, years);

  it('covers its range and follows the workweek in force', () => {
    expect([formatDate(cal.firstDay), formatDate(cal.lastDay), cal.location]).toEqual(['2025-01-01', '2026-12-31', 'XA']);
    expect([cal.covers(d('2024-12-31')), cal.covers(d('2025-01-01')), cal.covers(d('2027-01-01'))]).toEqual([false, true, false]);
    expect(cal.workweekOn(d('2025-06-30'))).toEqual(MON_FRI);
    expect(cal.workweekOn(d('2025-07-01'))).toEqual(SUN_THU);
    // Friday 2025-06-27 is a workday, Friday 2025-07-04 is not; Sunday 2025-07-06 is.
    expect(['2025-06-27', '2025-07-04', '2025-07-06'].map((s) => isBusinessDay(cal.workday, d(s)))).toEqual([true, false, true]);
  });

  it('closes a day only for the types a holiday closes, and opens make-up working days for theirs', () => {
    const open = (type: 'business' | 'banking' | 'government', s: string) => isBusinessDay(cal.calendar(type), d(s));
    expect(['2025-01-01', '2025-01-06', '2025-01-07', '2025-01-08', '2025-01-18'].map((s) => open('business', s))).toEqual([false, true, true, true, true]);
    expect(['2025-01-01', '2025-01-06', '2025-01-07', '2025-01-08', '2025-01-18'].map((s) => open('banking', s))).toEqual([false, false, true, true, false]);
    expect(['2025-01-01', '2025-01-06', '2025-01-07', '2025-01-08', '2025-01-18'].map((s) => open('government', s))).toEqual([false, true, false, true, true]);
    expect(cal.calendar('banking')).toBe(cal.calendar('banking')); // built once
  });

  it('lists holidays and working days by date and type', () => {
    const names = (hs: Holiday[]) => hs.map((x) => x.name);
    const jan = [d('2025-01-01'), d('2025-01-31')] as const;
    expect(names(cal.holidaysBetween(...jan, 'business'))).toEqual(['New Year', 'Half Day', 'Saturday Feast']);
    expect(names(cal.holidaysBetween(...jan, 'banking'))).toEqual(['New Year', 'Bank Day', 'Half Day', 'Saturday Feast']);
    expect(names(cal.holidaysBetween(...jan, 'government'))).toEqual(['New Year', 'Civil Service Day', 'Half Day', 'Saturday Feast']);
    expect(cal.holidayJsonBetween(...jan, 'banking')).toEqual(cal.holidaysBetween(...jan, 'banking').map((x) => JSON.stringify(x)));
    expect(names(cal.holidaysBetween(d('2025-01-02'), d('2025-01-05'), 'business'))).toEqual([]);
    for (const type of ['business', 'banking', 'government'] as const) {
      expect(cal.holidaysBetween(cal.firstDay, cal.lastDay, type)).toEqual(years.flatMap((y) => y.holidays).filter((x) => isRelevant(x, type)));
    }
    expect(cal.workingDaysBetween(...jan, 'government').map((w) => w.date)).toEqual(['2025-01-18']);
    expect(cal.workingDaysBetween(...jan, 'banking')).toEqual([]);
    expect(cal.workingDayOn(d('2025-01-18'))?.name).toBe('Working day (New Year)');
    expect(cal.holidaysOn(d('2025-01-11')).map((x) => x.name)).toEqual(['Saturday Feast']);
    expect(cal.holidaysOn(d('2025-01-12'))).toEqual([]);
  });

  it('says official only when every year is', () => {
    expect(cal.basisBetween(d('2025-01-01'), d('2025-12-31'))).toBe('rules');
    expect(cal.basisBetween(d('2026-01-01'), d('2026-12-31'))).toBe('official');
    expect(cal.basisBetween(d('2025-12-31'), d('2026-01-02'))).toBe('rules');
  });

  it('counts business = workdays - closed workdays + working weekend days', () => {
    const [a, b] = [d('2025-01-01'), d('2025-01-31')];
    // January 2025, Mon-Fri: 23 workdays; 2025-01-01 closed; 2025-01-18 (Saturday) worked for business.
    expect(countBusinessDays(cal.calendar('business'), a, b)).toBe(23 - 1 + 1);
    expect(countBusinessDays(cal.calendar('banking'), a, b)).toBe(23 - 2);
  });
});
