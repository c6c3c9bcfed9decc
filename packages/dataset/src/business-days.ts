/**
 * Business days: the location list, each location's description and its
 * holidays per calendar year, and the five business-day questions answered
 * as GET /v1/business-days/… answers them, by the same code
 * (lib/location-calendar.ts and lib/business-answers.ts, copied in beside
 * this file when the package is packed, as is lib/location-code.ts).
 *
 * Data: business-days/index.json (the list), business-days/locations.json
 * (each location's [offset, length] in locations.bin) and
 * business-days/locations.bin (one brotli-compressed JSON document per
 * location, `{"location": <its index.json>, "years": [<its year files>]}`),
 * so a location costs one decompression (1-10 ms) on first use.
 */
import { checkAnswer, countAnswer, nextAnswer, shiftAnswer } from './business-answers.js';
import { isBusinessDay as isOpen } from './business-calendar.js';
import { DAY_TYPES, isRelevant, LocationCalendar, type DayType } from './location-calendar.js';
import { canonicalLocation } from './location-code.js';
import { parseDate } from './plain-date.js';
import { once, parseBrotliJson, readBytes, readJson } from './read-json.js';
import type {
  BusinessDayCheck,
  BusinessDayCount,
  BusinessDayNext,
  BusinessDayShift,
  BusinessDaysLocation,
  BusinessDaysLocations,
  BusinessDaysYear,
  Holiday,
  WorkingDay,
} from './schema-types.js';

export type { DayType } from './location-calendar.js';

/** Locations kept decoded; past this many the cache starts over, so memory stays bounded (~1-3 MB each). */
const MAX_LOCATIONS = 64;

const index = () => readJson<BusinessDaysLocations>('business-days/index.json');
const offsets = once(() => new Map(Object.entries(readJson<Record<string, [number, number]>>('business-days/locations.json'))));
const packed = once(() => readBytes('business-days/locations.bin'));

interface Entry {
  meta: BusinessDaysLocation;
  years: Map<number, BusinessDaysYear>;
  calendar?: LocationCalendar;
}
const entries = new Map<string, Entry>();

/** The upper-case code of a known location; data is only ever looked up by these. */
function knownLocation(location: string): string | undefined {
  // Country, subdivision and date-holidays sub-region codes (US, US-CA, BR-GO-GOIANIA), as the API takes them.
  const code = typeof location === 'string' ? canonicalLocation(location) : undefined;
  return code !== undefined && offsets().has(code) ? code : undefined;
}

/** A known location's documents, decoded on first use. */
function entry(location: string): Entry | undefined {
  let e = entries.get(location);
  if (e === undefined) {
    const code = knownLocation(location);
    if (code === undefined) return undefined;
    e = entries.get(code);
    if (e === undefined) {
      const [offset, length] = offsets().get(code)!;
      const doc = parseBrotliJson<{ location: BusinessDaysLocation; years: BusinessDaysYear[] }>(packed().subarray(offset, offset + length));
      e = { meta: doc.location, years: new Map(doc.years.map((y) => [y.year, y])) };
      if (entries.size >= MAX_LOCATIONS) entries.clear();
      entries.set(code, e);
    }
  }
  return e;
}

/** A location's calendar (prefix sums per day type), built on first use. */
function calendarOf(location: string): LocationCalendar | undefined {
  const e = entry(location);
  if (e === undefined) return undefined;
  return (e.calendar ??= new LocationCalendar(e.meta, [...e.years.values()]));
}

function validType(type: unknown): type is DayType {
  return (DAY_TYPES as readonly unknown[]).includes(type);
}

/** A YYYY-MM-DD date within the calendar's range, as a day number. */
function dayIn(cal: LocationCalendar, date: string): number | undefined {
  if (typeof date !== 'string') return undefined;
  const day = parseDate(date);
  return day !== undefined && cal.covers(day) ? day : undefined;
}

/**
 * Every location with business-day data (code, name, kind, time zone), sorted by code.
 * @example listLocations().filter((l) => l.location.startsWith('US-'))
 */
export function listLocations(): BusinessDaysLocations['locations'] {
  return index().locations;
}

/**
 * A location's name, parent, time zone, workweeks, day-type coverage and years; case-insensitive.
 * @example getLocation('us-ca')?.timezone // 'America/Los_Angeles'
 */
export function getLocation(location: string): BusinessDaysLocation | undefined {
  return entry(location)?.meta;
}

/**
 * The holidays of a location in one calendar year (the year file
 * business-days/{LOCATION}/{YEAR}.json of the dataset), or undefined for an
 * unknown location or a year outside the dataset's range.
 * @example getCalendar('US-CA', 2026)?.holidays.map((h) => h.date)
 */
export function getCalendar(location: string, year: number): BusinessDaysYear | undefined {
  if (!Number.isInteger(year)) return undefined;
  return entry(location)?.years.get(year);
}

/**
 * Is a date a business day of this type at this location; undefined for an
 * unknown location or type, or a date that is not a real YYYY-MM-DD date
 * within the range. The fast path: no object is built.
 * @example isBusinessDay('US', '2026-01-19') // false (Martin Luther King Jr. Day)
 * @example isBusinessDay('US', '2026-07-03', 'banking') // true (the Fed stays open on the Friday before July 4)
 */
export function isBusinessDay(location: string, date: string, type: DayType = 'business'): boolean | undefined {
  const cal = calendarOf(location);
  if (cal === undefined || !validType(type)) return undefined;
  const day = dayIn(cal, date);
  return day === undefined ? undefined : isOpen(cal.calendar(type), day);
}

/**
 * The answer of GET /v1/business-days/{location}?date=&type=: whether the
 * date is a business day, the holiday on it, the reason it is closed, the
 * business days around it, the workweek, a make-up working day and the basis.
 * @example checkDate('US', '2026-07-03', 'government')?.holiday?.name // 'Independence Day (substitute day)'
 * @example checkDate('CN', '2025-01-26')?.working_day?.for_holiday // 'Spring Festival'
 */
export function checkDate(location: string, date: string, type: DayType = 'business'): BusinessDayCheck | undefined {
  const cal = calendarOf(location);
  if (cal === undefined || !validType(type)) return undefined;
  const day = dayIn(cal, date);
  return day === undefined ? undefined : checkAnswer(cal, type, day);
}

function shift(location: string, start: string, days: number, type: DayType, direction: 1 | -1): BusinessDayShift | undefined {
  const cal = calendarOf(location);
  if (cal === undefined || !validType(type) || !Number.isSafeInteger(days) || days < 1) return undefined;
  const day = dayIn(cal, start);
  return day === undefined ? undefined : shiftAnswer(cal, type, day, days, direction);
}

/**
 * The answer of GET /v1/business-days/{location}/add: the date `days`
 * business days after `start` (start not counted; it may be a day off);
 * undefined when the result lies beyond the range, or for bad arguments
 * (`days` must be a positive integer).
 * @example addBusinessDays('US', '2026-01-15', 10)?.result // '2026-01-30' (MLK Day skipped)
 */
export function addBusinessDays(location: string, start: string, days: number, type: DayType = 'business'): BusinessDayShift | undefined {
  return shift(location, start, days, type, 1);
}

/**
 * The answer of GET /v1/business-days/{location}/subtract: the date `days`
 * business days before `start` (start not counted).
 * @example subtractBusinessDays('US', '2026-01-20', 1)?.result // '2026-01-16' (MLK Day skipped)
 */
export function subtractBusinessDays(location: string, start: string, days: number, type: DayType = 'business'): BusinessDayShift | undefined {
  return shift(location, start, days, type, -1);
}

/**
 * The answer of GET /v1/business-days/{location}/count: business, weekend and
 * holiday days in [start, end], both ends included, with the holidays and
 * make-up working days of the range. Unlike the API, any range within the
 * dataset is accepted (the API caps a request at 3,660 days).
 * @example countBusinessDays('US', '2026-07-01', '2026-07-31')?.business_days // 22
 */
export function countBusinessDays(location: string, start: string, end: string, type: DayType = 'business'): BusinessDayCount | undefined {
  const cal = calendarOf(location);
  if (cal === undefined || !validType(type)) return undefined;
  const a = dayIn(cal, start);
  const b = dayIn(cal, end);
  return a === undefined || b === undefined || b < a ? undefined : countAnswer(cal, type, a, b);
}

/**
 * The answer of GET /v1/business-days/{location}/next: the first business
 * day strictly after `from`, and how many calendar days away it is.
 * @example nextBusinessDay('GB-SCT', '2026-12-24')?.next // '2026-12-29'
 */
export function nextBusinessDay(location: string, from: string, type: DayType = 'business'): BusinessDayNext | undefined {
  const cal = calendarOf(location);
  if (cal === undefined || !validType(type)) return undefined;
  const day = dayIn(cal, from);
  return day === undefined ? undefined : nextAnswer(cal, type, day);
}

/**
 * The holidays of a location in one year, in date order; with `type`, only
 * those that count for it (close it, or are of a kind that concerns it, as
 * the count answer lists them).
 * @example getHolidays('JP', 2026, 'banking')?.find((h) => h.date === '2026-01-02')?.name // 'January 2nd'
 */
export function getHolidays(location: string, year: number, type?: DayType): Holiday[] | undefined {
  const doc = getCalendar(location, year);
  if (doc === undefined || (type !== undefined && !validType(type))) return undefined;
  return type === undefined ? doc.holidays : doc.holidays.filter((h) => isRelevant(h, type));
}

/**
 * The working days outside the workweek of a location in one year (make-up
 * working days from published schedules); with `type`, only those that apply to it.
 * @example getWorkingDays('CN', 2025)?.map((w) => w.date) // ['2025-01-26', '2025-02-08', …]
 */
export function getWorkingDays(location: string, year: number, type?: DayType): WorkingDay[] | undefined {
  const doc = getCalendar(location, year);
  if (doc === undefined || (type !== undefined && !validType(type))) return undefined;
  return type === undefined ? doc.working_days : doc.working_days.filter((w) => w.applies_to.includes(type));
}

/**
 * Whether a location's year rests on a published schedule (`official`, its
 * sources in getCalendar(…).sources) or on projected rules (`rules`).
 * @example getBasis('CN', 2025) // 'official'
 */
export function getBasis(location: string, year: number): BusinessDaysYear['basis'] | undefined {
  return getCalendar(location, year)?.basis;
}
