/**
 * One place, one name, one zone (issue 15): /v1/business-days called AG
 * "Antigua & Barbuda" in America/Port_of_Spain while /v1/countries/AG said
 * "Antigua and Barbuda" and the astronomy area used America/Antigua.
 * pipeline/stages/name-locations.ts now chooses both for every area; this file
 * compares every location across the business-days list and index files, the
 * countries documents, astronomy/places.json, the travel index and the
 * timezones area, then checks facts typed in by hand from zone.tab and ISO 3166.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AstronomyPlaces, BusinessDaysLocation, BusinessDaysLocations, CountriesIndex, TimezonesIndex, TravelIndex } from '../lib/schema-types.js';
import { appAt, DATA_DIR, getJson } from './helpers.js';

const V1 = join(DATA_DIR, 'v1');
const readJson = <T>(path: string): T => JSON.parse(readFileSync(join(V1, path), 'utf8')) as T;

const list = readJson<BusinessDaysLocations>('business-days/index.json');
const countries = new Map(readJson<CountriesIndex>('countries/index.json').countries.map((c) => [c.code, c]));
const subdivisions = new Map([...countries.values()].flatMap((c) => c.subdivisions.map((s) => [s.code, s] as const)));
const places = readJson<AstronomyPlaces>('astronomy/places.json').places;
const travel = readJson<TravelIndex>('travel/index.json');
const tzIndex = readJson<TimezonesIndex>('timezones/index.json');
const served = new Set<string>([...tzIndex.zones, ...(tzIndex.other_zones ?? [])].flatMap((z) => [z.id, ...z.aliases]));

describe('every location has one name and one zone across the areas', () => {
  it('the list and each index.json agree', () => {
    for (const l of list.locations) {
      const index = readJson<BusinessDaysLocation>(`business-days/${l.location}/index.json`);
      expect({ name: index.name, timezone: index.timezone }, l.location).toEqual({ name: l.name, timezone: l.timezone });
    }
  });

  it('a country: the countries document names it, its zone is its capital zone in the astronomy area and one of its zone.tab zones', () => {
    let compared = 0;
    for (const l of list.locations.filter((x) => countries.has(x.location))) {
      const c = countries.get(l.location)!;
      expect(l.name, l.location).toBe(c.name);
      expect(c.timezones, l.location).toContain(l.timezone);
      if (places[l.location]) expect(l.timezone, l.location).toBe(places[l.location].timezone);
      compared++;
    }
    expect(compared).toBeGreaterThan(200); // 205 of the 207 date-holidays countries are ISO 3166-1 (not IC, XK)
    for (const n of list.no_holiday_data) expect(n.name, n.location).toBe(countries.get(n.location)!.name);
  });

  it('an ISO 3166-2 subdivision: its ISO name as the countries document lists it, and its seat zone as the astronomy area has it', () => {
    let withSeat = 0;
    for (const l of list.locations.filter((x) => subdivisions.has(x.location))) {
      const s = subdivisions.get(l.location)!;
      expect(l.name, l.location).toBe(s.name);
      if (s.seat) {
        expect(l.timezone, l.location).toBe(s.seat.timezone);
        expect(l.timezone, l.location).toBe(places[l.location].timezone);
        withSeat++;
      }
    }
    expect(withSeat).toBeGreaterThan(300);
  });

  it('date-holidays own codes (sub-regions, IC, XK) keep a zone the timezones area serves; every zone does', () => {
    for (const l of list.locations) expect(served.has(l.timezone), `${l.location} ${l.timezone}`).toBe(true);
  });

  it('the travel area speaks of countries under the same names', () => {
    const notes = Object.entries(travel.climate_notes).filter(([code, n]) => code.length === 2 && ['no_station_near_capital', 'no_capital'].includes(n.reason));
    expect(notes.length).toBeGreaterThan(0);
    for (const [code, note] of notes) expect(note.message, code).toContain(countries.get(code)!.name);
    for (const code of travel.destinations) expect(countries.has(code.slice(0, 2)), code).toBe(true);
  });
});

/**
 * Facts typed in by hand. Names: ISO 3166 Online Browsing Platform, https://www.iso.org/obp/ui/#iso:code:3166:AG.
 * Zones: IANA tz database zone.tab, https://data.iana.org/time-zones/tzdb/zone.tab (country, coordinates, zone, comment).
 */
const FACTS: { location: string; name?: string; timezone: string; why: string }[] = [
  { location: 'AG', name: 'Antigua and Barbuda', timezone: 'America/Antigua', why: 'zone.tab: AG +1703-06148 America/Antigua' },
  { location: 'RU-IRK', timezone: 'Asia/Irkutsk', why: 'zone.tab: RU +5216+10420 Asia/Irkutsk "MSK+05 - Irkutsk, Buryatia"' },
  { location: 'CA-PE', timezone: 'America/Halifax', why: 'zone.tab: CA +4439-06336 America/Halifax "Atlantic - NS (most areas), PE"' },
  { location: 'CA-QC', timezone: 'America/Toronto', why: 'zone.tab: CA +4339-07923 America/Toronto "Eastern - ON & QC (most areas)"; Quebec City is not Blanc-Sablon' },
  { location: 'KZ', timezone: 'Asia/Almaty', why: 'zone.tab: KZ +4315+07657 Asia/Almaty "most of Kazakhstan", Astana included' },
  { location: 'ES-CN', timezone: 'Atlantic/Canary', why: 'zone.tab: ES +2806-01524 Atlantic/Canary "Canary Islands"' },
];

describe('hand-typed names and zones', () => {
  it.each(FACTS)('$location: $timezone ($why)', ({ location, name, timezone }) => {
    const l = list.locations.find((x) => x.location === location)!;
    expect(l.timezone).toBe(timezone);
    if (name) expect(l.name).toBe(name);
  });

  it('over HTTP: /v1/business-days, /v1/countries/AG and /v1/astronomy/sun/AG agree on Antigua and Barbuda in America/Antigua', async () => {
    const app = appAt();
    const bd = await getJson(app, '/v1/business-days');
    expect(bd.status).toBe(200);
    expect(bd.body.locations.find((l: { location: string }) => l.location === 'AG')).toMatchObject({ name: 'Antigua and Barbuda', timezone: 'America/Antigua' });
    const country = await getJson(app, '/v1/countries/AG');
    expect(country.body).toMatchObject({ name: 'Antigua and Barbuda', timezones: ['America/Antigua'] });
    const sun = await getJson(app, '/v1/astronomy/sun/AG?date=2026-06-21');
    expect(sun.status).toBe(200);
    expect(sun.body.timezone).toBe('America/Antigua');
  });

  it('the zone decides "today": at 20:00 UTC on 2026-11-21 Irkutsk (UTC+8) is on the 22nd, Moscow (UTC+3) still on the 21st', async () => {
    const app = appAt(new Date('2026-11-21T20:00:00Z'));
    expect((await getJson(app, '/v1/business-days/RU-IRK')).body.date).toBe('2026-11-22');
    expect((await getJson(app, '/v1/business-days/RU')).body.date).toBe('2026-11-21');
  });
});

describe('the dataset this file reads', () => {
  it('has every area it compares', () => {
    for (const p of ['business-days/index.json', 'countries/index.json', 'astronomy/places.json', 'travel/index.json', 'timezones/index.json']) expect(existsSync(join(V1, p)), p).toBe(true);
  });
});
