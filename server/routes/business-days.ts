/**
 * The five business-day endpoints of spec 4.1, a year's holiday list and the iCalendar feed, answered from the dataset.
 * Every parameter is checked before use; every failure is an ApiError.
 */
import { Hono, type Context } from 'hono';
import { checkAnswer, countJson, nextAnswer, shiftAnswer } from '../../lib/business-answers.js';
import { DAY_TYPES, type DayType, type LocationCalendar } from '../../lib/location-calendar.js';
import { renderFeed } from '../../lib/icalendar.js';
import { canonicalLocation, LOCATION_INPUT_RE } from '../../lib/location-code.js';
import { formatDate, parseDate } from '../../lib/plain-date.js';
import type { BusinessDaysYear } from '../../lib/schema-types.js';
import { answer } from '../answer-headers.js';
import { ComputedAnswers } from '../computed-answers.js';
import { badRequest, notFound } from '../errors.js';
import { queryOf, single, type Query } from '../query.js';
import type { DatasetStore } from '../store.js';

/** Largest `days` accepted by add and subtract. */
export const MAX_DAYS = 10_000;
/** Longest range accepted by count, in calendar days (ten years). */
export const MAX_COUNT_DAYS = 3_660;

/** Most years one iCalendar feed covers: subscribers refetch it, so it stays small. */
export const MAX_FEED_YEARS = 10;
/** Answers with a default date or year depend on today's date (clock.ts): they hold until the next whole minute. */
const TODAY = { holds: 'today' } as const;
/** Frozen: answer() keeps an answer's headers with its bytes only for a constant record. */
const CALENDAR = Object.freeze({ 'content-type': 'text/calendar; charset=utf-8' });

/** The path parameter's pattern, as server/openapi.ts documents it. */
export const LOCATION_RE = LOCATION_INPUT_RE;

export interface BusinessDaysDeps {
  store: DatasetStore;
  /** Today's date (YYYY-MM-DD) in a time zone, read from the app's clock for this request (clock.ts). */
  today: (c: Context, timeZone: string) => string;
  /** Where computed answers are kept, by what they depend on (server/computed-answers.ts). */
  answers?: ComputedAnswers;
}

export function businessDaysRoutes({ store, today, answers = new ComputedAnswers() }: BusinessDaysDeps) {
  const app = new Hono();
  const rangeText = `${store.list.range.start} to ${store.list.range.end}`;

  /**
   * The query string (parsed once per request; a parameter outside `accepted`
   * is refused first) and the location.
   */
  function resolveLocation(c: Context, accepted: string): { code: string; cal: LocationCalendar; q: Query } {
    const q = queryOf(c, accepted);
    const raw = c.req.param('location') ?? '';
    const code = canonicalLocation(raw);
    if (code === undefined || !store.has(code)) {
      const name = code === undefined ? undefined : store.withoutData(code);
      if (name) throw notFound('no_holiday_data', `No holiday data exists for ${code} (${name}); we do not guess a calendar made of weekends only.`, 'location');
      throw notFound('unknown_location', `Unknown location "${raw.slice(0, 40)}": use an ISO 3166-1 alpha-2 code (US) or a region code (US-CA); GET /v1/business-days lists them.`, 'location');
    }
    return { code, cal: store.location(code), q };
  }

  function dayType(q: Query): DayType {
    const raw = single(q, 'type');
    if (raw === undefined) return 'business';
    if (!(DAY_TYPES as readonly string[]).includes(raw)) throw badRequest('invalid_type', `type must be one of ${DAY_TYPES.join(', ')}`, 'type');
    return raw as DayType;
  }

  /** A date parameter; defaults to today in the location's time zone when `optional`. */
  function dateParam(c: Context, q: Query, name: string, code: string, optional: boolean): number {
    const raw = single(q, name);
    if (raw === undefined || raw === '') {
      if (!optional) throw badRequest('missing_parameter', `${name} is required (YYYY-MM-DD)`, name);
      return checkRange(parseDate(today(c, store.timezoneOf(code)))!, name);
    }
    const day = parseDate(raw);
    if (day === undefined) throw badRequest('invalid_date', `${name} must be a real calendar date in YYYY-MM-DD form, got "${raw.slice(0, 40)}"`, name);
    return checkRange(day, name);
  }

  function checkRange(day: number, name: string): number {
    if (day < store.firstDay || day > store.lastDay) throw badRequest('out_of_range', `${name} ${formatDate(day)} is outside the served range ${rangeText}`, name);
    return day;
  }

  function daysParam(q: Query): number {
    const raw = single(q, 'days');
    if (raw === undefined || raw === '') throw badRequest('missing_parameter', 'days is required: a positive integer', 'days');
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw badRequest('invalid_days', `days must be a whole number from 1 to ${MAX_DAYS}, got "${raw.slice(0, 40)}"`, 'days');
    const days = Number(raw);
    // However many digits: 9007199254740992 is over the limit, not "not a positive integer".
    if (days > MAX_DAYS) throw badRequest('invalid_days', `days must be at most ${MAX_DAYS}, got ${raw.length > 40 ? `${raw.slice(0, 40)}…` : raw}`, 'days');
    return days;
  }

  function beyondRange(what: string): never {
    throw badRequest('out_of_range', `${what} lies outside the served range ${rangeText}`);
  }

  app.get('/:location', (c) => {
    const { code, cal, q } = resolveLocation(c, 'date type');
    const type = dayType(q);
    const day = dateParam(c, q, 'date', code, true);
    return answer(c, answers.get(`check|${code}|${type}|${day}`, () => JSON.stringify(checkAnswer(cal, type, day)))!, TODAY);
  });

  const shift = (direction: 1 | -1) => (c: Context) => {
    const { code, cal, q } = resolveLocation(c, 'start days type');
    const type = dayType(q);
    const start = dateParam(c, q, 'start', code, true);
    const days = daysParam(q);
    const body = answers.get(`shift|${code}|${type}|${start}|${days}|${direction}`, () => {
      const shifted = shiftAnswer(cal, type, start, days, direction);
      return shifted && JSON.stringify(shifted);
    });
    if (body === undefined) beyondRange(`The result of ${direction === 1 ? 'adding' : 'subtracting'} ${days} business days`);
    return answer(c, body, TODAY);
  };
  app.get('/:location/add', shift(1));
  app.get('/:location/subtract', shift(-1));

  app.get('/:location/count', (c) => {
    const { code, cal, q } = resolveLocation(c, 'start end type');
    const type = dayType(q);
    const start = dateParam(c, q, 'start', code, false);
    const end = dateParam(c, q, 'end', code, false);
    if (end < start) throw badRequest('invalid_range', `end ${formatDate(end)} is before start ${formatDate(start)}`, 'end');
    const total = end - start + 1;
    if (total > MAX_COUNT_DAYS) throw badRequest('range_too_large', `count covers at most ${MAX_COUNT_DAYS} days; this range has ${total}`, 'end');
    return answer(c, answers.get(`count|${code}|${type}|${start}|${end}`, () => countJson(cal, type, start, end))!);
  });

  app.get('/:location/next', (c) => {
    const { code, cal, q } = resolveLocation(c, 'from type');
    const type = dayType(q);
    const from = dateParam(c, q, 'from', code, true);
    const body = answers.get(`next|${code}|${type}|${from}`, () => {
      const next = nextAnswer(cal, type, from);
      return next && JSON.stringify(next);
    });
    if (body === undefined) beyondRange(`The next business day after ${formatDate(from)}`);
    return answer(c, body, TODAY);
  });

  /**
   * A four-digit year parameter among the location's years; `fallback()` when absent. A function: the
   * default reads the clock (this year), and an answer that read the clock holds for a minute only.
   */
  function yearParam(q: Query, name: string, years: readonly number[], fallback: () => number): number {
    const raw = single(q, name);
    if (raw === undefined || raw === '') return fallback();
    if (!/^\d{4}$/.test(raw)) throw badRequest('invalid_year', `${name} must be a four-digit year such as 2026, got "${raw.slice(0, 40)}"`, name);
    const year = Number(raw);
    if (!years.includes(year)) throw badRequest('out_of_range', `${name} ${year} is outside the served range ${years[0]} to ${years[years.length - 1]}`, name);
    return year;
  }

  const thisYear = (c: Context, code: string) => Number(today(c, store.timezoneOf(code)).slice(0, 4));

  // A year's holidays: the bytes of the static file business-days/{location}/{year}.json.
  app.get('/:location/holidays', (c) => {
    const { code, cal, q } = resolveLocation(c, 'year');
    const { years } = cal.meta;
    const year = yearParam(q, 'year', years, () => thisYear(c, code));
    if (!years.includes(year)) throw badRequest('out_of_range', `year ${year} is outside the served range ${years[0]} to ${years[years.length - 1]}`, 'year');
    return answer(c, store.yearBytes(code, year), TODAY);
  });

  // The same years as an iCalendar feed (lib/icalendar.ts, as the static business-days/{location}/{year}.ics files):
  // with from_year = to_year and no type, exactly the file's bytes.
  app.get('/:location/holidays.ics', (c) => {
    const { code, cal, q } = resolveLocation(c, 'from_year to_year type');
    const { years } = cal.meta;
    const [first, last] = [years[0], years[years.length - 1]];
    const from = yearParam(q, 'from_year', years, () => Math.min(Math.max(thisYear(c, code), first), last));
    const to = yearParam(q, 'to_year', years, () => Math.min(from + 1, last));
    if (to < from) throw badRequest('invalid_range', `to_year ${to} is before from_year ${from}`, 'to_year');
    if (to - from + 1 > MAX_FEED_YEARS) throw badRequest('range_too_large', `a feed covers at most ${MAX_FEED_YEARS} years; ${from}-${to} is ${to - from + 1}`, 'to_year');
    const type = single(q, 'type') === undefined ? undefined : dayType(q);
    // Computed once per location, years and type, then kept (and compressed once) as bytes: 2.9 ms of CPU for ten years.
    const feed = answers.get(`ics|${code}|${from}|${to}|${type ?? ''}`, () => {
      const docs: BusinessDaysYear[] = [];
      for (let y = from; y <= to; y++) docs.push(JSON.parse(new TextDecoder().decode(store.yearBytes(code, y))) as BusinessDaysYear);
      return renderFeed({ location: code, name: store.nameOf(code), years: docs, type });
    })!;
    return answer(c, feed, { headers: CALENDAR, holds: 'today' });
  });

  return app;
}
