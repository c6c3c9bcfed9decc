/**
 * Stage: read every country, state and sub-region that date-holidays knows and
 * turn its public and bank holidays into one row per local calendar date.
 */
import Holidays from 'date-holidays';
import type { Holiday } from '../../lib/schema-types.js';
import { daysFromCivil, formatDate, parseDate } from '../../lib/plain-date.js';

export interface Target {
  location: string;
  name: string;
  kind: 'country' | 'state' | 'region';
  country: string;
  parent: string | null;
  args: string[];
  timezone: string;
  localLanguage: string;
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

interface RawRow {
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

/** Holidays of one target for the given years, one row per local date. */
export function ingestTarget(target: Target, years: number[]): IngestedLocation {
  const [c, s, r] = target.args;
  // getHolidays(year, lang) changes an instance's language: one instance per language.
  // English names in the location's own English where it has one ("Labor Day" in en-us).
  const enLang = target.localLanguage.startsWith('en') ? target.localLanguage : 'en';
  const en = new Holidays(c, s, r);
  const local = enLang === target.localLanguage ? en : new Holidays(c, s, r);
  const out: Holiday[] = [];
  const seen = new Set<string>();
  for (const year of years) {
    const enRows = rowsOf(en, year, enLang);
    const localRows = local === en ? enRows : rowsOf(local, year, target.localLanguage);
    if (localRows.length !== enRows.length) throw new Error(`${target.location} ${year}: language row counts differ`);
    enRows.forEach((row, i) => {
      const type = row.type as 'public' | 'bank';
      for (const piece of expandRow(row.date, row.end.getTime() - row.start.getTime())) {
        const date = formatDate(piece.day);
        const key = `${date}|${type}|${row.name}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const holiday: Holiday = {
          date,
          name: row.name,
          local_name: localRows[i].name,
          type,
          closes: piece.partial ? [] : type === 'public' ? ['business', 'banking', 'government'] : ['banking'],
          substitute: row.substitute === true,
          observed_for: null,
          transferred: false,
          transferred_from: null,
          basis: 'rules',
          partial: piece.partial,
        };
        if (piece.partial) {
          holiday.start_time = hhmm(piece.from);
          holiday.end_time = hhmm(piece.to);
        }
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
