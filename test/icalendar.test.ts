/**
 * iCalendar feeds: the static business-days/{LOCATION}/{YEAR}.ics files and the API's holidays.ics,
 * parsed by an independent reader (Debian's python3-icalendar), checked against the year files.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { escapeText, foldLine } from '../lib/icalendar.js';
import type { BusinessDaysYear } from '../lib/schema-types.js';
import { appAt, DATA_DIR, requirePackage, runs, sharedKeys } from './helpers.js';

const PYTHON = '/usr/bin/python3';

/** Parses iCalendar files with python3-icalendar: per file, its events' dates, summaries, UIDs and categories. */
const PARSE = `
import icalendar, json, sys
out = {}
for path in sys.argv[1:]:
    cal = icalendar.Calendar.from_ical(open(path, 'rb').read())
    assert cal['VERSION'] == '2.0', path
    events = []
    for e in cal.walk('VEVENT'):
        start, end = e['DTSTART'].dt, e['DTEND'].dt
        assert (end - start).days == 1, path
        assert 'DTSTAMP' in e, path
        events.append({'date': start.isoformat(), 'summary': str(e['SUMMARY']), 'uid': str(e['UID']), 'categories': e['CATEGORIES'].to_ical().decode()})
    out[path] = events
print(json.dumps(out))
`;
function parseIcs(paths: string[]): Record<string, { date: string; summary: string; uid: string; categories: string }[]> {
  const r = spawnSync(PYTHON, ['-c', PARSE, ...paths], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0) throw new Error(`python3-icalendar failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

const read = <T>(path: string): T => JSON.parse(readFileSync(join(DATA_DIR, 'v1', path), 'utf8')) as T;
const app = appAt();
const get = (path: string, headers: Record<string, string> = {}) => app.request(path, { headers: { 'x-api-key': sharedKeys().keys.growth, ...headers } });

describe('lib/icalendar', () => {
  it('folds lines at 75 octets without splitting a character, and escapes TEXT', () => {
    const line = `DESCRIPTION:${'春节调休上班'.repeat(20)}`;
    const folded = foldLine(line);
    for (const part of folded.split('\r\n')) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(75);
    expect(folded.split('\r\n').map((p, i) => (i === 0 ? p : p.slice(1))).join('')).toBe(line);
    expect(escapeText('a,b;c\\d\ne')).toBe('a\\,b\\;c\\\\d\\ne');
  });
});

describe('static .ics files (python3-icalendar)', () => {
  // Fails without the independent reader, never skips (the lib and API tests of this file still run).
  beforeAll(() => requirePackage('python3-icalendar', runs(PYTHON, ['-c', 'import icalendar'])));
  const LOCATIONS = ['US', 'CN', 'RU', 'DE-BY', 'JP'];
  it('every year of five locations parses, with one event per holiday row and per working day', () => {
    for (const loc of LOCATIONS) {
      const { years } = read<{ years: number[] }>(`business-days/${loc}/index.json`);
      const paths = years.map((y) => join(DATA_DIR, 'v1', 'business-days', loc, `${y}.ics`));
      const parsed = parseIcs(paths);
      years.forEach((y, i) => {
        const doc = read<BusinessDaysYear>(`business-days/${loc}/${y}.json`);
        const events = parsed[paths[i]];
        expect(events.length, `${loc} ${y}`).toBe(doc.holidays.length + doc.working_days.length);
        expect(new Set(events.map((e) => e.uid)).size, `${loc} ${y}: UIDs unique`).toBe(events.length);
        expect(events.filter((e) => e.categories.includes('WORKING-DAY')).map((e) => e.date)).toEqual(doc.working_days.map((w) => w.date));
        expect([...events.map((e) => e.date)].sort()).toEqual([...doc.holidays.map((h) => h.date), ...doc.working_days.map((w) => w.date)].sort());
      });
    }
  });

  it('China 2025 has its make-up Sunday as its own event, and US 2026 has MLK Day', () => {
    const cn = parseIcs([join(DATA_DIR, 'v1', 'business-days', 'CN', '2025.ics')]);
    expect(Object.values(cn)[0]).toContainEqual(expect.objectContaining({ date: '2025-01-26', summary: 'Working day (Spring Festival)' }));
    const us = parseIcs([join(DATA_DIR, 'v1', 'business-days', 'US', '2026.ics')]);
    expect(Object.values(us)[0]).toContainEqual(expect.objectContaining({ date: '2026-01-19', summary: 'Martin Luther King Jr. Day' }));
  });
});

describe('GET /v1/business-days/{location}/holidays.ics', () => {
  it('answers the static file bytes for a single year and no type, as text/calendar with an ETag and 304', async () => {
    const res = await get('/v1/business-days/CN/holidays.ics?from_year=2025&to_year=2025');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const body = await res.text();
    expect(body).toBe(readFileSync(join(DATA_DIR, 'v1', 'business-days', 'CN', '2025.ics'), 'utf8'));
    expect(body.split('\r\n').every((l) => Buffer.byteLength(l) <= 75)).toBe(true);
    const again = await get('/v1/business-days/CN/holidays.ics?from_year=2025&to_year=2025', { 'if-none-match': res.headers.get('etag')! });
    expect(again.status).toBe(304);
  });

  it('filters by type: banking in the US keeps Federal Reserve closures, government adds Inauguration Day in DC', async () => {
    const banking = await (await get('/v1/business-days/US/holidays.ics?from_year=2026&to_year=2026&type=banking')).text();
    const business = await (await get('/v1/business-days/US/holidays.ics?from_year=2026&to_year=2026&type=business')).text();
    expect(business).toContain('SUMMARY:Independence Day (substitute day)');
    expect(banking).not.toContain('DTSTART;VALUE=DATE:20260703'); // the Fed stays open on the Friday before
    const dc = await (await get('/v1/business-days/US-DC/holidays.ics?from_year=2029&to_year=2029&type=government')).text();
    expect(dc).toContain('SUMMARY:Inauguration Day');
  });

  it('defaults to this year and the next; refuses bad years, long ranges, bad types and unknown locations with JSON errors', async () => {
    const body = await (await get('/v1/business-days/JP/holidays.ics')).text();
    expect(body).toContain('DTSTART;VALUE=DATE:20260101');
    expect(body).toContain('DTSTART;VALUE=DATE:20270101');
    for (const [query, status, code] of [
      ['from_year=26', 400, 'invalid_year'],
      ['from_year=1800', 400, 'out_of_range'],
      ['from_year=2030&to_year=2020', 400, 'invalid_range'],
      ['from_year=2000&to_year=2020', 400, 'range_too_large'],
      ['type=shops', 400, 'invalid_type'],
    ] as const) {
      const res = await get(`/v1/business-days/JP/holidays.ics?${query}`);
      expect(res.status, query).toBe(status);
      expect((await res.json()).error.code, query).toBe(code);
    }
    const unknown = await get('/v1/business-days/XX/holidays.ics');
    expect(unknown.status).toBe(404);
  });
});
