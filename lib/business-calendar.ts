/**
 * Business-day arithmetic over a fixed window of day numbers, answered from
 * prefix sums: every query is O(1) or a binary search (O(log n)), never a
 * day-by-day loop. Pure: the caller supplies which days are open.
 *
 * Conventions (shared with QuantLib, pandas and HolidayAPI):
 * - add/subtract do not count the start day: Saturday + 1 = Monday, Friday + 1 = Monday;
 * - count is inclusive of both ends;
 * - next is the first business day strictly after the given day.
 */

export interface BusinessCalendar {
  /** First day number covered (inclusive). */
  readonly firstDay: number;
  /** Last day number covered (inclusive). */
  readonly lastDay: number;
  /** 1 where the day is a business day. */
  readonly open: Uint8Array;
  /** prefix[i] = business days in [firstDay, firstDay + i); length = days + 1. */
  readonly prefix: Int32Array;
}

/** Builds a calendar from a per-day flag (index 0 = firstDay). */
export function buildBusinessCalendar(firstDay: number, open: Uint8Array): BusinessCalendar {
  const prefix = new Int32Array(open.length + 1);
  for (let i = 0; i < open.length; i++) prefix[i + 1] = prefix[i] + open[i];
  return { firstDay, lastDay: firstDay + open.length - 1, open, prefix };
}

export function covers(cal: BusinessCalendar, day: number): boolean {
  return day >= cal.firstDay && day <= cal.lastDay;
}

export function isBusinessDay(cal: BusinessCalendar, day: number): boolean {
  return cal.open[day - cal.firstDay] === 1;
}

/** Business days in [start, end], both inclusive; 0 when end < start. */
export function countBusinessDays(cal: BusinessCalendar, start: number, end: number): number {
  if (end < start) return 0;
  return cal.prefix[end + 1 - cal.firstDay] - cal.prefix[start - cal.firstDay];
}

/** Smallest index i with prefix[i] >= target, or prefix.length when none. */
function lowerBound(prefix: Int32Array, target: number): number {
  let lo = 0;
  let hi = prefix.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (prefix[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The day `days` business days after `start` (start not counted), or
 * `undefined` when the answer lies beyond the calendar's window.
 */
export function addBusinessDays(cal: BusinessCalendar, start: number, days: number): number | undefined {
  const target = cal.prefix[start + 1 - cal.firstDay] + days;
  const i = lowerBound(cal.prefix, target);
  return i >= cal.prefix.length ? undefined : cal.firstDay + i - 1;
}

/**
 * The day `days` business days before `start` (start not counted), or
 * `undefined` when the answer lies before the calendar's window.
 */
export function subtractBusinessDays(cal: BusinessCalendar, start: number, days: number): number | undefined {
  const target = cal.prefix[start - cal.firstDay] - days;
  if (target < 0) return undefined;
  return cal.firstDay + lowerBound(cal.prefix, target + 1) - 1;
}

/** First business day strictly after `day`. */
export function nextBusinessDay(cal: BusinessCalendar, day: number): number | undefined {
  return addBusinessDays(cal, day, 1);
}

/** Last business day strictly before `day`. */
export function previousBusinessDay(cal: BusinessCalendar, day: number): number | undefined {
  return subtractBusinessDays(cal, day, 1);
}
