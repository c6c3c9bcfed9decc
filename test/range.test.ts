/**
 * The served range is 1990-2099. Golden facts typed in by hand, each citing
 * its official source: both ends of the range are there, and a holiday
 * introduced after 1990 is absent before the act that introduced it
 * (`introduced` corrections in sources/holidays/<CC>/corrections.csv) and present from then on.
 * Reads the year files of the built dataset directly.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DATA_DIR } from './helpers.js';

interface Row { date: string; name: string; type: string; closes: string[]; observed_for: string | null }

const root = join(DATA_DIR, 'v1');
const yearRows = (loc: string, year: number): Row[] =>
  (JSON.parse(readFileSync(join(root, 'business-days', loc, `${year}.json`), 'utf8')) as { holidays: Row[] }).holidays;
const rowsOn = (loc: string, date: string) => yearRows(loc, Number(date.slice(0, 4))).filter((h) => h.date === date);
const named = (loc: string, year: number, name: string) => yearRows(loc, year).filter((h) => h.name === name);

describe('the range is 1990-2099', () => {
  it('the manifest counts say first_year 1990 and last_year 2099', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'manifest.json'), 'utf8')) as { counts: { first_year: number; last_year: number } };
    expect(manifest.counts.first_year).toBe(1990);
    expect(manifest.counts.last_year).toBe(2099);
  });

  // 5 U.S.C. 6103(a): New Year's Day, January 1, and Christmas Day, December 25, are legal public holidays.
  // https://uscode.house.gov/view.xhtml?req=granuleid:USC-prelim-title5-section6103&num=0&edition=prelim
  it('US 1990-01-01 is New Year\'s Day and US 2090-12-25 is Christmas Day, both public holidays', () => {
    const newYear = rowsOn('US', '1990-01-01');
    expect(newYear.map((h) => h.name)).toContain("New Year's Day");
    expect(newYear.find((h) => h.name === "New Year's Day")?.type).toBe('public');
    const christmas = rowsOn('US', '2090-12-25');
    expect(christmas.map((h) => h.name)).toContain('Christmas Day');
    expect(christmas.find((h) => h.name === 'Christmas Day')?.type).toBe('public');
  });
});

describe('Juneteenth National Independence Day (US federal)', () => {
  // Juneteenth National Independence Day Act, Pub. L. 117-17, signed 17 June 2021, adds 19 June to 5 U.S.C. 6103(a).
  // https://www.congress.gov/bill/117th-congress/senate-bill/475
  it('is absent from the US federal rows before 2021', () => {
    for (let year = 1990; year <= 2020; year++) {
      expect(yearRows('US', year).filter((h) => /Juneteenth/.test(h.name)), `US ${year}`).toEqual([]);
    }
  });

  // OPM federal holidays: 19 June 2021 was a Saturday, observed Friday 18 June 2021; 19 June 2022 was a Sunday, observed Monday 20 June 2022.
  // https://www.opm.gov/policy-data-oversight/pay-leave/federal-holidays/
  it('is observed on Friday 2021-06-18 and Monday 2022-06-20', () => {
    for (const [date, forDate] of [['2021-06-18', '2021-06-19'], ['2022-06-20', '2022-06-19']]) {
      const row = rowsOn('US', date).find((h) => /Juneteenth/.test(h.name));
      expect(row, date).toBeDefined();
      expect(row!.observed_for).toBe(forDate);
      expect(row!.closes).toContain('government');
    }
  });
});

/** A holiday introduced on `first`: absent from its location in `absentYear`, present on `first` and on `later`. */
interface Introduced { loc: string; name: string; absentYear: number; first: string; later: string }

const introduced: Introduced[] = [
  // Law 2429 art. 2 as amended by Law No. 5892 of 22 April 2009: 1 May is a general holiday again from 2009.
  // https://www.mevzuat.gov.tr/mevzuatmetin/1.5.2429.pdf
  { loc: 'TR', name: 'Labour and Solidarity Day', absentYear: 2008, first: '2009-05-01', later: '2010-05-01' },
  // Public Holidays Act 36 of 1994, in force 1 January 1995, Schedule 1: Human Rights Day 21 March, Freedom Day 27 April.
  // https://www.gov.za/sites/default/files/gcis_document/201409/act36of1994.pdf
  { loc: 'ZA', name: 'Human Rights Day', absentYear: 1994, first: '1995-03-21', later: '1996-03-21' },
  { loc: 'ZA', name: 'Freedom Day', absentYear: 1994, first: '1995-04-27', later: '1996-04-27' },
  // Resolution of the Supreme Soviet of the RSFSR of 27 December 1990: 7 January (Christmas) is a non-working day.
  // http://pravo.gov.ru/
  { loc: 'RU', name: 'Christmas Day', absentYear: 1990, first: '1991-01-07', later: '1992-01-07' },
  // 12 June: Declaration of State Sovereignty of 12 June 1990; non-working from 1991, holiday by Resolution No. 2981-1 of 11 June 1992.
  // https://www.prlib.ru/en/events/660957
  { loc: 'RU', name: 'Russia Day', absentYear: 1990, first: '1991-06-12', later: '1992-06-12' },
  // Law of the Republic of Tatarstan No. 1448-XII of 19 February 1992: 30 August (Day of the Republic) is a non-working holiday.
  // https://tatarstan.ru/rus/data.htm
  { loc: 'RU-TA', name: 'Republic of Tatarstan Day', absentYear: 1991, first: '1992-08-30', later: '1993-08-30' },
  // Law of the Republic of Crimea No. 80-ZRK/2015 of 3 March 2015: 18 March (Reunification Day) is a non-working holiday.
  // http://publication.pravo.gov.ru/
  { loc: 'RU-CR', name: 'Day of the Reunification of Crimea with Russia', absentYear: 2014, first: '2015-03-18', later: '2016-03-18' },
  // Law of the City of Sevastopol No. 122-ZS of 10 March 2015: 18 March (Day of Sevastopol's Return to Russia) is a non-working day.
  // http://publication.pravo.gov.ru/
  { loc: 'RU-SEV', name: "Day of Sevastopol's Return to Russia", absentYear: 2014, first: '2015-03-18', later: '2016-03-18' },
  // Holidays Act 1983 (Qld) schedule: Easter Sunday is a public holiday from 2017.
  // https://www.legislation.qld.gov.au/view/html/inforce/current/act-1983-018
  { loc: 'AU-QLD', name: 'Easter Sunday', absentYear: 2016, first: '2017-04-16', later: '2018-04-01' },
  // Holidays Act 1958 (ACT) s 3(1)(a): Easter Sunday is a public holiday from 2016.
  // https://www.legislation.act.gov.au/a/1958-19/
  { loc: 'AU-ACT', name: 'Easter Sunday', absentYear: 2015, first: '2016-03-27', later: '2017-04-16' },
  // Décret n° 2012-553 du 23 avril 2012: 9 October commemorates the abolition of slavery in Saint-Barthélemy.
  // https://www.legifrance.gouv.fr/jorf/jo/2012/04/25/0098
  { loc: 'FR-BL', name: 'Abolition of Slavery', absentYear: 2011, first: '2012-10-09', later: '2013-10-09' },
  // Bihar Diwas (22 March) first observed, and declared a public holiday, in 2010.
  // https://banka.nic.in/?p=2447
  { loc: 'IN-BR', name: 'Bihar Day', absentYear: 2009, first: '2010-03-22', later: '2011-03-22' },
  // Peace Day (16 April, the end of the counter-terrorist operation regime on 16 April 2009), declared a yearly holiday by decree of the Head of the Republic.
  // http://chechnya.gov.ru/
  { loc: 'RU-CE', name: 'Peace Day in the Chechen Republic', absentYear: 2009, first: '2010-04-16', later: '2011-04-16' },
];

describe('holidays introduced after 1990 are absent before the act that introduced them', () => {
  it.each(introduced)('$loc $name: absent in $absentYear, present from $first', ({ loc, name, absentYear, first, later }) => {
    expect(named(loc, absentYear, name), `${loc} ${absentYear}`).toEqual([]);
    for (const date of [first, later]) {
      const row = rowsOn(loc, date).find((h) => h.name === name);
      expect(row, `${loc} ${date}`).toBeDefined();
      expect(row!.type).toBe('public');
    }
  });

  // Cal. Gov. Code §6700(a)(5): César Chávez Day is a state holiday from 2001; 31 March 1996 was a Sunday, 31 March 2002 too.
  // https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=GOV&sectionNum=6700
  it('US-CA: no César Chávez Day, nor its Monday substitute, before 2001', () => {
    for (let year = 1990; year <= 2000; year++) {
      expect(yearRows('US-CA', year).filter((h) => h.name.startsWith('César Chávez Day')), `US-CA ${year}`).toEqual([]);
    }
    expect(rowsOn('US-CA', '2002-04-01').map((h) => h.name)).toContain('César Chávez Day (substitute day)');
  });
});
