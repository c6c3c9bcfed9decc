/**
 * The decision tables (sources/holidays/<CC>/sources.csv, pipeline/stages/apply-sources.ts) and corroboration
 * (corroborate.ts) on a made-up python-holidays extraction: which years are rebased, what replaces what, and that a
 * rebased year is never called corroborated.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applySources, checkSourcesUsed, decisionFor } from '../pipeline/stages/apply-sources.js';
import { applyRules, checkRulesUsed } from '../pipeline/stages/apply-rules.js';
import { corroborate, pythonLocation } from '../pipeline/stages/corroborate.js';
import { PythonHolidays } from '../pipeline/stages/ingest-python-holidays.js';
import { makeHoliday } from '../pipeline/stages/holidays/record.js';
import type { DayRow, RuleRow, SourceRow } from '../pipeline/stages/holidays/curation.js';
import type { IngestedLocation, Target } from '../pipeline/stages/ingest-holidays.js';
import { applyOfficial, type YearBasis } from '../pipeline/stages/apply-official.js';
import { workweekSpans } from '../lib/workweek.js';

const dir = mkdtempSync(join(tmpdir(), 'refdata-sources-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(join(dir, 'python-holidays'));
const meta = {
  package: 'holidays',
  version: '0.0-test',
  first_year: 1990,
  last_year: 2099,
  countries: {
    XA: { name: 'Xa', default_language: 'en_US', english_language: null, languages: [], categories: ['public'], skipped_categories: [], subdivisions: { '01': ['XB', 'North'] }, start_year: 2000, end_year: 2100 },
  },
};
writeFileSync(join(dir, 'python-holidays', 'meta.json'), JSON.stringify(meta));
writeFileSync(
  join(dir, 'python-holidays', 'XA.csv'),
  [
    'location,op,date,category,name,local_name',
    'XA,,2025-01-01,public,New Year,New Year',
    'XA,,2025-03-31,public,"Eid al-Fitr, first day",Eid',
    'XA,,2026-01-01,public,New Year,New Year',
    'XA,,2026-03-20,public,Eid al-Fitr (estimated),Eid',
    'XA-01,+,2026-05-05,public,North Day,North Day',
    'XA-01,-,2026-01-01,public,New Year,New Year',
    '',
  ].join('\n'),
);
writeFileSync(join(dir, 'python-holidays', 'weekend-workdays.csv'), 'location,date\n');
const ph = new PythonHolidays(dir);

const target = (location: string): Target => ({ location, name: location, kind: location.includes('-') ? 'state' : 'country', country: 'XA', parent: null, args: [], timezone: 'UTC', localLanguage: 'en', source: 'date-holidays' });
const h = (date: string, name: string) => makeHoliday({ date, name, localName: name, type: 'public', basis: 'rules' });
const row = (location: string, source: SourceRow['source'], since: number | null, until: number | null): SourceRow => ({ location, source, since, until, why: 'a reason long enough to pass', citations: ['XA/act'], where: `sources.csv ${location}` });
const spans = workweekSpans([{ from: null, until: null, workweek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'] }]);

describe('python-holidays extraction reader', () => {
  it('reads quoted names and resolves a subdivision from its differences', () => {
    expect(ph.locationsOf('XA').get('XA')!.map((r) => r.name)).toContain('Eid al-Fitr, first day');
    expect(ph.locationsOf('XA').get('XA-01')!.map((r) => `${r.date} ${r.name}`)).toEqual(['2025-01-01 New Year', '2025-03-31 Eid al-Fitr, first day', '2026-03-20 Eid al-Fitr (estimated)', '2026-05-05 North Day']);
    expect(pythonLocation(ph, 'XA-XB')).toBe('XA-01'); // an alias of the subdivision
    expect(pythonLocation(ph, 'XA-01-R')).toBeUndefined(); // regions have no counterpart
  });
});

describe('decision tables', () => {
  it('the most specific row of a year decides', () => {
    const rows = [row('XA', 'date-holidays', null, null), row('XA-01', 'python-holidays', 2026, null)];
    expect(decisionFor(rows, 'XA-01', 2025)?.source).toBe('date-holidays');
    expect(decisionFor(rows, 'XA-01', 2026)?.source).toBe('python-holidays');
    expect(decisionFor(rows, 'XA', 2026)?.source).toBe('date-holidays');
    expect(decisionFor(rows, 'XB', 2026)).toBeUndefined();
  });

  it('rebases only the years it names: their rows are python-holidays\', citing the decision; other years stay', () => {
    const loc: IngestedLocation = { target: target('XA'), holidays: [h('2025-01-01', 'New Year'), h('2026-01-01', "New Year's Day"), h('2026-03-21', 'Eid al-Fitr')] };
    const used = new Set<SourceRow>();
    const rows = [row('XA', 'python-holidays', 2026, 2026)];
    const years = applySources(loc, rows, ph, [2024, 2025, 2026, 2027], used);
    expect([...years]).toEqual([2026]);
    expect(loc.holidays.map((x) => `${x.date} ${x.name}`)).toEqual(['2025-01-01 New Year', '2026-01-01 New Year', '2026-03-20 Eid al-Fitr (estimated)']);
    expect(loc.holidays.find((x) => x.date === '2026-03-20')).toMatchObject({ basis: 'rules', citations: ['XA/act'], closes: ['business', 'banking', 'government'] });
    expect(used.size).toBe(1);
    expect(() => checkSourcesUsed([...rows, row('XA-99', 'python-holidays', null, null)], used)).toThrow(/XA-99/);
  });

  it('a rebased year is never corroborated; a year both sources give alike is', () => {
    const loc: IngestedLocation = { target: target('XA'), holidays: [h('2025-01-01', 'New Year'), h('2025-03-31', 'Eid'), h('2026-01-01', 'New Year')] };
    const rebased = applySources(loc, [row('XA', 'python-holidays', 2026, 2026)], ph, [2025, 2026], new Set());
    const basis = new Map<number, YearBasis>([2025, 2026].map((y) => [y, { basis: 'rules', sources: [], workingDays: [] }]));
    const c = corroborate(ph, loc, spans, basis, rebased);
    expect(basis.get(2025)!.basis).toBe('corroborated');
    expect(basis.get(2026)!.basis).toBe('rules');
    expect(loc.holidays.filter((x) => x.basis === 'corroborated').map((x) => x.date)).toEqual(['2025-01-01', '2025-03-31']);
    expect(c).toMatchObject({ against: 'XA', years: 1, rows: 2 });
  });

  it('a year the two sources give differently stays rules, and so does a year before python-holidays starts', () => {
    const loc: IngestedLocation = { target: target('XA'), holidays: [h('1999-01-01', 'New Year'), h('2025-01-01', 'New Year'), h('2025-04-01', 'Eid')] };
    const basis = new Map<number, YearBasis>([1999, 2025].map((y) => [y, { basis: 'rules', sources: [], workingDays: [] }]));
    corroborate(ph, loc, spans, basis);
    expect(basis.get(2025)!.basis).toBe('rules');
    expect(basis.get(1999)!.basis).toBe('rules');
    expect(loc.holidays.find((x) => x.date === '2025-01-01')!.basis).toBe('corroborated');
  });
});

describe('rules whose dates come from python-holidays (python-holidays:<Name>)', () => {
  const rule = (location: string, name: string, extra: Partial<RuleRow> = {}): RuleRow => ({ location, only: false, rule: `python-holidays:${name}`, name: 'Eid', localName: 'Eid', type: 'public', closes: ['business', 'banking', 'government'], replaces: null, since: null, until: null, citations: ['XA/act'], where: `rules.csv ${name}`, ...extra });

  it("gives the counterpart's dates of that name, the estimated ones included, within since/until, and replaces upstream's", () => {
    const loc: IngestedLocation = { target: target('XA-XB'), holidays: [h('2025-03-30', 'Eid al-Fitr'), h('2026-03-21', 'Eid al-Fitr')] };
    const used = new Set<RuleRow>();
    applyRules(loc, [rule('XA', 'Eid al-Fitr', { replaces: 'Eid al-Fitr', until: '2026-12-31' })], [2025, 2026, 2027], used, ph);
    // 2025's row is named "Eid al-Fitr, first day" there: not this holiday; 2026's is the estimated date.
    expect(loc.holidays.map((x) => `${x.date} ${x.name} ${x.citations.join(' ')}`)).toEqual(['2026-03-20 Eid XA/act']);
    expect(used.size).toBe(1);
  });

  it('follows the subdivision: a row it removes gives no date there', () => {
    const north: IngestedLocation = { target: target('XA-XB'), holidays: [] };
    const country: IngestedLocation = { target: target('XA'), holidays: [] };
    const r = rule('XA', 'New Year');
    applyRules(north, [r], [2025, 2026], new Set(), ph);
    applyRules(country, [r], [2025, 2026], new Set(), ph);
    expect(north.holidays.map((x) => x.date)).toEqual(['2025-01-01']);
    expect(country.holidays.map((x) => x.date)).toEqual(['2025-01-01', '2026-01-01']);
  });

  it("a location python-holidays has no counterpart for takes its nearest parent's dates", () => {
    const region: IngestedLocation = { target: { ...target('XA-XB-R'), kind: 'region' }, holidays: [] };
    const other: IngestedLocation = { target: target('XA-ZZ'), holidays: [] };
    const r = rule('XA', 'New Year');
    applyRules(region, [r], [2025, 2026], new Set(), ph);
    applyRules(other, [r], [2025, 2026], new Set(), ph);
    expect(region.holidays.map((x) => x.date)).toEqual(['2025-01-01']); // XA-XB's (python-holidays' XA-01)
    expect(other.holidays.map((x) => x.date)).toEqual(['2025-01-01', '2026-01-01']); // XA's
  });

  it('a name python-holidays does not have gives nothing, and the unused check names the row', () => {
    const loc: IngestedLocation = { target: target('XA'), holidays: [] };
    const used = new Set<RuleRow>();
    const r = rule('XA', 'Nonexistent Day');
    applyRules(loc, [r], [2025, 2026], used, ph);
    expect(loc.holidays).toEqual([]);
    expect(() => checkRulesUsed([r], used)).toThrow(/Nonexistent Day/);
  });

  it('copied rows are never corroborated, nor a year in which one closes business', () => {
    const loc: IngestedLocation = { target: target('XA'), holidays: [h('2026-01-01', 'New Year')] };
    applyRules(loc, [rule('XA', 'Eid al-Fitr')], [2026], new Set(), ph);
    const basis = new Map<number, YearBasis>([[2026, { basis: 'rules', sources: [], workingDays: [] }]]);
    const c = corroborate(ph, loc, spans, basis);
    // Both sources now close 1 January and 20 March 2026, but the second date is python-holidays' own.
    expect(loc.holidays.map((x) => `${x.date} ${x.basis}`)).toEqual(['2026-01-01 corroborated', '2026-03-20 rules']);
    expect(basis.get(2026)!.basis).toBe('rules');
    expect(c).toMatchObject({ years: 0, rows: 1 });
  });
});

describe('a region\'s announcement in a year complete for its country (apply-official)', () => {
  const day = (location: string, date: string, name: string, replaces: string | null = null): DayRow => ({ location, date, kind: 'holiday', name, localName: name, refDate: null, closes: ['business', 'banking', 'government'], replaces, citations: ['XA/act'], where: `days.csv ${location} ${date}` });
  const official = { rows: [day('XA', '2025-01-01', 'New Year'), day('XA-XB', '2025-05-09', 'Founders Day', 'Founders Day')], years: [{ location: 'XA', year: 2025, citations: ['XA/act'], where: 'years.csv' }] };
  const spans = workweekSpans([{ from: null, until: null, workweek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], source: 'test' }] as never);

  it('still replaces the region\'s projected date, while the country\'s rows are its schedule', () => {
    const region: IngestedLocation = { target: target('XA-XB'), holidays: [h('2025-01-01', 'New Year'), h('2025-05-08', 'Founders Day')] };
    const basis = applyOfficial(region, official, spans, [2025], [h('2025-01-01', 'New Year')], new Map([['XA/act', { id: 'XA/act', title: 'Act', number: null, issuer: 'XA', date: null, url: 'https://example.org/act', archive_url: null } as never]]));
    // The announced 9 May replaces the projected 8 May (it was kept beside it when the country's year was complete).
    expect(region.holidays.map((x) => `${x.date} ${x.name} ${x.basis}`)).toEqual(['2025-01-01 New Year official', '2025-05-09 Founders Day official']);
    expect(basis.get(2025)!.basis).toBe('official'); // its own day off is announced, not projected: the year is complete
  });
});
