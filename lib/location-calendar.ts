/**
 * One location's business-day calendar, built from its index document and its
 * year documents (dist-data/v1/business-days/{location}/): prefix-sum
 * calendars per day type (built on first use), holidays and working days by
 * date, and the basis of each year. Pure: the caller reads the documents; the
 * server (server/store.ts) and the package (@refdata/dataset) share this class.
 */
import { buildBusinessCalendar, type BusinessCalendar } from './business-calendar.js';
import { civilFromDays, parseDate } from './plain-date.js';
import type { BusinessDaysLocation, BusinessDaysYear, Holiday, WorkingDay } from './schema-types.js';
import { isWorkday, workweekOn, workweekSpans, type WorkweekSpan } from './workweek.js';

export type DayType = 'business' | 'banking' | 'government';
export const DAY_TYPES: readonly DayType[] = ['business', 'banking', 'government'];

/** Holiday types that count for a day type, besides rows whose `closes` names it. */
const RELEVANT: Record<DayType, readonly Holiday['type'][]> = {
  business: ['public'],
  banking: ['public', 'bank'],
  government: ['public', 'government'],
};

/** Whether a holiday counts for a day type (closes it, or is of a type that concerns it, partial days included). */
export function isRelevant(h: Holiday, type: DayType): boolean {
  return h.closes.includes(type) || RELEVANT[type].includes(h.type);
}

export class LocationCalendar {
  readonly firstDay: number;
  readonly lastDay: number;
  readonly spans: WorkweekSpan[];
  /** Holidays by day offset from firstDay. */
  readonly holidays = new Map<number, Holiday[]>();
  /** Every holiday in date order, with its day number alongside, for range queries. */
  private readonly ordered: Holiday[] = [];
  private readonly orderedDays: number[] = [];
  /** JSON text of each holiday in `ordered`, serialised on first use (count answers are mostly holiday lists). */
  private readonly orderedJson: (string | undefined)[] = [];
  /** Working days outside the workweek, by day offset from firstDay, and in date order. */
  readonly workingDays = new Map<number, WorkingDay>();
  private readonly workingOrdered: { day: number; wd: WorkingDay }[] = [];
  /** official or rules, per year. */
  private readonly basisByYear = new Map<number, BusinessDaysYear['basis']>();
  /** 1 where the day is inside the workweek; prefix sums of it. */
  readonly workday: BusinessCalendar;
  private readonly calendars = new Map<DayType, BusinessCalendar>();

  /** `years` in ascending order, as the index lists them. */
  constructor(
    readonly meta: BusinessDaysLocation,
    years: readonly BusinessDaysYear[],
  ) {
    this.firstDay = parseDate(meta.range.start)!;
    this.lastDay = parseDate(meta.range.end)!;
    this.spans = workweekSpans(meta.workweeks);
    for (const y of years) {
      this.basisByYear.set(y.year, y.basis);
      for (const wd of y.working_days) {
        const day = parseDate(wd.date)!;
        this.workingDays.set(day - this.firstDay, wd);
        this.workingOrdered.push({ day, wd });
      }
      for (const h of y.holidays) {
        const day = parseDate(h.date)!;
        const offset = day - this.firstDay;
        this.ordered.push(h);
        this.orderedDays.push(day);
        const list = this.holidays.get(offset);
        if (list) list.push(h);
        else this.holidays.set(offset, [h]);
      }
    }
    const open = new Uint8Array(this.lastDay - this.firstDay + 1);
    for (let i = 0; i < open.length; i++) {
      const day = this.firstDay + i;
      open[i] = isWorkday(this.spans, day) ? 1 : 0;
    }
    this.workday = buildBusinessCalendar(this.firstDay, open);
  }

  /** The location's code (US, US-CA, DE-BY-A). */
  get location(): string {
    return this.meta.location;
  }

  /** Whether a day number lies within the location's range. */
  covers(day: number): boolean {
    return day >= this.firstDay && day <= this.lastDay;
  }

  /** Business-day calendar for a day type, built on first use. */
  calendar(type: DayType): BusinessCalendar {
    let cal = this.calendars.get(type);
    if (!cal) {
      const open = Uint8Array.from(this.workday.open);
      for (const [offset, list] of this.holidays) {
        if (list.some((h) => h.closes.includes(type))) open[offset] = 0;
      }
      // A make-up working day is a business day for the types it applies to (the build rejects one on a day off).
      for (const [offset, wd] of this.workingDays) if (wd.applies_to.includes(type)) open[offset] = 1;
      cal = buildBusinessCalendar(this.firstDay, open);
      this.calendars.set(type, cal);
    }
    return cal;
  }

  /** Holidays dated within [start, end] that count for `type`, in date order. */
  holidaysBetween(start: number, end: number, type: DayType): Holiday[] {
    const [lo, hi] = this.rangeOf(start, end);
    const out: Holiday[] = [];
    for (let i = lo; i < hi; i++) if (isRelevant(this.ordered[i], type)) out.push(this.ordered[i]);
    return out;
  }

  /** The same holidays as JSON texts, each serialised once and kept (the count answer is assembled around them). */
  holidayJsonBetween(start: number, end: number, type: DayType): string[] {
    const [lo, hi] = this.rangeOf(start, end);
    const out: string[] = [];
    for (let i = lo; i < hi; i++) if (isRelevant(this.ordered[i], type)) out.push((this.orderedJson[i] ??= JSON.stringify(this.ordered[i])));
    return out;
  }

  /** Index range in `ordered` of the holidays within [start, end] (binary search, no day loop). */
  private rangeOf(start: number, end: number): [number, number] {
    const lower = (target: number) => {
      let lo = 0;
      let hi = this.orderedDays.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.orderedDays[mid] < target) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    };
    return [lower(start), lower(end + 1)];
  }

  /** The working day outside the workweek on `day`, if any (whatever types it applies to). */
  workingDayOn(day: number): WorkingDay | null {
    return this.workingDays.get(day - this.firstDay) ?? null;
  }

  /** Working days in [start, end] that apply to `type`, in date order. */
  workingDaysBetween(start: number, end: number, type: DayType): WorkingDay[] {
    return this.workingOrdered.filter((w) => w.day >= start && w.day <= end && w.wd.applies_to.includes(type)).map((w) => w.wd);
  }

  /** official or rules for one year; undefined for a year the location has no document for. */
  basisOf(year: number): BusinessDaysYear['basis'] | undefined {
    return this.basisByYear.get(year);
  }

  /** official when every year from `start` to `end` has a published schedule; rules otherwise. */
  basisBetween(start: number, end: number): BusinessDaysYear['basis'] {
    const [first] = civilFromDays(start);
    const [last] = civilFromDays(end);
    for (let y = first; y <= last; y++) if (this.basisByYear.get(y) !== 'official') return 'rules';
    return 'official';
  }

  holidaysOn(day: number): Holiday[] {
    return this.holidays.get(day - this.firstDay) ?? [];
  }

  workweekOn(day: number) {
    return workweekOn(this.spans, day);
  }
}
