/**
 * The lookup layer's view of dist-data: the location list at start, and each
 * location's calendars built lazily on first use (prefix sums per day type),
 * so memory grows only with the locations actually asked for.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildBusinessCalendar, type BusinessCalendar } from '../lib/business-calendar.js';
import { civilFromDays, parseDate, weekdayIndex, WEEKDAYS } from '../lib/plain-date.js';
import { workweekOn, type WorkweekSpan } from '../lib/workweek.js';
import type { AstronomyPlaces, BusinessDaysLocation, BusinessDaysLocations, BusinessDaysYear, Holiday, Manifest, WorkingDay } from '../lib/schema-types.js';

export type DayType = 'business' | 'banking' | 'government';
export const DAY_TYPES: readonly DayType[] = ['business', 'banking', 'government'];

/** Holiday types that count for a day type, besides rows whose `closes` names it. */
const RELEVANT: Record<DayType, readonly Holiday['type'][]> = {
  business: ['public'],
  banking: ['public', 'bank'],
  government: ['public', 'government'],
};

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

  constructor(readonly meta: BusinessDaysLocation, years: BusinessDaysYear[]) {
    this.firstDay = parseDate(meta.range.start)!;
    this.lastDay = parseDate(meta.range.end)!;
    this.spans = meta.workweeks.map((w) => ({
      from: w.from === null ? null : parseDate(w.from)!,
      until: w.until === null ? null : parseDate(w.until)!,
      days: w.workweek,
    }));
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
      open[i] = workweekOn(this.spans, day).includes(WEEKDAYS[weekdayIndex(day)]) ? 1 : 0;
    }
    this.workday = buildBusinessCalendar(this.firstDay, open);
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

  /** Holidays dated within [start, end] that count for `type`, as JSON texts in date order. */
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

export class DatasetStore {
  readonly list: BusinessDaysLocations;
  /** The bytes of business-days/index.json: the list endpoint answers them as they are. */
  readonly listBytes: Uint8Array<ArrayBuffer>;
  readonly manifest: Manifest;
  readonly firstDay: number;
  readonly lastDay: number;
  private readonly known: Map<string, BusinessDaysLocations['locations'][number]>;
  private readonly noData: Map<string, string>;
  private readonly loaded = new Map<string, LocationCalendar>();
  /** Bytes of year files asked for (bounded: 628 locations x 46 years would be ~90 MB). */
  private readonly yearFiles = new Map<string, Uint8Array<ArrayBuffer>>();

  constructor(readonly root: string) {
    this.manifest = this.readJson('manifest.json');
    this.listBytes = this.readBytes('business-days/index.json');
    this.list = JSON.parse(new TextDecoder().decode(this.listBytes)) as BusinessDaysLocations;
    this.firstDay = parseDate(this.list.range.start)!;
    this.lastDay = parseDate(this.list.range.end)!;
    this.known = new Map(this.list.locations.map((l) => [l.location, l]));
    this.noData = new Map(this.list.no_holiday_data.map((l) => [l.location, l.name]));
  }

  private readJson<T>(path: string): T {
    return JSON.parse(readFileSync(join(this.root, 'v1', path), 'utf8')) as T;
  }

  private readBytes(path: string): Uint8Array<ArrayBuffer> {
    return new Uint8Array(readFileSync(join(this.root, 'v1', path)));
  }

  /**
   * The bytes of business-days/{code}/{year}.json, answered as they are so the
   * API and the static file are byte-identical. The code must have passed `has`
   * and the year must be one of the location's years: no path from raw input.
   */
  yearBytes(code: string, year: number): Uint8Array<ArrayBuffer> {
    const key = `${code}/${year}`;
    let bytes = this.yearFiles.get(key);
    if (!bytes) {
      if (!this.location(code).meta.years.includes(year)) throw new Error(`no year ${year} for ${code}`);
      bytes = this.readBytes(`business-days/${key}.json`);
      if (this.yearFiles.size >= 4096) this.yearFiles.clear();
      this.yearFiles.set(key, bytes);
    }
    return bytes;
  }

  has(code: string): boolean {
    return this.known.has(code);
  }

  /** Name of a country that exists but has no holiday data, if `code` is one. */
  withoutData(code: string): string | undefined {
    return this.noData.get(code);
  }

  /** Loads a known location; the code must have passed `has` (paths are never built from raw input). */
  location(code: string): LocationCalendar {
    let cal = this.loaded.get(code);
    if (!cal) {
      if (!this.known.has(code)) throw new Error(`unknown location ${code}`);
      const meta = this.readJson<BusinessDaysLocation>(`business-days/${code}/index.json`);
      const years = meta.years.map((y) => this.readJson<BusinessDaysYear>(`business-days/${code}/${y}.json`));
      cal = new LocationCalendar(meta, years);
      this.loaded.set(code, cal);
    }
    return cal;
  }

  /** The place (capital) and time zone each country code stands for in the astronomy area. */
  astronomyPlaces(): AstronomyPlaces['places'] {
    return this.readJson<AstronomyPlaces>('astronomy/places.json').places;
  }

  timezoneOf(code: string): string {
    return this.known.get(code)!.timezone;
  }
}
