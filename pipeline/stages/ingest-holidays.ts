/**
 * Stage: read every country, state and sub-region that date-holidays knows and
 * turn its public and bank holidays into one row per local calendar date.
 */
import Holidays from 'date-holidays';
import type { Holiday } from '../../lib/schema-types.js';
import { daysFromCivil, formatDate, parseDate } from '../../lib/plain-date.js';
import { shareLunarCaches } from './lunar-cache.js';
import { makeHoliday } from './holidays/record.js';

// Lunisolar dates computed once per process instead of once per rule and year (see lunar-cache.ts).
shareLunarCaches();

export interface Target {
  location: string;
  /** date-holidays' English name; the published one is chosen by name-locations.ts. */
  name: string;
  kind: 'country' | 'state' | 'region';
  country: string;
  parent: string | null;
  args: string[];
  /** date-holidays' first zone (inherited from the parent unless date-holidays sets one); the published one is chosen by name-locations.ts. */
  timezone: string;
  localLanguage: string;
  /** The source its holidays are ingested from: date-holidays, else python-holidays (ingest-python-holidays.ts). */
  source: 'date-holidays' | 'python-holidays';
}

export interface IngestedLocation {
  target: Target;
  /** Holiday rows of every year ingested, sorted by date. */
  holidays: Holiday[];
}

/** Working hours used to tell a full-day holiday from a partial one. */
const WORK_START_MIN = 9 * 60;
const WORK_END_MIN = 17 * 60;
const SUBSTITUTE_SUFFIX = / \(substitute day\)$/;

/** Every target date-holidays knows: 207 countries, 364 states, 57 regions. */
export function listTargets(): Target[] {
  const hd = new Holidays();
  const targets: Target[] = [];
  const add = (args: string[], name: string, kind: Target['kind'], parent: string | null) => {
    const inst = new Holidays(args[0], args[1], args[2]);
    targets.push({
      location: args.join('-').toUpperCase(),
      name,
      kind,
      country: args[0],
      parent,
      args,
      timezone: inst.getTimezones()[0] ?? 'UTC',
      localLanguage: inst.getLanguages()[0],
      source: 'date-holidays',
    });
  };
  const countries = hd.getCountries('en');
  for (const c of Object.keys(countries).sort()) {
    add([c], countries[c], 'country', null);
    const states = hd.getStates(c, 'en') ?? {};
    for (const s of Object.keys(states).sort()) {
      add([c, s], states[s], 'state', c);
      const regions = hd.getRegions(c, s, 'en') ?? {};
      for (const r of Object.keys(regions).sort()) add([c, s, r], regions[r], 'region', `${c}-${s}`.toUpperCase());
    }
  }
  return targets;
}

export interface RawRow {
  date: string;
  start: Date;
  end: Date;
  name: string;
  type: string;
  substitute?: boolean;
}

function minutesOf(hhmmss: string): number {
  return Number(hhmmss.slice(0, 2)) * 60 + Number(hhmmss.slice(3, 5));
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * Expands one date-holidays row into per-date pieces. The local start is the
 * row's `date` text (its `start` instant can carry a foreign offset); the
 * length is end - start rounded to whole hours, so a DST change inside a
 * holiday does not shorten it.
 */
export function expandRow(date: string, durationMs: number) {
  const firstDay = parseDate(date.slice(0, 10));
  if (firstDay === undefined) throw new Error(`bad date-holidays date ${date}`);
  const startMin = minutesOf(date.slice(11, 19) || '00:00:00');
  const endMin = startMin + Math.round(durationMs / 3_600_000) * 60;
  const pieces: { day: number; from: number; to: number; partial: boolean }[] = [];
  for (let offset = 0; offset * 1440 < endMin; offset++) {
    const from = Math.max(startMin - offset * 1440, 0);
    const to = Math.min(endMin - offset * 1440, 1440);
    if (to <= WORK_START_MIN || from >= WORK_END_MIN) continue; // outside working hours: an eve, not a closure
    const partial = from > WORK_START_MIN || to < WORK_END_MIN;
    pieces.push({ day: firstDay + offset, from, to, partial });
  }
  return pieces;
}

function rowsOf(inst: Holidays, year: number, lang: string): RawRow[] {
  return (inst.getHolidays(year, lang) as RawRow[]).filter((r) => r.type === 'public' || r.type === 'bank');
}


/**
 * Rows dated in wall-clock time, with no zone: we read a row's local `date` text and its length
 * (end - start, rounded to whole hours in expandRow), never its instants, and converting every
 * date's start and end into the location's zone through moment-timezone was a third of the
 * ingest. Without a zone date-holidays makes them plain local Dates; the rows are the same in
 * any process time zone (test/ingest-holidays.test.ts builds a sample under three).
 */
function wallClock(inst: Holidays): Holidays {
  inst.setTimezone(undefined as unknown as string);
  return inst;
}

interface DatedHolidays {
  _dateByRule?: (year: number, rule: string) => object[];
}

/**
 * Makes `second` reuse the dates `first` computes: the two instances hold the same rules and
 * differ only in the language they name rows in, so the second language pass would compute
 * every date again (half of the ingest). date-holidays' getHolidays computes a rule's dates in
 * `_dateByRule` (an internal method: without it both instances compute as before) and names
 * them afterwards, renaming the row objects in place, so each caller gets its own copies. Call
 * `first` before `second` for each year: dates are kept for the year last asked for.
 */
function shareDatesWith(second: Holidays, first: Holidays): Holidays {
  const a = first as unknown as DatedHolidays;
  const b = second as unknown as DatedHolidays;
  const compute = a._dateByRule;
  if (typeof compute !== 'function' || typeof b._dateByRule !== 'function') return second;
  let year = NaN;
  let dates = new Map<string, object[]>();
  // Naming replaces a row's `name` (the translations object) with a string and touches nothing
  // else, so a shallow copy of each row keeps the translations for the other pass.
  const copy = (rows: object[]) => rows.map((row) => ({ ...row }));
  a._dateByRule = function (this: unknown, y: number, rule: string) {
    if (y !== year) [year, dates] = [y, new Map()];
    const computed = compute.call(this, y, rule);
    dates.set(rule, copy(computed));
    return computed;
  };
  b._dateByRule = function (this: unknown, y: number, rule: string) {
    const known = y === year ? dates.get(rule) : undefined;
    return known ? copy(known) : compute.call(this, y, rule);
  };
  return second;
}

/** The English name language of a target: its own English where it has one ("Labor Day" in en-us). */
export function englishOf(target: Target): string {
  return target.localLanguage.startsWith('en') ? target.localLanguage : 'en';
}

/** date-holidays' public and bank rows of each year, named in English and in the local language. */
export function* datedRows(target: Target, years: number[]): Generator<{ year: number; enRows: RawRow[]; localRows: RawRow[] }> {
  const [c, s, r] = target.args;
  // getHolidays(year, lang) changes an instance's language: one instance per language.
  const enLang = englishOf(target);
  const en = wallClock(new Holidays(c, s, r));
  const local = enLang === target.localLanguage ? en : shareDatesWith(wallClock(new Holidays(c, s, r)), en);
  for (const year of years) {
    const enRows = rowsOf(en, year, enLang);
    yield { year, enRows, localRows: local === en ? enRows : rowsOf(local, year, target.localLanguage) };
  }
}

/** Holidays of one target for the given years, one row per local date. */
export function ingestTarget(target: Target, years: number[]): IngestedLocation {
  const out: Holiday[] = [];
  const seen = new Set<string>();
  for (const { year, enRows, localRows } of datedRows(target, years)) {
    if (localRows.length !== enRows.length) throw new Error(`${target.location} ${year}: language row counts differ`);
    enRows.forEach((row, i) => {
      const type = row.type as 'public' | 'bank';
      for (const piece of expandRow(row.date, row.end.getTime() - row.start.getTime())) {
        const date = formatDate(piece.day);
        const key = `${date}|${type}|${row.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const holiday = makeHoliday({
          date,
          name: row.name,
          localName: localRows[i].name,
          type,
          basis: 'rules',
          substitute: row.substitute === true,
          ...(piece.partial ? { partial: { start: hhmm(piece.from), end: hhmm(piece.to) } } : {}),
        });
        out.push(holiday);
      }
    });
  }
  out.sort(compareHolidays);
  linkSubstitutes(out);
  return { target, holidays: out };
}

const TYPE_ORDER = { public: 0, bank: 1, government: 2 } as const;

export function compareHolidays(a: Holiday, b: Holiday): number {
  return a.date < b.date ? -1 : a.date > b.date ? 1 : TYPE_ORDER[a.type] - TYPE_ORDER[b.type] || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

/**
 * A substitute row carries the original's English name plus " (substitute
 * day)"; link it to the nearest non-substitute day of that name within two
 * weeks (the original can fall in the previous or next year).
 */
function linkSubstitutes(rows: Holiday[]): void {
  const byName = new Map<string, number[]>();
  for (const h of rows) {
    if (h.substitute) continue;
    const list = byName.get(h.name) ?? [];
    list.push(parseDate(h.date)!);
    byName.set(h.name, list);
  }
  for (const h of rows) {
    if (!h.substitute) continue;
    const candidates = byName.get(h.name.replace(SUBSTITUTE_SUFFIX, '')) ?? [];
    const day = parseDate(h.date)!;
    let best: number | undefined;
    for (const d of candidates) {
      if (d !== day && Math.abs(d - day) <= 14 && (best === undefined || Math.abs(d - day) < Math.abs(best - day))) best = d;
    }
    if (best !== undefined) h.observed_for = formatDate(best);
  }
}

export function yearsAround(first: number, last: number): number[] {
  const years: number[] = [];
  for (let y = first - 1; y <= last + 1; y++) years.push(y);
  return years;
}

/** Keeps only rows inside [first-01-01, last-12-31]. */
export function clipToWindow(rows: Holiday[], first: number, last: number): Holiday[] {
  const lo = formatDate(daysFromCivil(first, 1, 1));
  const hi = formatDate(daysFromCivil(last, 12, 31));
  return rows.filter((h) => h.date >= lo && h.date <= hi);
}
