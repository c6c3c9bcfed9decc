/**
 * China's State Council schedules (国务院办公厅关于…年部分节假日安排的通知), 2004 to the latest
 * published year, from the npm package chinese-days (MIT; days off, make-up working days and the days
 * off in lieu), cross-checked day by day against holiday-calendar (MIT, same notices transcribed
 * independently). A day on which the two disagree fails the build unless
 * sources/holidays/CN/package-disagreements.csv settles it from the notice's text. A year is served as
 * official only when sources/holidays/CN/years.csv lists it with the notice(s) it cites; the package's
 * rows of other years are not used.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parseDate, weekdayIndex } from '../../../lib/plain-date.js';
import type { Curation } from '../holidays/curation.js';
import { DAY_TYPES } from '../holidays/record.js';
import { readCsv } from '../read-csv.js';
import type { DayRow, OfficialData } from './types.js';

const require = createRequire(import.meta.url);
const DISAGREEMENTS_HEADER = 'date,chinese_days,holiday_calendar,verdict,note';

interface ChineseDays {
  holidays: Record<string, string>;
  workdays: Record<string, string>;
  inLieuDays: Record<string, string>;
}
interface HolidayCalendarYear {
  dates: { date: string; name_en: string; type: 'public_holiday' | 'transfer_workday' }[];
}

type Status = 'open' | 'closed';
const weekend = (date: string) => weekdayIndex(parseDate(date)!) >= 5;
function statusOf(date: string, off: Set<string>, work: Set<string>): Status {
  if (work.has(date)) return 'open';
  if (off.has(date)) return 'closed';
  return weekend(date) ? 'closed' : 'open';
}

/** Day-by-day differences between the two packages over the years both cover. */
export function packageDifferences(cd: ChineseDays, hcDir: string, years: number[]): Map<string, [Status, Status]> {
  const hcOff = new Set<string>();
  const hcWork = new Set<string>();
  for (const y of years) {
    const file = join(hcDir, `${y}.json`);
    if (!existsSync(file)) continue;
    for (const d of (JSON.parse(readFileSync(file, 'utf8')) as HolidayCalendarYear).dates) (d.type === 'public_holiday' ? hcOff : hcWork).add(d.date);
  }
  const cdOff = new Set(Object.keys(cd.holidays));
  const cdWork = new Set(Object.keys(cd.workdays));
  const inYears = (d: string) => years.includes(Number(d.slice(0, 4)));
  const out = new Map<string, [Status, Status]>();
  for (const d of [...new Set([...hcOff, ...hcWork, ...cdOff, ...cdWork])].filter(inYears).sort()) {
    const a = statusOf(d, cdOff, cdWork);
    const b = statusOf(d, hcOff, hcWork);
    if (a !== b) out.set(d, [a, b]);
  }
  return out;
}

/** The name of the holiday nearest to `date` (within two weeks), for a row the primary package lacks. */
function nearestName(cd: ChineseDays, date: string): string {
  const day = parseDate(date)!;
  let best: [number, string] | undefined;
  for (const [d, text] of Object.entries(cd.holidays)) {
    const gap = Math.abs(parseDate(d)! - day);
    if (gap <= 14 && (!best || gap < best[0])) best = [gap, text];
  }
  if (!best) throw new Error(`China ${date}: no holiday within two weeks to name it after`);
  return best[1];
}

export function loadChina(dir: string, curation: Curation): OfficialData & { versions: Record<string, string> } {
  const cd = structuredClone(require('chinese-days/dist/chinese-days.json')) as ChineseDays;
  const hcDir = join(dirname(require.resolve('holiday-calendar/package.json')), 'data', 'CN');
  const versions = {
    'chinese-days': (require('chinese-days/package.json') as { version: string }).version,
    'holiday-calendar': (require('holiday-calendar/package.json') as { version: string }).version,
  };
  // The notices of each year that years.csv declares complete; the package's rows cite the first.
  const notices = new Map(curation.years.filter((y) => y.location === 'CN').map((y) => [y.year, y.citations]));
  const years = [...new Set(Object.keys(cd.holidays).map((d) => Number(d.slice(0, 4))))].sort((a, b) => a - b);

  // Fail closed when the two transcriptions disagree on a day nobody has settled from the notice.
  const settled = new Map<string, string>();
  const settledFile = join(dir, 'package-disagreements.csv');
  if (existsSync(settledFile)) for (const { row } of readCsv(settledFile, DISAGREEMENTS_HEADER)) settled.set(row.date, row.verdict);
  const diffs = packageDifferences(cd, hcDir, years);
  const unsettled = [...diffs].filter(([d]) => !settled.has(d));
  if (unsettled.length) {
    throw new Error(
      `China: chinese-days and holiday-calendar disagree on days not settled in ${settledFile}:\n  ` +
        unsettled.map(([d, [a, b]]) => `${d}: chinese-days ${a}, holiday-calendar ${b}`).join('\n  '),
    );
  }
  const stale = [...settled.keys()].filter((d) => !diffs.has(d));
  if (stale.length) throw new Error(`China: ${settledFile} lists days on which the packages now agree: ${stale.join(', ')}`);
  for (const [d, verdict] of settled) if (verdict !== 'chinese-days' && verdict !== 'holiday-calendar') throw new Error(`China ${d}: verdict must be chinese-days or holiday-calendar, got ${verdict}`);
  // Where the notice sides with holiday-calendar, its status replaces chinese-days' on that date.
  for (const [d, verdict] of settled) {
    if (verdict !== 'holiday-calendar') continue;
    const text = cd.holidays[d] ?? cd.workdays[d] ?? nearestName(cd, d);
    delete cd.holidays[d];
    delete cd.workdays[d];
    delete cd.inLieuDays[d];
    const [, theirs] = diffs.get(d)!;
    if (theirs === 'open' && weekend(d)) cd.workdays[d] = text;
    else if (theirs === 'closed' && !weekend(d)) cd.holidays[d] = text;
  }

  const data: OfficialData & { versions: Record<string, string> } = { rows: [], years: [], versions }; // complete years: years.csv's
  const add = (date: string, kind: DayRow['kind'], text: string) => {
    const year = Number(date.slice(0, 4));
    const cites = notices.get(year);
    if (!cites) return;
    const [name, zh] = text.split(',');
    data.rows.push({
      location: 'CN',
      date,
      kind,
      name,
      localName: kind === 'working_day' ? `${zh}调休上班` : zh,
      refDate: null, // the notices do not pair a make-up day with a day off
      closes: [...DAY_TYPES],
      replaces: null,
      citations: [cites[0]],
      where: `chinese-days ${versions['chinese-days']} ${date}`,
    });
  };
  for (const [date, text] of Object.entries(cd.holidays)) add(date, date in cd.inLieuDays ? 'transferred' : 'holiday', text);
  for (const [date, text] of Object.entries(cd.workdays)) add(date, 'working_day', text);
  return data;
}
