/**
 * iCalendar (RFC 5545) feeds of a location's holidays and working days, as all-day events.
 * Pure and deterministic: the same year documents give the same bytes, so static files and the
 * API agree and a CDN can cache them.
 *
 * - One VEVENT per holiday row and one per working day outside the workweek (its own event, with
 *   CATEGORIES:WORKING-DAY), DTSTART/DTEND as DATE values (the end is exclusive: the next day).
 * - UID: a hash of location, date, kind and name, so a calendar client updates an event in place
 *   when its details change and never duplicates it between downloads.
 * - DTSTAMP is required in every VEVENT; we use the event's own date at 00:00 UTC instead of the
 *   wall clock (no clock may enter the data: two builds give the same bytes).
 * - Lines end in CRLF and are folded at 75 octets (RFC 5545 3.1); TEXT values are escaped (3.3.11).
 */
import { createHash } from 'node:crypto';
import type { DayType } from './location-calendar.js';
import { formatDate, parseDate } from './plain-date.js';
import type { BusinessDaysYear, Holiday, WorkingDay } from './schema-types.js';

export interface FeedOptions {
  location: string;
  /** The location's English name, for the calendar's name. */
  name: string;
  years: BusinessDaysYear[];
  /** Only the events that count for this day type (closing, partial or working); all when absent. */
  type?: DayType;
}

/** Escapes a TEXT value (RFC 5545 3.3.11). */
export function escapeText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');
}

/** Folds a content line to at most 75 octets per physical line, never splitting a UTF-8 character. */
export function foldLine(line: string): string {
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= 75) return line;
  const parts: string[] = [];
  let start = 0;
  let limit = 75;
  while (start < bytes.length) {
    let end = Math.min(start + limit, bytes.length);
    while (end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--; // back off a continuation byte
    parts.push(bytes.subarray(start, end).toString('utf8'));
    start = end;
    limit = 74; // continuation lines start with one space
  }
  return parts.join('\r\n ');
}

const compact = (date: string) => date.replaceAll('-', '');

const nextDay = (date: string) => formatDate(parseDate(date)! + 1);

function uid(location: string, date: string, kind: string, name: string): string {
  const hash = createHash('sha256').update(`${location}\n${date}\n${kind}\n${name}`).digest('hex').slice(0, 24);
  return `${hash}@refdata`;
}

function holidayDescription(h: Holiday): string {
  const lines = [h.local_name !== h.name ? `${h.local_name}.` : '', h.closes.length ? `Closes: ${h.closes.join(', ')}.` : 'Closes nothing (listed for information).'];
  if (h.partial) lines.push(`Partial day: ${h.start_time ?? ''}-${h.end_time ?? ''}.`);
  if (h.substitute) lines.push(`Substitute day${h.observed_for ? ` for the holiday of ${h.observed_for}` : ''}.`);
  if (h.transferred) lines.push(`Transferred day off${h.transferred_from ? ` (moved from ${h.transferred_from})` : ''}.`);
  lines.push(`Basis: ${h.basis}.`);
  return lines.filter(Boolean).join(' ');
}

function event(location: string, date: string, kind: string, summary: string, description: string, categories: string[]): string[] {
  return [
    'BEGIN:VEVENT',
    `UID:${uid(location, date, kind, summary)}`,
    `DTSTAMP:${compact(date)}T000000Z`,
    `DTSTART;VALUE=DATE:${compact(date)}`,
    `DTEND;VALUE=DATE:${compact(nextDay(date))}`,
    `SUMMARY:${escapeText(summary)}`,
    `DESCRIPTION:${escapeText(description)}`,
    `CATEGORIES:${categories.map(escapeText).join(',')}`,
    'TRANSP:TRANSPARENT',
    'END:VEVENT',
  ];
}

/** With a type: the days off of that type and the partial days; without: every row. */
const counts = (h: Holiday, type: DayType | undefined) => type === undefined || h.closes.includes(type) || h.partial;
const works = (w: WorkingDay, type: DayType | undefined) => type === undefined || w.applies_to.includes(type);

/** The feed as text with CRLF line endings. */
export function renderFeed({ location, name, years, type }: FeedOptions): string {
  const first = years[0]?.year;
  const last = years.at(-1)?.year;
  const title = `${name} (${location}) ${type ? `${type} days off` : 'holidays'}`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//refdata//business days//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(title)}`,
    `X-WR-CALDESC:${escapeText(`Holidays and working days outside the workweek, ${first}-${last}, from refdata (basis per event: official = a published government schedule, rules = projected).`)}`,
  ];
  const events: { date: string; lines: string[] }[] = [];
  for (const y of years) {
    for (const h of y.holidays) {
      if (!counts(h, type)) continue;
      const categories = ['HOLIDAY', h.type.toUpperCase(), ...(h.substitute ? ['SUBSTITUTE'] : []), ...(h.transferred ? ['TRANSFERRED'] : [])];
      events.push({ date: h.date, lines: event(location, h.date, `holiday:${h.type}`, h.name, holidayDescription(h), categories) });
    }
    for (const w of y.working_days) {
      if (!works(w, type)) continue;
      const description = `${w.local_name}. A working day although it falls outside the workweek, for: ${w.applies_to.join(', ')}; it pays for ${w.for_holiday}${w.for_date ? ` (${w.for_date})` : ''}. Basis: official.`;
      events.push({ date: w.date, lines: event(location, w.date, 'working-day', w.name, description, ['WORKING-DAY']) });
    }
  }
  // Date order; rows of one date keep the year file's order (the sort is stable).
  events.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  for (const e of events) lines.push(...e.lines);
  lines.push('END:VCALENDAR');
  return `${lines.map(foldLine).join('\r\n')}\r\n`;
}
