/**
 * Stage: workweeks per location. Today's weekend comes from CLDR weekData;
 * sources/holidays/<CC>/workweeks.csv carries the dated changes and gaps CLDR
 * does not (UAE 2022, Saudi Arabia 2013, Bangladesh, Malaysian states …).
 * Every workweek leaves here in workweek order (lib/workweek.ts orderWorkweek),
 * whatever order the CSV lists its days in: Israel's reads Sunday … Thursday.
 */
import { createRequire } from 'node:module';
import { formatDate, parseDate } from '../../lib/plain-date.js';
import { workweekFromWeekend } from '../../lib/workweek.js';
import type { Curation } from './holidays/curation.js';
import type { BusinessDaysLocation } from '../../lib/schema-types.js';

export type WorkweekRow = BusinessDaysLocation['workweeks'][number];

interface OverrideRow {
  location: string;
  from: number | null;
  until: number | null;
  workweek: WorkweekRow['workweek'];
  source: string;
  where: string;
}

const require = createRequire(import.meta.url);

export function cldrVersion(): string {
  return (require('cldr-core/package.json') as { version: string }).version;
}

function loadCldrWeekends(): { start: Record<string, string>; end: Record<string, string> } {
  const data = require('cldr-core/supplemental/weekData.json') as {
    supplemental: { weekData: { weekendStart: Record<string, string>; weekendEnd: Record<string, string> } };
  };
  return { start: data.supplemental.weekData.weekendStart, end: data.supplemental.weekData.weekendEnd };
}

/**
 * The dated workweek rows of sources/holidays/<CC>/workweeks.csv (read and checked by curation.ts), each
 * published with the address of the first act it cites; throws on overlapping rows.
 */
export function loadOverrides(curation: Curation): OverrideRow[] {
  const rows = curation.workweeks.map((r) => ({
    location: r.location,
    from: r.from === null ? null : parseDate(r.from)!,
    until: r.until === null ? null : parseDate(r.until)!,
    workweek: r.workweek as WorkweekRow['workweek'],
    source: curation.citations.get(r.citations[0])!.url,
    where: r.where,
  }));
  const byLocation = new Map<string, OverrideRow[]>();
  for (const r of rows) byLocation.set(r.location, [...(byLocation.get(r.location) ?? []), r]);
  for (const [loc, list] of byLocation) {
    list.sort((a, b) => (a.from ?? -Infinity) - (b.from ?? -Infinity));
    for (let i = 1; i < list.length; i++) {
      if (list[i - 1].until === null || list[i].from === null || list[i - 1].until! >= list[i].from!) throw new Error(`${list[i].where}: overlaps the row before it for ${loc}`);
    }
  }
  return rows;
}

/**
 * Workweek periods for one location: the override rows of the most specific
 * code that has any (region, then state, then country), with CLDR's value
 * filling every gap between them.
 */
export function workweeksFor(location: string, overrides: OverrideRow[], cldr = loadCldrWeekends()): WorkweekRow[] {
  const country = location.slice(0, 2);
  const cldrWeek = workweekFromWeekend(cldr.start[country] ?? cldr.start['001'], cldr.end[country] ?? cldr.end['001']);
  const cldrSource = `cldr-core ${cldrVersion()} supplemental/weekData (${country in cldr.start ? country : '001'})`;
  const parts = location.split('-');
  let rows: OverrideRow[] = [];
  for (let n = parts.length; n >= 1 && rows.length === 0; n--) {
    const code = parts.slice(0, n).join('-');
    rows = overrides.filter((o) => o.location === code);
  }
  rows = [...rows].sort((a, b) => (a.from ?? -Infinity) - (b.from ?? -Infinity));
  const out: WorkweekRow[] = [];
  let cursor: number | null = null; // first day not yet covered; null = since always
  for (const r of rows) {
    if (r.from !== null && (cursor === null || r.from > cursor)) {
      out.push({ from: cursor === null ? null : formatDate(cursor), until: formatDate(r.from - 1), workweek: cldrWeek, source: cldrSource });
    }
    out.push({ from: r.from === null ? null : formatDate(r.from), until: r.until === null ? null : formatDate(r.until), workweek: r.workweek, source: r.source });
    if (r.until === null) return out;
    cursor = r.until + 1;
  }
  out.push({ from: cursor === null ? null : formatDate(cursor), until: null, workweek: cldrWeek, source: cldrSource });
  return out;
}
