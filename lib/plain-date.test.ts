import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { civilFromDays, daysFromCivil, formatDate, parseDate, weekdayName } from './plain-date.js';

describe('plain dates', () => {
  it('parses real dates and rejects impossible ones', () => {
    expect(parseDate('1970-01-01')).toBe(0);
    expect(parseDate('2024-02-29')).toBe(daysFromCivil(2024, 2, 29));
    for (const bad of ['2025-02-29', '2025-02-30', '2025-13-01', '2025-00-10', '2025-04-31', '2025-1-01', '20250101', '2025-01-01T00:00', ' 2025-01-01', '']) {
      expect(parseDate(bad), bad).toBeUndefined();
    }
  });

  it('knows weekdays (2026-01-19 is a Monday, 2000-01-01 a Saturday)', () => {
    expect(weekdayName(parseDate('2026-01-19')!)).toBe('monday');
    expect(weekdayName(parseDate('2000-01-01')!)).toBe('saturday');
    expect(weekdayName(parseDate('1969-12-31')!)).toBe('wednesday');
  });

  it('round-trips every day number and agrees with the platform calendar', () => {
    fc.assert(
      fc.property(fc.integer({ min: -800_000, max: 800_000 }), (n) => {
        const [y, m, d] = civilFromDays(n);
        expect(daysFromCivil(y, m, d)).toBe(n);
        if (y >= 0 && y <= 9999) {
          expect(parseDate(formatDate(n))).toBe(n);
          expect(formatDate(n)).toBe(new Date(n * 86_400_000).toISOString().slice(0, 10));
        }
      }),
    );
  });
});
