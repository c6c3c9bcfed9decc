import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAnswer, countAnswer, countJson, nextAnswer, pickHoliday, shiftAnswer } from './business-answers.js';
import { LocationCalendar } from './location-calendar.js';
import { fixture } from './location-calendar.fixture.js';
import { parseDate } from './plain-date.js';
import type { DayType } from './location-calendar.js';

const d = (s: string) => parseDate(s)!;
const { meta, years } = fixture();
const cal = new LocationCalendar(meta, years);
const MON_FRI = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];

describe('checkAnswer', () => {
  it('answers a closed weekday with the holiday and the business days around it', () => {
    expect(checkAnswer(cal, 'banking', d('2025-01-06'))).toEqual({
      date: '2025-01-06', location: 'XA', type: 'banking', is_business_day: false, workweek: MON_FRI,
      holiday: years[0].holidays[1], working_day: null, basis: 'rules',
      reason: 'holiday', next_business_day: '2025-01-07', prev_business_day: '2025-01-03',
    });
  });

  it('says weekend for a holiday outside the workweek, and omits a neighbour beyond the range', () => {
    const sat = checkAnswer(cal, 'business', d('2025-01-11'));
    expect([sat.reason, sat.holiday?.name, sat.next_business_day, sat.prev_business_day]).toEqual(['weekend', 'Saturday Feast', '2025-01-13', '2025-01-10']);
    const first = checkAnswer(cal, 'business', d('2025-01-01'));
    expect(first.next_business_day).toBe('2025-01-02');
    expect('prev_business_day' in first).toBe(false);
  });

  it('answers an open day without reason or neighbours; names a partial holiday and a make-up working day', () => {
    const half = checkAnswer(cal, 'business', d('2025-01-08'));
    expect([half.is_business_day, half.holiday?.name, 'reason' in half, 'next_business_day' in half]).toEqual([true, 'Half Day', false, false]);
    const sat = checkAnswer(cal, 'government', d('2025-01-18'));
    expect([sat.is_business_day, sat.working_day?.date]).toEqual([true, '2025-01-18']);
    expect(checkAnswer(cal, 'banking', d('2025-01-18'))).toMatchObject({ is_business_day: false, reason: 'weekend', working_day: { date: '2025-01-18' } });
    expect(checkAnswer(cal, 'business', d('2026-03-03')).basis).toBe('official');
  });

  it('picks the holiday that closes the type, else one that counts for it, else any', () => {
    const [newYear, bank, civil] = years[0].holidays;
    expect(pickHoliday([bank, civil, newYear], 'business')).toBe(newYear);
    expect(pickHoliday([civil, bank], 'banking')).toBe(bank);
    expect(pickHoliday([bank], 'government')).toBe(bank);
    expect(pickHoliday([], 'business')).toBeNull();
  });

  it('of two holidays that close the date, names the best-sourced one (official, corroborated, rules), else the first', () => {
    const [newYear] = years[0].holidays;
    const projected = { ...newYear, name: 'Dussehra', basis: 'rules' as const };
    const agreed = { ...newYear, name: 'Gandhi Jayanti', basis: 'corroborated' as const };
    const listed = { ...newYear, name: 'Listed', basis: 'official' as const };
    expect(pickHoliday([projected, agreed], 'business')).toBe(agreed);
    expect(pickHoliday([projected, agreed, listed], 'business')).toBe(listed);
    expect(pickHoliday([agreed, { ...agreed, name: 'Second' }], 'business')).toBe(agreed);
  });

  it('of two equally sourced, names the one that closes more day types (India 2025-10-02: Gandhi Jayanti, not Dussehra)', () => {
    const [newYear] = years[0].holidays;
    const dussehra = { ...newYear, name: 'Dussehra', basis: 'official' as const, closes: ['business', 'government'] as DayType[] };
    const gandhi = { ...newYear, name: 'Gandhi Jayanti', basis: 'official' as const, closes: ['business', 'banking', 'government'] as DayType[] };
    expect(pickHoliday([dussehra, gandhi], 'business')).toBe(gandhi);
    expect(pickHoliday([gandhi, dussehra], 'government')).toBe(gandhi);
  });
});

describe('shiftAnswer, nextAnswer', () => {
  it('skips days off both ways, and reports the workweek at the result', () => {
    // Tuesday 2024-12-31 is out of range; Wednesday 2025-01-01 is closed: + 1 = Thursday.
    expect(shiftAnswer(cal, 'business', d('2025-01-01'), 1, 1)).toEqual({ start: '2025-01-01', days: 1, result: '2025-01-02', location: 'XA', type: 'business', workweek: MON_FRI, basis: 'rules' });
    expect(shiftAnswer(cal, 'banking', d('2025-01-03'), 1, 1)?.result).toBe('2025-01-07');
    expect(shiftAnswer(cal, 'banking', d('2025-01-07'), 1, -1)?.result).toBe('2025-01-03');
    expect(shiftAnswer(cal, 'business', d('2025-07-03'), 1, 1)).toMatchObject({ result: '2025-07-06', workweek: ['monday', 'tuesday', 'wednesday', 'thursday', 'sunday'] });
    // basis: official only when every year from start to result is.
    expect(shiftAnswer(cal, 'business', d('2026-01-05'), 2, 1)?.basis).toBe('official');
    expect(shiftAnswer(cal, 'business', d('2025-12-31'), 2, 1)?.basis).toBe('rules');
  });

  it('is undefined beyond the range', () => {
    expect(shiftAnswer(cal, 'business', d('2026-12-30'), 5, 1)).toBeUndefined();
    expect(shiftAnswer(cal, 'business', d('2025-01-03'), 5, -1)).toBeUndefined();
    expect(nextAnswer(cal, 'business', d('2026-12-31'))).toBeUndefined();
  });

  it('next is the first business day strictly after', () => {
    expect(nextAnswer(cal, 'business', d('2025-01-10'))).toEqual({ from: '2025-01-10', next: '2025-01-13', days_until: 3, location: 'XA', type: 'business', basis: 'rules' });
  });
});

describe('countAnswer, countJson', () => {
  it('counts January 2025 with its holidays and working days', () => {
    const c = countAnswer(cal, 'business', d('2025-01-01'), d('2025-01-31'));
    expect(c).toMatchObject({ total_days: 31, business_days: 23, weekend_days: 8, holidays: 1, working_weekend_days: 1, location: 'XA', type: 'business', workweek: MON_FRI, basis: 'rules' });
    expect(c.holiday_list.map((h) => h.date)).toEqual(['2025-01-01', '2025-01-08', '2025-01-11']);
    expect(c.working_day_list.map((w) => w.date)).toEqual(['2025-01-18']);
  });

  it('the text is byte for byte the answer serialised, and the counts add up, for any range and type', () => {
    const day = fc.integer({ min: cal.firstDay, max: cal.lastDay });
    fc.assert(
      fc.property(day, day, fc.constantFrom('business' as const, 'banking' as const, 'government' as const), (x, y, type) => {
        const [a, b] = [Math.min(x, y), Math.max(x, y)];
        const c = countAnswer(cal, type, a, b);
        expect(countJson(cal, type, a, b)).toBe(JSON.stringify(c));
        expect(c.business_days).toBe(c.total_days - c.weekend_days - c.holidays + c.working_weekend_days);
        // From a business day a, add(a, k) is the k-th business day after it: count(a, add(a, k)) = k + 1.
        const k = 1 + (b % 50);
        const shifted = shiftAnswer(cal, type, a, k, 1);
        if (checkAnswer(cal, type, a).is_business_day && shifted) {
          expect(countAnswer(cal, type, a, parseDate(shifted.result)!).business_days).toBe(k + 1);
          expect(shiftAnswer(cal, type, parseDate(shifted.result)!, k, -1)?.result).toBe(c.start);
        }
      }),
      { numRuns: 300, seed: 13 },
    );
  });
});
