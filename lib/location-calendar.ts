/**
 * One location's business-day calendar, built from its index document and its
 * year documents (dist-data/v1/business-days/{location}/): a bitset calendar
 * per day type (built on first use), holidays as compact shapes in date order,
 * working days by date, and the basis of each year. Pure: the caller reads the
 * documents; the server (server/store.ts) and the package (@refdata/dataset)
 * share this class.
 */
import { buildBusinessCalendar, withDays, type BusinessCalendar } from './business-calendar.js';
import { civilFromDays, formatDate, parseDate } from './plain-date.js';
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

/** Bit of a day type in the masks below. */
const TYPE_BIT: Record<DayType, number> = { business: 1, banking: 2, government: 4 };

/**
 * The holidays that share everything but their date (most rows recur yearly), kept once: the row's
 * JSON text split around its date, and which day types it closes and counts for.
 */
interface HolidayShape {
  /** JSON text before and after the date's characters. */
  before: string;
  after: string;
  closes: number;
  relevant: number;
  /** The row parsed, its date empty (holidaysBetween() copies it with the date), made on first use; never handed out. */
  parsed?: Holiday;
}

/** `value` with every object and array in it frozen. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** `row` with every object and array inside it frozen (shared by its copies), but not itself (frozen, it copies 10x slower). */
function frozenInside<T extends object>(row: T): T {
  for (const v of Object.values(row)) deepFreeze(v);
  return row;
}

/** A row's JSON text with this in place of its date, so rows that differ only in their date match. */
const DATE_MARK = '\u0000date\u0000';
const DATE_MARK_JSON = JSON.stringify(DATE_MARK);

export class LocationCalendar {
  readonly firstDay: number;
  readonly lastDay: number;
  readonly spans: WorkweekSpan[];
  /**
   * Every holiday in date order, compactly: its day number and its shape (JSON text around the
   * date, type masks). 1990-2099 is ~2,000 rows a location; as parsed objects they took most of
   * the server's memory, as shapes they take a few tens of KB.
   */
  private readonly shapes: HolidayShape[] = [];
  private readonly holidayDays: Int32Array;
  private readonly holidayShapes: Uint32Array;
  /** Working days outside the workweek, by day offset from firstDay, and in date order. */
  readonly workingDays = new Map<number, WorkingDay>();
  private readonly workingOrdered: { day: number; wd: WorkingDay }[] = [];
  /** official or rules, per year. */
  private readonly basisByYear = new Map<number, BusinessDaysYear['basis']>();
  /** Days inside the workweek. */
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
    const shapeIds = new Map<string, number>();
    const days: number[] = [];
    const ids: number[] = [];
    for (const y of years) {
      this.basisByYear.set(y.year, y.basis);
      for (const wd of y.working_days) {
        const day = parseDate(wd.date)!;
        this.workingDays.set(day - this.firstDay, wd);
        this.workingOrdered.push({ day, wd });
      }
      for (const h of y.holidays) {
        const key = JSON.stringify({ ...h, date: DATE_MARK });
        let id = shapeIds.get(key);
        if (id === undefined) {
          id = this.shapes.length;
          shapeIds.set(key, id);
          const at = key.indexOf(DATE_MARK_JSON);
          let closes = 0;
          let relevant = 0;
          for (const type of DAY_TYPES) {
            if (h.closes.includes(type)) closes |= TYPE_BIT[type];
            if (isRelevant(h, type)) relevant |= TYPE_BIT[type];
          }
          this.shapes.push({ before: `${key.slice(0, at)}"`, after: `"${key.slice(at + DATE_MARK_JSON.length)}`, closes, relevant });
        }
        days.push(parseDate(h.date)!);
        ids.push(id);
      }
    }
    this.holidayDays = Int32Array.from(days);
    this.holidayShapes = Uint32Array.from(ids);
    const open = new Uint8Array(this.lastDay - this.firstDay + 1);
    for (let i = 0; i < open.length; i++) open[i] = isWorkday(this.spans, this.firstDay + i) ? 1 : 0;
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
      const changes: [number, boolean][] = [];
      const bit = TYPE_BIT[type];
      for (let i = 0; i < this.holidayDays.length; i++) {
        if (this.shapes[this.holidayShapes[i]].closes & bit) changes.push([this.holidayDays[i] - this.firstDay, false]);
      }
      // A make-up working day is a business day for the types it applies to (the build rejects one on a day off).
      for (const [offset, wd] of this.workingDays) if (wd.applies_to.includes(type)) changes.push([offset, true]);
      cal = withDays(this.workday, changes);
      this.calendars.set(type, cal);
    }
    return cal;
  }

  /** The JSON text of the i-th holiday in date order. */
  private holidayJson(i: number): string {
    const shape = this.shapes[this.holidayShapes[i]];
    return shape.before + formatDate(this.holidayDays[i]) + shape.after;
  }

  /**
   * Holidays dated within [start, end] that count for `type`, in date order. Each is a new object made from
   * its shape's parsed row (parsed once per shape: parsing each row on every call took most of a year's
   * count); the arrays and objects inside it are shared by every holiday of that shape, and frozen.
   */
  holidaysBetween(start: number, end: number, type: DayType): Holiday[] {
    const [lo, hi] = this.rangeOf(start, end);
    const bit = TYPE_BIT[type];
    const out: Holiday[] = [];
    for (let i = lo; i < hi; i++) {
      const id = this.holidayShapes[i];
      const shape = this.shapes[id];
      if (!(shape.relevant & bit)) continue;
      shape.parsed ??= frozenInside(JSON.parse(shape.before + shape.after) as Holiday);
      // A spread of an unfrozen object whose keys already include date: V8 clones it in tens of ns, keys in order.
      out.push({ ...shape.parsed, date: formatDate(this.holidayDays[i]) });
    }
    return out;
  }

  /** The same holidays as JSON texts (the count answer is assembled around them). */
  holidayJsonBetween(start: number, end: number, type: DayType): string[] {
    const [lo, hi] = this.rangeOf(start, end);
    const bit = TYPE_BIT[type];
    const out: string[] = [];
    for (let i = lo; i < hi; i++) if (this.shapes[this.holidayShapes[i]].relevant & bit) out.push(this.holidayJson(i));
    return out;
  }

  /** Index range of the holidays within [start, end] (binary search, no day loop). */
  private rangeOf(start: number, end: number): [number, number] {
    const days = this.holidayDays;
    const lower = (target: number) => {
      let lo = 0;
      let hi = days.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (days[mid] < target) lo = mid + 1;
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

  /**
   * The weakest basis of the years from `start` to `end`: official when every one has a published schedule,
   * corroborated when each is official or corroborated, rules otherwise.
   */
  basisBetween(start: number, end: number): BusinessDaysYear['basis'] {
    const [first] = civilFromDays(start);
    const [last] = civilFromDays(end);
    let weakest: BusinessDaysYear['basis'] = 'official';
    for (let y = first; y <= last; y++) {
      const b = this.basisByYear.get(y);
      if (b !== 'official' && b !== 'corroborated') return 'rules';
      if (b === 'corroborated') weakest = 'corroborated';
    }
    return weakest;
  }

  /** Every holiday on `day`, in the year file's order. */
  holidaysOn(day: number): Holiday[] {
    const [lo, hi] = this.rangeOf(day, day);
    const out: Holiday[] = [];
    for (let i = lo; i < hi; i++) out.push(JSON.parse(this.holidayJson(i)) as Holiday);
    return out;
  }

  workweekOn(day: number) {
    return workweekOn(this.spans, day);
  }
}
