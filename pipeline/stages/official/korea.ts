/**
 * South Korea's public holidays 2018 onward from @hyunbinseo/holidays-kr (MIT), a transcription of the
 * official gazette: the Regulations on Holidays of Government Offices (관공서의 공휴일에 관한 규정) as
 * published each year in the almanac (월력요항), with substitute holidays, temporary holidays and
 * election days. Each year cites the regulation (sources/holidays/KR/citations.csv `regulation`); a temporary
 * holiday or an election day cites its own designation when that file lists one with an address
 * (`designation-YYYY-MM-DD`).
 */
import { createRequire } from 'node:module';
import { formatDate, parseDate } from '../../../lib/plain-date.js';
import type { Curation } from '../holidays/curation.js';
import { DAY_TYPES } from '../holidays/record.js';
import type { DayRow, OfficialData } from './types.js';

const require = createRequire(import.meta.url);

/**
 * The standing act: the public holidays, substitute holidays (art. 3), election days (art. 2 no. 9) and
 * the government's power to designate temporary holidays (art. 2 no. 11). Each year's almanac applies it.
 */
const REGULATION = 'KR/regulation';

/** English names of the gazette's Korean names; an unknown name fails the build (fail closed). */
const ENGLISH: Record<string, string> = {
  '1월 1일': "New Year's Day",
  '설날 전날': 'Korean New Year (Seollal) eve',
  설날: 'Korean New Year (Seollal)',
  '설날 다음 날': 'Day after Korean New Year (Seollal)',
  '3ㆍ1절': 'Independence Movement Day',
  노동절: 'Labour Day',
  어린이날: "Children's Day",
  '부처님 오신 날': "Buddha's Birthday",
  현충일: 'Memorial Day',
  제헌절: 'Constitution Day',
  광복절: 'Liberation Day',
  '추석 전날': 'Chuseok eve',
  추석: 'Chuseok',
  '추석 다음 날': 'Day after Chuseok',
  개천절: 'National Foundation Day',
  한글날: 'Hangul Day',
  기독탄신일: 'Christmas Day',
  임시공휴일: 'Temporary public holiday',
  대통령선거: 'Presidential election day',
  '임시공휴일(대통령선거)': 'Temporary public holiday (presidential election day)',
  전국동시지방선거: 'Local elections day',
  '제21대 국회의원선거': 'National Assembly election day',
  제22대국회의원선거: 'National Assembly election day',
};
const SUBSTITUTE = /^대체공휴일\((.+)\)$/;
/** Days off by a one-off designation (a decree), not by the standing list. */
const DESIGNATED = /^임시공휴일/;

export async function loadKorea(curation: Curation): Promise<OfficialData & { versions: Record<string, string> }> {
  const all = (await import('@hyunbinseo/holidays-kr/all')) as Record<string, Record<string, readonly string[]>>;
  const version = (require('@hyunbinseo/holidays-kr/package.json') as { version: string }).version;
  // A temporary holiday or an election day cites its designation where we found one with an address.
  const cite = (date: string) => (curation.citations.get(`KR/designation-${date}`)?.url ? `KR/designation-${date}` : REGULATION);
  const data: OfficialData & { versions: Record<string, string> } = { rows: [], years: [], versions: { '@hyunbinseo/holidays-kr': version } };
  for (const [key, days] of Object.entries(all).sort()) {
    const year = Number(key.slice(1));
    for (const [date, names] of Object.entries(days)) {
      for (const korean of names) {
        const sub = SUBSTITUTE.exec(korean);
        const base = sub ? sub[1] : korean;
        const english = ENGLISH[base];
        if (!english) throw new Error(`Korea ${date}: no English name for "${korean}" (add it to pipeline/stages/official/korea.ts)`);
        const row: DayRow = {
          location: 'KR',
          date,
          kind: DESIGNATED.test(korean) ? 'transferred' : 'holiday',
          name: sub ? `${english} (substitute holiday)` : english,
          localName: korean,
          refDate: null,
          closes: [...DAY_TYPES],
          replaces: null,
          citations: [cite(date)],
          where: `@hyunbinseo/holidays-kr ${version} ${date}`,
        };
        if (sub) {
          // The holiday it stands in for: the nearest earlier day of that name (at most two weeks before).
          const day = parseDate(date)!;
          for (let back = 1; back <= 14; back++) {
            const d = formatDate(day - back);
            if ((all[key][d] ?? all[`y${year - 1}`]?.[d])?.includes(base)) {
              row.substituteFor = d;
              break;
            }
          }
        }
        data.rows.push(row);
      }
    }
    data.years.push({ location: 'KR', year, citations: [REGULATION], where: `@hyunbinseo/holidays-kr ${version} ${year}` });
  }
  return data;
}
