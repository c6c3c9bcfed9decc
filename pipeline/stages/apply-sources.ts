/**
 * Stage: the decision tables (sources/holidays/<CC>/sources.csv). For a location date-holidays knows, a row with
 * `source: python-holidays` makes python-holidays' projection the base of the years it covers: date-holidays' rows
 * of those years are dropped and python-holidays' closing rows for the location take their place, before any
 * correction or rule of ours applies (so our folders edit whichever source is the base). The most specific row
 * (region, else state, else country) of a year decides; without one the base is date-holidays.
 *
 * Years built from python-holidays are one source's projection: corroborate.ts leaves them `rules`.
 */
import { appliesTo } from '../../lib/location-code.js';
import type { SourceRow } from './holidays/curation.js';
import { compareHolidays, type IngestedLocation } from './ingest-holidays.js';
import { pythonHolidays, type PythonHolidays } from './ingest-python-holidays.js';
import { pythonLocation } from './corroborate.js';

/** The decision row in force for a location in a year, if any (the most specific location wins). */
export function decisionFor(rows: readonly SourceRow[], location: string, year: number): SourceRow | undefined {
  let best: SourceRow | undefined;
  for (const r of rows) {
    if (!appliesTo(r.location, location) || (r.since !== null && year < r.since) || (r.until !== null && year > r.until)) continue;
    if (!best || r.location.length > best.location.length) best = r;
  }
  return best;
}

/**
 * Rebases the years a decision gives to python-holidays, in place; returns those years. `used` collects the rows
 * that applied somewhere (a row that applies nowhere fails the build).
 */
export function applySources(loc: IngestedLocation, rows: readonly SourceRow[], ph: PythonHolidays, years: readonly number[], used: Set<SourceRow>): Set<number> {
  const python = new Set<number>();
  if (loc.target.source !== 'date-holidays') return python;
  const mine = rows.filter((r) => appliesTo(r.location, loc.target.location));
  if (!mine.length) return python;
  const against = pythonLocation(ph, loc.target.location);
  for (const year of years) {
    const r = decisionFor(mine, loc.target.location, year);
    if (!r) continue;
    used.add(r);
    if (r.source !== 'python-holidays') continue;
    if (!against) throw new Error(`${r.where}: ${loc.target.location} has no python-holidays counterpart to take ${year} from`);
    python.add(year);
  }
  if (!python.size) return python;
  const inPython = (date: string) => python.has(Number(date.slice(0, 4)));
  const kept = loc.holidays.filter((h) => !inPython(h.date));
  const added = [];
  for (const year of python) {
    const r = decisionFor(mine, loc.target.location, year)!;
    added.push(...pythonHolidays(ph, loc.target.country, against!, `${year}-01-01`, `${year}-12-31`, r.citations).holidays);
  }
  loc.holidays = [...kept, ...added].sort(compareHolidays);
  return python;
}

/** Throws when a decision row applied to no location in any year. */
export function checkSourcesUsed(rows: readonly SourceRow[], used: Set<SourceRow>): void {
  const unused = rows.filter((r) => !used.has(r));
  if (unused.length) throw new Error(`sources.csv rows that apply to no location (a typo in the location, or since/until?):\n  ${unused.map((r) => r.where).join('\n  ')}`);
}
