/**
 * Workweeks that change over time (the UAE moved its weekend on 2022-01-01,
 * Saudi Arabia on 2013-06-29). Periods are inclusive day-number ranges.
 *
 * A workweek is always listed in workweek order (orderWorkweek): from the
 * first working day after the weekend, as people there read it. Israel's is
 * Sunday to Thursday, not "Monday … Thursday, Sunday".
 */
import { parseDate, WEEKDAYS, weekdayIndex, type Weekday } from './plain-date.js';

export interface WorkweekSpan {
  /** First day number of the period, or null for "since always". */
  from: number | null;
  /** Last day number of the period, or null for "still in force". */
  until: number | null;
  /** Working weekdays in workweek order (orderWorkweek). */
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

/** Tie-break between weekends of the same length: the first day of the week closest to Monday, the later one first. */
const START_RANK: readonly Weekday[] = ['monday', 'tuesday', 'sunday', 'wednesday', 'saturday', 'thursday', 'friday'];

/**
 * The working weekdays in workweek order: starting on the day after the
 * weekend, taken as the longest run of non-working days (wrapping around the
 * week). Friday–Saturday (Israel) gives Sunday … Thursday; Thursday–Friday
 * (Saudi Arabia before 2013-06-29) Saturday … Wednesday; Friday only (Iran)
 * Saturday … Thursday; Saturday–Sunday Monday … Friday.
 * Equally long runs (Brunei: Friday and Sunday off): the start closest to
 * Monday wins, Monday itself first, then Tuesday before Sunday, Wednesday
 * before Saturday, Thursday before Friday (so Brunei reads Monday … Thursday,
 * Saturday). No weekend at all: Monday first. Unknown names and duplicates
 * are dropped.
 * @example orderWorkweek(['monday', 'tuesday', 'wednesday', 'thursday', 'sunday']) // ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday']
 */
export function orderWorkweek(days: readonly string[]): Weekday[] {
  const working = WEEKDAYS.map((d) => days.includes(d));
  let start = 0;
  let best = { run: 0, rank: Infinity };
  for (let i = 0; i < 7; i++) {
    // Day i can start the week when it is a working day right after days off; count those days off.
    if (!working[i]) continue;
    let run = 0;
    while (run < 7 && !working[(i - run + 6) % 7]) run++;
    const rank = START_RANK.indexOf(WEEKDAYS[i]);
    if (run > best.run || (run > 0 && run === best.run && rank < best.rank)) {
      best = { run, rank };
      start = i;
    }
  }
  return [...WEEKDAYS.slice(start), ...WEEKDAYS.slice(0, start)].filter((d) => working[WEEKDAYS.indexOf(d)]);
}

/** Working weekdays, in workweek order, given a CLDR weekend range (e.g. "fri".."sat"; wraps around Sunday). */
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
  return orderWorkweek(WEEKDAYS.filter((_, i) => !off.has(i)));
}
