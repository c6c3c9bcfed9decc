import { describe, expect, it } from 'vitest';
import { parseDate } from './plain-date.js';
import { isWorkday, normalizeWorkweek, workweekFromWeekend, workweekOn } from './workweek.js';

describe('workweeks', () => {
  it('turns CLDR weekend ranges into working days, wrapping around Sunday', () => {
    expect(workweekFromWeekend('sat', 'sun')).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']);
    expect(workweekFromWeekend('fri', 'sat')).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'sunday']);
    expect(workweekFromWeekend('sun', 'sun')).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']);
    expect(workweekFromWeekend('thu', 'fri')).toEqual(['monday', 'tuesday', 'wednesday', 'saturday', 'sunday']);
    expect(() => workweekFromWeekend('xyz', 'sun')).toThrow();
  });

  it('picks the period in force on a day (UAE before and after 2022-01-01)', () => {
    const spans = [
      { from: null, until: parseDate('2021-12-31')!, days: normalizeWorkweek(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday']) },
      { from: parseDate('2022-01-01')!, until: null, days: normalizeWorkweek(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']) },
    ];
    expect(workweekOn(spans, parseDate('2021-12-31')!)).toContain('sunday');
    expect(isWorkday(spans, parseDate('2021-12-31')!)).toBe(false); // a Friday
    expect(isWorkday(spans, parseDate('2022-01-02')!)).toBe(false); // a Sunday
    expect(isWorkday(spans, parseDate('2022-01-07')!)).toBe(true); // a Friday
    expect(() => workweekOn([{ from: 0, until: 10, days: [] }], 11)).toThrow();
  });
});
