/**
 * Stage: the place each code stands for in the astronomy area. A country: its
 * capital, with the zone of its capital as pipeline/stages/name-locations.ts
 * chooses it for every area (the zone at the capital when zone.tab lists it for
 * the country, else the country's zone.tab zone nearest the capital: America/New_York
 * for Washington, Europe/Madrid for Madrid rather than Atlantic/Canary, Asia/Almaty for Astana).
 * An ISO 3166-2 region: its seat (countries' subdivisions[].seat), with the zone
 * geo-tz finds at the seat (America/Los_Angeles for Sacramento).
 */
import type { AstronomyPlaces, Country } from '../../lib/schema-types.js';
import type { FileMap } from './emit-business-days.js';

export const ASTRONOMY_SCHEMA_ROUTES: [RegExp, string][] = [[/^astronomy\/places\.json$/, 'astronomy-places.schema.json']];

/** `capitals`: country code -> the zone of its capital (name-locations.ts capitalZones); `zones`: zone.tab. */
export function emitAstronomyPlaces(countries: Country[], capitals: ReadonlyMap<string, string>, zones: { id: string }[]): FileMap {
  const places: AstronomyPlaces['places'] = {};
  for (const c of countries) {
    const timezone = capitals.get(c.code);
    if (!c.capital || !timezone) continue;
    places[c.code] = { name: c.capital.name, latitude: c.capital.latitude, longitude: c.capital.longitude, timezone };
  }
  const known = new Set(zones.map((z) => z.id));
  for (const c of countries) {
    for (const { code, seat } of c.subdivisions) {
      if (!seat) continue;
      // The zone must be one the timezones area serves (a seat's zone outside zone.tab would answer nothing there).
      if (!known.has(seat.timezone)) throw new Error(`astronomy places: the seat of ${code} is in ${seat.timezone}, which zone.tab does not list`);
      places[code] = { name: seat.name, latitude: seat.latitude, longitude: seat.longitude, timezone: seat.timezone };
    }
  }
  return new Map([['astronomy/places.json', { places }]]);
}
