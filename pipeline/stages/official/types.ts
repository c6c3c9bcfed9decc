/** The rows every official-calendar reader produces, whatever its source (curated CSV, npm package, raw file). */
import { DAY_TYPES, type DayType } from '../../../lib/location-calendar.js';
import type { Citation } from '../../../lib/schema-types.js';

export type { DayType };
export const ALL_TYPES = DAY_TYPES;

export interface OfficialRow {
  /** Country or region code the row applies to (a country row applies to its regions). */
  location: string;
  date: string;
  kind: 'holiday' | 'transferred' | 'working_day';
  name: string;
  localName: string;
  /** transferred: the day it came from; working_day: the day off it pays for; null when the act does not say. */
  refDate: string | null;
  /** Day types a day off closes, or for which a working day is one. */
  closes: DayType[];
  /** In a year that is not complete: the date-holidays holiday whose projected dates this row replaces. */
  replaces: string | null;
  /** A substitute under a standing rule (Korea's 대체공휴일, Japan's 振替休日), with the date it replaces. */
  substituteFor?: string;
  source: Citation;
  /** Where the row was read, for error messages. */
  where: string;
}

/** A location-year whose schedule is complete: its days off and working days are exactly the rows. */
export interface OfficialYear {
  location: string;
  year: number;
  sources: Citation[];
}

export interface OfficialData {
  rows: OfficialRow[];
  years: OfficialYear[];
}

/** Orders rows and years so that every reader's output is deterministic. */
export function sortOfficial(data: OfficialData): OfficialData {
  const key = (r: OfficialRow) => `${r.location}|${r.date}|${r.kind}|${r.name}`;
  data.rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  data.years.sort((a, b) => (a.location < b.location ? -1 : a.location > b.location ? 1 : a.year - b.year));
  return data;
}
