/**
 * GET /v1/travel/{destination}: golden facts through the API (phone code and
 * driving side included), regional power facts, compatibility between
 * origins and destinations, climate by month (a country's capital station, a
 * region's station nearest its seat, the reason when there is none), region
 * fallback, bad input, and the coverage report's numbers in the dataset's README.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appAt, DATA_DIR, getJson } from './helpers.js';
import type { TravelIndex } from '../lib/schema-types.js';
import { assertMatchesSchema } from './schemas.js';

const golden = JSON.parse(readFileSync(join(import.meta.dirname, 'golden', 'travel.json'), 'utf8'));
const index = JSON.parse(readFileSync(join(DATA_DIR, 'v1', 'travel', 'index.json'), 'utf8')) as TravelIndex;
const app = appAt();
const travel = async (path: string) => getJson(app, `/v1/travel/${path}`);

describe('golden travel facts through the API', () => {
  for (const g of golden.countries) {
    it(`${g.code}: plugs ${g.plugs.join('/')}, ${g.voltage} V ${g.frequency} Hz, ${g.phone_code}, drives ${g.driving_side}`, async () => {
      const { status, body } = await travel(g.code);
      expect(status).toBe(200);
      assertMatchesSchema('travel.schema.json', body);
      expect([...body.power.plugs].sort()).toEqual([...g.plugs].sort());
      expect(body.power.voltage).toBe(g.voltage);
      expect(body.power.frequency).toBe(g.frequency);
      expect(body.emergency).toEqual(g.emergency);
      expect(body.phone_code).toBe(g.phone_code);
      expect(body.driving_side).toBe(g.driving_side);
      expect(body.power_compatibility).toBeNull();
      expect(body.climate).toBeNull();
    });
  }
  for (const r of golden.regions) {
    it(`${r.region} (${r.name}): ${r.voltage} V ${r.frequency} Hz`, async () => {
      const { body } = await travel(r.region);
      expect(body).toMatchObject({ destination: r.region, country: r.region.slice(0, 2), power: { voltage: r.voltage, frequency: r.frequency } });
    });
  }
});

describe('power compatibility', () => {
  const cases: [string, string, { adapter_needed: boolean; voltage_compatible: boolean; shared_plugs?: string[] }][] = [
    ['GB', 'US', { adapter_needed: true, voltage_compatible: false, shared_plugs: [] }],
    ['IE', 'GB', { adapter_needed: false, voltage_compatible: true, shared_plugs: ['G'] }],
    ['FR', 'DE', { adapter_needed: false, voltage_compatible: true }],
    ['JP', 'US', { adapter_needed: false, voltage_compatible: false }],
    ['NZ', 'AU', { adapter_needed: false, voltage_compatible: true }],
    ['IT', 'CH', { adapter_needed: false, voltage_compatible: true }],
  ];
  for (const [dest, from, expected] of cases) {
    it(`${from} → ${dest}: adapter ${expected.adapter_needed ? 'needed' : 'not needed'}, voltage ${expected.voltage_compatible ? 'compatible' : 'not compatible'}`, async () => {
      const { status, body } = await travel(`${dest}?from=${from}`);
      expect(status).toBe(200);
      assertMatchesSchema('travel.schema.json', body);
      expect(body.power_compatibility).toMatchObject({ from, ...expected });
    });
  }
  it('an origin region uses its own facts (Osaka 60 Hz plugs into Tokyo sockets)', async () => {
    const { body } = await travel('JP-13?from=jp-27');
    expect(body.power_compatibility).toMatchObject({ from: 'JP-27', adapter_needed: false, voltage_compatible: true });
  });
});

describe('climate', () => {
  it('is null without a date and the month of the date with one, with its station', async () => {
    expect((await travel('AR')).body.climate).toBeNull();
    const jan = (await travel('AR?date=2026-01-15')).body.climate;
    const jul = (await travel('AR?date=2026-07-15')).body.climate;
    expect(jan.month).toBe('January');
    expect(jan.station).toMatchObject({ period: '1991-2020' });
    expect(jan.station.distance_km).toBeLessThanOrEqual(100);
    expect(jan.temp_high_c).toBeGreaterThan(jul.temp_high_c); // southern hemisphere: January is summer
    expect(jan.precipitation_hours).toBeNull();
  });
  it('northern seasons the right way round, any year accepted', async () => {
    const jan = (await travel('NO?date=1990-01-01')).body.climate;
    const jul = (await travel('NO?date=2045-07-31')).body.climate;
    expect(jul.temp_high_c).toBeGreaterThan(jan.temp_high_c);
  });
  it('a country keeps its capital\'s station; sources.climate names a station exactly when climate is filled', async () => {
    const plain = (await travel('US')).body;
    expect([plain.climate, plain.sources.climate, plain.climate_note]).toEqual([null, null, undefined]);
    const dated = (await travel('US?date=2026-07-01')).body;
    assertMatchesSchema('travel.schema.json', dated);
    expect(dated.climate.station.name).toBe('VA WASHINGTON REAGAN AP');
    expect(dated.sources.climate).toBe(`WMO normals 1991-2020, station VA WASHINGTON REAGAN AP (${dated.climate.station.wmo_id}), ${dated.climate.station.distance_km} km`);
    expect(dated.climate_note).toBeUndefined();
  });

  it('a region uses the station nearest its seat (US-CA: Sacramento\'s, not Washington\'s), within 100 km', async () => {
    expect((await travel('US-CA')).body.sources.climate).toBeNull();
    const ca = (await travel('US-CA?date=2026-07-01')).body;
    assertMatchesSchema('travel.schema.json', ca);
    expect(ca).toMatchObject({ destination: 'US-CA', country: 'US', climate: { month: 'July', station: { country: 'US' } } });
    expect(ca.climate.station.name).toMatch(/SACRAMENTO/);
    expect(ca.climate.station.distance_km).toBeLessThanOrEqual(100);
    expect(ca.sources.climate).toContain(ca.climate.station.name);
  });

  it('Nevada and Alaska have different stations, and Nevada\'s July is far hotter', async () => {
    const nv = (await travel('US-NV?date=2026-07-15')).body.climate;
    const ak = (await travel('US-AK?date=2026-07-15')).body.climate;
    expect(nv.station.wmo_id).not.toBe(ak.station.wmo_id);
    expect(nv.temp_high_c - ak.temp_high_c).toBeGreaterThan(10); // Reno about 34 °C, Juneau about 18 °C
    expect((await travel('US-AK?date=2026-01-15')).body.climate.temp_low_c).toBeLessThan(0);
  });

  it('southern-hemisphere regions have their summer in January, northern ones in July', async () => {
    for (const code of ['AU-NSW', 'AU-VIC', 'BR-RS', 'AR-B', 'ZA-WC', 'CL-RM']) {
      const jan = (await travel(`${code}?date=2026-01-15`)).body.climate;
      const jul = (await travel(`${code}?date=2026-07-15`)).body.climate;
      expect(jan.station.latitude, code).toBeLessThan(0);
      expect(jan.temp_high_c, code).toBeGreaterThan(jul.temp_high_c);
    }
    for (const code of ['DE-BY', 'US-CA', 'CA-ON', 'JP-01']) {
      const jan = (await travel(`${code}?date=2026-01-15`)).body.climate;
      const jul = (await travel(`${code}?date=2026-07-15`)).body.climate;
      expect(jul.temp_high_c, code).toBeGreaterThan(jan.temp_high_c);
    }
  });

  it('says why climate is null: no station near the capital, near the seat, or no seat', async () => {
    const za = await travel('ZA?date=2026-01-15');
    expect(za.status).toBe(200);
    assertMatchesSchema('travel.schema.json', za.body);
    expect(za.body).toMatchObject({ climate: null, sources: { climate: null }, climate_note: { reason: 'no_station_near_capital' } });
    expect((await travel('RU-SVE?date=2026-01-15')).body).toMatchObject({ climate: null, climate_note: { reason: 'no_station_near_seat', message: expect.stringContaining('Yekaterinburg') } });
    const noSeat = Object.entries(index.climate_notes).find(([, n]) => n.reason === 'no_seat')![0];
    expect((await travel(`${noSeat}?date=2026-01-15`)).body).toMatchObject({ climate: null, climate_note: { reason: 'no_seat' } });
  });

  it('sources.climate is null whenever climate is, with and without date, for every destination (every 7th region)', async () => {
    const codes = [...index.destinations, ...Object.keys(index.regions).filter((_, i) => i % 7 === 0)];
    for (const code of codes) {
      const plain = (await travel(code)).body;
      expect(plain.sources.climate, code).toBeNull();
      const dated = (await travel(`${code}?date=2026-04-01`)).body;
      expect(dated.sources.climate === null, code).toBe(dated.climate === null);
      expect(dated.climate === null, code).toBe(dated.climate_note !== undefined);
      expect(index.climate.includes(code), code).toBe(dated.climate !== null);
    }
  }, 60_000);

  it('the coverage report counts the regions with a station, per country for the ten largest', () => {
    const { regional_climate: rc, largest_countries: largest } = index.coverage;
    expect(rc.max_distance_km).toBe(100);
    expect(rc.with_station).toBe(index.climate.filter((c: string) => c.includes('-')).length);
    expect(rc.with_station).toBeLessThanOrEqual(rc.with_seat);
    for (const c of largest) expect(c.with_station, c.country).toBe(index.climate.filter((x: string) => x.startsWith(`${c.country}-`)).length);
    console.log(`regional climate: ${rc.with_station} of ${rc.regions} regions (${rc.with_seat} with a seat); ${largest.map((c: { country: string; with_station: number; subdivisions: number }) => `${c.country} ${c.with_station}/${c.subdivisions}`).join(', ')}`);
  });
});

describe('destinations', () => {
  it('any ISO 3166-2 code answers with its country\'s facts and its own code', async () => {
    const { status, body } = await travel('de-by');
    expect(status).toBe(200);
    expect(body).toMatchObject({ destination: 'DE-BY', country: 'DE', power: { voltage: 230 } });
  });

  const errors: [string, number, string][] = [
    ['ZZ', 404, 'unknown_destination'],
    ['US-ZZZ', 404, 'unknown_destination'],
    ['AQ', 404, 'no_travel_data'],
    ['US?from=ZZ', 404, 'unknown_from'],
    ['US?from=AQ', 404, 'no_travel_data'],
    ['U', 400, 'invalid_destination'],
    ['USA', 400, 'invalid_destination'],
    ['..%2F..%2Fmanifest', 400, 'invalid_destination'],
    ['US?from=1', 400, 'invalid_from'],
    ['US?date=2025-02-30', 400, 'invalid_date'],
    ['US?date=tomorrow', 400, 'invalid_date'],
    ['US?from=GB&from=FR', 400, 'duplicate_parameter'],
  ];
  for (const [path, status, code] of errors) {
    it(`${path} → ${status} ${code}`, async () => {
      const res = await travel(path);
      expect(res.status).toBe(status);
      assertMatchesSchema('error.schema.json', res.body);
      expect(res.body.error.code).toBe(code);
    });
  }

  it('every destination document answers exactly as its static file', async () => {
    const dir = join(DATA_DIR, 'v1', 'travel');
    const files = readdirSync(dir).filter((f) => f.endsWith('.json') && f !== 'index.json');
    expect(files.length).toBeGreaterThan(300);
    for (const f of files) {
      const { status, body } = await travel(f.slice(0, -5));
      expect(status).toBe(200);
      expect(body).toEqual(JSON.parse(readFileSync(join(dir, f), 'utf8')));
    }
  });

  it("the dataset's README states the coverage report's numbers", () => {
    // Written by the build (dist-data/v1/README.md) from this report; the project's docs give dated figures only.
    const readme = readFileSync(join(DATA_DIR, 'v1', 'README.md'), 'utf8').replace(/\s+/g, ' '); // as rendered: wrapping aside
    const { fields: f, seats, regional_climate: climate } = index.coverage;
    const sum = (o: Record<string, number>) => Object.values(o).reduce((n, k) => n + k, 0);
    for (const phrase of [
      `for ${index.coverage.countries} countries): documents for ${index.coverage.with_document} countries and ${index.coverage.regions_with_own_document} regions`,
      `power for ${sum(f.power)} countries (fluids-power ${f.power['fluids-power']}, cited overrides ${f.power.override}, inherited from the sovereign state ${f.power.inherited})`,
      `emergency numbers for ${sum(f.emergency)} (android-ecc ${f.emergency['android-ecc']}, cited overrides ${f.emergency.override})`,
      `climate normals for ${f.climate['WMO normals 1991-2020']} countries`,
      `of which ${seats.with_seat} have a seat`,
      `for ${climate.with_station} of the ${climate.regions} regions (${climate.with_seat} with a seat) from a station within ${climate.max_distance_km} km`,
    ]) expect(readme, phrase).toContain(phrase);
  });

});
