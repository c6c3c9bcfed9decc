/**
 * Japan's national holidays from the Cabinet Office's list (内閣府「国民の祝日について」, syukujitsu.csv,
 * 1955 to next year), through the npm package japanese-public-holidays (MIT), which republishes that CSV
 * unchanged. "休日" in the CSV is either a substitute holiday (振替休日: the day after a holiday that fell
 * on a Sunday, or after a run of holidays starting on one) or a citizens' holiday (国民の休日: a day
 * between two holidays); we tell them apart by that rule of the National Holidays Act art. 3.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { formatDate, parseDate, weekdayIndex } from '../../../lib/plain-date.js';
import { DAY_TYPES } from '../holidays/record.js';
import type { OfficialData } from './types.js';

const require = createRequire(import.meta.url);
/** 内閣府「国民の祝日について」 (sources/holidays/JP/citations.csv). */
const CABINET_OFFICE = 'JP/cao-shukujitsu';

const ENGLISH: Record<string, string> = {
  元日: "New Year's Day",
  成人の日: 'Coming of Age Day',
  建国記念の日: 'National Foundation Day',
  天皇誕生日: "Emperor's Birthday",
  春分の日: 'Vernal Equinox Day',
  昭和の日: 'Showa Day',
  憲法記念日: 'Constitution Memorial Day',
  みどりの日: 'Greenery Day',
  こどもの日: "Children's Day",
  海の日: 'Marine Day',
  山の日: 'Mountain Day',
  敬老の日: 'Respect for the Aged Day',
  秋分の日: 'Autumnal Equinox Day',
  体育の日: 'Health and Sports Day',
  'スポーツの日': 'Sports Day',
  '体育の日（スポーツの日）': 'Health and Sports Day',
  文化の日: 'Culture Day',
  勤労感謝の日: 'Labor Thanksgiving Day',
  天皇の即位の日: 'Day of the Enthronement of the Emperor',
  即位礼正殿の儀が行われる日: 'Enthronement Ceremony Day',
  即位礼正殿の儀: 'Enthronement Ceremony Day',
  '休日（祝日扱い）': 'National holiday (enthronement year)',
  結婚の儀: 'Imperial wedding',
  大喪の礼: 'Imperial funeral',
};

export function loadJapan(firstYear: number): OfficialData & { versions: Record<string, string> } {
  // The package exports neither package.json nor index.csv: find its folder from the main entry.
  const dir = dirname(require.resolve('japanese-public-holidays'));
  const version = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const csv = readFileSync(join(dir, 'index.csv'), 'utf8').trim().split(/\r?\n/).slice(1);
  const names = new Map(csv.map((l) => l.split(',') as [string, string]));
  const data: OfficialData & { versions: Record<string, string> } = { rows: [], years: [], versions: { 'japanese-public-holidays': version } };
  const years = new Set<number>();
  for (const [date, jp] of names) {
    const year = Number(date.slice(0, 4));
    if (year < firstYear) continue;
    years.add(year);
    const day = parseDate(date)!;
    let name = ENGLISH[jp];
    let substituteFor: string | undefined;
    if (jp === '休日') {
      // Walk back over the run of holidays before this day: a run that starts on a Sunday makes it a substitute.
      let d = day - 1;
      while (names.has(formatDate(d)) && weekdayIndex(d) !== 6) d--;
      if (names.has(formatDate(d)) && weekdayIndex(d) === 6) {
        name = 'Substitute holiday';
        substituteFor = formatDate(d);
      } else name = "Citizens' holiday";
    }
    if (!name) throw new Error(`Japan ${date}: no English name for "${jp}" (add it to pipeline/stages/official/japan.ts)`);
    data.rows.push({
      location: 'JP',
      date,
      kind: 'holiday',
      name,
      localName: jp === '休日' ? (substituteFor ? '振替休日' : '国民の休日') : jp,
      refDate: null,
      closes: [...DAY_TYPES],
      replaces: null,
      ...(substituteFor ? { substituteFor } : {}),
      citations: [CABINET_OFFICE],
      where: `japanese-public-holidays ${version} ${date}`,
    });
  }
  for (const year of [...years].sort()) data.years.push({ location: 'JP', year, citations: [CABINET_OFFICE], where: `japanese-public-holidays ${version} ${year}` });
  return data;
}
