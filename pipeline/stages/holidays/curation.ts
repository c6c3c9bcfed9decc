/**
 * Reads sources/holidays/<CC>/: everything refdata adds to or corrects in the upstream projections, one
 * folder per country (format and worked examples: sources/holidays/README.md). Every row is checked and
 * every row cites acts of its folder's citations.csv by id; a bad row fails the build with its file, line
 * and what is wrong, before the long ingest.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LOCATION_CODE_RE } from '../../../lib/location-code.js';
import { parseDate, WEEKDAYS } from '../../../lib/plain-date.js';
import { orderWorkweek } from '../../../lib/workweek.js';
import type { Citation, Holiday } from '../../../lib/schema-types.js';
import { checkUrl, readCsv, SOURCE_URL_RE } from '../read-csv.js';
import { CLOSES, DAY_TYPES, sortTypes, type DayType } from './record.js';

export const HEADERS = {
  citations: 'id,title,number,issuer,date,url,archive_url,note',
  days: 'location,date,kind,name,local_name,ref_date,closes,replaces,citation,note',
  years: 'location,year,citation,note',
  rules: 'location,rule,name,local_name,type,closes,replaces,since,until,citation,note',
  corrections: 'location,action,holiday,value,since,until,citation,note',
  workweeks: 'location,from,until,workweek,citation,note',
  sources: 'location,source,since,until,why,citation',
} as const;
export type CurationFile = keyof typeof HEADERS;

/** A dated row: a day off or a working day a published schedule or act names. */
export interface DayRow {
  location: string;
  date: string;
  kind: 'holiday' | 'transferred' | 'working_day';
  name: string;
  localName: string;
  /** transferred: the day it came from; working_day: the day off it pays for; null when the act does not say. */
  refDate: string | null;
  /** Day types a day off closes, or for which a working day is one. */
  closes: DayType[];
  /** In a year that is not complete: the upstream holiday whose projected dates (within 15 days) this row replaces. */
  replaces: string | null;
  /** A substitute under a standing rule (Korea's 대체공휴일, Japan's 振替休日), with the date it replaces. */
  substituteFor?: string;
  citations: string[];
  where: string;
}

/** A location-year whose schedule is complete: its days off and working days are exactly the rows. */
export interface YearRow {
  location: string;
  year: number;
  citations: string[];
  where: string;
}

/** A holiday given by a date-holidays rule expression, for every year from `since` to `until`. */
export interface RuleRow {
  location: string;
  /** Written `=CA`: the row applies to that location only, not to its subdivisions and regions. */
  only: boolean;
  rule: string;
  name: string;
  localName: string;
  type: Holiday['type'];
  closes: DayType[];
  /** The upstream holiday (English name) whose rows in the rule's years the rule replaces. */
  replaces: string | null;
  since: string | null;
  until: string | null;
  citations: string[];
  where: string;
}

export const ACTIONS = ['remove', 'rename', 'not-a-day-off', 'introduced', 'observe-sunday-on-monday', 'substitute-next-working-day'] as const;

/** An edit of the upstream projection's rows named `holiday`, on the dates from `since` to `until`. */
export interface CorrectionRow {
  location: string;
  /** Written `=CA`: the row applies to that location only, not to its subdivisions and regions. */
  only: boolean;
  action: (typeof ACTIONS)[number];
  holiday: string;
  /** rename: the new English name; remove: an optional month-day (MM-DD) the removal is limited to. */
  value: string;
  since: string | null;
  until: string | null;
  citations: string[];
  where: string;
}

export interface WorkweekCurationRow {
  location: string;
  from: string | null;
  until: string | null;
  workweek: string[];
  citations: string[];
  where: string;
}

/** A decision of sources.csv: which source's projection a location's years are built from. */
export interface SourceRow {
  location: string;
  source: 'date-holidays' | 'python-holidays';
  /** First and last year (inclusive), null = open. */
  since: number | null;
  until: number | null;
  why: string;
  citations: string[];
  where: string;
}

export interface Curation {
  /** Every citation by its full id (`CC/id`). */
  citations: Map<string, Citation>;
  days: DayRow[];
  years: YearRow[];
  rules: RuleRow[];
  corrections: CorrectionRow[];
  workweeks: WorkweekCurationRow[];
  sources: SourceRow[];
  /** Places with no population of their own (no-population.csv): no holiday data is published for them. */
  noPopulation: Map<string, { url: string; note: string }>;
}

const KINDS = new Set(['holiday', 'transferred', 'working_day']);
const LOCAL_ID = /^[a-z0-9][a-z0-9._-]*$/;

/** `YYYY` (the whole year) or `YYYY-MM-DD`, as the first or last date it covers; null when empty. */
export function boundOf(text: string, edge: 'since' | 'until', where: string): string | null {
  if (text === '') return null;
  if (/^\d{4}$/.test(text)) return edge === 'since' ? `${text}-01-01` : `${text}-12-31`;
  if (parseDate(text) === undefined) throw new Error(`${where}: ${edge} must be YYYY or YYYY-MM-DD, got "${text}"`);
  return text;
}

/**
 * The day types a `closes` cell names; empty means what the type closes (all three for a day off). `none` (rules
 * only) is a holiday that closes nothing: a law's holiday while a suspension holds (Ukraine under martial law), listed
 * by name as the suspended holidays are.
 */
function closesOf(text: string, fallback: readonly DayType[], where: string, allowNone = false): DayType[] {
  if (text === '') return [...fallback];
  if (text === 'none') {
    if (!allowNone) throw new Error(`${where}: closes "none" is for rules.csv only (a day off in days.csv closes at least one day type)`);
    return [];
  }
  const list = text.split(/\s+/);
  for (const t of list) if (!(DAY_TYPES as readonly string[]).includes(t)) throw new Error(`${where}: unknown day type "${t}" in closes`);
  return sortTypes(list as DayType[]);
}

/** Reads one country folder; `cited` collects the full ids its rows cite. */
function readFolder(dir: string, cc: string, out: Curation, cited: Map<string, string>): void {
  const file = (name: CurationFile) => join(dir, `${name}.csv`);
  const rows = (name: CurationFile) => (existsSync(file(name)) ? readCsv(file(name), HEADERS[name]) : []);
  const location = (code: string, where: string) => {
    if (!LOCATION_CODE_RE.test(code) || code.slice(0, 2) !== cc) throw new Error(`${where}: location "${code}" must be ${cc} or one of its region codes`);
    return code;
  };
  // Rules and corrections apply to a location and the codes under it; `=CA` limits one to the location itself (a
  // federal rule of Canada's that the provinces' statutes do not share).
  const onlyLocation = (code: string, where: string) => (code.startsWith('=') ? { location: location(code.slice(1), where), only: true } : { location: location(code, where), only: false });
  const date = (text: string, column: string, where: string) => {
    if (parseDate(text) === undefined) throw new Error(`${where}: ${column} must be a date YYYY-MM-DD, got "${text}"`);
    return text;
  };
  const cites = (text: string, where: string) => {
    const ids = text.split(/\s+/).filter(Boolean);
    if (ids.length === 0) throw new Error(`${where}: citation is empty (every row cites an act of citations.csv by id)`);
    return ids.map((id) => {
      const full = id.includes('/') ? id : `${cc}/${id}`;
      if (!cited.has(full)) cited.set(full, where);
      return full;
    });
  };
  const range = (row: Record<string, string>, where: string) => {
    const since = boundOf(row.since, 'since', where);
    const until = boundOf(row.until, 'until', where);
    if (since && until && until < since) throw new Error(`${where}: until ${until} is before since ${since}`);
    return { since, until };
  };

  for (const { row, where } of rows('citations')) {
    if (!LOCAL_ID.test(row.id)) throw new Error(`${where}: id "${row.id}" must be lower-case letters, digits, '.', '_' or '-'`);
    const id = `${cc}/${row.id}`;
    if (out.citations.has(id)) throw new Error(`${where}: citation id ${row.id} is listed twice`);
    if (!row.title) throw new Error(`${where}: title is empty`);
    if (row.date) date(row.date, 'date', where);
    if (row.url) checkUrl(row.url, where, 'url');
    if (row.archive_url) checkUrl(row.archive_url, where, 'archive_url');
    out.citations.set(id, {
      id,
      title: row.title,
      number: row.number || null,
      issuer: row.issuer || null,
      date: row.date || null,
      url: row.url, // checked when cited: an act still without an address may be listed, not cited
      archive_url: row.archive_url || null,
    });
  }
  for (const { row, where } of rows('days')) {
    if (!KINDS.has(row.kind)) throw new Error(`${where}: kind must be holiday, transferred or working_day, got "${row.kind}"`);
    if (!row.name || !row.local_name) throw new Error(`${where}: name and local_name are required`);
    if (row.ref_date) date(row.ref_date, 'ref_date', where);
    if (row.kind === 'holiday' && row.ref_date) throw new Error(`${where}: ref_date is only for transferred days and working days`);
    if (row.kind === 'working_day' && row.replaces) throw new Error(`${where}: a working day replaces nothing`);
    out.days.push({
      location: location(row.location, where),
      date: date(row.date, 'date', where),
      kind: row.kind as DayRow['kind'],
      name: row.name,
      localName: row.local_name,
      refDate: row.ref_date || null,
      closes: closesOf(row.closes, DAY_TYPES, where),
      replaces: row.replaces || null,
      citations: cites(row.citation, where),
      where,
    });
  }
  for (const { row, where } of rows('years')) {
    if (!/^\d{4}$/.test(row.year)) throw new Error(`${where}: year must be YYYY, got "${row.year}"`);
    out.years.push({ location: location(row.location, where), year: Number(row.year), citations: cites(row.citation, where), where });
  }
  for (const { row, where } of rows('rules')) {
    if (!(row.type in CLOSES)) throw new Error(`${where}: type must be public, bank or government, got "${row.type}"`);
    if (!row.rule || !row.name || !row.local_name) throw new Error(`${where}: rule, name and local_name are required`);
    if (/\band if\b/.test(row.rule)) throw new Error(`${where}: write a holiday and its substitute day as two rules (the second "substitutes …"), each with its own name`);
    const type = row.type as Holiday['type'];
    out.rules.push({
      ...onlyLocation(row.location, where),
      rule: row.rule,
      name: row.name,
      localName: row.local_name,
      type,
      closes: closesOf(row.closes, CLOSES[type], where, true),
      replaces: row.replaces || null,
      ...range(row, where),
      citations: cites(row.citation, where),
      where,
    });
  }
  for (const { row, where } of rows('corrections')) {
    const action = row.action as CorrectionRow['action'];
    if (!ACTIONS.includes(action)) throw new Error(`${where}: action must be one of ${ACTIONS.join(', ')}, got "${row.action}"`);
    if (!row.holiday) throw new Error(`${where}: holiday (the upstream English name) is required`);
    if (action === 'rename' && !row.value) throw new Error(`${where}: rename needs the new English name in value`);
    if (action === 'remove' && row.value && !/^\d{2}-\d{2}$/.test(row.value)) throw new Error(`${where}: the value of a remove is the month-day (MM-DD) it is limited to, got "${row.value}"`);
    if (action !== 'rename' && action !== 'remove' && row.value) throw new Error(`${where}: value is only for rename and remove`);
    const r = range(row, where);
    if (action === 'introduced' && (!r.since || r.until)) throw new Error(`${where}: introduced takes the first date in since and no until`);
    out.corrections.push({ ...onlyLocation(row.location, where), action, holiday: row.holiday, value: row.value, ...r, citations: cites(row.citation, where), where });
  }
  for (const { row, where } of rows('workweeks')) {
    const names = row.workweek.split(/\s+/).filter(Boolean);
    for (const n of names) if (!(WEEKDAYS as readonly string[]).includes(n)) throw new Error(`${where}: bad weekday "${n}"`);
    const from = row.from ? date(row.from, 'from', where) : null;
    const until = row.until ? date(row.until, 'until', where) : null;
    if (from && until && until < from) throw new Error(`${where}: until before from`);
    out.workweeks.push({ location: location(row.location, where), from, until, workweek: orderWorkweek(names), citations: cites(row.citation, where), where });
  }
  for (const { row, where } of rows('sources')) {
    if (row.source !== 'date-holidays' && row.source !== 'python-holidays') throw new Error(`${where}: source must be date-holidays or python-holidays, got "${row.source}"`);
    const year = (text: string, column: string) => {
      if (text === '') return null;
      if (!/^\d{4}$/.test(text)) throw new Error(`${where}: ${column} must be a year YYYY, got "${text}"`);
      return Number(text);
    };
    const since = year(row.since, 'since');
    const until = year(row.until, 'until');
    if (since !== null && until !== null && until < since) throw new Error(`${where}: until before since`);
    if (row.why.length < 20) throw new Error(`${where}: why must say why this source is authoritative here`);
    out.sources.push({ location: location(row.location, where), source: row.source, since, until, why: row.why, citations: cites(row.citation, where), where });
  }
}

/** Rows of one series this long or longer that cite the same acts are a rule written out as dates. */
export const SERIES_YEARS = 5;

/**
 * Fails on a dated series that could be a rule: the same holiday added (days.csv) or corrected on single
 * dates (corrections.csv) in five or more years under the same citations. Dates that really are dated pass:
 * each year's decree or announcement cites a different act; a day of a complete year (years.csv) is part of
 * that year's published schedule; an announced date that `replaces` a projected one (a moon sighting) is one.
 */
export function checkDatedSeries(c: Curation): void {
  const complete = new Set(c.years.map((y) => `${y.location}/${y.year}`));
  const series = new Map<string, { years: Set<string>; where: string }>();
  const add = (key: string, date: string, where: string) => {
    const s = series.get(key) ?? { years: new Set<string>(), where };
    s.years.add(date.slice(0, 4));
    series.set(key, s);
  };
  for (const d of c.days) if (d.kind === 'holiday' && !d.replaces && !complete.has(`${d.location}/${d.date.slice(0, 4)}`)) add(`${d.location} adds "${d.name}" citing ${d.citations.join(' ')}`, d.date, d.where);
  for (const r of c.corrections) {
    if (r.since !== null && r.since === r.until) add(`${r.location} ${r.action} "${r.holiday}" citing ${r.citations.join(' ')}`, r.since, r.where);
  }
  const found = [...series].filter(([, s]) => s.years.size >= SERIES_YEARS);
  if (found.length) {
    throw new Error(
      `dated series that could be rules (write one row in rules.csv, or one correction with since/until, that holds for every year it is true):\n  ` +
        found.map(([key, s]) => `${s.where}: ${key}, in ${s.years.size} years (${[...s.years].sort().join(', ')})`).join('\n  '),
    );
  }
}

/** Every country folder under `dir` (sources/holidays). */
export function loadCuration(dir: string): Curation {
  const out: Curation = { citations: new Map(), days: [], years: [], rules: [], corrections: [], workweeks: [], sources: [], noPopulation: new Map() };
  const cited = new Map<string, string>();
  for (const cc of readdirSync(dir).sort()) {
    if (!/^[A-Z]{2}$/.test(cc)) continue;
    readFolder(join(dir, cc), cc, out, cited);
  }
  for (const [id, where] of cited) citedAct(out.citations, id, where);
  checkDatedSeries(out);
  const noPopulation = join(dir, 'no-population.csv');
  if (existsSync(noPopulation)) {
    for (const { row, where } of readCsv(noPopulation, 'location,url,note')) {
      if (!/^[A-Z]{2}$/.test(row.location) || out.noPopulation.has(row.location)) throw new Error(`${where}: location must be a country code, once`);
      out.noPopulation.set(row.location, { url: checkUrl(row.url, where, 'url'), note: row.note });
    }
  }
  return out;
}

/**
 * The act a row cites: listed in a citations.csv and with an address. The one check of a citation, for the
 * curated rows, the package calendars and the year files alike.
 */
export function citedAct(citations: ReadonlyMap<string, Citation>, id: string, where: string): Citation {
  const c = citations.get(id);
  if (!c) throw new Error(`${where}: cites ${id}, which no citations.csv lists`);
  if (!SOURCE_URL_RE.test(c.url)) throw new Error(`${where}: cites ${id}, whose url must be an http(s) URL, got "${c.url}" (an act may be listed without one, not cited)`);
  return c;
}
