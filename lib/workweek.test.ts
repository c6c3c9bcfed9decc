import { describe, expect, it } from 'vitest';
import { parseDate, WEEKDAYS } from './plain-date.js';
import { isWorkday, orderWorkweek, workweekFromWeekend, workweekOn } from './workweek.js';

const MON_FRI = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
const SUN_THU = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday'];
const SAT_WED = ['saturday', 'sunday', 'monday', 'tuesday', 'wednesday'];

describe('workweeks', () => {
  it('turns CLDR weekend ranges into working days in workweek order, wrapping around Sunday', () => {
    expect(workweekFromWeekend('sat', 'sun')).toEqual(MON_FRI);
    expect(workweekFromWeekend('fri', 'sat')).toEqual(SUN_THU); // Israel
    expect(workweekFromWeekend('sun', 'sun')).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday']); // India
    expect(workweekFromWeekend('thu', 'fri')).toEqual(SAT_WED); // Afghanistan
    expect(workweekFromWeekend('fri', 'fri')).toEqual(['saturday', 'sunday', 'monday', 'tuesday', 'wednesday', 'thursday']); // Iran
    expect(() => workweekFromWeekend('xyz', 'sun')).toThrow();
  });

  it('picks the period in force on a day (UAE before and after 2022-01-01)', () => {
    const spans = [
      { from: null, until: parseDate('2021-12-31')!, days: orderWorkweek(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday']) },
      { from: parseDate('2022-01-01')!, until: null, days: orderWorkweek(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']) },
    ];
    expect(workweekOn(spans, parseDate('2021-12-31')!)).toEqual(SUN_THU);
    expect(isWorkday(spans, parseDate('2021-12-31')!)).toBe(false); // a Friday
    expect(isWorkday(spans, parseDate('2022-01-02')!)).toBe(false); // a Sunday
    expect(isWorkday(spans, parseDate('2022-01-07')!)).toBe(true); // a Friday
    expect(() => workweekOn([{ from: 0, until: 10, days: [] }], 11)).toThrow();
  });
});

describe('orderWorkweek: from the first working day after the weekend', () => {
  it('starts after the weekend, whatever order the days come in', () => {
    expect(orderWorkweek(['monday', 'tuesday', 'wednesday', 'thursday', 'sunday'])).toEqual(SUN_THU); // Friday–Saturday weekend
    expect(orderWorkweek(['thursday', 'sunday', 'wednesday', 'monday', 'tuesday'])).toEqual(SUN_THU);
    expect(orderWorkweek(['monday', 'tuesday', 'wednesday', 'saturday', 'sunday'])).toEqual(SAT_WED); // Thursday–Friday weekend
    expect(orderWorkweek(['friday', 'thursday', 'wednesday', 'tuesday', 'monday'])).toEqual(MON_FRI);
    expect(orderWorkweek(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'sunday'])).toEqual(['sunday', ...MON_FRI]); // Nepal: Saturday only
    expect(orderWorkweek(['monday', 'tuesday', 'wednesday', 'thursday'])).toEqual(['monday', 'tuesday', 'wednesday', 'thursday']); // Sharjah: Friday–Sunday
  });

  it('with several gaps, starts after the longest; equally long ones go to the start closest to Monday', () => {
    // Brunei's government: Friday and Sunday off, two one-day gaps; Monday beats Saturday.
    expect(orderWorkweek(['saturday', 'monday', 'tuesday', 'wednesday', 'thursday'])).toEqual(['monday', 'tuesday', 'wednesday', 'thursday', 'saturday']);
    // Wednesday off, and Saturday–Sunday: the two-day gap wins.
    expect(orderWorkweek(['monday', 'tuesday', 'thursday', 'friday'])).toEqual(['monday', 'tuesday', 'thursday', 'friday']);
    // Thursday off, and Saturday alone: one-day gaps, Sunday (after Saturday) is closer to Monday than Friday.
    expect(orderWorkweek(['sunday', 'monday', 'tuesday', 'wednesday', 'friday'])).toEqual(['sunday', 'monday', 'tuesday', 'wednesday', 'friday']);
    // Saturday and Monday off: Tuesday and Sunday are equally close to Monday; Tuesday, the later day, wins.
    expect(orderWorkweek(['sunday', 'tuesday', 'wednesday', 'thursday', 'friday'])).toEqual(['tuesday', 'wednesday', 'thursday', 'friday', 'sunday']);
  });

  it('keeps every day once, drops unknown names, and leaves the edge cases Monday first', () => {
    expect(orderWorkweek([...WEEKDAYS])).toEqual([...WEEKDAYS]);
    expect(orderWorkweek([])).toEqual([]);
    expect(orderWorkweek(['sunday', 'sunday', 'funday', 'monday'])).toEqual(['sunday', 'monday']);
    expect(orderWorkweek(['wednesday'])).toEqual(['wednesday']);
  });

  it('is a permutation of its input for every one of the 128 weekday sets', () => {
    for (let mask = 0; mask < 128; mask++) {
      const days = WEEKDAYS.filter((_, i) => mask & (1 << i));
      const ordered = orderWorkweek(days);
      expect([...ordered].sort()).toEqual([...days].sort());
      expect(orderWorkweek(ordered)).toEqual(ordered); // idempotent
      expect(orderWorkweek([...days].reverse())).toEqual(ordered); // input order does not matter
      if (days.length > 0 && days.length < 7) {
        // The first day follows a day off: the list reads from the end of a weekend.
        const first = WEEKDAYS.indexOf(ordered[0]);
        expect(days, days.join(',')).not.toContain(WEEKDAYS[(first + 6) % 7]);
      }
    }
  });
});
