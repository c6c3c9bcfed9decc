/**
 * Timezones: offsets on both sides of real transitions (frozen clocks, facts
 * from official sources in test/golden/timezones.json), the list's
 * pagination, identifier encoding and aliases, the zones outside zone.tab
 * (UTC, Etc/GMT±N, ...) and `include=all`, and bad input.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TimezonesIndex } from '../lib/schema-types.js';
import { appAt, DATA_DIR, getJson } from './helpers.js';
import { assertMatchesSchema } from './schemas.js';

const golden = JSON.parse(readFileSync(join(import.meta.dirname, 'golden', 'timezones.json'), 'utf8'));
const enc = encodeURIComponent;

describe('offset in force at the request instant (golden, frozen clock)', () => {
  for (const g of golden.checks) {
    it(`${g.zone} at ${g.at}: ${g.offset}`, async () => {
      const { status, body } = await getJson(appAt(new Date(g.at)), `/v1/timezones/${enc(g.zone)}`);
      expect(status).toBe(200);
      assertMatchesSchema('timezone.schema.json', body);
      expect(body.offset).toBe(g.offset);
      const [h, m] = g.offset.slice(1).split(':').map(Number);
      expect(body.offset_minutes).toBe((g.offset[0] === '-' ? -1 : 1) * (h * 60 + m));
      if (g.is_dst !== undefined) expect(body.is_dst).toBe(g.is_dst);
      if (g.abbreviation) expect(body.abbreviation).toBe(g.abbreviation);
    });
  }

  it('says what comes next and keeps the standard offset beside the current one', async () => {
    const { body } = await getJson(appAt(new Date('2026-07-01T00:00:00Z')), '/v1/timezones/America%2FNew_York');
    expect(body).toMatchObject({ id: 'America/New_York', name: 'Eastern Time', country: 'US', offset: '-04:00', standard_offset: '-05:00', standard_offset_minutes: -300, is_dst: true, abbreviation: 'EDT' });
    expect(body.next_transition).toMatchObject({ at: '2026-11-01T06:00:00Z', offset: '-05:00', abbreviation: 'EST', is_dst: false });
    const tokyo = (await getJson(appAt(new Date('2026-07-01T00:00:00Z')), '/v1/timezones/Asia%2FTokyo')).body;
    expect(tokyo).toMatchObject({ offset: '+09:00', next_transition: null, is_dst: false });
  });

  it('a cached answer is not reused across a transition', async () => {
    const before = await getJson(appAt(new Date('2026-03-08T06:59:59Z')), '/v1/timezones/America%2FNew_York');
    const after = await getJson(appAt(new Date('2026-03-08T07:00:00Z')), '/v1/timezones/America%2FNew_York');
    const beforeAgain = await getJson(appAt(new Date('2026-03-08T06:00:00Z')), '/v1/timezones/America%2FNew_York');
    expect([before.body.offset, after.body.offset, beforeAgain.body.offset]).toEqual(['-05:00', '-04:00', '-05:00']);
  });
});

describe('GET /v1/timezones', () => {
  const app = appAt(new Date('2026-11-21T12:00:00Z'));
  it('defaults to page 1 of 50, sorted by id, with the exact envelope', async () => {
    const { status, body } = await getJson(app, '/v1/timezones');
    expect(status).toBe(200);
    assertMatchesSchema('timezone-list.schema.json', body);
    expect(body.pagination).toEqual({ page: 1, per_page: 50, total_items: 418, total_pages: 9 });
    expect(body.data).toHaveLength(50);
    const ids = body.data.map((z: { id: string }) => z.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids[0]).toBe('Africa/Abidjan');
  });

  it('walks every page: 418 distinct zones, the last page short, past the end empty', async () => {
    const seen = new Set<string>();
    for (let page = 1; page <= 5; page++) {
      const { body } = await getJson(app, `/v1/timezones?page=${page}&per_page=100`);
      for (const z of body.data) seen.add(z.id);
      if (page === 5) expect(body.data).toHaveLength(18);
    }
    expect(seen.size).toBe(418);
    const past = await getJson(app, '/v1/timezones?page=6&per_page=100');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ data: [], pagination: { page: 6, per_page: 100, total_items: 418, total_pages: 5 } });
    expect((await getJson(app, '/v1/timezones?per_page=1')).body.pagination).toMatchObject({ per_page: 1, total_pages: 418 });
  });

  for (const [q, param] of [['page=0', 'page'], ['page=-1', 'page'], ['page=1.5', 'page'], ['page=abc', 'page'], ['page=', 'page'], ['per_page=0', 'per_page'], ['per_page=101', 'per_page'], ['per_page=1e2', 'per_page'], ['page=1&page=2', 'page']]) {
    it(`?${q} → 400`, async () => {
      const { status, body } = await getJson(app, `/v1/timezones?${q}`);
      expect(status).toBe(400);
      assertMatchesSchema('error.schema.json', body);
      expect(body.error.parameter).toBe(param);
    });
  }
});

describe('GET /v1/timezones/{identifier}', () => {
  const app = appAt(new Date('2026-11-21T12:00:00Z'));
  it('accepts the encoded id, the unencoded id and any case', async () => {
    for (const path of ['America%2FNew_York', 'America/New_York', 'america%2Fnew_york', 'America%2fNew_York']) {
      const { status, body } = await getJson(app, `/v1/timezones/${path}`);
      expect(status, path).toBe(200);
      expect(body.id).toBe('America/New_York');
    }
    expect((await getJson(app, '/v1/timezones/America%2FArgentina%2FBuenos_Aires')).body.id).toBe('America/Argentina/Buenos_Aires');
  });

  it('answers aliases with the canonical zone', async () => {
    for (const [alias, id] of [['Asia/Calcutta', 'Asia/Kolkata'], ['Europe/Kiev', 'Europe/Kyiv'], ['America/Buenos_Aires', 'America/Argentina/Buenos_Aires'], ['US/Eastern', 'America/New_York']]) {
      const { status, body } = await getJson(app, `/v1/timezones/${enc(alias)}`);
      expect(status, alias).toBe(200);
      expect(body.id).toBe(id);
      expect(body.aliases).toContain(alias);
    }
  });

  for (const bad of ['Mars%2FOlympus_Mons', 'America', 'America%2F', '..%2F..%2Fetc%2Fpasswd', '%2e%2e%2Findex', 'x'.repeat(300), 'UTC%00', 'Europe%2FLondon%2F..%2F..%2Fmanifest']) {
    it(`${bad.slice(0, 40)} → 404 JSON`, async () => {
      const { status, body } = await getJson(app, `/v1/timezones/${bad}`);
      expect(status).toBe(404);
      assertMatchesSchema('error.schema.json', body);
    });
  }

  it('every zone answers and validates', async () => {
    const all = (await getJson(app, '/v1/timezones?per_page=100&page=1')).body.data.concat(
      ...(await Promise.all([2, 3, 4, 5].map(async (p) => (await getJson(app, `/v1/timezones?per_page=100&page=${p}`)).body.data))),
    );
    for (const z of all) {
      const { status, body } = await getJson(app, `/v1/timezones/${enc(z.id)}`);
      expect(status).toBe(200);
      assertMatchesSchema('timezone.schema.json', body);
      expect(body).toEqual(z);
    }
  });
});

/**
 * The zones outside zone.tab, typed from tzdata's own files: `etcetera`
 * (https://data.iana.org/time-zones/tzdb/etcetera: Etc/UTC, Etc/GMT and
 * Etc/GMT-14..Etc/GMT+12, "Etc/GMT+4 ... corresponds to 4 hours behind UT"),
 * and the rule-named zones of `europe` and `northamerica` (CET, EET, MET, WET;
 * EST, MST, HST, EST5EDT, CST6CDT, MST7MDT, PST8PDT). Factory (`factory`)
 * marks an unknown zone and is not served.
 */
const ETC = ['Etc/GMT', 'Etc/UTC', ...Array.from({ length: 14 }, (_, i) => `Etc/GMT-${i + 1}`), ...Array.from({ length: 12 }, (_, i) => `Etc/GMT+${i + 1}`)];
const RULE_NAMED = ['CET', 'CST6CDT', 'EET', 'EST', 'EST5EDT', 'HST', 'MET', 'MST', 'MST7MDT', 'PST8PDT', 'WET'];

describe('zones outside zone.tab (UTC, Etc/GMT±N, CET, ...)', () => {
  const app = appAt(new Date('2026-11-21T12:00:00Z'));

  // [request, zone answered, offset, abbreviation, name]
  const cases: [string, string, string, string, string][] = [
    ['UTC', 'Etc/UTC', '+00:00', 'UTC', 'Coordinated Universal Time'],
    ['Etc%2FUTC', 'Etc/UTC', '+00:00', 'UTC', 'Coordinated Universal Time'],
    ['Etc/UTC', 'Etc/UTC', '+00:00', 'UTC', 'Coordinated Universal Time'],
    ['utc', 'Etc/UTC', '+00:00', 'UTC', 'Coordinated Universal Time'],
    ['Zulu', 'Etc/UTC', '+00:00', 'UTC', 'Coordinated Universal Time'],
    ['Etc%2FUniversal', 'Etc/UTC', '+00:00', 'UTC', 'Coordinated Universal Time'],
    ['GMT', 'Etc/GMT', '+00:00', 'GMT', 'Greenwich Mean Time'],
    ['Etc%2FGMT', 'Etc/GMT', '+00:00', 'GMT', 'Greenwich Mean Time'],
    ['Etc%2FGreenwich', 'Etc/GMT', '+00:00', 'GMT', 'Greenwich Mean Time'],
    ['Etc%2FGMT%2B0', 'Etc/GMT', '+00:00', 'GMT', 'Greenwich Mean Time'],
    ['GMT0', 'Etc/GMT', '+00:00', 'GMT', 'Greenwich Mean Time'],
    // POSIX signs: Etc/GMT+5 is five hours *behind* UTC.
    ['Etc%2FGMT%2B5', 'Etc/GMT+5', '-05:00', '-05', 'GMT-05:00'],
    ['Etc/GMT+5', 'Etc/GMT+5', '-05:00', '-05', 'GMT-05:00'],
    ['Etc%2FGMT%2B12', 'Etc/GMT+12', '-12:00', '-12', 'GMT-12:00'],
    ['Etc%2FGMT-14', 'Etc/GMT-14', '+14:00', '+14', 'GMT+14:00'],
    ['etc%2Fgmt-5', 'Etc/GMT-5', '+05:00', '+05', 'GMT+05:00'],
    // 21 November: standard time on both sides of the Atlantic.
    ['CET', 'CET', '+01:00', 'CET', 'Central European Time'],
    ['EST5EDT', 'EST5EDT', '-05:00', 'EST', 'Eastern Time'],
    ['HST', 'HST', '-10:00', 'HST', 'Hawaii-Aleutian Time'],
  ];
  for (const [path, id, offset, abbreviation, name] of cases) {
    it(`${path} → ${id} ${offset} ${abbreviation}, no country`, async () => {
      const { status, body } = await getJson(app, `/v1/timezones/${path}`);
      expect(status).toBe(200);
      assertMatchesSchema('timezone.schema.json', body);
      expect(body).toMatchObject({ id, offset, abbreviation, name, is_dst: false });
      expect('country' in body).toBe(false);
    });
  }

  it('the fixed offsets never change: no next transition', async () => {
    for (const id of ETC) {
      const { body } = await getJson(app, `/v1/timezones/${enc(id)}`);
      expect(body.next_transition, id).toBeNull();
      expect(body.offset_minutes, id).toBe(id === 'Etc/GMT' || id === 'Etc/UTC' ? 0 : -Number(id.slice(7)) * 60);
    }
  });

  it('UTC and GMT list their tzdata links as aliases', async () => {
    expect((await getJson(app, '/v1/timezones/UTC')).body.aliases).toEqual(['Etc/UCT', 'Etc/Universal', 'Etc/Zulu', 'UCT', 'UTC', 'Universal', 'Zulu']);
    expect((await getJson(app, '/v1/timezones/GMT')).body.aliases).toEqual(['Etc/GMT+0', 'Etc/GMT-0', 'Etc/GMT0', 'Etc/Greenwich', 'GMT', 'GMT+0', 'GMT-0', 'GMT0', 'Greenwich']);
  });

  it('names agree with ICU (Intl.DateTimeFormat, CLDR English) for Etc/UTC and Etc/GMT±N', () => {
    // Etc/GMT is left out: ICU names it "Coordinated Universal Time"; we keep CLDR's metazone name for GMT.
    const index = JSON.parse(readFileSync(join(DATA_DIR, 'v1', 'timezones', 'index.json'), 'utf8')) as TimezonesIndex;
    for (const z of index.other_zones.filter((o) => o.id.startsWith('Etc/') && o.id !== 'Etc/GMT')) {
      const icu = new Intl.DateTimeFormat('en-US', { timeZone: z.id, timeZoneName: 'long' }).formatToParts(0).find((p) => p.type === 'timeZoneName')!.value;
      expect(z.name, z.id).toBe(icu);
    }
  });

  it('Factory (an unknown zone) and the POSIX string forms are not zones', async () => {
    for (const path of ['Factory', 'GMT%2B5', 'UTC%2B01%3A00', 'Etc%2FGMT%2B13', 'Etc%2FGMT-15']) {
      const { status, body } = await getJson(app, `/v1/timezones/${path}`);
      expect(status, path).toBe(404);
      expect(body.error.code).toBe('unknown_timezone');
    }
  });

  it('?include=all lists every zone, sorted; the default stays zone.tab', async () => {
    const all: { id: string; country?: string }[] = [];
    for (let page = 1; ; page++) {
      const { status, body } = await getJson(app, `/v1/timezones?include=all&per_page=100&page=${page}`);
      expect(status).toBe(200);
      assertMatchesSchema('timezone-list.schema.json', body);
      all.push(...body.data);
      if (page >= body.pagination.total_pages) {
        expect(body.pagination.total_items).toBe(418 + ETC.length + RULE_NAMED.length);
        break;
      }
    }
    const ids = all.map((z) => z.id);
    expect(ids).toEqual([...ids].sort());
    expect(new Set(ids).size).toBe(ids.length);
    expect(all.filter((z) => !z.country).map((z) => z.id).sort()).toEqual([...ETC, ...RULE_NAMED].sort());
    const tab = all.filter((z) => z.country).map((z) => z.id);
    expect(tab).toHaveLength(418);
    expect((await getJson(app, '/v1/timezones?per_page=100')).body.data.map((z: { id: string }) => z.id)).toEqual(tab.slice(0, 100));
  });

  it('every zone outside zone.tab answers, validates, and equals its list item', async () => {
    const { body } = await getJson(app, '/v1/timezones?include=all&per_page=100&page=1');
    const others = [...body.data];
    for (let p = 2; p <= 5; p++) others.push(...(await getJson(app, `/v1/timezones?include=all&per_page=100&page=${p}`)).body.data);
    for (const z of others.filter((o: { country?: string }) => !o.country)) {
      const one = await getJson(app, `/v1/timezones/${enc(z.id)}`);
      expect(one.status, z.id).toBe(200);
      assertMatchesSchema('timezone.schema.json', one.body);
      expect(one.body).toEqual(z);
    }
  });

  for (const [q, code, param] of [['include=etc', 'invalid_include', 'include'], ['include=', 'invalid_include', 'include'], ['include=all&include=all', 'duplicate_parameter', 'include']]) {
    it(`?${q} → 400 ${code}`, async () => {
      const { status, body } = await getJson(app, `/v1/timezones?${q}`);
      expect(status).toBe(400);
      assertMatchesSchema('error.schema.json', body);
      expect(body.error).toMatchObject({ code, parameter: param });
    });
  }
});

describe("the dataset's README", () => {
  // The counts live in the README the build writes (dist-data/v1/README.md), not in the project's docs, so a
  // tzdata refresh cannot leave a stale figure behind a passing test.
  it('states the zone and alias counts the index holds', () => {
    const index = JSON.parse(readFileSync(join(DATA_DIR, 'v1', 'timezones', 'index.json'), 'utf8')) as TimezonesIndex;
    const readme = readFileSync(join(DATA_DIR, 'v1', 'README.md'), 'utf8').replace(/\s+/g, ' '); // as rendered: wrapping aside
    const aliases = Object.keys(index.aliases).length + index.other_zones.reduce((n, z) => n + z.aliases.length, 0);
    expect(readme).toContain(`the ${index.zones.length} zones of \`zone.tab\`, ${index.other_zones.length} zones outside it, and ${aliases} aliases`);
  });
});
