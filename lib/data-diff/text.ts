/**
 * How one change reads as text; shared by the warnings (dataset.ts) and the
 * Markdown, so both say the same thing.
 */
import { formatOffset } from '../zone-timeline.js';
import type { FieldChange, HolidayChange, OffsetDifference } from './types.js';
import { isPlainObject } from './values.js';

export function formatValue(v: unknown): string {
  if (typeof v === 'string') return /^[\p{L}\p{N}_+.:/-]+$/u.test(v) ? v : JSON.stringify(v);
  if (Array.isArray(v) && v.every((x) => typeof x !== 'object' || x === null)) return `[${v.map(formatValue).join(', ')}]`;
  const text = JSON.stringify(v) ?? 'absent';
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** "power.voltage 230 → 220"; lists of records (subdivisions, currencies) as "+a −r items". */
export function formatField(f: FieldChange): string {
  if (Array.isArray(f.old) && Array.isArray(f.new) && [...f.old, ...f.new].some(isPlainObject)) {
    const keyOf = (x: unknown) => JSON.stringify(x);
    const [ko, kn] = [new Set(f.old.map(keyOf)), new Set(f.new.map(keyOf))];
    const added = f.new.filter((x) => !ko.has(keyOf(x)));
    const removed = f.old.filter((x) => !kn.has(keyOf(x)));
    const label = (x: unknown) => (isPlainObject(x) && typeof x.code === 'string' ? x.code : formatValue(x));
    const parts = [...added.slice(0, 3).map((x) => `+${label(x)}`), ...removed.slice(0, 3).map((x) => `−${label(x)}`)];
    return `${f.field} +${added.length} −${removed.length} items (${parts.join(' ')}${added.length + removed.length > parts.length ? ' …' : ''})`;
  }
  return `${f.field} ${formatValue(f.old)} → ${formatValue(f.new)}`;
}

export const fieldsText = (fields: FieldChange[]) => fields.map(formatField).join('; ');

/** "holiday changed: Marine Day (name "Marine Day" → "Ocean Day")", without the date. */
export function holidayChangeText(h: HolidayChange): string {
  return `holiday ${h.kind}: ${h.name}${h.fields.length ? ` (${fieldsText(h.fields)})` : ''}`;
}

export const offsetChange = (o: OffsetDifference) => `offset changed (${formatOffset(o.old_offset_minutes)} → ${formatOffset(o.new_offset_minutes)})`;
export const offsetText = (o: OffsetDifference) => `${offsetChange(o)} from ${o.at}`;
