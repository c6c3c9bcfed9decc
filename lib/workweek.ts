/**
 * Workweeks that change over time (the UAE moved its weekend on 2022-01-01,
 * Saudi Arabia on 2013-06-29). Periods are inclusive day-number ranges.
 */
import { parseDate, WEEKDAYS, weekdayIndex, type Weekday } from './plain-date.js';

export interface WorkweekSpan {
  /** First day number of the period, or null for "since always". */
  from: number | null;
  /** Last day number of the period, or null for "still in force". */
  until: number | null;
  /** Working weekdays in Monday-first order. */
  days: Weekday[];
}

/** The spans of a location's workweek rows (`index.json` `workweeks`), as day numbers. */
export function workweekSpans(rows: readonly { from: string | null; until: string | null; workweek: Weekday[] }[]): WorkweekSpan[] {
  return rows.map((w) => ({ from: w.from === null ? null : parseDate(w.from)!, until: w.until === null ? null : parseDate(w.until)!, days: w.workweek }));
}

/** Working weekdays in force on `day`; periods must not overlap. */
export function workweekOn(spans: readonly WorkweekSpan[], day: number): Weekday[] {
  for (const s of spans) {
    if ((s.from === null || day >= s.from) && (s.until === null || day <= s.until)) return s.days;
  }
  throw new Error(`no workweek covers day ${day}`);
}

export function isWorkday(spans: readonly WorkweekSpan[], day: number): boolean {
  return workweekOn(spans, day).includes(WEEKDAYS[weekdayIndex(day)]);
}

/** Sorts weekday names into Monday-first order and drops duplicates. */
export function normalizeWorkweek(days: readonly string[]): Weekday[] {
  return WEEKDAYS.filter((d) => days.includes(d));
}

/** Working weekdays given a CLDR weekend range (e.g. "fri".."sat"; wraps around Sunday). */
export function workweekFromWeekend(weekendStart: string, weekendEnd: string): Weekday[] {
  const idx = (abbr: string) => WEEKDAYS.findIndex((d) => d.startsWith(abbr));
  const start = idx(weekendStart);
  const end = idx(weekendEnd);
  if (start < 0 || end < 0) throw new Error(`unknown weekday in weekend ${weekendStart}-${weekendEnd}`);
  const off = new Set<number>();
  for (let i = start; ; i = (i + 1) % 7) {
    off.add(i);
    if (i === end) break;
  }
  return WEEKDAYS.filter((_, i) => !off.has(i));
}
