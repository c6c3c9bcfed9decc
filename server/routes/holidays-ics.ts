/**
 * GET /v1/business-days/{location}/holidays.ics?from_year=&to_year=&type=: a location's holidays and
 * working days outside the workweek as an iCalendar feed a calendar app can subscribe to (lib/icalendar.ts,
 * the same code as the static business-days/{LOCATION}/{YEAR}.ics files).
 */
import { Hono } from 'hono';
import { renderFeed, type DayType } from '../../lib/icalendar.js';
import type { BusinessDaysYear } from '../../lib/schema-types.js';
import { answer } from '../answer-headers.js';
import { badRequest, notFound } from '../errors.js';
import { single } from '../query.js';
import type { DatasetStore } from '../store.js';
import { LOCATION_RE } from './business-days.js';

/** Most years one feed covers: subscribers refetch it, so it stays small. */
export const MAX_FEED_YEARS = 10;
const TYPES: readonly DayType[] = ['business', 'banking', 'government'];
const ICS = { 'content-type': 'text/calendar; charset=utf-8' };

export function holidaysIcsRoutes({ store, today }: { store: DatasetStore; today: (timeZone: string) => string }) {
  const app = new Hono();
  app.get('/:location/holidays.ics', (c) => {
    const raw = c.req.param('location') ?? '';
    const code = raw.toUpperCase();
    if (!LOCATION_RE.test(raw) || !store.has(code)) {
      const name = store.withoutData(code);
      if (name) throw notFound('no_holiday_data', `No holiday data exists for ${code} (${name}).`, 'location');
      throw notFound('unknown_location', `Unknown location "${raw.slice(0, 40)}": use an ISO 3166-1 alpha-2 code (US) or a region code (US-CA); GET /v1/business-days lists them.`, 'location');
    }
    const q = c.req.queries();
    const { years } = store.location(code).meta;
    const [first, last] = [years[0], years[years.length - 1]];
    const year = (name: string, fallback: number) => {
      const v = single(q, name);
      if (v === undefined || v === '') return fallback;
      if (!/^\d{4}$/.test(v)) throw badRequest('invalid_year', `${name} must be a four-digit year such as 2026, got "${v.slice(0, 40)}"`, name);
      const y = Number(v);
      if (y < first || y > last) throw badRequest('out_of_range', `${name} ${y} is outside the served range ${first} to ${last}`, name);
      return y;
    };
    const current = Math.min(Math.max(Number(today(store.timezoneOf(code)).slice(0, 4)), first), last);
    const from = year('from_year', current);
    const to = year('to_year', Math.min(from + 1, last));
    if (to < from) throw badRequest('invalid_range', `to_year ${to} is before from_year ${from}`, 'to_year');
    if (to - from + 1 > MAX_FEED_YEARS) throw badRequest('range_too_large', `a feed covers at most ${MAX_FEED_YEARS} years; ${from}-${to} is ${to - from + 1}`, 'to_year');
    const rawType = single(q, 'type');
    if (rawType !== undefined && !(TYPES as readonly string[]).includes(rawType)) throw badRequest('invalid_type', `type must be one of ${TYPES.join(', ')}`, 'type');
    const docs: BusinessDaysYear[] = [];
    for (let y = from; y <= to; y++) docs.push(JSON.parse(new TextDecoder().decode(store.yearBytes(code, y))) as BusinessDaysYear);
    const name = store.list.locations.find((l) => l.location === code)?.name ?? code;
    return answer(c, renderFeed({ location: code, name, years: docs, type: rawType as DayType | undefined }), 200, ICS);
  });
  return app;
}
