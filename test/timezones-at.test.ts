/**
 * Offsets at a given instant (`?at=`): facts typed by hand from the laws
 * cited, on both sides of real transitions from 1900 to 2100, answered with
 * the server's clock elsewhere; the golden facts of test/golden/timezones.json
 * through `at`; `at` on the list; and bad values. The machine check of every
 * zone against zdump is test/timezones-zdump.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appAt, getJson } from './helpers.js';
import { assertMatchesSchema } from './schemas.js';

const enc = encodeURIComponent;
/** A clock far from every instant asked about: `at`, not the clock, must decide. */
const app = appAt(new Date('2041-01-15T12:00:00Z'));

const US = 'https://www.law.cornell.edu/uscode/text/15/260a'; // DST from 2:00 a.m. on the second Sunday of March to 2:00 a.m. on the first Sunday of November; a State may exempt itself (Arizona does)
const US_1987 = 'https://www.law.cornell.edu/uscode/text/15/260a'; // its amendment notes: Pub. L. 99-359 (1986): from 1987 to 2006, DST from the first Sunday of April to the last Sunday of October
const EU = 'https://eur-lex.europa.eu/eli/dir/2000/84/oj'; // Directive 2000/84/EC arts. 2-3: summer time from 01:00 GMT on the last Sunday of March to 01:00 GMT on the last Sunday of October
const UK_1968 = 'https://www.legislation.gov.uk/ukpga/1968/45'; // British Standard Time Act 1968: GMT+1 all year until 31 October 1971 (tzdata: standard time "BST", not DST)
const US_1942 = 'https://en.wikisource.org/wiki/Page:United_States_Statutes_at_Large_Volume_56_Part_1.djvu/37'; // Act of January 20, 1942 (56 Stat. 9, Pub. L. 77-403): standard time advanced one hour from 2 a.m. on the twentieth day after enactment, 9 February 1942 ("War Time")
const ETC = 'https://data.iana.org/time-zones/tzdb/etcetera'; // Etc/GMT+N is N hours behind UT, abbreviation "-NN"

// [zone, at, offset, abbreviation, is_dst, source]; the second Sunday of March 2026 is the 8th, the last Sunday of March 2030 the 31st, and so on.
const FACTS: [string, string, string, string, boolean, string][] = [
  ['America/New_York', '2026-03-08T06:59:59Z', '-05:00', 'EST', false, US],
  ['America/New_York', '2026-03-08T07:00:00Z', '-04:00', 'EDT', true, US],
  ['America/New_York', '2026-07-01T12:00:00Z', '-04:00', 'EDT', true, US],
  ['America/New_York', '2026-11-01T05:59:59Z', '-04:00', 'EDT', true, US],
  ['America/New_York', '2026-11-01T06:00:00Z', '-05:00', 'EST', false, US],
  ['America/New_York', '1942-02-09T06:59:59Z', '-05:00', 'EST', false, US_1942],
  ['America/New_York', '1942-02-09T07:00:00Z', '-04:00', 'EWT', true, US_1942],
  ['America/New_York', '2006-04-02T06:59:59Z', '-05:00', 'EST', false, US_1987],
  ['America/New_York', '2006-04-02T07:00:00Z', '-04:00', 'EDT', true, US_1987],
  ['America/New_York', '2006-10-29T05:59:59Z', '-04:00', 'EDT', true, US_1987],
  ['America/New_York', '2006-10-29T06:00:00Z', '-05:00', 'EST', false, US_1987],
  ['America/New_York', '2099-03-08T07:00:00Z', '-04:00', 'EDT', true, US],
  ['America/New_York', '2099-11-01T05:59:59Z', '-04:00', 'EDT', true, US],
  ['America/New_York', '2099-11-01T06:00:00Z', '-05:00', 'EST', false, US],
  ['America/Phoenix', '2026-07-01T12:00:00Z', '-07:00', 'MST', false, US],
  ['Europe/Berlin', '2030-03-31T00:59:59Z', '+01:00', 'CET', false, EU],
  ['Europe/Berlin', '2030-03-31T01:00:00Z', '+02:00', 'CEST', true, EU],
  ['Europe/Berlin', '2030-10-27T00:59:59Z', '+02:00', 'CEST', true, EU],
  ['Europe/Berlin', '2030-10-27T01:00:00Z', '+01:00', 'CET', false, EU],
  ['Europe/Lisbon', '2030-03-31T01:00:00Z', '+01:00', 'WEST', true, EU],
  ['Europe/Paris', '2099-03-29T00:59:59Z', '+01:00', 'CET', false, EU],
  ['Europe/Paris', '2099-03-29T01:00:00Z', '+02:00', 'CEST', true, EU],
  ['Europe/London', '1970-01-15T12:00:00Z', '+01:00', 'BST', false, UK_1968],
  ['Europe/London', '1971-06-01T00:00:00Z', '+01:00', 'BST', false, UK_1968],
  ['Etc/GMT+5', '1970-01-01T00:00:00Z', '-05:00', '-05', false, ETC],
  ['Etc/GMT+5', '2099-12-31T23:59:59Z', '-05:00', '-05', false, ETC],
  ['Etc/GMT-14', '2050-06-01T00:00:00Z', '+14:00', '+14', false, ETC],
  ['UTC', '1999-12-31T23:59:59Z', '+00:00', 'UTC', false, ETC],
];

describe('at: offsets at instants from 1900 to 2100 (facts from the laws cited)', () => {
  for (const [zone, at, offset, abbreviation, is_dst, source] of FACTS) {
    it(`${zone} at ${at}: ${offset} ${abbreviation} (${source.replace(/^https:\/\//, '').slice(0, 40)})`, async () => {
      const { status, body, headers } = await getJson(app, `/v1/timezones/${enc(zone)}?at=${at}`);
      expect(status).toBe(200);
      assertMatchesSchema('timezone.schema.json', body);
      expect(body).toMatchObject({ at, offset, abbreviation, is_dst });
      // An answer for a given instant changes only with the dataset.
      expect(headers.get('cache-control')).toBe('public, max-age=3600, stale-while-revalidate=86400');
    });
  }

  it('says what comes next after that instant, not after now', async () => {
    const { body } = await getJson(app, '/v1/timezones/America%2FNew_York?at=2026-07-01T12:00:00Z');
    expect(body.next_transition).toMatchObject({ at: '2026-11-01T06:00:00Z', offset: '-05:00', abbreviation: 'EST', is_dst: false });
    const london = (await getJson(app, '/v1/timezones/Europe%2FLondon?at=1970-01-15T12:00:00Z')).body;
    expect(london.next_transition).toMatchObject({ at: '1971-10-31T02:00:00Z', offset: '+00:00', abbreviation: 'GMT' });
    const last = (await getJson(app, '/v1/timezones/America%2FNew_York?at=2100-12-31T23:59:59Z')).body;
    expect(last.next_transition).toBeNull(); // the window ends before 2101
  });

  it('reads offsets, fractions and an unencoded + (a space) as the same instant', async () => {
    const want = (await getJson(app, '/v1/timezones/Europe%2FBerlin?at=2030-03-31T01:00:00Z')).body;
    for (const at of ['2030-03-31T03:00:00%2B02:00', '2030-03-31T03:00:00+02:00', '2030-03-30T21:00:00-04:00', '2030-03-31t01:00:00z', '2030-03-31T01:00:00.000Z', '2030-03-31T01:00:00.999Z']) {
      const { status, body } = await getJson(app, `/v1/timezones/Europe%2FBerlin?at=${at}`);
      expect(status, at).toBe(200);
      expect(body, at).toEqual(want);
    }
    const before = (await getJson(app, '/v1/timezones/Europe%2FBerlin?at=2030-03-31T00:59:59.999Z')).body;
    expect([before.at, before.abbreviation]).toEqual(['2030-03-31T00:59:59Z', 'CET']);
  });

  it('aliases answer their zone at the instant', async () => {
    const { body } = await getJson(app, `/v1/timezones/US%2FEastern?at=2026-07-01T12:00:00Z`);
    expect(body).toMatchObject({ id: 'America/New_York', offset: '-04:00' });
  });
});

describe('at: the golden facts of test/golden/timezones.json, asked for instead of frozen', () => {
  const golden = JSON.parse(readFileSync(join(import.meta.dirname, 'golden', 'timezones.json'), 'utf8')) as { checks: { zone: string; at: string; offset: string; is_dst?: boolean; abbreviation?: string }[] };
  for (const g of golden.checks) {
    it(`${g.zone} at ${g.at}: ${g.offset}`, async () => {
      const { status, body } = await getJson(app, `/v1/timezones/${enc(g.zone)}?at=${g.at}`);
      expect(status).toBe(200);
      expect(body.offset).toBe(g.offset);
      if (g.is_dst !== undefined) expect(body.is_dst).toBe(g.is_dst);
      if (g.abbreviation) expect(body.abbreviation).toBe(g.abbreviation);
    });
  }
});

describe('at on the list', () => {
  it('every item is the zone answer at that instant', async () => {
    const { status, body } = await getJson(app, '/v1/timezones?page=2&per_page=100&at=1985-06-01T00:00:00Z');
    expect(status).toBe(200);
    assertMatchesSchema('timezone-list.schema.json', body);
    expect(body.pagination).toEqual({ page: 2, per_page: 100, total_items: 418, total_pages: 5 });
    for (const z of body.data.slice(0, 25)) {
      expect(z.at).toBe('1985-06-01T00:00:00Z');
      expect(z).toEqual((await getJson(app, `/v1/timezones/${enc(z.id)}?at=1985-06-01T00:00:00Z`)).body);
    }
  });

  it('with include=all too', async () => {
    const items = [];
    for (let page = 1; page <= 5; page++) items.push(...(await getJson(app, `/v1/timezones?include=all&per_page=100&page=${page}&at=2026-07-01T12:00:00Z`)).body.data);
    expect(items).toHaveLength(457);
    const utc = items.find((z: { id: string }) => z.id === 'Etc/UTC');
    expect(utc).toMatchObject({ id: 'Etc/UTC', offset: '+00:00', at: '2026-07-01T12:00:00Z' });
  });
});

describe('at: bad values answer 400 naming `at`', () => {
  const cases: [string, string][] = [
    ['2026-07-01', 'invalid_at'],
    ['2026-07-01T12:00:00', 'invalid_at'],
    ['2026-07-01T12:00Z', 'invalid_at'],
    ['2026-02-29T12:00:00Z', 'invalid_at'],
    ['2026-06-30T23:59:60Z', 'invalid_at'],
    ['1782907200', 'invalid_at'],
    ['now', 'invalid_at'],
    ['', 'invalid_at'],
    ['1899-12-31T23:59:59Z', 'out_of_range'],
    ['1900-01-01T00:59:59%2B01:00', 'out_of_range'],
    ['2101-01-01T00:00:00Z', 'out_of_range'],
    ['2100-12-31T20:00:00-04:00', 'out_of_range'],
  ];
  for (const [at, code] of cases) {
    for (const path of ['/v1/timezones/Europe%2FParis', '/v1/timezones']) {
      it(`${path}?at=${at} → ${code}`, async () => {
        const { status, body, headers } = await getJson(app, `${path}?at=${at}`);
        expect(status).toBe(400);
        assertMatchesSchema('error.schema.json', body);
        expect(body.error).toMatchObject({ code, parameter: 'at' });
        expect(headers.get('cache-control')).toBe('no-store');
      });
    }
  }

  it('the window edges answer', async () => {
    for (const at of ['1900-01-01T00:00:00Z', '1900-01-01T01:00:00%2B01:00', '2100-12-31T23:59:59Z']) {
      expect((await getJson(app, `/v1/timezones/Europe%2FParis?at=${at}`)).status, at).toBe(200);
    }
  });

  it('twice → duplicate_parameter; an unknown zone is still a 404', async () => {
    const twice = await getJson(app, '/v1/timezones/UTC?at=2026-01-01T00:00:00Z&at=2027-01-01T00:00:00Z');
    expect([twice.status, twice.body.error.code, twice.body.error.parameter]).toEqual([400, 'duplicate_parameter', 'at']);
    expect((await getJson(app, '/v1/timezones/Mars%2FOlympus?at=2026-01-01T00:00:00Z')).status).toBe(404);
  });
});
