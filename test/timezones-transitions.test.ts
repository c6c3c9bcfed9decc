/**
 * GET /v1/timezones/{id}/transitions: a year's changes (facts typed from the
 * laws cited), the whole window without `year`, agreement with the zone's
 * static document, and bad input. Also the slicing in lib/zone-timeline.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { zoneDocumentPath } from '../lib/zone-file.js';
import { buildTimeline, transitionsBetween } from '../lib/zone-timeline.js';
import type { TimezonesIndex, TimezoneZone } from '../lib/schema-types.js';
import { appAt, DATA_DIR, getJson } from './helpers.js';
import { assertMatchesSchema } from './schemas.js';

const enc = encodeURIComponent;
const app = appAt(new Date('2026-11-21T12:00:00Z'));
const read = <T>(p: string) => JSON.parse(readFileSync(join(DATA_DIR, 'v1', p), 'utf8')) as T;

describe('a year of transitions', () => {
  it('America/New_York 2026: 8 March and 1 November (15 U.S.C. 260a, https://www.law.cornell.edu/uscode/text/15/260a)', async () => {
    const { status, body, headers } = await getJson(app, '/v1/timezones/America%2FNew_York/transitions?year=2026');
    expect(status).toBe(200);
    assertMatchesSchema('timezone-transitions.schema.json', body);
    expect(body).toEqual({
      id: 'America/New_York',
      year: 2026,
      from: '2026-01-01T00:00:00Z',
      until: '2027-01-01T00:00:00Z',
      tzdata_version: body.tzdata_version,
      initial: { offset: '-05:00', offset_minutes: -300, abbreviation: 'EST', is_dst: false },
      transitions: [
        { at: '2026-03-08T07:00:00Z', offset: '-04:00', offset_minutes: -240, abbreviation: 'EDT', is_dst: true },
        { at: '2026-11-01T06:00:00Z', offset: '-05:00', offset_minutes: -300, abbreviation: 'EST', is_dst: false },
      ],
    });
    expect(headers.get('cache-control')).toBe('public, max-age=3600, stale-while-revalidate=86400');
  });

  it('Europe/Berlin 2099: 29 March and 25 October at 01:00 GMT (Directive 2000/84/EC, https://eur-lex.europa.eu/eli/dir/2000/84/oj)', async () => {
    const { body } = await getJson(app, '/v1/timezones/Europe%2FBerlin/transitions?year=2099');
    expect(body.transitions.map((t: { at: string; abbreviation: string }) => [t.at, t.abbreviation])).toEqual([['2099-03-29T01:00:00Z', 'CEST'], ['2099-10-25T01:00:00Z', 'CET']]);
    expect(body.initial.abbreviation).toBe('CET');
  });

  it('a zone without DST has an empty year; aliases answer their zone', async () => {
    const tokyo = (await getJson(app, '/v1/timezones/Asia%2FTokyo/transitions?year=2026')).body;
    expect(tokyo).toMatchObject({ id: 'Asia/Tokyo', transitions: [], initial: { offset: '+09:00', abbreviation: 'JST' } });
    const utc = (await getJson(app, '/v1/timezones/UTC/transitions?year=1970')).body;
    expect(utc).toMatchObject({ id: 'Etc/UTC', transitions: [], initial: { offset: '+00:00', abbreviation: 'UTC' } });
    expect((await getJson(app, '/v1/timezones/US/Eastern/transitions?year=2026')).body.id).toBe('America/New_York');
  });

  it('every zone and year of the window: the year\'s slice of the zone document', async () => {
    const index = read<TimezonesIndex>('timezones/index.json');
    let compared = 0;
    for (const { id } of [...index.zones, ...index.other_zones]) {
      const doc = read<TimezoneZone>(zoneDocumentPath(id));
      for (const year of [1900, 1916, 1942, 1970, 1971, 1995, 2011, 2026, 2037, 2038, 2099, 2100]) {
        const { status, body } = await getJson(app, `/v1/timezones/${enc(id)}/transitions?year=${year}`);
        expect(status, `${id} ${year}`).toBe(200);
        const inYear = doc.transitions.filter((t) => t.at.startsWith(String(year)));
        expect(body.transitions, `${id} ${year}`).toEqual(inYear);
        const before = doc.transitions.filter((t) => t.at <= `${year}-01-01T00:00:00Z`).at(-1) ?? doc.initial; // the state in force at the year's first second
        expect(body.initial, `${id} ${year}`).toEqual({ offset: before.offset, offset_minutes: before.offset_minutes, abbreviation: before.abbreviation, is_dst: before.is_dst });
        compared++;
      }
    }
    expect(compared).toBe((418 + 39) * 12);
  }, 60_000);
});

describe('the whole window without year', () => {
  it('is the zone document\'s facts: initial state and every transition, 1900 to 2101', async () => {
    for (const id of ['America/New_York', 'Europe/London', 'Australia/Lord_Howe', 'Etc/GMT+5', 'Africa/Casablanca']) {
      const { status, body } = await getJson(app, `/v1/timezones/${enc(id)}/transitions`);
      expect(status).toBe(200);
      assertMatchesSchema('timezone-transitions.schema.json', body);
      const doc = read<TimezoneZone>(zoneDocumentPath(id));
      expect(body).toEqual({ id, year: null, from: doc.window.start, until: doc.window.end, tzdata_version: doc.tzdata_version, initial: doc.initial, transitions: doc.transitions });
      expect([body.from, body.until]).toEqual(['1900-01-01T00:00:00Z', '2101-01-01T00:00:00Z']);
    }
  });
});

describe('bad input', () => {
  for (const [q, code] of [['year=26', 'invalid_year'], ['year=2026.0', 'invalid_year'], ['year=', 'invalid_year'], ['year=1899', 'out_of_range'], ['year=2101', 'out_of_range'], ['year=2026&year=2027', 'duplicate_parameter']]) {
    it(`?${q} → 400 ${code}`, async () => {
      const { status, body } = await getJson(app, `/v1/timezones/Europe%2FParis/transitions?${q}`);
      expect(status).toBe(400);
      assertMatchesSchema('error.schema.json', body);
      expect(body.error).toMatchObject({ code, parameter: 'year' });
    });
  }
  it('an unknown zone → 404 unknown_timezone', async () => {
    const { status, body } = await getJson(app, '/v1/timezones/Mars%2FOlympus/transitions?year=2026');
    expect([status, body.error.code]).toEqual([404, 'unknown_timezone']);
  });
});

describe('transitionsBetween (lib/zone-timeline.ts)', () => {
  const est = { offset_minutes: -300, abbreviation: 'EST', is_dst: false };
  const edt = { offset_minutes: -240, abbreviation: 'EDT', is_dst: true };
  const march = Date.UTC(2026, 2, 8, 7);
  const november = Date.UTC(2026, 10, 1, 6);
  const tl = buildTimeline(est, [{ at_ms: march, state: edt }, { at_ms: november, state: est }]);
  it('takes transitions at or after the start and before the end', () => {
    expect(transitionsBetween(tl, Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1))).toEqual({ initial: 0, first: 0, end: 2 });
    expect(transitionsBetween(tl, march, november)).toEqual({ initial: 1, first: 0, end: 1 });
    expect(transitionsBetween(tl, march + 1, november + 1)).toEqual({ initial: 1, first: 1, end: 2 });
    expect(transitionsBetween(tl, Date.UTC(2027, 0, 1), Date.UTC(2028, 0, 1))).toEqual({ initial: 2, first: 2, end: 2 });
    expect(transitionsBetween(tl, Date.UTC(2025, 0, 1), Date.UTC(2026, 0, 1))).toEqual({ initial: 0, first: 0, end: 0 });
  });
});
