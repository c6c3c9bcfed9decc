/**
 * The answers to the five business-day questions (check, add, subtract,
 * count, next), as GET /v1/business-days/{location}[/add|/subtract|/count|/next]
 * returns them and @refdata/dataset hands them back. Pure: the caller has
 * checked the location, the type and that every day lies within the
 * location's range; a result beyond the range is `undefined`.
 */
import { addBusinessDays, countBusinessDays, isBusinessDay, nextBusinessDay, previousBusinessDay, subtractBusinessDays } from './business-calendar.js';
import { isRelevant, type DayType, type LocationCalendar } from './location-calendar.js';
import { formatDate } from './plain-date.js';
import type { BusinessDayCheck, BusinessDayCount, BusinessDayNext, BusinessDayShift, Holiday } from './schema-types.js';

/** How sure a row is, strongest first: a published schedule, two sources agreeing, one source's projection. */
const BASIS_RANK: Record<Holiday['basis'], number> = { official: 0, corroborated: 1, rules: 2 };

/**
 * Of two holidays on one date (India's 2 October 2025 is Gandhi Jayanti and Dussehra): the better source, then the
 * one that closes more day types (a national holiday before an office-only festival); else the first.
 */
const better = (h: Holiday, best: Holiday) => BASIS_RANK[h.basis] < BASIS_RANK[best.basis] || (BASIS_RANK[h.basis] === BASIS_RANK[best.basis] && h.closes.length > best.closes.length);
const bestSourced = (list: readonly Holiday[]): Holiday | undefined => list.reduce<Holiday | undefined>((best, h) => (best === undefined || better(h, best) ? h : best), undefined);

/**
 * The holiday a check names: of those that close the date for `type`, the best-sourced, then the one closing more
 * day types (the first of them in the year file's order); else one that counts for it; else any.
 */
export function pickHoliday(list: readonly Holiday[], type: DayType): Holiday | null {
  return bestSourced(list.filter((h) => h.closes.includes(type))) ?? list.find((h) => isRelevant(h, type)) ?? list[0] ?? null;
}

/** Is `day` a business day, and if not why, with the nearest business days around it. */
export function checkAnswer(cal: LocationCalendar, type: DayType, day: number): BusinessDayCheck {
  const bc = cal.calendar(type);
  const open = isBusinessDay(bc, day);
  const body: BusinessDayCheck = {
    date: formatDate(day),
    location: cal.meta.location,
    type,
    is_business_day: open,
    workweek: cal.workweekOn(day),
    holiday: pickHoliday(cal.holidaysOn(day), type),
    working_day: cal.workingDayOn(day),
    basis: cal.basisBetween(day, day),
  };
  if (!open) {
    body.reason = isBusinessDay(cal.workday, day) ? 'holiday' : 'weekend';
    const next = nextBusinessDay(bc, day);
    const prev = previousBusinessDay(bc, day);
    if (next !== undefined) body.next_business_day = formatDate(next);
    if (prev !== undefined) body.prev_business_day = formatDate(prev);
  }
  return body;
}

/** The day `days` business days after (1) or before (-1) `start`, start not counted; undefined beyond the range. */
export function shiftAnswer(cal: LocationCalendar, type: DayType, start: number, days: number, direction: 1 | -1): BusinessDayShift | undefined {
  const bc = cal.calendar(type);
  const result = direction === 1 ? addBusinessDays(bc, start, days) : subtractBusinessDays(bc, start, days);
  if (result === undefined) return undefined;
  return {
    start: formatDate(start),
    days,
    result: formatDate(result),
    location: cal.meta.location,
    type,
    workweek: cal.workweekOn(result),
    basis: cal.basisBetween(Math.min(start, result), Math.max(start, result)),
  };
}

type CountHead = Omit<BusinessDayCount, 'holiday_list' | 'working_day_list' | 'location' | 'type' | 'workweek' | 'basis'>;
type CountTail = Pick<BusinessDayCount, 'working_day_list' | 'location' | 'type' | 'workweek' | 'basis'>;

/** The count answer without its holiday list: the fields before it and after it. */
function countParts(cal: LocationCalendar, type: DayType, start: number, end: number): { head: CountHead; tail: CountTail } {
  const total = end - start + 1;
  const business = countBusinessDays(cal.calendar(type), start, end);
  const workdays = countBusinessDays(cal.workday, start, end);
  const workingDays = cal.workingDaysBetween(start, end, type);
  const head: CountHead = {
    start: formatDate(start),
    end: formatDate(end),
    total_days: total,
    business_days: business,
    weekend_days: total - workdays,
    // business = workdays - holidays + working weekend days
    holidays: workdays - business + workingDays.length,
    working_weekend_days: workingDays.length,
  };
  const tail: CountTail = {
    working_day_list: workingDays,
    location: cal.meta.location,
    type,
    workweek: cal.workweekOn(end),
    basis: cal.basisBetween(start, end),
  };
  return { head, tail };
}

/** Business, weekend and holiday days in [start, end] (start <= end), both ends included. */
export function countAnswer(cal: LocationCalendar, type: DayType, start: number, end: number): BusinessDayCount {
  const { head: h, tail: t } = countParts(cal, type, start, end);
  // Written out, not spread ({ ...head, holiday_list, ...tail }): V8 took 20 µs to build that object, most of a year's count.
  return {
    start: h.start,
    end: h.end,
    total_days: h.total_days,
    business_days: h.business_days,
    weekend_days: h.weekend_days,
    holidays: h.holidays,
    working_weekend_days: h.working_weekend_days,
    holiday_list: cal.holidaysBetween(start, end, type),
    working_day_list: t.working_day_list,
    location: t.location,
    type: t.type,
    workweek: t.workweek,
    basis: t.basis,
  };
}

/**
 * The count answer as JSON text, byte for byte JSON.stringify(countAnswer(…)),
 * assembled around holiday texts serialised once per calendar (an answer is
 * mostly its holiday list).
 */
export function countJson(cal: LocationCalendar, type: DayType, start: number, end: number): string {
  const { head, tail } = countParts(cal, type, start, end);
  return `${JSON.stringify(head).slice(0, -1)},"holiday_list":[${cal.holidayJsonBetween(start, end, type).join(',')}],${JSON.stringify(tail).slice(1)}`;
}

/** The first business day strictly after `from`; undefined beyond the range. */
export function nextAnswer(cal: LocationCalendar, type: DayType, from: number): BusinessDayNext | undefined {
  const next = nextBusinessDay(cal.calendar(type), from);
  if (next === undefined) return undefined;
  return { from: formatDate(from), next: formatDate(next), days_until: next - from, location: cal.meta.location, type, basis: cal.basisBetween(from, next) };
}
