/**
 * Official calendars: properties of working days outside the workweek, transferred days off and the
 * basis of every year, over every location-year of the built dataset, through the API; and the
 * curated sources failing closed. Golden facts typed from the notices are in test/golden/.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { daysFromCivil, formatDate, parseDate, weekdayName } from '../lib/plain-date.js';
import type { BusinessDaysLocation, BusinessDaysLocations, BusinessDaysYear } from '../lib/schema-types.js';
import { workweekOn, workweekSpans as spansOf } from '../lib/workweek.js';
import { HEADERS, loadCuration } from '../pipeline/stages/holidays/curation.js';
import { loadOfficial } from '../pipeline/stages/official/index.js';
import { appAt, DATA_DIR, getJson } from './helpers.js';

const app = appAt();
const read = <T>(path: string): T => JSON.parse(readFileSync(join(DATA_DIR, 'v1', path), 'utf8')) as T;
const list = read<BusinessDaysLocations>('business-days/index.json');
const TYPES = ['business', 'banking', 'government'] as const;

/** Every location-year that has working days or transferred days off, with its files. */
function officialYears() {
  const out: { meta: BusinessDaysLocation; doc: BusinessDaysYear }[] = [];
  for (const l of list.locations) {
    if (l.official_years.length === 0) continue;
    const meta = read<BusinessDaysLocation>(`business-days/${l.location}/index.json`);
    for (const year of meta.years) out.push({ meta, doc: read<BusinessDaysYear>(`business-days/${l.location}/${year}.json`) });
  }
  return out;
}
const years = officialYears();

describe('working days outside the workweek', () => {
  const working = years.flatMap(({ meta, doc }) => doc.working_days.map((w) => ({ location: meta.location, w })));

  it('exist (China, Russia, Taiwan, Vietnam …) and are all outside the workweek', () => {
    expect(working.length).toBeGreaterThan(100);
    for (const l of ['CN', 'RU', 'TW']) expect(working.some((x) => x.location === l), l).toBe(true);
    for (const { location, w } of working) {
      const meta = read<BusinessDaysLocation>(`business-days/${location}/index.json`);
      const day = parseDate(w.date)!;
      expect(workweekOn(spansOf(meta.workweeks), day), `${location} ${w.date}`).not.toContain(weekdayName(day));
    }
  });

  it('are business days for the types they apply to, never reported as a weekend, and weekends for the others', async () => {
    // Every country's working days, and a sample of the regions that inherit them.
    const sample = working.filter((x, i) => !x.location.includes('-') || i % 25 === 0);
    for (const { location, w } of sample) {
      for (const type of TYPES) {
        const { status, body } = await getJson(app, `/v1/business-days/${location}?date=${w.date}&type=${type}`);
        expect(status).toBe(200);
        expect(body.working_day, `${location} ${w.date}`).toEqual(w);
        expect(body.basis).toMatch(/^(official|corroborated|rules)$/);
        if (w.applies_to.includes(type)) {
          expect(body.is_business_day, `${location} ${w.date} ${type}`).toBe(true);
          expect(body.reason).toBeUndefined();
        } else {
          expect(body.is_business_day).toBe(false);
          expect(body.reason).toBe('weekend');
        }
      }
    }
  });
});

describe('transferred days off', () => {
  it('are days off for the types they close, and carry the date they came from where the act says it', async () => {
    const transferred = years.flatMap(({ meta, doc }) => doc.holidays.filter((h) => h.transferred).map((h) => ({ location: meta.location, h, official: doc.basis === 'official' })));
    expect(transferred.length).toBeGreaterThan(50);
    const ru = transferred.find((x) => x.location === 'RU' && x.h.date === '2025-05-02');
    expect(ru?.h.transferred_from).toBe('2025-01-04');
    for (const { location, h, official } of transferred.filter((x) => !x.location.includes('-'))) {
      // In a complete year every row is the schedule's; other years of the same country (Kyrgyzstan's before and
      // after 2023) may carry python-holidays' decreed transfers, projected (rules).
      if (official) expect(h.basis, `${location} ${h.date}`).toBe('official');
      for (const type of h.closes) {
        const { body } = await getJson(app, `/v1/business-days/${location}?date=${h.date}&type=${type}`);
        expect(body.is_business_day, `${location} ${h.date} ${type}`).toBe(false);
      }
    }
  });
});

describe('count over a whole year', () => {
  it('equals weekdays of the workweek minus closing days off plus working weekend days, for every official location-year', async () => {
    const countries = years.filter(({ meta, doc }) => !meta.location.includes('-') && doc.basis === 'official');
    expect(countries.length).toBeGreaterThan(50);
    for (const { meta, doc } of countries) {
      const spans = spansOf(meta.workweeks);
      for (const type of TYPES) {
        const closed = new Set(doc.holidays.filter((h) => h.closes.includes(type)).map((h) => h.date));
        const working = new Set(doc.working_days.filter((w) => w.applies_to.includes(type)).map((w) => w.date));
        let weekdays = 0;
        let daysOff = 0;
        for (let d = daysFromCivil(doc.year, 1, 1); d <= daysFromCivil(doc.year, 12, 31); d++) {
          if (!workweekOn(spans, d).includes(weekdayName(d))) continue;
          weekdays++;
          if (closed.has(formatDate(d))) daysOff++;
        }
        const { body } = await getJson(app, `/v1/business-days/${meta.location}/count?start=${doc.year}-01-01&end=${doc.year}-12-31&type=${type}`);
        expect(body.business_days, `${meta.location} ${doc.year} ${type}`).toBe(weekdays - daysOff + working.size);
        expect(body.working_weekend_days).toBe(working.size);
        expect(body.working_day_list.map((w: { date: string }) => w.date)).toEqual([...working].sort());
        expect(body.business_days).toBe(body.total_days - body.weekend_days - body.holidays + body.working_weekend_days);
        expect(body.basis).toBe('official');
      }
    }
  });
});

describe('basis', () => {
  it('is official exactly for the location-years the sources publish in full (countries)', async () => {
    const dir = join(import.meta.dirname, '..', 'sources', 'holidays');
    const official = await loadOfficial(dir, loadCuration(dir), Number(list.range.start.slice(0, 4)));
    const first = Number(list.range.start.slice(0, 4));
    const last = Number(list.range.end.slice(0, 4));
    const expected = new Map<string, number[]>();
    for (const y of official.years) if (y.year >= first && y.year <= last) expected.set(y.location, [...(expected.get(y.location) ?? []), y.year]);
    for (const l of list.locations.filter((x) => !x.location.includes('-'))) {
      expect(l.official_years, l.location).toEqual((expected.get(l.location) ?? []).sort((a, b) => a - b));
    }
    for (const c of ['CN', 'RU', 'KR', 'JP', 'TW', 'HK', 'SG']) expect(expected.get(c)?.length ?? 0, c).toBeGreaterThan(0);
  });

  it('is carried by the year files, the location index and every answer; a range is official only when every year is', async () => {
    const cn = read<BusinessDaysLocation>('business-days/CN/index.json');
    const officialYears = new Set(list.locations.find((l) => l.location === 'CN')!.official_years);
    for (const span of cn.basis) for (let y = span.from; y <= span.to; y++) expect(officialYears.has(y), String(y)).toBe(span.basis === 'official');
    expect(read<BusinessDaysYear>('business-days/CN/2025.json').basis).toBe('official');
    // A projected year is never official: `rules`, or `corroborated` where python-holidays' projection of the same
    // 2024 holiday measures agrees on every day (both leave out the State Council's yearly swapped working days).
    expect(['rules', 'corroborated']).toContain(read<BusinessDaysYear>('business-days/CN/2040.json').basis);
    // A projected year cites only the acts its rule rows and corrections rest on, never a schedule.
    expect(read<BusinessDaysYear>('business-days/CN/2040.json').sources.map((c) => c.id)).not.toContainEqual(expect.stringMatching(/^CN\/notice-/));
    expect(read<BusinessDaysYear>('business-days/CN/2025.json').sources[0].url).toMatch(/^https:\/\/www\.gov\.cn\//);

    expect((await getJson(app, '/v1/business-days/CN/add?start=2025-01-24&days=1')).body).toMatchObject({ result: '2025-01-26', basis: 'official' });
    expect((await getJson(app, '/v1/business-days/CN/add?start=2025-12-20&days=30')).body.basis).toBe('official');
    const far = (await getJson(app, '/v1/business-days/CN/add?start=2026-12-20&days=30')).body;
    // 2027 is projected (rules, or corroborated where python-holidays' projection agrees): never official, and the
    // answer's basis is that year's.
    const projected = read<BusinessDaysYear>('business-days/CN/2027.json').basis;
    expect(projected).not.toBe('official');
    expect(far.basis, 'the result lies in a projected year').toBe(projected);
    expect((await getJson(app, '/v1/business-days/CN/subtract?start=2025-01-05&days=5')).body.basis).toBe('official');
    expect((await getJson(app, '/v1/business-days/CN/next?from=2025-01-24')).body).toMatchObject({ next: '2025-01-26', basis: 'official' });
    expect((await getJson(app, '/v1/business-days/CN/count?start=2026-06-01&end=2027-06-01')).body.basis).toBe(projected);
    // A year both sources agree on answers corroborated; a range is corroborated only when no year in it is rules.
    expect(read<BusinessDaysYear>('business-days/US/2026.json').basis).toBe('corroborated');
    expect((await getJson(app, '/v1/business-days/US?date=2026-07-03')).body).toMatchObject({ basis: 'corroborated', working_day: null });
    expect((await getJson(app, '/v1/business-days/US/count?start=2026-01-01&end=2026-12-31')).body.basis).toBe('corroborated');
    // A location whose 2025 is corroborated and 2026 rules (found in the data, so it tracks the sources).
    const mixed = list.locations.find((l) => {
      const b = read<BusinessDaysLocation>(`business-days/${l.location}/index.json`).basis;
      const of = (y: number) => b.find((s) => s.from <= y && y <= s.to)?.basis;
      return of(2025) === 'corroborated' && of(2026) === 'rules';
    })!;
    expect(mixed, 'a location corroborated in 2025 and rules in 2026').toBeDefined();
    expect((await getJson(app, `/v1/business-days/${mixed.location}/count?start=2025-01-01&end=2025-12-31`)).body.basis).toBe('corroborated');
    expect((await getJson(app, `/v1/business-days/${mixed.location}/count?start=2025-06-01&end=2026-06-01`)).body.basis).toBe('rules');
    expect((await getJson(app, '/v1/business-days/JP/count?start=2026-06-01&end=2027-06-01')).body.basis, 'official then corroborated').toBe('corroborated');
  });

  it('keeps a date-holidays day that the schedule does not give off as a named day that closes nothing', async () => {
    // Children's Day: a half day for children under 14 only (全国年节及纪念日放假办法 art. 3).
    const { body } = await getJson(app, '/v1/business-days/CN?date=2024-05-31');
    expect(body.is_business_day).toBe(true);
    const year = read<BusinessDaysYear>('business-days/CN/2026.json');
    const children = year.holidays.find((h) => h.date === '2026-06-01');
    expect(children?.closes).toEqual([]);
    expect((await getJson(app, '/v1/business-days/CN?date=2026-06-01')).body.is_business_day).toBe(true);
  });
});

describe('curated official calendars fail closed', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
  function folder(days: string[], yearsRows: string[] = [], citations = ['decree-1335,Decree,1335,Government,2024-10-04,https://government.ru/docs/,,']) {
    const dir = mkdtempSync(join(tmpdir(), 'refdata-official-'));
    dirs.push(dir);
    mkdirSync(join(dir, 'RU'));
    writeFileSync(join(dir, 'RU', 'citations.csv'), [HEADERS.citations, ...citations].join('\n') + '\n');
    writeFileSync(join(dir, 'RU', 'days.csv'), [HEADERS.days, ...days].join('\n') + '\n');
    if (yearsRows.length) writeFileSync(join(dir, 'RU', 'years.csv'), [HEADERS.years, ...yearsRows].join('\n') + '\n');
    return dir;
  }
  const cite = 'decree-1335';

  it('reads a good row, and resolves its citation', () => {
    const data = loadCuration(folder([`RU,2025-05-02,transferred,Transferred day off,Перенос,2025-01-04,,,${cite},`], [`RU,2025,${cite},`]));
    expect(data.days[0]).toMatchObject({ location: 'RU', kind: 'transferred', refDate: '2025-01-04', closes: ['business', 'banking', 'government'], citations: ['RU/decree-1335'] });
    expect(data.years).toMatchObject([{ location: 'RU', year: 2025, citations: ['RU/decree-1335'] }]);
    expect(data.citations.get('RU/decree-1335')).toEqual({ id: 'RU/decree-1335', title: 'Decree', number: '1335', issuer: 'Government', date: '2024-10-04', url: 'https://government.ru/docs/', archive_url: null });
  });

  it.each([
    ['a bad kind', `RU,2025-05-02,day_off,X,X,,,,${cite},`, /kind must be/],
    ['an impossible date', `RU,2025-02-30,holiday,X,X,,,,${cite},`, /date must be a date/],
    ['no citation', 'RU,2025-05-02,holiday,X,X,,,,,', /citation is empty/],
    ['a citation no citations.csv lists', 'RU,2025-05-02,holiday,X,X,,,,decree-9,', /cites RU\/decree-9, which no citations.csv lists/],
    ['another country in the folder', `KZ,2025-05-02,holiday,X,X,,,,${cite},`, /must be RU/],
    ['an unknown day type', `RU,2025-05-02,holiday,X,X,,shops,,${cite},`, /unknown day type/],
    ['a ref_date on a plain holiday', `RU,2025-05-02,holiday,X,X,2025-01-04,,,${cite},`, /ref_date/],
  ])('refuses %s, naming the file and line', (_what, row, message) => {
    expect(() => loadCuration(folder([row]))).toThrow(message);
    expect(() => loadCuration(folder([row]))).toThrow(/RU\/days\.csv line 2/);
  });

  it('refuses to cite an act that has no address yet, and a bad URL', () => {
    const noUrl = ['decree-1335,Decree,1335,,2024-10-04,,,not found yet'];
    expect(() => loadCuration(folder([`RU,2025-05-02,holiday,X,X,,,,${cite},`], [], noUrl))).toThrow(/cites RU\/decree-1335, whose url must be an http\(s\) URL/);
    expect(() => loadCuration(folder([], [], noUrl))).not.toThrow(); // listed, not cited: a research note
    expect(() => loadCuration(folder([], [], ['decree-1335,Decree,,,,government.ru/docs,,']))).toThrow(/citations\.csv line 2: url must be an http\(s\) URL/);
  });

  it('refuses a dated series that could be a rule, and accepts one decree per year', () => {
    const series = [2018, 2019, 2020, 2021, 2022].map((y) => `RU,${y}-03-05,holiday,X Day,X,,,,${cite},`);
    expect(() => loadCuration(folder(series))).toThrow(/dated series that could be rules[^]*RU adds "X Day" citing RU\/decree-1335, in 5 years/);
    const decrees = [2018, 2019, 2020, 2021, 2022].map((y) => `decree-${y},Decree of ${y},,,,https://government.ru/docs/${y},,`);
    const perYear = [2018, 2019, 2020, 2021, 2022].map((y) => `RU,${y}-03-05,holiday,X Day,X,,,,decree-${y},`);
    expect(() => loadCuration(folder(perYear, [], decrees))).not.toThrow();
  });

  it('takes closes "none" in rules.csv (a named holiday that closes nothing), and refuses it on a day off in days.csv', () => {
    const dir = folder([]);
    writeFileSync(join(dir, 'RU', 'rules.csv'), [HEADERS.rules, `RU,05-08,X Day,X,public,none,,2024,,${cite},suspended`].join('\n') + '\n');
    expect(loadCuration(dir).rules[0]).toMatchObject({ name: 'X Day', type: 'public', closes: [] });
    expect(() => loadCuration(folder([`RU,2025-05-02,holiday,X,X,,none,,${cite},`]))).toThrow(/RU\/days\.csv line 2: closes "none" is for rules\.csv only/);
  });

  it('refuses a file whose header was cut or changed', () => {
    const dir = folder([]);
    writeFileSync(join(dir, 'RU', 'days.csv'), 'location,date,kind\nRU,2025-05-02,holiday\n');
    expect(() => loadCuration(dir)).toThrow(/RU\/days\.csv line 1: the header must be/);
  });
});
