/**
 * Stage: the holidays of sources/holidays/<CC>/rules.csv. Each row is a date-holidays rule expression
 * (`orthodox -48`, `12-26`, `1st monday in July`, `substitutes 01-01 if saturday then previous friday` …)
 * computed by date-holidays' own rule engine for every year from `since` to `until`, so one row covers the
 * whole range. A rule that lands on a row of the same name and date sets that row's type and the day types it
 * closes (the US federal observance rules do that to upstream's substitute days); otherwise it adds a row.
 *
 * A rule `python-holidays:<Name>` takes its dates from the second source instead: every date on which
 * python-holidays' counterpart of the location (else of its nearest parent that has one) has a row of that name
 * (its "(estimated)" future dates included).
 * It is for holidays whose existence a cited act settles but whose dates need a calendar date-holidays lacks (Hindu
 * lunisolar festivals, Islamic dates as announced). Such rows are one source's projection twice over: they are
 * kept in `copiedFromPython` so that corroboration never counts them as a second source's agreement.
 *
 * Then each location's day-type coverage is described from what it carries.
 */
import Holidays from 'date-holidays';
import { rowAppliesTo } from '../../lib/location-code.js';
import { parseDate, formatDate } from '../../lib/plain-date.js';
import type { BusinessDaysLocation, Holiday } from '../../lib/schema-types.js';
import type { RuleRow } from './holidays/curation.js';
import { addCitations, makeHoliday } from './holidays/record.js';
import { compareHolidays, type IngestedLocation } from './ingest-holidays.js';
import type { PythonHolidays } from './ingest-python-holidays.js';
import { pythonLocation } from './corroborate.js';

/** The rule form whose dates come from python-holidays (see the top of this file). */
export const PYTHON_RULE = 'python-holidays:';

/** Rows whose dates a `python-holidays:` rule copied: corroborate.ts must not count them as agreement. */
export const copiedFromPython = new WeakSet<Holiday>();

/** python-holidays' names for one holiday: its estimated future dates carry "(estimated)" or ", estimated)". */
const plainName = (name: string) => name.replace(/ \(estimated\)$/, '').replace(/, estimated\)$/, ')');

/** The dates of a `python-holidays:<Name>` rule at one location, in the given years. */
function pythonRuleDates(rule: RuleRow, location: string, country: string, ph: PythonHolidays | undefined, years: ReadonlySet<number>): RuleDate[] {
  if (!ph) throw new Error(`${rule.where}: "${rule.rule}" needs python-holidays, which this build did not load`);
  const name = rule.rule.slice(PYTHON_RULE.length).trim();
  if (!name) throw new Error(`${rule.where}: "${rule.rule}" names no python-holidays holiday`);
  // The location's own counterpart, else its nearest parent's (a region, or a state python-holidays files under
  // another code, takes its state's or country's dates).
  let code = location;
  let against = pythonLocation(ph, code);
  while (against === undefined && code.includes('-')) {
    code = code.slice(0, code.lastIndexOf('-'));
    against = pythonLocation(ph, code);
  }
  if (against === undefined) return [];
  const dates = new Set<string>();
  for (const row of ph.locationsOf(country).get(against) ?? []) {
    if (plainName(row.name) === name && years.has(Number(row.date.slice(0, 4)))) dates.add(row.date);
  }
  return [...dates].sort().map((date) => ({ date, substitute: false }));
}

interface RuleDate {
  date: string;
  substitute: boolean;
}

/** One engine per expression; its dates per year are computed once for every location the rule applies to. */
const cache = new Map<string, Map<number, RuleDate[]>>();
const engines = new Map<string, Holidays>();

function engineFor(rule: string, where: string): Holidays {
  let engine = engines.get(rule);
  if (!engine) {
    engine = new Holidays('XX', { data: { holidays: { XX: { names: { en: 'rule' }, langs: ['en'], days: {} } } } } as never);
    engine.setTimezone(undefined as unknown as string); // wall-clock dates, as the ingest reads them
    if (!engine.setHoliday(rule, { name: { en: 'rule' }, type: 'public' } as never)) throw new Error(`${where}: date-holidays cannot parse the rule "${rule}"`);
    engines.set(rule, engine);
  }
  return engine;
}

/** The dates a rule expression gives in `year` (the engine's own answer, full days only). */
export function ruleDates(rule: string, year: number, where = 'rule'): RuleDate[] {
  let byYear = cache.get(rule);
  if (!byYear) cache.set(rule, (byYear = new Map()));
  let dates = byYear.get(year);
  if (!dates) {
    dates = (engineFor(rule, where).getHolidays(year) as { date: string; substitute?: boolean }[]).map((h) => {
      if (h.date.slice(10, 19) !== ' 00:00:00') throw new Error(`${where}: the rule "${rule}" gives a part-day holiday (${h.date}); rules give whole days`);
      return { date: h.date.slice(0, 10), substitute: h.substitute === true };
    });
    byYear.set(year, dates);
  }
  return dates;
}

/** For a `substitutes X if …` rule, the date of X it stands in for: the nearest within a week. */
function observedFor(rule: RuleRow, date: string): string | null {
  if (!rule.rule.startsWith('substitutes ')) return null;
  const base = rule.rule.slice('substitutes '.length).replace(/ if .*$/, '');
  const day = parseDate(date)!;
  const year = Number(date.slice(0, 4));
  const near = [year - 1, year, year + 1].flatMap((y) => ruleDates(base, y, rule.where)).map((d) => parseDate(d.date)!);
  const best = near.filter((d) => Math.abs(d - day) <= 7 && d !== day).sort((a, b) => Math.abs(a - day) - Math.abs(b - day))[0];
  return best === undefined ? null : formatDate(best);
}

/** Applies the rules on this location or the codes it belongs to, for the given years, in place. */
export function applyRules(loc: IngestedLocation, rules: readonly RuleRow[], years: readonly number[], used: Set<RuleRow>, ph?: PythonHolidays): void {
  const holidays = loc.holidays;
  const yearSet = new Set(years);
  for (const r of rules) {
    if (!rowAppliesTo(r, loc.target.location)) continue;
    const active = (date: string) => (r.since === null || date >= r.since) && (r.until === null || date <= r.until);
    if (r.replaces) {
      for (const h of holidays.filter((h) => h.name === r.replaces && h.basis === 'rules' && active(h.date))) holidays.splice(holidays.indexOf(h), 1);
    }
    const copied = r.rule.startsWith(PYTHON_RULE);
    const dates = copied ? pythonRuleDates(r, loc.target.location, loc.target.country, ph, yearSet) : years.flatMap((year) => ruleDates(r.rule, year, r.where));
    for (const { date, substitute } of dates) {
      if (!active(date)) continue;
      used.add(r);
      const same = holidays.find((h) => h.date === date && h.name === r.name);
      if (same) {
        same.type = r.type;
        same.closes = [...r.closes];
        addCitations(same, r.citations); // a row date-holidays already had on that date: its date is still its own
        continue;
      }
      const isSubstitute = substitute || r.rule.startsWith('substitutes ');
      const row = makeHoliday({ date, name: r.name, localName: r.localName, type: r.type, closes: r.closes, basis: 'rules', citations: r.citations, observedFor: isSubstitute ? observedFor(r, date) : null, substitute: isSubstitute });
      if (copied) copiedFromPython.add(row);
      holidays.push(row);
    }
  }
  holidays.sort(compareHolidays);
}

/** Throws when a rule gave no date in any location it names. */
export function checkRulesUsed(rules: readonly RuleRow[], used: Set<RuleRow>): void {
  const unused = rules.filter((r) => !used.has(r));
  if (unused.length) throw new Error(`rules that gave no date in any year (a typo in the location, or since/until?):\n  ${unused.map((r) => `${r.where}: ${r.rule}`).join('\n  ')}`);
}

/** Which day types carry data of their own at this location, and where it comes from. */
export function describeDayTypes(loc: IngestedLocation, rules: readonly RuleRow[], holidaySource: string): BusinessDaysLocation['day_types'] {
  const mine = rules.filter((r) => rowAppliesTo(r, loc.target.location));
  const has = (type: Holiday['type']) => loc.holidays.some((h) => h.type === type);
  /** A row that closes this type on a day it leaves business open, or the other way round (the US Friday before a Saturday holiday closes business and government, not banking). */
  const differs = (type: 'banking' | 'government') => loc.holidays.some((h) => h.closes.includes(type) !== h.closes.includes('business'));
  const cited = (type: 'banking' | 'government') => {
    const folders = [...new Set(mine.filter((r) => r.type !== 'public' && r.closes.includes(type) && !r.closes.includes('business')).map((r) => r.location.slice(0, 2)))];
    return folders.map((cc) => `rules of sources/holidays/${cc}/rules.csv`);
  };
  const bankingRules = cited('banking');
  const governmentRules = cited('government');
  return {
    business: { data: 'own', basis: `workweek + public holidays from ${holidaySource}` },
    banking:
      has('bank') || bankingRules.length > 0 || differs('banking')
        ? { data: 'own', basis: [has('bank') ? `business + bank holidays from ${holidaySource}` : 'business, except the holidays whose closes list banking differently', ...bankingRules].join('; ') }
        : { data: 'fallback', basis: `no bank holiday data: same as business` },
    government:
      has('government') || governmentRules.length > 0 || differs('government')
        ? { data: 'own', basis: ['business', ...(has('government') ? ['government closures from sources/holidays'] : []), ...(!has('government') && !governmentRules.length ? ['except the holidays whose closes list government differently'] : []), ...governmentRules].join('; ') }
        : { data: 'fallback', basis: `no government closure data: same as business` },
  };
}
