/**
 * Timezones: offsets on both sides of real transitions (frozen clocks, facts
 * from official sources in test/golden/timezones.json), the list's
 * pagination, identifier encoding and aliases, and bad input.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appAt, getJson } from './helpers.js';
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
