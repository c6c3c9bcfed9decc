/**
 * Stage: python-holidays, the second independent holiday source (sources/python-holidays/, extracted by
 * scripts/extract-python-holidays.py from the pinned release; see its SOURCE.md).
 *
 * It is read for two jobs:
 * - the countries date-holidays does not know (Qatar, Kuwait, Nepal …) and their subdivisions are ingested from
 *   it, as date-holidays' countries are from date-holidays: its `public` rows close every day type, `bank` rows
 *   close banking, `government` rows government; other categories (optional, half-day, named working days, days
 *   off only for one faith's believers) close nothing and are not published;
 * - every location both sources know is compared year by year (corroborate.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { LOCATION_CODE_RE } from '../../lib/location-code.js';
import { parseDate, weekdayIndex, WEEKDAYS } from '../../lib/plain-date.js';
import type { Holiday, WorkingDay } from '../../lib/schema-types.js';
import { makeHoliday } from './holidays/record.js';
import { compareHolidays, type IngestedLocation, type Target } from './ingest-holidays.js';

export interface PhCountry {
  name: string;
  /** null where python-holidays has no translations: its names are English. */
  default_language: string | null;
  english_language: string | null;
  languages: string[];
  categories: string[];
  skipped_categories: string[];
  /** Subdivision code → its aliases (names and other codes). */
  subdivisions: Record<string, string[]>;
  start_year: number;
  end_year: number;
}

export interface PhMeta {
  package: string;
  version: string;
  first_year: number;
  last_year: number;
  countries: Record<string, PhCountry>;
}

export interface PhRow {
  date: string;
  category: string;
  name: string;
  local_name: string;
}

const HEADER = 'location,op,date,category,name,local_name';

/** The categories that close a day type, and the holiday type they become. */
export const CLOSING_CATEGORIES: Readonly<Record<string, Holiday['type']>> = { public: 'public', bank: 'bank', government: 'government' };

/** Whether a python-holidays row closes business: the one test corroboration and the audit both compare on. */
export const closesBusiness = (r: PhRow): boolean => CLOSING_CATEGORIES[r.category] === 'public';

export class PythonHolidays {
  readonly meta: PhMeta;
  private readonly dir: string;
  private readonly byCountry = new Map<string, Map<string, PhRow[]>>();
  private weekendWorkdays?: Map<string, Set<string>>;
  private weekendSpans?: Map<string, { from: number; until: number; days: Set<string> }[]>;

  constructor(sourcesDir: string) {
    this.dir = join(sourcesDir, 'python-holidays');
    this.meta = JSON.parse(readFileSync(join(this.dir, 'meta.json'), 'utf8')) as PhMeta;
  }

  get label(): string {
    return `python-holidays ${this.meta.version}`;
  }

  /** Every location of a country (the country and each subdivision, `CC-SUB`), with its rows sorted by date. */
  locationsOf(cc: string): Map<string, PhRow[]> {
    const known = this.byCountry.get(cc);
    if (known) return known;
    const path = join(this.dir, `${cc}.csv`);
    const out = new Map<string, PhRow[]>();
    if (!this.meta.countries[cc] || !existsSync(path)) {
      this.byCountry.set(cc, out);
      return out;
    }
    const text = readFileSync(path, 'utf8');
    if (text.split('\n', 1)[0] !== HEADER) throw new Error(`${path} line 1: the header must be "${HEADER}"`);
    const records = fields(text);
    const national: PhRow[] = [];
    const added = new Map<string, PhRow[]>();
    const removed = new Map<string, Set<string>>();
    const key = (r: PhRow) => `${r.date}|${r.category}|${r.name}|${r.local_name}`;
    records.forEach((fields, i) => {
      const [location, op, date, category, name, local_name] = fields;
      const where = `${path} line ${i + 2}`;
      if (fields.length !== 6 || parseDate(date) === undefined || !name) throw new Error(`${where}: not a python-holidays row`);
      const row = { date, category, name, local_name: local_name || name };
      if (location === cc) {
        if (op !== '') throw new Error(`${where}: a country row has no op`);
        national.push(row);
      } else if (location.startsWith(`${cc}-`) && (op === '+' || op === '-')) {
        if (op === '+') (added.get(location) ?? added.set(location, []).get(location)!).push(row);
        else (removed.get(location) ?? removed.set(location, new Set()).get(location)!).add(key(row));
      } else throw new Error(`${where}: location ${location} with op "${op}"`);
    });
    out.set(cc, national);
    const keys = national.map(key);
    for (const sub of Object.keys(this.meta.countries[cc].subdivisions)) {
      const location = `${cc}-${sub}`;
      const gone = removed.get(location);
      const rows = [...(gone ? national.filter((_, i) => !gone.has(keys[i])) : national), ...(added.get(location) ?? [])];
      rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
      out.set(location, rows);
    }
    this.byCountry.set(cc, out);
    return out;
  }

  /** Weekend days python-holidays makes working days (the make-up days of decreed transfers), by location. */
  workdaysOf(location: string): Set<string> {
    if (!this.weekendWorkdays) {
      this.weekendWorkdays = new Map();
      const path = join(this.dir, 'weekend-workdays.csv');
      for (const [loc, date] of parse(readFileSync(path, 'utf8'), { from_line: 2 }) as string[][]) {
        (this.weekendWorkdays.get(loc) ?? this.weekendWorkdays.set(loc, new Set()).get(loc)!).add(date);
      }
    }
    return this.weekendWorkdays.get(location) ?? new Set();
  }

  /** Whether a day (days since the epoch) is in python-holidays' weekend of a location (weekends.csv; Saturday–Sunday where it lists none). */
  isWeekend(location: string, day: number): boolean {
    if (!this.weekendSpans) {
      this.weekendSpans = new Map();
      for (const [loc, from, until, weekend] of parse(readFileSync(join(this.dir, 'weekends.csv'), 'utf8'), { from_line: 2 }) as string[][]) {
        (this.weekendSpans.get(loc) ?? this.weekendSpans.set(loc, []).get(loc)!).push({
          from: from ? parseDate(from)! : -Infinity,
          until: until ? parseDate(until)! : Infinity,
          days: new Set(weekend.split(' ').filter(Boolean)),
        });
      }
    }
    const name = WEEKDAYS[weekdayIndex(day)];
    const span = (this.weekendSpans.get(location) ?? []).find((s) => day >= s.from && day <= s.until);
    return span ? span.days.has(name) : name === 'saturday' || name === 'sunday';
  }
}

/**
 * The records of an extracted CSV after its header. The extractor writes Python's csv dialect: a field is quoted
 * only when it holds a comma, a quote or a line break, so a line without a quote splits on commas, and the few
 * with one go through csv-parse.
 */
function fields(text: string): string[][] {
  const lines = text.split('\n');
  const out: string[][] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    if (line === '') continue;
    if (!line.includes('"')) out.push(line.split(','));
    else if ((line.match(/"/g) ?? []).length % 2 === 0) out.push((parse(line) as string[][])[0]);
    else throw new Error(`line ${i + 1}: a quoted field across lines (the extractor writes none)`);
  }
  return out;
}

/** python-holidays' language tag (`ms_MY`, `en_US`) as the dataset writes languages (`ms`, `en`). */
function languageOf(tag: string | null): string {
  return tag === null ? 'en' : tag.split('_')[0];
}

/**
 * Targets for the countries date-holidays does not know and python-holidays does, with their subdivisions
 * (python-holidays' own codes, `BT-11`, `FM-KSA`), except the places in `skip` (no population of their own). Names
 * and zones are placeholders that name-locations.ts replaces with the countries area's where it has them.
 */
export function pythonTargets(ph: PythonHolidays, known: ReadonlySet<string>, skip: ReadonlySet<string>, zones: ReadonlyMap<string, string>): Target[] {
  const out: Target[] = [];
  for (const cc of Object.keys(ph.meta.countries).sort()) {
    if (known.has(cc) || skip.has(cc)) continue;
    const c = ph.meta.countries[cc];
    // The zone name-locations.ts falls back to where a country has no capital zone: its first zone.tab zone.
    const base = { country: cc, args: [], timezone: zones.get(cc) ?? 'UTC', localLanguage: languageOf(c.default_language), source: 'python-holidays' as const };
    out.push({ ...base, location: cc, name: c.name, kind: 'country', parent: null });
    for (const sub of Object.keys(c.subdivisions).sort()) {
      const location = `${cc}-${sub}`;
      if (!LOCATION_CODE_RE.test(location)) continue;
      const alias = c.subdivisions[sub].find((a) => !/^[A-Z0-9]{1,3}$/.test(a));
      out.push({ ...base, location, name: alias ?? sub, kind: 'state', parent: cc });
    }
  }
  return out;
}

/** `(substituted from MM/DD/YYYY)` or `DD/MM/YYYY` in an English name: the weekend date it names, when it is one of `workdays`. */
function substitutedFrom(name: string, workdays: ReadonlySet<string>): string | undefined {
  const m = /substituted from (\d{2})[/.](\d{2})[/.](\d{4})/.exec(name);
  if (!m) return undefined;
  const [, a, b, y] = m;
  return [`${y}-${a}-${b}`, `${y}-${b}-${a}`].find((d) => workdays.has(d));
}

const OBSERVED = /\((observed|substitute day|in lieu)\)$/i;

/**
 * The closing rows of one python-holidays location (`against`: python-holidays' code) dated lo..hi as holiday rows
 * (basis rules, citing `citations`), and the weekend dates their substitutions name (`pairs`: working date → day off).
 */
export function pythonHolidays(ph: PythonHolidays, country: string, against: string, lo: string, hi: string, citations: readonly string[] = []) {
  const rows = ph.locationsOf(country).get(against) ?? [];
  const workdays = ph.workdaysOf(against);
  const holidays: Holiday[] = [];
  const seen = new Set<string>();
  const pairs = new Map<string, { date: string; name: string; localName: string }>();
  for (const r of rows) {
    const type = CLOSING_CATEGORIES[r.category];
    if (!type || r.date < lo || r.date > hi) continue;
    const key = `${r.date}|${type}|${r.name}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const from = substitutedFrom(r.name, workdays);
    if (from) pairs.set(from, { date: r.date, name: r.name, localName: r.local_name });
    holidays.push(
      makeHoliday({ date: r.date, name: r.name, localName: r.local_name, type, basis: 'rules', citations, substitute: OBSERVED.test(r.name), ...(from ? { transferredFrom: from } : {}) }),
    );
  }
  return { holidays, pairs, workdays };
}

/** The rows of one python-holidays location as holiday rows and working days, years [first, last]. */
export function ingestPythonTarget(ph: PythonHolidays, target: Target, first: number, last: number): { loc: IngestedLocation; workingDays: WorkingDay[] } {
  const lo = `${first}-01-01`;
  const hi = `${last}-12-31`;
  const { holidays, pairs, workdays } = pythonHolidays(ph, target.country, target.location, lo, hi);
  holidays.sort(compareHolidays);
  const workingDays: WorkingDay[] = [...workdays]
    .filter((d) => d >= lo && d <= hi)
    .sort()
    .map((date) => {
      const pair = pairs.get(date);
      const forHoliday = pair?.name ?? 'Transferred day off';
      return {
        date,
        name: `Working day (${forHoliday})`,
        local_name: pair?.localName ?? forHoliday,
        for_holiday: forHoliday,
        for_date: pair?.date ?? null,
        applies_to: ['business', 'banking', 'government'],
        citations: [],
      };
    });
  return { loc: { target, holidays }, workingDays };
}
