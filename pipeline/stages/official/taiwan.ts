/**
 * Taiwan's office calendar of the central government agencies (中華民國政府行政機關辦公日曆表), published
 * each year by the Directorate-General of Personnel Administration (DGPA) as open data (data.gov.tw
 * dataset 14718), copied to sources/holidays/TW/dgpa/ (see its SOURCE.md). A weekday with
 * isHoliday is a day off; a Saturday or Sunday without it is a make-up working day (補行上班 / 調整上班).
 *
 * The years in COMPLETE are complete as stored. 2025 is not: the stored file predates the May 2025
 * amendment of the Act on the Implementation of Commemorative Days and Holidays, whose three added days
 * off the DGPA put into its revised 2025 calendar; sources/holidays/TW/days.csv adds them and
 * TW/years.csv declares 2025 complete with that revision.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatDate, parseDate, weekdayIndex } from '../../../lib/plain-date.js';
import { DAY_TYPES } from '../holidays/record.js';
import type { DayRow, OfficialData } from './types.js';

const COMPLETE = new Set([2017, 2018, 2019, 2020, 2021, 2022, 2023, 2024]);

const ENGLISH: Record<string, string> = {
  開國紀念日: 'Founding of the Republic of China',
  農曆除夕: "Chinese New Year's Eve",
  小年夜: "Day before Chinese New Year's Eve",
  春節: 'Chinese New Year',
  和平紀念日: 'Peace Memorial Day',
  兒童節: "Children's Day",
  民族掃墓節: 'Tomb Sweeping Day',
  兒童節及民族掃墓節: "Children's Day and Tomb Sweeping Day",
  端午節: 'Dragon Boat Festival',
  中秋節: 'Mid-Autumn Festival',
  國慶日: 'National Day',
};

interface DgpaDay {
  date: string;
  week: string;
  isHoliday: boolean;
  description: string;
}

/** Each year's calendar (sources/holidays/TW/citations.csv). */
const citation = (year: number) => `TW/dgpa-${year}`;

export function loadTaiwan(dir: string): OfficialData {
  const data: OfficialData = { rows: [], years: [] };
  for (const file of readdirSync(dir).filter((f) => /^\d{4}\.json$/.test(f)).sort()) {
    const year = Number(file.slice(0, 4));
    const source = citation(year);
    const days = JSON.parse(readFileSync(join(dir, file), 'utf8')) as DgpaDay[];
    const named = new Set(days.filter((d) => d.isHoliday && d.description && d.description !== '補假').map((d) => d.date));
    for (const d of days) {
      const date = `${d.date.slice(0, 4)}-${d.date.slice(4, 6)}-${d.date.slice(6, 8)}`;
      const day = parseDate(date);
      if (day === undefined || Number(date.slice(0, 4)) !== year) throw new Error(`${dir}/${file}: bad date ${d.date}`);
      const weekend = weekdayIndex(day) >= 5;
      if ((d.week === '六' || d.week === '日') !== weekend) throw new Error(`${dir}/${file}: ${d.date} is not a ${d.week}`);
      const base = { location: 'TW', date, localName: d.description, refDate: null, closes: [...DAY_TYPES], replaces: null, citations: [source], where: `${dir}/${file} ${d.date}` };
      let row: DayRow | undefined;
      if (weekend && !d.isHoliday) {
        if (!/上班/.test(d.description)) throw new Error(`${dir}/${file}: weekend working day ${d.date} without a 上班 description`);
        row = { ...base, kind: 'working_day', name: 'Adjusted day off', localName: d.description };
      } else if (d.isHoliday && d.description) {
        if (d.description === '補假') {
          // A substitute day off for a holiday that fell on a weekend: the nearest earlier holiday within a week.
          let back = day - 1;
          while (back > day - 8 && !(named.has(formatDate(back).replaceAll('-', '')) && weekdayIndex(back) >= 5)) back--;
          const substituteFor = back > day - 8 ? formatDate(back) : undefined;
          row = { ...base, kind: 'holiday', name: 'Substitute day off', ...(substituteFor ? { substituteFor } : {}) };
        } else if (d.description === '調整放假' || d.description === '放假') {
          row = { ...base, kind: 'transferred', name: 'Adjusted day off' };
        } else {
          const name = ENGLISH[d.description];
          if (!name) throw new Error(`${dir}/${file}: no English name for "${d.description}" (${d.date}); add it to pipeline/stages/official/taiwan.ts`);
          row = { ...base, kind: 'holiday', name };
        }
      } else if (!weekend && d.isHoliday) {
        throw new Error(`${dir}/${file}: weekday day off ${d.date} without a description`);
      }
      if (row) data.rows.push(row);
    }
    if (COMPLETE.has(year)) data.years.push({ location: 'TW', year, citations: [source], where: `${dir}/${file}` });
  }
  return data;
}
