/**
 * Instants written as RFC 3339 date-times (https://www.rfc-editor.org/rfc/rfc3339#section-5.6):
 * `2026-07-01T12:00:00Z`, `2026-07-01T08:00:00.5-04:00`. Pure; no JavaScript
 * `Date` (Date.parse takes many other forms and reads years 0-99 as 19xx).
 */
import { civilFromDays, daysFromCivil, daysInMonth } from './plain-date.js';

/**
 * The offset may arrive as ` 02:00`: a `+` sent unencoded in a query string
 * is read as a space (application/x-www-form-urlencoded), and the intent is
 * unambiguous, so a space before HH:MM is read as `+`.
 */
const RE = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+ -])(\d{2}):(\d{2}))$/;

/**
 * Milliseconds since the epoch of an RFC 3339 date-time, or undefined when the
 * text is not one or names no real instant (2026-02-30, 24:00, a leap second
 * `:60`, which has no POSIX time of its own). Fractions beyond milliseconds
 * are dropped: every tz transition falls on a whole second.
 */
export function parseInstant(text: string): number | undefined {
  const m = RE.exec(text);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (!m[8]) {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // Any number of fraction digits (RFC 3339 sets no limit); the first three are the milliseconds, read as digits
  // (as a float, .9999999999999999999 would round up into the next second).
  const ms = m[7] ? Number(`${m[7].slice(1)}00`.slice(0, 3)) : 0;
  return ((daysFromCivil(year, month, day) * 24 + hour) * 60 + minute - offsetMinutes) * 60_000 + second * 1000 + ms;
}

/** `YYYY-MM-DDTHH:MM:SSZ` of an instant, to the second (the form of defs.schema.json's Instant). */
export function formatInstant(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const days = Math.floor(seconds / 86400);
  const rest = seconds - days * 86400;
  const [y, mo, d] = civilFromDays(days);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${String(y).padStart(4, '0')}-${two(mo)}-${two(d)}T${two(Math.floor(rest / 3600))}:${two(Math.floor(rest / 60) % 60)}:${two(rest % 60)}Z`;
}
