/**
 * The astronomy sub-app on its own (server/routes/astronomy.ts), with a
 * hand-written capitalOf and a frozen clock: defaults, both location forms,
 * polar conditions, schema shape and bad input. Accuracy is
 * test/astronomy-ephem.test.ts's job.
 */
import { describe, expect, it } from 'vitest';
import { astronomyRoutes, type AstronomyPlace } from '../server/routes/astronomy.js';
import { assertMatchesSchema } from './schemas.js';

const PLACES: Record<string, AstronomyPlace> = {
  JP: { name: 'Tokyo', latitude: 35.68, longitude: 139.69, timezone: 'Asia/Tokyo' },
  EC: { name: 'Quito', latitude: -0.22, longitude: -78.51, timezone: 'America/Guayaquil' },
  'NO-55': { name: 'Tromsø', latitude: 69.65, longitude: 18.96, timezone: 'Europe/Oslo' },
  FR: { name: 'Paris', latitude: 48.86, longitude: 2.35, timezone: 'Europe/Paris' },
};
// 2026-06-20 20:00 UTC: already the 21st in Tokyo, still the 20th in Quito.
const NOW = new Date('2026-06-20T20:00:00Z');
const app = astronomyRoutes({ capitalOf: (code) => PLACES[code], now: () => NOW });

async function get(path: string) {
  const res = await app.request(path);
  return { status: res.status, type: res.headers.get('content-type'), body: await res.json() };
}

describe('GET /sun/{location}', () => {
  it('a country code answers for its capital, today in its own zone', async () => {
    const { status, type, body } = await get('/sun/JP');
    expect(status).toBe(200);
    expect(type).toMatch(/^application\/json/);
    assertMatchesSchema('astronomy-sun.schema.json', body);
    expect(body).toMatchObject({ date: '2026-06-21', timezone: 'Asia/Tokyo', location: { name: 'Tokyo', latitude: 35.68, longitude: 139.69 }, polar_condition: null });
    expect(body.sunrise).toMatch(/^2026-06-21T04:2\d:00\+09:00$/);
    expect(Object.keys(body).slice(0, 3)).toEqual(['date', 'location', 'timezone']);
  });
  it('the default date follows the location: still the 20th in Quito', async () => {
    expect((await get('/sun/EC')).body.date).toBe('2026-06-20');
  });
  it('an explicit date, and a lower-case region code', async () => {
    const { status, body } = await get('/sun/no-55?date=2026-12-21');
    expect(status).toBe(200);
    assertMatchesSchema('astronomy-sun.schema.json', body);
    expect(body).toMatchObject({ date: '2026-12-21', polar_condition: 'polar_night', sunrise: null, sunset: null, day_length: '00:00' });
  });
  it('midnight sun in Tromsø on 2026-06-21', async () => {
    const { body } = await get('/sun/NO-55?date=2026-06-21');
    expect(body).toMatchObject({ polar_condition: 'midnight_sun', sunrise: null, sunset: null, day_length: '24:00', day_length_minutes: 1440 });
  });
  it('coordinates with their own zone (the same place as NO-55 gives the same answer)', async () => {
    const { status, body } = await get('/sun/coordinates?latitude=69.65&longitude=18.96&timezone=Europe/Oslo&date=2026-06-21');
    expect(status).toBe(200);
    assertMatchesSchema('astronomy-sun.schema.json', body);
    const byCode = (await get('/sun/NO-55?date=2026-06-21')).body;
    expect({ ...body, location: null }).toEqual({ ...byCode, location: null });
    expect(body.location).toEqual({ latitude: 69.65, longitude: 18.96, name: null });
  });
  it('coordinates: a zone in another letter case is answered in its proper spelling', async () => {
    const { body } = await get('/sun/coordinates?latitude=-33.87&longitude=151.21&timezone=australia/sydney&date=2026-10-04');
    expect(body.timezone).toBe('Australia/Sydney');
    expect(body.sunrise).toMatch(/^2026-10-04T0\d:\d\d:00\+11:00$/);
  });
  it('the extreme coordinates and dates are accepted', async () => {
    for (const path of ['/sun/coordinates?latitude=90&longitude=180&timezone=UTC&date=1900-01-01', '/sun/coordinates?latitude=-90&longitude=-180&timezone=UTC&date=2100-12-31']) {
      const { status, body } = await get(path);
      expect(status, path).toBe(200);
      assertMatchesSchema('astronomy-sun.schema.json', body);
    }
  });
});

describe('GET /moon/{location}', () => {
  it('answers with the phase and the next full and new moons', async () => {
    const { status, body } = await get('/moon/JP?date=2026-06-30');
    expect(status).toBe(200);
    assertMatchesSchema('astronomy-moon.schema.json', body);
    expect(body).toMatchObject({ date: '2026-06-30', phase: 'full_moon', location: { name: 'Tokyo' }, timezone: 'Asia/Tokyo' });
    expect(body.next_full_moon).toMatch(/^2026-06-30T08:5\d:00\+09:00$/);
  });
  it('defaults to today and takes coordinates', async () => {
    const { body } = await get('/moon/coordinates?latitude=0&longitude=0&timezone=UTC');
    assertMatchesSchema('astronomy-moon.schema.json', body);
    expect(body.date).toBe('2026-06-20');
  });
  it('moonrise or moonset may be null (Tromsø, midsummer)', async () => {
    const days = await Promise.all(['2026-06-10', '2026-06-11', '2026-06-12', '2026-06-13', '2026-06-14'].map((d) => get(`/moon/NO-55?date=${d}`)));
    for (const { body } of days) assertMatchesSchema('astronomy-moon.schema.json', body);
    expect(days.some(({ body }) => body.moonrise === null || body.moonset === null)).toBe(true);
  });
});

describe('bad input', () => {
  const cases: [string, number, string, string?][] = [
    ['/sun/JP?date=2026-02-30', 400, 'invalid_date', 'date'],
    ['/sun/JP?date=20260621', 400, 'invalid_date', 'date'],
    ['/moon/JP?date=1899-12-31', 400, 'out_of_range', 'date'],
    ['/sun/JP?date=2101-01-01', 400, 'out_of_range', 'date'],
    ['/sun/JP?date=2026-06-21&date=2026-06-22', 400, 'duplicate_parameter', 'date'],
    ['/sun/XX', 404, 'unknown_location', 'location'],
    ['/moon/JP-99', 404, 'unknown_location', 'location'],
    ['/sun/J%20P', 400, 'invalid_location', 'location'],
    ['/sun/coordinates?latitude=91&longitude=0&timezone=UTC', 400, 'invalid_latitude', 'latitude'],
    ['/sun/coordinates?latitude=-90.5&longitude=0&timezone=UTC', 400, 'invalid_latitude', 'latitude'],
    ['/sun/coordinates?latitude=0&longitude=180.01&timezone=UTC', 400, 'invalid_longitude', 'longitude'],
    ['/moon/coordinates?latitude=abc&longitude=0&timezone=UTC', 400, 'invalid_latitude', 'latitude'],
    ['/sun/coordinates?latitude=1e1&longitude=0&timezone=UTC', 400, 'invalid_latitude', 'latitude'],
    ['/sun/coordinates?latitude=&longitude=0&timezone=UTC', 400, 'invalid_latitude', 'latitude'],
    ['/sun/coordinates?longitude=0&timezone=UTC', 400, 'missing_parameter', 'latitude'],
    ['/sun/coordinates?latitude=0&longitude=0', 400, 'missing_parameter', 'timezone'],
    ['/sun/coordinates?latitude=0&longitude=0&timezone=Mars/Olympus', 400, 'invalid_timezone', 'timezone'],
    ['/sun/coordinates?latitude=0&longitude=0&timezone=%2B05:00', 400, 'invalid_timezone', 'timezone'],
    ['/moon/coordinates?latitude=0&longitude=0&timezone=UTC&timezone=UTC', 400, 'duplicate_parameter', 'timezone'],
  ];
  for (const [path, status, code, parameter] of cases) {
    it(`${path} → ${status} ${code}`, async () => {
      const res = await get(path);
      expect(res.status).toBe(status);
      assertMatchesSchema('error.schema.json', res.body);
      expect(res.body.error).toMatchObject({ status, code, parameter });
    });
  }
  it('an unknown endpoint is not answered by the sub-app', async () => {
    expect((await app.request('/sun')).status).toBe(404);
  });
});

describe('answer cache', () => {
  it('a repeated request answers the same bytes; another date or place another answer', async () => {
    const first = await (await app.request('/sun/FR?date=2026-03-20')).text();
    const again = await (await app.request('/sun/FR?date=2026-03-20')).text();
    const nextDay = await (await app.request('/sun/FR?date=2026-03-21')).text();
    const moon = await (await app.request('/moon/FR?date=2026-03-20')).text();
    expect(again).toBe(first);
    expect(nextDay).not.toBe(first);
    expect(JSON.parse(nextDay).date).toBe('2026-03-21');
    expect(JSON.parse(moon)).toHaveProperty('phase');
  });
});
