/**
 * Stage: lay the official calendars over date-holidays' projections, one location at a time.
 *
 * - A complete year (a row in years.csv, or a package year) replaces the year's public holidays: the
 *   schedule's days off are the days off; date-holidays' public rows on other dates stay listed but
 *   close nothing (China's group half-days, for example). Bank and government rows are kept.
 * - In other years a row replaces the projected holiday it names (`replaces`, within 15 days) and any
 *   public row on its own date.
 * - Working days outside the workweek come only from schedules.
 * - A year's basis is official when it is complete for the country and the location has no public
 *   holiday of its own from rules that year (a region's projected holidays keep it at rules).
 */
import { appliesTo } from '../../lib/location-code.js';
import { parseDate, weekdayName } from '../../lib/plain-date.js';
import type { BusinessDaysYear, Citation, Holiday, WorkingDay } from '../../lib/schema-types.js';
import { isWorkday, type WorkweekSpan } from '../../lib/workweek.js';
import { citedAct } from './holidays/curation.js';
import { makeHoliday, typeOf } from './holidays/record.js';
import { compareHolidays, type IngestedLocation } from './ingest-holidays.js';
import type { DayRow, OfficialData } from './official/index.js';

export interface YearBasis {
  basis: BusinessDaysYear['basis'];
  sources: Citation[];
  workingDays: WorkingDay[];
}

const REPLACE_WINDOW_DAYS = 15;

function holidayOf(r: DayRow): Holiday {
  return makeHoliday({
    date: r.date,
    name: r.name,
    localName: r.localName,
    type: typeOf(r.closes),
    closes: r.closes,
    basis: 'official',
    citations: r.citations,
    observedFor: r.substituteFor ?? null,
    transferredFrom: r.kind === 'transferred' ? r.refDate : undefined,
  });
}

function workingDayOf(r: DayRow): WorkingDay {
  return {
    date: r.date,
    name: `Working day (${r.name})`,
    local_name: r.localName,
    for_holiday: r.name,
    for_date: r.refDate,
    applies_to: [...r.closes],
    citations: [...r.citations].sort(),
  };
}

/**
 * Applies the official rows to one location in place and returns the basis, sources and working
 * days of each year. `countryRows` are the country's own date-holidays public rows (before this
 * stage), to tell a region's own holidays from the national ones. A year's sources are every act its
 * complete schedule, its rows and its working days cite (`citations` resolves the ids).
 */
export function applyOfficial(
  loc: IngestedLocation,
  official: OfficialData,
  spans: readonly WorkweekSpan[],
  years: number[],
  countryRows: readonly Holiday[],
  citations: ReadonlyMap<string, Citation>,
): Map<number, YearBasis> {
  const code = loc.target.location;
  const rows = official.rows.filter((r) => appliesTo(r.location, code));
  const complete = new Map<number, string[]>();
  // The locations whose complete years reach this one, by year: a row is part of a year's schedule only on one of
  // them or above it; a region's own announcement in a year complete for its country is still an announcement.
  const completeAt = new Map<number, string[]>();
  for (const y of official.years) {
    if (!appliesTo(y.location, code)) continue;
    complete.set(y.year, y.citations);
    completeAt.set(y.year, [...(completeAt.get(y.year) ?? []), y.location]);
  }
  const national = new Set(countryRows.filter((h) => h.type === 'public').map((h) => `${h.date}|${h.name}`));

  const out = new Map<number, YearBasis>();
  for (const year of years) out.set(year, { basis: 'rules', sources: [], workingDays: [] });
  const inYear = (date: string) => out.get(Number(date.slice(0, 4)));

  // Complete years: the schedule's days off replace the year's public rows.
  const officialOff = new Set(rows.filter((r) => r.kind !== 'working_day').map((r) => r.date));
  // Only the national projections are replaced; a region's own projected holidays keep closing.
  const replaced = (h: Holiday) => h.type === 'public' && h.basis === 'rules' && national.has(`${h.date}|${h.name}`) && complete.has(Number(h.date.slice(0, 4)));
  loc.holidays = loc.holidays.filter((h) => !(replaced(h) && officialOff.has(h.date)));
  for (const h of loc.holidays) if (replaced(h)) h.closes = []; // kept as a named day that closes nothing

  for (const r of rows) {
    const y = inYear(r.date);
    if (!y) continue;
    const day = parseDate(r.date)!;
    if (r.kind === 'working_day') {
      if (isWorkday(spans, day)) throw new Error(`${r.where}: ${r.date} (${weekdayName(day)}) is inside ${code}'s workweek, so it cannot be a working day outside it`);
      if (officialOff.has(r.date)) throw new Error(`${r.where}: ${r.date} is both a day off and a working day`);
      y.workingDays.push(workingDayOf(r));
    } else {
      const inSchedule = (completeAt.get(Number(r.date.slice(0, 4))) ?? []).some((at) => appliesTo(r.location, at));
      if (!inSchedule) {
        // A single announcement: drop the projection it replaces, and a public row on its date when the
        // announcement itself closes business (a government-only day off leaves the public holiday alone).
        loc.holidays = loc.holidays.filter((h) => {
          if (h.basis === 'official' || h.type !== 'public') return true;
          if (h.date === r.date) return !r.closes.includes('business');
          return !(r.replaces && h.name === r.replaces && Math.abs(parseDate(h.date)! - day) <= REPLACE_WINDOW_DAYS);
        });
      }
      loc.holidays.push(holidayOf(r));
    }
  }
  // Two rows of one schedule on one date (a holiday and its substitute on the same day) stay; exact duplicates go.
  const seen = new Set<string>();
  loc.holidays = loc.holidays.filter((h) => {
    const key = `${h.date}|${h.type}|${h.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  loc.holidays.sort(compareHolidays);

  for (const [year, y] of out) {
    const cites = complete.get(year);
    if (!cites) continue;
    const regional = loc.holidays.some(
      (h) => h.date.startsWith(`${year}-`) && h.type === 'public' && h.basis === 'rules' && h.closes.length > 0 && !national.has(`${h.date}|${h.name}`),
    );
    y.basis = regional ? 'rules' : 'official';
  }
  for (const y of out.values()) y.workingDays.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  // Each year lists every act it rests on: its complete schedule's first, then those its rows cite.
  const cited = new Map<number, Set<string>>();
  for (const r of [...loc.holidays, ...[...out.values()].flatMap((y) => y.workingDays)]) {
    const year = Number(r.date.slice(0, 4));
    if (!out.has(year)) continue;
    if (!cited.has(year)) cited.set(year, new Set());
    for (const id of r.citations) cited.get(year)!.add(id);
  }
  for (const [year, y] of out) {
    const first = complete.get(year) ?? [];
    const rest = [...(cited.get(year) ?? [])].filter((id) => !first.includes(id)).sort();
    y.sources = [...first, ...rest].map((id) => citedAct(citations, id, `${code} ${year}`));
  }
  return out;
}
