/**
 * Stage: apply the curated day-type rules of sources/day-type-rules/rules.csv
 * (where banking or government closures differ from public holidays) and say,
 * per location, which day types carry data of their own.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { daysFromCivil, formatDate, parseDate, weekdayName } from '../../lib/plain-date.js';
import type { BusinessDaysLocation, Holiday } from '../../lib/schema-types.js';
import { compareHolidays, type IngestedLocation } from './ingest-holidays.js';

export interface DayTypeRule {
  location: string;
  day_type: 'banking' | 'government';
  rule: string;
  source: string;
  note: string;
}

type Rule = (holidays: Holiday[], years: number[]) => void;

/** The eleven legal public holidays of 5 U.S.C. 6103(a), by date-holidays' en-us names. */
const US_FEDERAL = new Set([
  "New Year's Day", 'Martin Luther King Jr. Day', "Washington's Birthday", 'Memorial Day', 'Juneteenth', 'Independence Day',
  'Labor Day', 'Columbus Day', 'Veterans Day', 'Thanksgiving Day', 'Christmas Day',
]);

function shiftDate(date: string, by: number): string {
  return formatDate(parseDate(date)! + by);
}

/** Makes `date` closed for `type` as the observance of `original`, reusing an existing row when there is one. */
function closeObserved(holidays: Holiday[], original: Holiday, date: string, type: 'banking' | 'government'): void {
  const existing = holidays.find((h) => h.date === date && h.observed_for === original.date);
  if (existing) {
    if (!existing.closes.includes(type)) existing.closes = [...existing.closes, type].sort() as Holiday['closes'];
    return;
  }
  holidays.push({
    date,
    name: `${original.name} (observed)`,
    local_name: `${original.local_name} (observed)`,
    type: type === 'banking' ? 'bank' : 'government',
    closes: [type],
    substitute: true,
    observed_for: original.date,
    transferred: false,
    transferred_from: null,
    basis: 'rules',
    partial: false,
  });
}

function federalHolidays(holidays: Holiday[]): Holiday[] {
  return holidays.filter((h) => !h.substitute && h.type === 'public' && US_FEDERAL.has(h.name));
}

/** 2015-09-01: the first day of the second-and-fourth-Saturday bank holidays in India. */
const IN_SATURDAYS_FROM = daysFromCivil(2015, 9, 1);

export const RULES: Record<string, Rule> = {
  // Negotiable Instruments Act 1881 s. 25, Government of India notification of 20 August 2015 (in force
  // 1 September 2015): every bank closes on the second and fourth Saturday of each month. India's workweek
  // includes Saturday, so banking has a workweek of its own there.
  'in-second-fourth-saturday': (holidays, years) => {
    for (const year of years) {
      for (let month = 1; month <= 12; month++) {
        const first = daysFromCivil(year, month, 1);
        const firstSaturday = first + ((5 - ((first + 3) % 7) + 7) % 7); // weekdayIndex 5 = Saturday
        for (const [nth, day] of [[2, firstSaturday + 7], [4, firstSaturday + 21]] as const) {
          if (day < IN_SATURDAYS_FROM) continue;
          const name = `${nth === 2 ? 'Second' : 'Fourth'} Saturday (banks closed)`;
          holidays.push({
            date: formatDate(day),
            name,
            local_name: name,
            type: 'bank',
            closes: ['banking'],
            substitute: false,
            observed_for: null,
            transferred: false,
            transferred_from: null,
            basis: 'official',
            partial: false,
          });
        }
      }
    }
  },
  // 5 U.S.C. 6103(b): Saturday → Friday before, Sunday → Monday after.
  'us-federal-observance': (holidays) => {
    for (const h of federalHolidays(holidays)) {
      const wd = weekdayName(parseDate(h.date)!);
      if (wd === 'saturday') closeObserved(holidays, h, shiftDate(h.date, -1), 'government');
      if (wd === 'sunday') closeObserved(holidays, h, shiftDate(h.date, 1), 'government');
    }
  },
  // Federal Reserve: open the Friday before a Saturday holiday, closed the Monday after a Sunday one.
  'us-federal-reserve': (holidays) => {
    for (const h of federalHolidays(holidays)) {
      const wd = weekdayName(parseDate(h.date)!);
      if (wd === 'saturday') {
        const friday = shiftDate(h.date, -1);
        for (const s of holidays) {
          if (s.date === friday && s.observed_for === h.date) s.closes = s.closes.filter((t) => t !== 'banking');
        }
      }
      if (wd === 'sunday') closeObserved(holidays, h, shiftDate(h.date, 1), 'banking');
    }
  },
  // 5 U.S.C. 6103(c): 20 January of the year after a presidential election; the 21st when the 20th is a Sunday.
  'us-inauguration-day': (holidays, years) => {
    for (const year of years) {
      if ((year - 1) % 4 !== 0) continue;
      let day = daysFromCivil(year, 1, 20);
      if (weekdayName(day) === 'sunday') day += 1;
      holidays.push({
        date: formatDate(day),
        name: 'Inauguration Day',
        local_name: 'Inauguration Day',
        type: 'government',
        closes: ['government'],
        substitute: false,
        observed_for: null,
        transferred: false,
        transferred_from: null,
        basis: 'rules',
        partial: false,
      });
    }
  },
};

export function loadDayTypeRules(csvPath: string): DayTypeRule[] {
  const rows = parse(readFileSync(csvPath, 'utf8'), { columns: true, skip_empty_lines: true, trim: true }) as DayTypeRule[];
  for (const r of rows) {
    if (!(r.rule in RULES)) throw new Error(`${csvPath}: unknown rule "${r.rule}"`);
    if (r.day_type !== 'banking' && r.day_type !== 'government') throw new Error(`${csvPath}: bad day_type "${r.day_type}"`);
    if (!/^https?:\/\//.test(r.source)) throw new Error(`${csvPath}: rule ${r.rule} needs a source URL`);
  }
  return rows;
}

/** Rules that apply to a location: those on it or on any code it belongs to. */
function rulesFor(location: string, rules: DayTypeRule[]): DayTypeRule[] {
  return rules.filter((r) => location === r.location || location.startsWith(`${r.location}-`));
}

/** Applies the rules in place and returns the location's day-type coverage. */
export function applyDayTypeRules(
  loc: IngestedLocation,
  rules: DayTypeRule[],
  years: number[],
  holidaySource: string,
): BusinessDaysLocation['day_types'] {
  const mine = rulesFor(loc.target.location, rules);
  for (const r of mine) RULES[r.rule](loc.holidays, years);
  loc.holidays.sort(compareHolidays);
  const hasBank = loc.holidays.some((h) => h.type === 'bank');
  const hasGovernment = loc.holidays.some((h) => h.type === 'government');
  const describe = (type: 'banking' | 'government') =>
    mine.filter((r) => r.day_type === type).map((r) => `rule ${r.rule} (${r.source})`);
  const bankingRules = describe('banking');
  const governmentRules = describe('government');
  return {
    business: { data: 'own', basis: `workweek + public holidays from ${holidaySource}` },
    banking:
      hasBank || bankingRules.length > 0
        ? { data: 'own', basis: [`business + bank holidays from ${holidaySource}`, ...bankingRules].join('; ') }
        : { data: 'fallback', basis: `no bank holiday data: same as business` },
    government:
      hasGovernment || governmentRules.length > 0
        ? { data: 'own', basis: ['business', ...(hasGovernment ? ['government closures from sources/holiday-corrections'] : []), ...governmentRules].join('; ') }
        : { data: 'fallback', basis: `no government closure data: same as business` },
  };
}
