/**
 * Stage: read every location against the second source. Where date-holidays (with our rules, corrections and
 * decrees) and python-holidays agree, the answer stops being one source's projection:
 *
 * - a **row** of basis `rules` that closes business becomes `corroborated` when python-holidays has a public
 *   holiday at the same location on the same date;
 * - a **year** of basis `rules` becomes `corroborated` when the two agree on every day of it: the same days off
 *   for business on the location's working days, and no working day on a weekend that one of them has and the
 *   other not. A year python-holidays does not cover (before its `start_year`) stays `rules`.
 *
 * Rows a `python-holidays:` rule copied (apply-rules.ts) are python-holidays' own dates: they are never
 * corroborated, and neither is a year in which one of them closes business.
 *
 * `official` rows and years stay `official`. A location only python-holidays knows, and the years a decision table
 * (apply-sources.ts) builds from python-holidays, have nothing to be corroborated by and stay `rules`.
 */
import { isWorkday, type WorkweekSpan } from '../../lib/workweek.js';
import { parseDate } from '../../lib/plain-date.js';
import type { YearBasis } from './apply-official.js';
import type { IngestedLocation } from './ingest-holidays.js';
import { copiedFromPython } from './apply-rules.js';
import { closesBusiness, type PhRow, type PythonHolidays } from './ingest-python-holidays.js';

/** python-holidays' code for one of our locations: the same code, or the subdivision whose aliases list ours (IN-CT is python-holidays' IN-CG). */
export function pythonLocation(ph: PythonHolidays, location: string): string | undefined {
  const [cc, sub, region] = location.split('-');
  const country = ph.meta.countries[cc];
  if (!country || region !== undefined) return undefined;
  if (sub === undefined) return cc;
  if (country.subdivisions[sub]) return location;
  const alias = Object.entries(country.subdivisions).find(([, aliases]) => aliases.includes(sub));
  return alias ? `${cc}-${alias[0]}` : undefined;
}

export interface Corroboration {
  /** The python-holidays location compared with, when there is one. */
  against?: string;
  /** Years whose basis became corroborated. */
  years: number;
  /** Rows whose basis became corroborated. */
  rows: number;
}

/** Marks corroborated rows and years of one location in place (see the top of this file). */
export function corroborate(ph: PythonHolidays, loc: IngestedLocation, spans: readonly WorkweekSpan[], basis: Map<number, YearBasis>, rebased: ReadonlySet<number> = new Set()): Corroboration {
  if (loc.target.source !== 'date-holidays') return { years: 0, rows: 0 };
  const against = pythonLocation(ph, loc.target.location);
  if (!against) return { years: 0, rows: 0 };
  const country = ph.meta.countries[loc.target.country];
  const theirs: PhRow[] = ph.locationsOf(loc.target.country).get(against) ?? [];
  const theirDays = new Set(theirs.filter(closesBusiness).map((r) => r.date));
  const theirWorkdays = ph.workdaysOf(against);

  let rows = 0;
  for (const h of loc.holidays) {
    if (h.basis === 'rules' && h.closes.includes('business') && theirDays.has(h.date) && !rebased.has(Number(h.date.slice(0, 4))) && !copiedFromPython.has(h)) {
      h.basis = 'corroborated';
      rows++;
    }
  }

  const ourDays = new Map<number, Set<string>>();
  const copiedYears = new Set<number>();
  for (const h of loc.holidays) {
    if (!h.closes.includes('business')) continue;
    const year = Number(h.date.slice(0, 4));
    if (copiedFromPython.has(h)) copiedYears.add(year);
    (ourDays.get(year) ?? ourDays.set(year, new Set()).get(year)!).add(h.date);
  }
  const byYear = (dates: Iterable<string>) => {
    const out = new Map<number, Set<string>>();
    for (const d of dates) {
      if (!isWorkday(spans, parseDate(d)!)) continue;
      const year = Number(d.slice(0, 4));
      (out.get(year) ?? out.set(year, new Set()).get(year)!).add(d);
    }
    return out;
  };
  const ours = byYear([...ourDays.values()].flatMap((s) => [...s]));
  const their = byYear(theirDays);
  const theirWorking = new Map<number, number>();
  for (const d of theirWorkdays) if (!isWorkday(spans, parseDate(d)!)) theirWorking.set(Number(d.slice(0, 4)), (theirWorking.get(Number(d.slice(0, 4))) ?? 0) + 1);

  let years = 0;
  for (const [year, b] of basis) {
    if (b.basis !== 'rules' || rebased.has(year) || copiedYears.has(year) || year < country.start_year || year > country.end_year) continue;
    if (b.workingDays.length !== (theirWorking.get(year) ?? 0) || b.workingDays.some((w) => !theirWorkdays.has(w.date))) continue;
    const a = ours.get(year) ?? new Set();
    const t = their.get(year) ?? new Set();
    if (a.size !== t.size || [...a].some((d) => !t.has(d))) continue;
    b.basis = 'corroborated';
    years++;
  }
  return { against, years, rows };
}
