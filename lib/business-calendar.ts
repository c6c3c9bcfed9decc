/**
 * Business-day arithmetic over a fixed window of day numbers, answered from a
 * bitset with running counts at every 32nd day: every query is O(1) or a
 * binary search (O(log n)) plus one word's bits, never a day-by-day loop. A
 * calendar of 1990-2099 (40,177 days) takes 10 KB, against 200 KB for a byte
 * and a 32-bit prefix sum per day. Pure: the caller supplies which days are open.
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
  /** Bit (i & 31) of word (i >>> 5) is set where day firstDay + i is a business day; one spare zero word at the end. */
  readonly bits: Uint32Array;
  /** before[w] = business days in words 0 … w-1; length = words + 1. */
  readonly before: Int32Array;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** A calendar over the days [firstDay, firstDay + days), from bits laid out as BusinessCalendar.bits. */
export function calendarFromBits(firstDay: number, days: number, bits: Uint32Array): BusinessCalendar {
  const words = Math.ceil(days / 32);
  const before = new Int32Array(words + 1);
  for (let w = 0; w < words; w++) before[w + 1] = before[w] + popcount(bits[w]);
  return { firstDay, lastDay: firstDay + days - 1, bits, before };
}

/** Builds a calendar from a per-day flag (index 0 = firstDay, 1 = open). */
export function buildBusinessCalendar(firstDay: number, open: Uint8Array): BusinessCalendar {
  const bits = new Uint32Array(Math.ceil(open.length / 32) + 1);
  for (let i = 0; i < open.length; i++) if (open[i]) bits[i >>> 5] |= 1 << (i & 31);
  return calendarFromBits(firstDay, open.length, bits);
}

/** A copy of `cal` with some days opened or closed (index 0 = firstDay). */
export function withDays(cal: BusinessCalendar, changes: Iterable<[index: number, open: boolean]>): BusinessCalendar {
  const bits = cal.bits.slice();
  for (const [i, open] of changes) {
    if (open) bits[i >>> 5] |= 1 << (i & 31);
    else bits[i >>> 5] &= ~(1 << (i & 31));
  }
  return calendarFromBits(cal.firstDay, cal.lastDay - cal.firstDay + 1, bits);
}

export function isBusinessDay(cal: BusinessCalendar, day: number): boolean {
  const i = day - cal.firstDay;
  return ((cal.bits[i >>> 5] >>> (i & 31)) & 1) === 1;
}

/** Business days among the first i days of the window (days firstDay … firstDay + i - 1). */
function rank(cal: BusinessCalendar, i: number): number {
  const w = i >>> 5;
  const r = i & 31;
  return cal.before[w] + (r === 0 ? 0 : popcount(cal.bits[w] & (0xffffffff >>> (32 - r))));
}

/** Index of the k-th business day of the window (k >= 1), or -1 when there are fewer. */
function select(cal: BusinessCalendar, k: number): number {
  const { before, bits } = cal;
  if (k < 1 || k > before[before.length - 1]) return -1;
  // The last word w with before[w] < k holds it.
  let lo = 0;
  let hi = before.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (before[mid] < k) lo = mid;
    else hi = mid - 1;
  }
  let word = bits[lo];
  for (let left = k - before[lo]; left > 1; left--) word &= word - 1; // drop the lowest set bits
  return lo * 32 + (31 - Math.clz32(word & -word));
}

/** Business days in [start, end], both inclusive; 0 when end < start. */
export function countBusinessDays(cal: BusinessCalendar, start: number, end: number): number {
  if (end < start) return 0;
  return rank(cal, end + 1 - cal.firstDay) - rank(cal, start - cal.firstDay);
}

/**
 * The day `days` business days after `start` (start not counted), or
 * `undefined` when the answer lies beyond the calendar's window.
 */
export function addBusinessDays(cal: BusinessCalendar, start: number, days: number): number | undefined {
  const i = select(cal, rank(cal, start + 1 - cal.firstDay) + days);
  return i < 0 ? undefined : cal.firstDay + i;
}

/**
 * The day `days` business days before `start` (start not counted), or
 * `undefined` when the answer lies before the calendar's window.
 */
export function subtractBusinessDays(cal: BusinessCalendar, start: number, days: number): number | undefined {
  const i = select(cal, rank(cal, start - cal.firstDay) - days + 1);
  return i < 0 ? undefined : cal.firstDay + i;
}

/** First business day strictly after `day`. */
export function nextBusinessDay(cal: BusinessCalendar, day: number): number | undefined {
  return addBusinessDays(cal, day, 1);
}

/** Last business day strictly before `day`. */
export function previousBusinessDay(cal: BusinessCalendar, day: number): number | undefined {
  return subtractBusinessDays(cal, day, 1);
}
