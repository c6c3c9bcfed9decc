/**
 * Workweeks read from the first working day after the weekend (issue 15:
 * Israel's workweek was listed "monday … thursday, sunday"), everywhere the
 * field appears: the check, add and count answers over HTTP, each location's
 * index.json, the countries documents, the bulk workweeks table and the
 * @refdata/dataset package. The rule is lib/workweek.ts orderWorkweek.
 *
 * Weekends typed in by hand:
 * - IL Friday–Saturday: CLDR weekData (IL fri..sat), https://github.com/unicode-org/cldr/blob/main/common/supplemental/supplementalData.xml
 * - AE Thursday–Friday until 2006-08-31, Friday–Saturday until 2021-12-31:
 *   https://brecorder.com/news/3314690/uae-and-bahrain-switch-to-friday-saturday-weekend-20060902470867
 * - AE Saturday–Sunday since 2022-01-01: https://www.thenationalnews.com/uae/government/2021/12/07/breaking-uae-makes-major-changes-to-working-week
 * - SA Thursday–Friday until 2013-06-28, Friday–Saturday from Saturday 2013-06-29:
 *   https://www.crowell.com/en/insights/client-alerts/saudi-arabia-changes-weekend-to-friday-saturday-from-29-june-2013
 * - IR Friday only: CLDR weekData (IR fri..fri), same file.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import type { BusinessDaysLocation, Country, Workweek } from '../lib/schema-types.js';
import { appAt, DATA_DIR, getJson } from './helpers.js';
import { packedDataset } from './packed.js';

const SUN_THU: Workweek = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday'];
const SAT_WED: Workweek = ['saturday', 'sunday', 'monday', 'tuesday', 'wednesday'];
const MON_FRI: Workweek = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
const SAT_THU: Workweek = ['saturday', 'sunday', 'monday', 'tuesday', 'wednesday', 'thursday'];

const V1 = join(DATA_DIR, 'v1');
const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(V1, path), 'utf8')) as T;

/** Periods as [from, until, workweek], from the weekends above. */
const PERIODS: Record<string, [string | null, string | null, Workweek][]> = {
  IL: [[null, null, SUN_THU]],
  AE: [[null, '2006-08-31', SAT_WED], ['2006-09-01', '2021-12-31', SUN_THU], ['2022-01-01', null, MON_FRI]],
  SA: [[null, '2013-06-28', SAT_WED], ['2013-06-29', null, SUN_THU]],
};

/** Check answers on a date of each period: [location, date (weekday), is_business_day, workweek]. */
const CHECKS: [string, string, boolean, Workweek][] = [
  ['IL', '2025-09-21', true, SUN_THU], // Sunday
  ['IL', '2025-09-26', false, SUN_THU], // Friday
  ['AE', '2005-03-05', true, SAT_WED], // Saturday, Thursday–Friday weekend
  ['AE', '2021-06-06', true, SUN_THU], // Sunday, Friday–Saturday weekend
  ['AE', '2021-12-31', false, SUN_THU], // Friday, the last day of it
  ['AE', '2022-01-02', false, MON_FRI], // Sunday, Saturday–Sunday weekend
  ['AE', '2022-01-07', true, MON_FRI], // Friday
  ['SA', '2013-06-27', false, SAT_WED], // Thursday, Thursday–Friday weekend
  ['SA', '2013-06-29', false, SUN_THU], // Saturday, the first of the Friday–Saturday weekends
  ['SA', '2013-06-30', true, SUN_THU], // Sunday
];

describe('over HTTP', () => {
  const app = appAt();

  it.each(CHECKS)('%s on %s: business day %s, workweek %j', async (location, date, open, workweek) => {
    const { status, body } = await getJson(app, `/v1/business-days/${location}?date=${date}`);
    expect(status).toBe(200);
    expect(body.is_business_day).toBe(open);
    expect(body.workweek).toEqual(workweek);
  });

  it('add, subtract and count give the workweek at the result or the end', async () => {
    // AE: Thursday 2021-12-30 + 1 business day = Monday 2022-01-03 (Friday 31st was still weekend, then Saturday–Sunday).
    expect((await getJson(app, '/v1/business-days/AE/add?start=2021-12-30&days=1')).body).toMatchObject({ result: '2022-01-03', workweek: MON_FRI });
    expect((await getJson(app, '/v1/business-days/AE/subtract?start=2022-01-03&days=1')).body).toMatchObject({ result: '2021-12-30', workweek: SUN_THU });
    expect((await getJson(app, '/v1/business-days/SA/count?start=2013-06-22&end=2013-06-28')).body).toMatchObject({ workweek: SAT_WED });
    expect((await getJson(app, '/v1/business-days/IL/count?start=2025-09-21&end=2025-09-27')).body).toMatchObject({ workweek: SUN_THU });
  });
});

describe('in the files', () => {
  it.each(Object.entries(PERIODS))('%s index.json lists its periods in workweek order', (location, periods) => {
    const index = readJson<BusinessDaysLocation>(`business-days/${location}/index.json`);
    expect(index.workweeks.map((w) => [w.from, w.until, w.workweek])).toEqual(periods);
  });

  it('the countries documents carry today\'s workweek in the same order', () => {
    const today = (code: string) => readJson<Country>(`countries/${code}.json`).workweek;
    expect(today('IL')).toEqual(SUN_THU);
    expect(today('SA')).toEqual(SUN_THU);
    expect(today('AE')).toEqual(MON_FRI);
    expect(today('IR')).toEqual(SAT_THU);
    expect(readJson<{ countries: Country[] }>('countries/index.json').countries.find((c) => c.code === 'IL')!.workweek).toEqual(SUN_THU);
  });

  it('the bulk workweeks table lists them in that order too', () => {
    const plain = join(V1, 'bulk', 'workweeks.csv');
    let text: string;
    try {
      text = readFileSync(plain, 'utf8');
    } catch {
      text = gunzipSync(readFileSync(`${plain}.gz`)).toString('utf8');
    }
    expect(text).toContain(`"${SUN_THU.join(',')}"`);
    const ae = text.split(/\r?\n/).filter((line) => line.startsWith('AE,'));
    expect(ae.map((line) => /"([a-z,]+)"/.exec(line)?.[1])).toEqual(PERIODS.AE.map(([, , w]) => w.join(',')));
  });
});

describe('in the @refdata/dataset package', () => {
  let ds: any;

  beforeAll(async () => {
    const { out } = await packedDataset(); // packed once per run, shared with test/dataset-package.test.ts
    ds = await import(pathToFileURL(join(out, 'dataset-package', 'index.js')).href);
  }, 300_000);

  it('answers and documents read from the first working day', () => {
    for (const [location, date, open, workweek] of CHECKS) {
      expect(ds.checkDate(location, date), `${location} ${date}`).toMatchObject({ is_business_day: open, workweek });
    }
    for (const [location, periods] of Object.entries(PERIODS)) {
      expect(ds.getLocation(location).workweeks.map((w: { workweek: Workweek }) => w.workweek), location).toEqual(periods.map(([, , w]) => w));
    }
    expect(ds.getCountry('IL').workweek).toEqual(SUN_THU);
  });
});
