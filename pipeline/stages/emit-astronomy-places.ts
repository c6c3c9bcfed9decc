/**
 * Stage: the place each country code stands for in the astronomy area — its
 * capital — with the time zone of that place: of the country's zone.tab zones,
 * the one whose principal location is nearest the capital (America/New_York
 * for Washington, Europe/Madrid for Madrid rather than Atlantic/Canary).
 */
import { haversineKm } from '../../lib/climate.js';
import type { AstronomyPlaces, Country } from '../../lib/schema-types.js';
import type { FileMap } from './emit-business-days.js';

export const ASTRONOMY_SCHEMA_ROUTES: [RegExp, string][] = [[/^astronomy\/places\.json$/, 'astronomy-places.schema.json']];

export function emitAstronomyPlaces(countries: Country[], zones: { id: string; country: string; latitude: number; longitude: number }[]): FileMap {
  const places: AstronomyPlaces['places'] = {};
  for (const c of countries) {
    if (!c.capital) continue;
    const { latitude, longitude } = c.capital;
    const candidates = zones.filter((z) => z.country === c.code);
    if (!candidates.length) continue;
    const nearest = candidates.reduce((best, z) =>
      haversineKm(latitude, longitude, z.latitude, z.longitude) < haversineKm(latitude, longitude, best.latitude, best.longitude) ? z : best,
    );
    places[c.code] = { name: c.capital.name, latitude, longitude, timezone: nearest.id };
  }
  return new Map([['astronomy/places.json', { places }]]);
}
