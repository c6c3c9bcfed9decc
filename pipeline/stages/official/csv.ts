/**
 * Reads the hand-curated official calendars: sources/official-calendars/<CC>/days.csv and years.csv
 * (format in sources/official-calendars/SOURCE.md). Every row is checked; a bad one fails the build
 * with the file, the line and what is wrong.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseDate } from '../../../lib/plain-date.js';
import type { Citation } from '../../../lib/schema-types.js';
import { readCsv } from '../read-csv.js';
import { ALL_TYPES, type DayType, type OfficialData, type OfficialRow } from './types.js';

export { readCsv };

export const DAYS_HEADER = 'location,date,kind,name,local_name,ref_date,closes,replaces,source_title,source_number,source_date,source_url,note';
export const YEARS_HEADER = 'location,year,source_title,source_number,source_date,source_url,note';
const KINDS = new Set(['holiday', 'transferred', 'working_day']);
const LOCATION_RE = /^[A-Z]{2}(-[A-Z0-9]{1,3}){0,2}$/;

/** The citation columns of a row; fails when the title or the URL is missing or a date is malformed. */
export function citationOf(row: Record<string, string>, where: string): Citation {
  if (!row.source_title) throw new Error(`${where}: source_title is empty`);
  if (!/^https?:\/\/\S+$/.test(row.source_url ?? '')) throw new Error(`${where}: source_url must be an http(s) URL, got "${row.source_url ?? ''}"`);
  if (row.source_date && parseDate(row.source_date) === undefined) throw new Error(`${where}: bad source_date "${row.source_date}"`);
  return { title: row.source_title, number: row.source_number || null, date: row.source_date || null, url: row.source_url };
}

function dayTypes(text: string, where: string): DayType[] {
  if (text === '') return [...ALL_TYPES];
  const list = text.split(/\s+/);
  for (const t of list) if (!(ALL_TYPES as readonly string[]).includes(t)) throw new Error(`${where}: unknown day type "${t}" in closes`);
  return ALL_TYPES.filter((t) => list.includes(t));
}

function readDays(path: string, folder: string): OfficialRow[] {
  return readCsv(path, DAYS_HEADER).map(({ line, row }) => {
    const where = `${path} line ${line}`;
    if (!LOCATION_RE.test(row.location) || row.location.slice(0, 2) !== folder) throw new Error(`${where}: location "${row.location}" must be ${folder} or one of its region codes`);
    if (parseDate(row.date) === undefined) throw new Error(`${where}: bad date "${row.date}"`);
    if (!KINDS.has(row.kind)) throw new Error(`${where}: kind must be holiday, transferred or working_day, got "${row.kind}"`);
    if (!row.name || !row.local_name) throw new Error(`${where}: name and local_name are required`);
    if (row.ref_date && parseDate(row.ref_date) === undefined) throw new Error(`${where}: bad ref_date "${row.ref_date}"`);
    if (row.kind === 'holiday' && row.ref_date) throw new Error(`${where}: ref_date is only for transferred days and working days`);
    if (row.kind === 'working_day' && row.replaces) throw new Error(`${where}: a working day replaces nothing`);
    return {
      location: row.location,
      date: row.date,
      kind: row.kind as OfficialRow['kind'],
      name: row.name,
      localName: row.local_name,
      refDate: row.ref_date || null,
      closes: dayTypes(row.closes, where),
      replaces: row.replaces || null,
      source: citationOf(row, where),
      where,
    };
  });
}

/** Every country folder's days.csv and years.csv under `dir`. */
export function loadCuratedCalendars(dir: string): OfficialData {
  const data: OfficialData = { rows: [], years: [] };
  for (const folder of readdirSync(dir).filter((f) => /^[A-Z]{2}$/.test(f)).sort()) {
    const days = join(dir, folder, 'days.csv');
    const years = join(dir, folder, 'years.csv');
    if (existsSync(days)) data.rows.push(...readDays(days, folder));
    if (existsSync(years)) {
      for (const { line, row } of readCsv(years, YEARS_HEADER)) {
        const where = `${years} line ${line}`;
        if (!LOCATION_RE.test(row.location) || row.location.slice(0, 2) !== folder) throw new Error(`${where}: location "${row.location}" must be ${folder} or one of its region codes`);
        if (!/^\d{4}$/.test(row.year)) throw new Error(`${where}: bad year "${row.year}"`);
        data.years.push({ location: row.location, year: Number(row.year), sources: [citationOf(row, where)] });
      }
    }
  }
  return data;
}
