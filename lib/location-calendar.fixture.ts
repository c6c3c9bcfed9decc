/**
 * A made-up location for the tests of lib/location-calendar.ts and
 * lib/business-answers.ts: small enough to check every answer by hand.
 */
import type { BusinessDaysLocation, BusinessDaysYear, Holiday, WorkingDay } from './schema-types.js';

export const MON_FRI = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] as const;
export const SUN_THU = ['monday', 'tuesday', 'wednesday', 'thursday', 'sunday'] as const;

/** A made-up location, XA, 2025-2026: its weekend moves from Sat-Sun to Fri-Sat on 2025-07-01 (as the UAE's moved the other way). */
export function fixture(): { meta: BusinessDaysLocation; years: BusinessDaysYear[] } {
  const h = (date: string, name: string, type: Holiday['type'], closes: Holiday['closes'], extra: Partial<Holiday> = {}): Holiday => ({
    basis: 'rules', citations: [], closes, date, local_name: name, name, observed_for: null, partial: false, substitute: false, transferred: false, transferred_from: null, type, ...extra,
  });
  const wd = (date: string, applies_to: WorkingDay['applies_to']): WorkingDay => ({ applies_to, citations: [], date, for_date: null, for_holiday: 'New Year', local_name: 'Work', name: 'Working day (New Year)' });
  const meta = {
    location: 'XA', name: 'Example', kind: 'country', country: 'XA', parent: null, timezone: 'UTC', local_language: 'en',
    range: { start: '2025-01-01', end: '2026-12-31' },
    workweeks: [
      { from: null, until: '2025-06-30', workweek: [...MON_FRI], source: 'test' },
      { from: '2025-07-01', until: null, workweek: [...SUN_THU], source: 'test' },
    ],
    day_types: { business: { data: 'own', basis: 'test' }, banking: { data: 'own', basis: 'test' }, government: { data: 'own', basis: 'test' } },
    years: [2025, 2026],
    basis: [{ from: 2025, to: 2025, basis: 'rules' }, { from: 2026, to: 2026, basis: 'official' }],
  } satisfies BusinessDaysLocation;
  const years: BusinessDaysYear[] = [
    {
      location: 'XA', year: 2025, basis: 'rules', sources: [],
      holidays: [
        h('2025-01-01', 'New Year', 'public', ['business', 'banking', 'government']), // Wednesday
        h('2025-01-06', 'Bank Day', 'bank', ['banking']), // Monday
        h('2025-01-07', 'Civil Service Day', 'government', ['government']), // Tuesday
        h('2025-01-08', 'Half Day', 'public', [], { partial: true, start_time: '14:00', end_time: '24:00' }), // Wednesday
        h('2025-01-11', 'Saturday Feast', 'public', ['business', 'banking', 'government']), // Saturday
      ],
      working_days: [wd('2025-01-18', ['business', 'government'])], // Saturday
    },
    { location: 'XA', year: 2026, basis: 'official', sources: [], holidays: [h('2026-03-02', 'Spring Day', 'public', ['business', 'banking', 'government'], { basis: 'official' })], working_days: [] },
  ];
  return { meta, years };
}
