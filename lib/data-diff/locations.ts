/**
 * Changes of one business-day location: its fields and the first date its
 * workweek differs.
 */
import type { BusinessDaysLocation } from '../schema-types.js';
import type { LocationChange } from './types.js';
import { fieldChanges } from './values.js';

export type Workweeks = BusinessDaysLocation['workweeks'];

function workweekAt(periods: Workweeks, date: string | null): string | undefined {
  const p = periods.find((w) => (date === null ? w.from === null : (w.from === null || w.from <= date) && (w.until === null || date <= w.until)));
  // Compared as sets: the order of the list changed once (from the first working day), the days did not.
  return p ? [...p.workweek].sort().join(',') : undefined;
}

/**
 * First date whose workweek differs (null: from the start), or undefined
 * when every date has the same workweek. Periods are contiguous and
 * inclusive, so the first difference falls on some period's `from`.
 */
export function firstWorkweekDifference(a: Workweeks, b: Workweeks): string | null | undefined {
  const starts = [...new Set([...a, ...b].map((w) => w.from).filter((d): d is string => d !== null))].sort();
  for (const d of [null, ...starts]) if (workweekAt(a, d) !== workweekAt(b, d)) return d;
  return undefined;
}

/** Fields compared besides workweeks; range, years and the day types' basis text follow from the holiday files and source versions. */
const LOCATION_SKIP = ['workweeks', 'range', 'years', 'day_types'];

export function diffLocation(a: BusinessDaysLocation, b: BusinessDaysLocation): LocationChange | undefined {
  const fields = fieldChanges(a, b, LOCATION_SKIP);
  for (const t of ['business', 'banking', 'government'] as const) {
    if (a.day_types[t].data !== b.day_types[t].data) fields.push({ field: `day_types.${t}.data`, old: a.day_types[t].data, new: b.day_types[t].data });
  }
  const from = firstWorkweekDifference(a.workweeks, b.workweeks);
  if (from === undefined && fields.length === 0) return undefined;
  return {
    location: a.location,
    ...(from !== undefined ? { workweek_from: from, old_workweeks: a.workweeks, new_workweeks: b.workweeks } : {}),
    fields,
  };
}
