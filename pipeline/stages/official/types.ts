/** The rows every official calendar reader gives: the curated days and years, and the packages' own. */
import type { DayRow, YearRow } from '../holidays/curation.js';

export type { DayRow, YearRow };

export interface OfficialData {
  rows: DayRow[];
  years: YearRow[];
}

/** Orders rows and years so that every reader's output is deterministic. */
export function sortOfficial(data: OfficialData): OfficialData {
  const key = (r: DayRow) => `${r.location}|${r.date}|${r.kind}|${r.name}`;
  data.rows.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
  data.years.sort((a, b) => (a.location < b.location ? -1 : a.location > b.location ? 1 : a.year - b.year));
  return data;
}
