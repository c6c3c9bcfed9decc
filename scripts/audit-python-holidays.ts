/**
 * The differential audit against python-holidays: every day of a window (default 2018-2027) for every location
 * both sources cover (our date-holidays locations that python-holidays has, by code or alias), on the days both
 * count as workweek days, except the location-years a decision table (sources/holidays/<CC>/sources.csv) builds from
 * python-holidays. A day disagrees when one side closes it for business and the other does not.
 * Disagreeing days are grouped by (location, holiday name).
 *
 *   npm run audit:python-holidays [-- --from 2018 --to 2027 --json out.json]
 *
 * Reads the built dataset (dist-data/v1) and the pinned extraction (sources/python-holidays/), no Python.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { parseDate, formatDate } from '../lib/plain-date.js';
import { isWorkday, workweekSpans } from '../lib/workweek.js';
import type { BusinessDaysLocation, BusinessDaysLocations, BusinessDaysYear } from '../lib/schema-types.js';
import { closesBusiness, PythonHolidays } from '../pipeline/stages/ingest-python-holidays.js';
import { pythonLocation } from '../pipeline/stages/corroborate.js';
import { decisionFor } from '../pipeline/stages/apply-sources.js';
import { loadCuration } from '../pipeline/stages/holidays/curation.js';

const ROOT = join(import.meta.dirname, '..');

export interface AuditDay {
  location: string;
  date: string;
  /** Who closes the day: ours or theirs. */
  closed_by: 'ours' | 'theirs';
  name: string;
}

export interface AuditResult {
  python_holidays: string;
  from: number;
  to: number;
  locations: { countries: number; regions: number };
  days: { countries: number; regions: number };
  agree: { countries: number; regions: number };
  /** Location-years left out because a decision table builds them from python-holidays (nothing independent to compare). */
  rebased_years: number;
  disagreements: AuditDay[];
}

export async function audit({ dataDir = join(ROOT, 'dist-data', 'v1'), sourcesDir = join(ROOT, 'sources'), from = 2018, to = 2027 } = {}): Promise<AuditResult> {
  const ph = new PythonHolidays(sourcesDir);
  const decisions = loadCuration(join(sourcesDir, 'holidays')).sources;
  const list = JSON.parse(readFileSync(join(dataDir, 'business-days', 'index.json'), 'utf8')) as BusinessDaysLocations;
  const result: AuditResult = { python_holidays: ph.meta.version, from, to, locations: { countries: 0, regions: 0 }, days: { countries: 0, regions: 0 }, agree: { countries: 0, regions: 0 }, rebased_years: 0, disagreements: [] };
  for (const { location } of list.locations) {
    await yieldToLoop(); // between locations: the test's worker keeps answering vitest while this reads 5,000 files
    const index = JSON.parse(readFileSync(join(dataDir, 'business-days', location, 'index.json'), 'utf8')) as BusinessDaysLocation;
    if (!index.day_types.business.basis.includes('date-holidays')) continue; // python-holidays' own locations
    const theirs = pythonLocation(ph, location);
    if (!theirs) continue;
    const kind = index.kind === 'country' ? 'countries' : 'regions';
    result.locations[kind]++;
    const spans = workweekSpans(index.workweeks);
    const theirRows = ph.locationsOf(index.country).get(theirs) ?? [];
    const theirClosed = new Map<string, string>();
    for (const r of theirRows) if (closesBusiness(r) && !theirClosed.has(r.date)) theirClosed.set(r.date, r.name);
    const country = ph.meta.countries[index.country];
    for (let year = Math.max(from, country.start_year); year <= Math.min(to, country.end_year); year++) {
      if (decisionFor(decisions, location, year)?.source === 'python-holidays') {
        result.rebased_years++;
        continue;
      }
      const doc = JSON.parse(readFileSync(join(dataDir, 'business-days', location, `${year}.json`), 'utf8')) as BusinessDaysYear;
      const ourClosed = new Map<string, string>();
      for (const h of doc.holidays) if (h.closes.includes('business') && !ourClosed.has(h.date)) ourClosed.set(h.date, h.name);
      const ourWorking = new Set(doc.working_days.map((w) => w.date));
      const theirWorking = ph.workdaysOf(theirs);
      for (let day = parseDate(`${year}-01-01`)!; day <= parseDate(`${year}-12-31`)!; day++) {
        const date = formatDate(day);
        const ourWorkday = isWorkday(spans, day) || ourWorking.has(date);
        const theirWorkday = !ph.isWeekend(theirs, day) || theirWorking.has(date);
        if (!ourWorkday || !theirWorkday) continue;
        result.days[kind]++;
        const a = ourClosed.get(date);
        const b = theirClosed.get(date);
        if ((a === undefined) === (b === undefined)) {
          result.agree[kind]++;
          continue;
        }
        result.disagreements.push(a !== undefined ? { location, date, closed_by: 'ours', name: a } : { location, date, closed_by: 'theirs', name: b! });
      }
    }
  }
  return result;
}

/** Disagreeing days grouped by (location, closed_by, name), largest first. */
export function groups(days: readonly AuditDay[]): { location: string; closed_by: string; name: string; dates: string[] }[] {
  const by = new Map<string, { location: string; closed_by: string; name: string; dates: string[] }>();
  for (const d of days) {
    const key = `${d.location}|${d.closed_by}|${d.name}`;
    (by.get(key) ?? by.set(key, { location: d.location, closed_by: d.closed_by, name: d.name, dates: [] }).get(key)!).dates.push(d.date);
  }
  return [...by.values()].sort((a, b) => b.dates.length - a.dates.length || (a.location < b.location ? -1 : 1));
}

/**
 * The backlog of groups nobody has settled yet (test/python-holidays/backlog.csv), one row per country group or
 * per (country's subdivisions, side, name): a work list, never a verdict. `--backlog FILE` writes it; review each
 * row into a ledger file with a cited verdict and delete it here. A row's `explanation` and `source` say what
 * reviewers searched and could not find (the decree or list that would settle it); they are carried over from
 * `previous`, the rows of the file being rewritten, by (location, holiday, side).
 */
export function backlogCsv(
  g: ReturnType<typeof groups>,
  covered: (location: string, side: string, name: string) => Set<string> | 'all' = () => new Set(),
  previous: readonly { location: string; holiday: string; side: string; explanation: string; source: string }[] = [],
): string {
  const q = (s: string) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
  const key = (location: string, holiday: string, side: string) => `${location}\t${holiday}\t${side}`;
  const notes = new Map(previous.map((r) => [key(r.location, r.holiday, r.side), r]));
  const rows = new Set<string>();
  for (const x of g) {
    const c = covered(x.location, x.closed_by, x.name);
    if (c === 'all') continue;
    const left = x.dates.filter((d) => !c.has(d));
    if (!left.length) continue;
    // A group no ledger row touches: one row for the country, or for all its subdivisions; a partly settled one: its dates left.
    const location = left.length === x.dates.length && x.location.includes('-') ? `${x.location.slice(0, 2)}-*` : x.location;
    const note = notes.get(key(location, x.name, x.closed_by)) ?? { explanation: '', source: '' };
    rows.add(`${location},${q(x.name)},${x.closed_by},${left.length === x.dates.length ? '' : left.join(' ')},unreviewed,${q(note.explanation)},${q(note.source)}`);
  }
  return ['location,holiday,side,dates,verdict,explanation,source', ...[...rows].sort()].join('\n') + '\n';
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : undefined;
  };
  const r = await audit({ from: Number(arg('from') ?? 2018), to: Number(arg('to') ?? 2027) });
  const pct = (k: 'countries' | 'regions') => ((100 * r.agree[k]) / r.days[k]).toFixed(2);
  const g = groups(r.disagreements);
  console.log(`python-holidays ${r.python_holidays}, ${r.from}-${r.to}: ${r.locations.countries} countries, ${r.locations.regions} regions compared`);
  console.log(`agreement: countries ${pct('countries')}% of ${r.days.countries} days, regions ${pct('regions')}% of ${r.days.regions} days; ${r.rebased_years} location-years built from python-holidays left out`);
  console.log(`${r.disagreements.length} disagreeing days in ${g.length} groups (location, side, holiday)`);
  for (const x of g.slice(0, Number(arg('top') ?? 40))) console.log(`  ${x.location.padEnd(10)} ${x.closed_by.padEnd(6)} ${String(x.dates.length).padStart(4)}  ${x.name}`);
  const out = arg('json');
  if (out) writeFileSync(out, JSON.stringify({ ...r, groups: g }, null, 1));
  const backlog = arg('backlog');
  if (backlog) {
    // Groups a ledger row settles stay out of the backlog.
    type Row = { location: string; holiday: string; side: string; dates: string; explanation: string; source: string };
    const readRows = (file: string) => parse(readFileSync(file, 'utf8'), { columns: true, skip_empty_lines: true, trim: true }) as Row[];
    const dir = join(ROOT, 'test', 'python-holidays');
    const rows = readdirSync(dir)
      .filter((f) => /^ledger.*\.csv$/.test(f))
      .flatMap((f) => readRows(join(dir, f)));
    const covered = (location: string, side: string, name: string): Set<string> | 'all' => {
      const mine = rows.filter((r) => (r.location.endsWith('-*') ? location.startsWith(r.location.slice(0, -1)) : r.location === location) && r.holiday === name && r.side === side);
      return mine.some((r) => r.dates === '') ? 'all' : new Set(mine.flatMap((r) => r.dates.split(' ')));
    };
    // What reviewers noted on a row that is still open stays with it.
    writeFileSync(backlog, backlogCsv(g, covered, existsSync(backlog) ? readRows(backlog) : []));
  }
}
