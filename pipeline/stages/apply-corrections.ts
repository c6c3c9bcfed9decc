/**
 * Stage: apply sources/holiday-corrections/*.csv, the cited fixes to
 * date-holidays (missing substitute days, wrong substitutes, announced
 * one-off closures, commemorations that are not days off, better English
 * names). Fails when a row matches nothing.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatDate, parseDate, weekdayName } from '../../lib/plain-date.js';
import type { Holiday } from '../../lib/schema-types.js';
import { compareHolidays, type IngestedLocation } from './ingest-holidays.js';
import { readCsv } from './read-csv.js';

export interface Correction {
  location: string;
  action: 'add' | 'remove' | 'rename' | 'observe-sunday-on-monday' | 'add-day-before' | 'not-a-day-off' | 'since';
  date: string;
  type: Holiday['type'];
  name: string;
  new_name: string;
  source: string;
  note: string;
}

const ACTIONS = new Set(['add', 'remove', 'rename', 'observe-sunday-on-monday', 'add-day-before', 'not-a-day-off', 'since']);
const HEADER = 'location,action,date,type,name,new_name,source,note';

/** Every *.csv of the folder, in name order (one file per curator: corrections.csv, g20-observances.csv …). */
export function loadCorrectionsDir(dir: string): Correction[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.csv'))
    .sort()
    .flatMap((f) => loadCorrections(join(dir, f)));
}
const CLOSES: Record<Holiday['type'], Holiday['closes']> = {
  public: ['business', 'banking', 'government'],
  bank: ['banking'],
  government: ['government'],
};

export function loadCorrections(csvPath: string): Correction[] {
  const records = readCsv(csvPath, HEADER);
  const rows = records.map(({ row }) => row as unknown as Correction);
  records.forEach(({ line }, i) => {
    const r = rows[i];
    const where = `${csvPath} line ${line}`;
    if (!ACTIONS.has(r.action)) throw new Error(`${where}: unknown action "${r.action}"`);
    if (!(r.type in CLOSES)) throw new Error(`${where}: bad type "${r.type}"`);
    if (r.date !== '' && parseDate(r.date) === undefined) throw new Error(`${where}: bad date "${r.date}"`);
    if ((r.action === 'add' || r.action === 'since') && r.date === '') throw new Error(`${where}: ${r.action} needs a date`);
    if ((r.action === 'rename' || r.action === 'add-day-before') && !r.new_name) throw new Error(`${where}: ${r.action} needs new_name`);
    if (!/^https?:\/\//.test(r.source)) throw new Error(`${where}: every correction needs a source URL`);
  });
  return rows;
}

function newHoliday(date: string, name: string, type: Holiday['type'], observedFor: string | null, basis: Holiday['basis']): Holiday {
  // An added row cites an official act (an executive order, an announcement): its basis is official.
  // A row a standing rule derives (observe-sunday-on-monday, add-day-before) is a projection.
  return {
    date,
    name,
    local_name: name,
    type,
    closes: [...CLOSES[type]],
    substitute: observedFor !== null,
    observed_for: observedFor,
    transferred: false,
    transferred_from: null,
    basis: basis,
    partial: false,
  };
}

/** Applies one correction in place; returns how many rows it touched. */
function applyOne(holidays: Holiday[], c: Correction): number {
  if (c.action === 'since') {
    // A holiday introduced on `date`: date-holidays projects its rule backwards; drop the rows before.
    const before = holidays.filter((h) => h.name === c.name && h.date < c.date);
    for (const h of before) holidays.splice(holidays.indexOf(h), 1);
    return before.length;
  }
  const matches = holidays.filter((h) => h.name === c.name && (c.date === '' || h.date === c.date));
  switch (c.action) {
    case 'add':
      holidays.push(newHoliday(c.date, c.name, c.type, null, 'official'));
      return 1;
    case 'remove':
      for (const h of matches) holidays.splice(holidays.indexOf(h), 1);
      return matches.length;
    case 'rename':
      for (const h of matches) h.name = c.new_name;
      return matches.length;
    case 'not-a-day-off':
      // A commemoration or observance: listed, but it closes no day type.
      for (const h of matches) h.closes = [];
      return matches.length;
    case 'observe-sunday-on-monday': {
      let n = 0;
      for (const h of matches) {
        const day = parseDate(h.date)!;
        if (weekdayName(day) !== 'sunday') continue;
        holidays.push(newHoliday(formatDate(day + 1), `${h.name} (observed)`, c.type, h.date, 'rules'));
        n++;
      }
      return matches.length > 0 ? Math.max(n, 1) : 0;
    }
    case 'add-day-before': {
      const dates = new Set(matches.map((h) => h.date));
      let n = 0;
      for (const d of [...dates].sort()) {
        const before = formatDate(parseDate(d)! - 1);
        if (dates.has(before)) continue; // not the first day of a multi-day holiday
        holidays.push(newHoliday(before, c.new_name, c.type, null, 'rules'));
        n++;
      }
      return n;
    }
  }
}

/** Applies every correction for this location (rows on its country or state included). */
export function applyCorrections(loc: IngestedLocation, corrections: Correction[], used: Set<Correction>): void {
  const code = loc.target.location;
  for (const c of corrections) {
    if (code !== c.location && !code.startsWith(`${c.location}-`)) continue;
    if (applyOne(loc.holidays, c) > 0) used.add(c);
  }
  loc.holidays.sort(compareHolidays);
}

/** Throws when a correction matched nothing in the location it names. */
export function checkAllUsed(corrections: Correction[], used: Set<Correction>): void {
  const unused = corrections.filter((c) => !used.has(c));
  if (unused.length) throw new Error(`corrections that matched nothing (upstream changed?):\n  ${unused.map((c) => `${c.location} ${c.action} ${c.date} ${c.name}`).join('\n  ')}`);
}
