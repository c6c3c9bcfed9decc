/**
 * The one builder of a holiday row and the one table from a holiday's type to the day types it closes,
 * used by the ingest, the rules, the corrections and the official calendars alike.
 */
import { DAY_TYPES, type DayType } from '../../../lib/location-calendar.js';
import type { Holiday } from '../../../lib/schema-types.js';

export { DAY_TYPES, type DayType };

/** What a full-day holiday of each type closes: a public holiday closes everything. */
export const CLOSES: Record<Holiday['type'], readonly DayType[]> = {
  public: DAY_TYPES,
  bank: ['banking'],
  government: ['government'],
};

/** The type a row gets from the day types it closes: public when it closes business, else bank, else government. */
export function typeOf(closes: readonly DayType[]): Holiday['type'] {
  return closes.includes('business') ? 'public' : closes.includes('banking') ? 'bank' : 'government';
}

/** Day types in their canonical order (business, banking, government), without repeats. */
export function sortTypes(types: Iterable<DayType>): DayType[] {
  const set = new Set(types);
  return DAY_TYPES.filter((t) => set.has(t));
}

export interface HolidayFields {
  date: string;
  name: string;
  localName: string;
  type: Holiday['type'];
  /** Defaults to CLOSES[type]. */
  closes?: readonly DayType[];
  basis: Holiday['basis'];
  citations?: readonly string[];
  /** The date of the holiday this row substitutes for (a standing observance rule). */
  observedFor?: string | null;
  /** True for a row that exists because a row says it is a substitute, even when the original's date is unknown. */
  substitute?: boolean;
  /** The date a transferred day off was moved from, or null when the act does not say; undefined = not transferred. */
  transferredFrom?: string | null;
  /** Partial-day holidays: the local start and end (HH:MM); such a day closes nothing. */
  partial?: { start: string; end: string };
}

/** A holiday row as the schema has it. */
export function makeHoliday(f: HolidayFields): Holiday {
  const h: Holiday = {
    date: f.date,
    name: f.name,
    local_name: f.localName,
    type: f.type,
    closes: f.partial ? [] : sortTypes(f.closes ?? CLOSES[f.type]),
    substitute: f.substitute ?? (f.observedFor !== undefined && f.observedFor !== null),
    observed_for: f.observedFor ?? null,
    transferred: f.transferredFrom !== undefined,
    transferred_from: f.transferredFrom ?? null,
    basis: f.basis,
    partial: f.partial !== undefined,
    citations: [...new Set(f.citations ?? [])].sort(),
  };
  if (f.partial) {
    h.start_time = f.partial.start;
    h.end_time = f.partial.end;
  }
  return h;
}

/** Adds citation ids to a row (kept sorted, without repeats). */
export function addCitations(h: { citations: string[] }, ids: readonly string[]): void {
  h.citations = [...new Set([...h.citations, ...ids])].sort();
}
