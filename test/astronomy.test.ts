/**
 * The astronomy sub-app on its own (server/routes/astronomy.ts), with a
 * hand-written capitalOf and a frozen clock: defaults, the location forms
 * (country and region codes, coordinates at the natural path and at
 * /coordinates, with and without a zone), polar conditions, schema shape and
 * bad input; then over the dataset's astronomy/places.json, region seats and
 * the countries without a capital. Accuracy is test/astronomy-ephem.test.ts's job.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CountriesIndex } from '../lib/schema-types.js';
import { astronomyRoutes, WITHOUT_CAPITAL, type AstronomyPlace } from '../server/routes/astronomy.js';
import { Clock } from '../server/clock.js';
import { DATA_DIR, sharedStore, sharedTimezones } from './helpers.js';
import { assertMatchesSchema } from './schemas.js';

const PLACES: Record<string, AstronomyPlace> = {
  JP: { name: 'Tokyo', latitude: 35.68, longitude: 139.69, timezone: 'Asia/Tokyo' },
  EC: { name: 'Quito', latitude: -0.22, longitude: -78.51, timezone: 'America/Guayaquil' },
  'NO-55': { name: 'Tromsø', latitude: 69.65, longitude: 18.96, timezone: 'Europe/Oslo' },
  FR: { name: 'Paris', latitude: 48.86, longitude: 2.35, timezone: 'Europe/Paris' },
  'US-CA': { name: 'Sacramento', latitude: 38.58, longitude: -121.49, timezone: 'America/Los_Angeles' },
};
// 2026-06-20 20:00 UTC: already the 21st in Tokyo, still the 20th in Quito.
const NOW = new Date('2026-06-20T20:00:00Z');
const app = astronomyRoutes({ capitalOf: (code) => PLACES[code], clock: new Clock(() => NOW), zones: sharedTimezones() });

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
  it('a region code answers for its seat, in the seat\'s zone', async () => {
    const { status, body } = await get('/sun/us-ca?date=2026-06-21');
    expect(status).toBe(200);
    assertMatchesSchema('astronomy-sun.schema.json', body);
    expect(body).toMatchObject({ location: { name: 'Sacramento', latitude: 38.58, longitude: -121.49 }, timezone: 'America/Los_Angeles' });
    expect(body.sunrise).toMatch(/^2026-06-21T05:\d\d:00-07:00$/);
  });
  it('coordinates with their own zone (the same place as NO-55 gives the same answer)', async () => {
    const { status, body } = await get('/sun?latitude=69.65&longitude=18.96&timezone=Europe/Oslo&date=2026-06-21');
    expect(status).toBe(200);
    assertMatchesSchema('astronomy-sun.schema.json', body);
    const byCode = (await get('/sun/NO-55?date=2026-06-21')).body;
    expect({ ...body, location: null }).toEqual({ ...byCode, location: null });
    expect(body.location).toEqual({ latitude: 69.65, longitude: 18.96, name: null });
  });
  it('/coordinates is the same as the natural path, byte for byte', async () => {
    for (const q of ['latitude=64.15&longitude=-21.94&date=2026-06-21', 'latitude=-33.87&longitude=151.21&timezone=Australia/Sydney&date=2026-10-04']) {
      for (const kind of ['sun', 'moon']) {
        const natural = await (await app.request(`/${kind}?${q}`)).text();
        expect(await (await app.request(`/${kind}/coordinates?${q}`)).text()).toBe(natural);
      }
    }
  });
  it('coordinates without a zone take the zone at the point (at sea, the nautical zone of the longitude)', async () => {
    const cases: [string, string][] = [
      ['latitude=69.65&longitude=18.96', 'Europe/Oslo'],
      ['latitude=64.15&longitude=-21.94', 'Atlantic/Reykjavik'],
      ['latitude=78.22&longitude=15.63', 'Arctic/Longyearbyen'],
      ['latitude=38.58&longitude=-121.49', 'America/Los_Angeles'],
      ['latitude=-90&longitude=0', 'Antarctica/McMurdo'], // the South Pole station keeps New Zealand time (zone.tab)
      ['latitude=0&longitude=-30', 'Etc/GMT+2'],
    ];
    for (const [q, zone] of cases) {
      for (const kind of ['sun', 'moon']) {
        const { status, body } = await get(`/${kind}?${q}&date=2026-06-21`);
        expect(status, q).toBe(200);
        assertMatchesSchema(`astronomy-${kind}.schema.json`, body);
        expect(body.timezone, q).toBe(zone);
      }
    }
  });
  it('Reykjavík 2026-06-21: the sunset that ends the day begun at sunrise, 00:04 on the 22nd', async () => {
    const { body } = await get('/sun?latitude=64.15&longitude=-21.94&date=2026-06-21');
    expect(body).toMatchObject({ sunrise: '2026-06-21T02:55:00+00:00', sunset: '2026-06-22T00:04:00+00:00', day_length: '21:09' });
  });
  it('without a date, today in the zone at the point: already the 21st at 140° E', async () => {
    expect((await get('/sun?latitude=35.68&longitude=139.69')).body).toMatchObject({ date: '2026-06-21', timezone: 'Asia/Tokyo' });
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
    const { body } = await get('/moon?latitude=0&longitude=0&timezone=UTC');
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
    ['/sun/AQ', 404, 'unknown_location', 'location'],
    ['/sun/J%20P', 400, 'invalid_location', 'location'],
    ['/sun/US-CALI', 400, 'invalid_location', 'location'],
    ['/sun/coordinates?latitude=91&longitude=0&timezone=UTC', 400, 'invalid_latitude', 'latitude'],
    ['/sun?latitude=-90.5&longitude=0', 400, 'invalid_latitude', 'latitude'],
    ['/sun?latitude=0&longitude=180.01', 400, 'invalid_longitude', 'longitude'],
    ['/moon/coordinates?latitude=abc&longitude=0&timezone=UTC', 400, 'invalid_latitude', 'latitude'],
    ['/sun?latitude=1e1&longitude=0', 400, 'invalid_latitude', 'latitude'],
    ['/sun?latitude=&longitude=0', 400, 'invalid_latitude', 'latitude'],
    ['/sun/coordinates?longitude=0&timezone=UTC', 400, 'missing_parameter', 'latitude'],
    ['/sun?latitude=0', 400, 'missing_parameter', 'longitude'],
    ['/moon', 400, 'missing_parameter', 'latitude'],
    ['/sun?latitude=0&longitude=0&timezone=', 400, 'invalid_timezone', 'timezone'],
    ['/sun?latitude=0&longitude=0&timezone=Mars/Olympus', 400, 'invalid_timezone', 'timezone'],
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
    expect((await app.request('/stars?latitude=0&longitude=0')).status).toBe(404);
    expect((await app.request('/sun/NO/today')).status).toBe(404);
  });
  it('a code without a place says why, and what to ask instead', async () => {
    const message = async (path: string) => (await get(path)).body.error.message as string;
    expect(await message('/sun/AQ')).toBe('Antarctica (AQ) has no capital, and a country code stands for its capital: ask for a point instead, such as the South Pole (Amundsen-Scott Station): /v1/astronomy/sun?latitude=-90&longitude=0');
    expect(await message('/moon/bv')).toMatch(/^Bouvet Island \(BV\) has no capital, .*\/v1\/astronomy\/moon\?latitude=…&longitude=…$/);
    expect(await message('/sun/XX')).toMatch(/^No place for XX: a country code stands for its capital, and XX is no ISO 3166-1 country with a capital in this dataset/);
    expect(await message('/moon/JP-99')).toMatch(/^No place for JP-99: a region code stands for its seat, and JP-99 is no ISO 3166-2 region with a seat in this dataset/);
    // The point the AQ message offers answers.
    const pole = await get('/sun?latitude=-90&longitude=0&date=2026-06-21');
    expect(pole.body).toMatchObject({ timezone: 'Antarctica/McMurdo', polar_condition: 'polar_night' });
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

describe('over the dataset (astronomy/places.json and countries/index.json)', () => {
  const places = sharedStore().astronomyPlaces();
  const real = astronomyRoutes({ capitalOf: (code) => places[code], clock: new Clock(() => NOW), zones: sharedTimezones() });
  const answer = async (path: string) => {
    const res = await real.request(path);
    return { status: res.status, body: await res.json() };
  };

  // Seats that are not in doubt: state and Land capitals, and Svalbard's administrative centre.
  // Svalbard keeps Central European time: Arctic/Longyearbyen is a tzdata link to Europe/Berlin, either name is right.
  const SEATS: [string, RegExp, number, number, string[]][] = [
    ['US-CA', /^Sacramento$/, 38.58, -121.49, ['America/Los_Angeles']],
    ['DE-BY', /^(Munich|München)$/, 48.14, 11.58, ['Europe/Berlin']],
    ['AU-NSW', /^Sydney$/, -33.87, 151.21, ['Australia/Sydney']],
    ['NO-21', /^Longyearbyen$/, 78.22, 15.63, ['Arctic/Longyearbyen', 'Europe/Berlin']],
  ];
  for (const [code, name, latitude, longitude, zones] of SEATS) {
    it(`${code} answers for its seat, ${name.source.replace(/[\^$()]/g, '')}, in ${zones.join(' or ')}`, async () => {
      const { status, body } = await answer(`/sun/${code}?date=2026-06-21`);
      expect(status, JSON.stringify(body)).toBe(200);
      assertMatchesSchema('astronomy-sun.schema.json', body);
      expect(body.location.name).toMatch(name);
      expect(Math.abs(body.location.latitude - latitude)).toBeLessThan(0.25);
      expect(Math.abs(body.location.longitude - longitude)).toBeLessThan(0.25);
      expect(zones).toContain(body.timezone);
    });
  }

  it("a region's answer is the answer at its seat's point, in its zone", async () => {
    const { body } = await answer('/sun/NO-21?date=2026-06-21');
    const point = `latitude=${body.location.latitude}&longitude=${body.location.longitude}&timezone=${body.timezone}&date=2026-06-21`;
    expect({ ...(await answer(`/sun?${point}`)).body, location: null }).toEqual({ ...body, location: null });
  });

  it('the countries named as having no capital have none in countries/index.json, and no place', () => {
    const { countries } = JSON.parse(readFileSync(join(DATA_DIR, 'v1', 'countries', 'index.json'), 'utf8')) as CountriesIndex;
    for (const [code, name] of Object.entries(WITHOUT_CAPITAL)) {
      const country = countries.find((c) => c.code === code);
      expect(country, code).toMatchObject({ name, capital: null });
      expect(places[code], code).toBeUndefined();
    }
  });
});

describe('zones from points', () => {
  it('every zone geo-tz can answer (its polygons and the 25 nautical zones) is one Intl knows', () => {
    // The list geo-tz/all draws its answers from (the polygons' names); at sea it answers Etc/GMT-12..Etc/GMT+12.
    const dist = dirname(createRequire(import.meta.url).resolve('geo-tz/all'));
    const index = JSON.parse(readFileSync(join(dist, '..', 'data', 'timezones.geojson.index.json'), 'utf8')) as { timezones: string[] };
    const nautical = Array.from({ length: 25 }, (_, i) => (i === 12 ? 'Etc/GMT' : `Etc/GMT${i < 12 ? '-' : '+'}${Math.abs(12 - i)}`));
    const unknown = [...index.timezones, ...nautical].filter((zone) => {
      try {
        new Intl.DateTimeFormat('en-US', { timeZone: zone });
        return false;
      } catch {
        return true;
      }
    });
    expect(index.timezones.length).toBeGreaterThan(400);
    expect(unknown).toEqual([]);
  });
});
