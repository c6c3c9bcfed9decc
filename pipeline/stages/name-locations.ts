/**
 * Stage: one name and one time zone per location, shared by every area (before it,
 * /v1/business-days said "Antigua & Barbuda" in America/Port_of_Spain while
 * /v1/countries/AG said "Antigua and Barbuda" in America/Antigua).
 *
 * Name:
 * - an ISO 3166-1 country: the countries area's name (REST Countries' common name);
 * - an ISO 3166-2 subdivision: the countries area's subdivision name (English: CLDR's, else ISO 3166-2's);
 * - any other code (date-holidays' own: DE-BY-A, CK-RAROTONGA, IC, XK): date-holidays' English name.
 *
 * Time zone:
 * - a country: the zone at its capital (capitalZones below), which the astronomy area uses too;
 * - an ISO 3166-2 subdivision with a seat: the zone at the seat (pipeline/stages/ingest-seats.ts),
 *   as in the countries (subdivisions[].seat) and astronomy areas;
 * - otherwise date-holidays' zone when date-holidays gives the location a zone of its own
 *   (different from its parent's: Atlantic/Canary for ES-CN, America/Cayenne for FR-GF), or when
 *   nothing else exists (IC, XK); else the parent location's zone as resolved here.
 *
 * The business-day location's zone decides "today" for requests without a date.
 */
import { haversineKm } from '../../lib/climate.js';
import type { Country } from '../../lib/schema-types.js';
import type { Target } from './ingest-holidays.js';

export interface ZoneTabEntry {
  id: string;
  country: string;
  latitude: number;
  longitude: number;
}

export interface LocationIdentity {
  name: string;
  timezone: string;
  /** Where each came from, for the build log and the tests. */
  nameFrom: 'countries' | 'iso-3166-2' | 'date-holidays';
  zoneFrom: 'capital' | 'seat' | 'date-holidays' | 'parent';
}

/**
 * The zone of each country's capital, for countries with a capital and zone.tab zones: the zone
 * at the capital (`zoneAt`, geo-tz; links resolved through `links`) when it is one of the country's
 * zone.tab zones, named as zone.tab names it; else the country's zone.tab zone whose principal
 * location is nearest the capital (N'Djamena's point falls in Cameroon's polygon; geo-tz answers
 * Asia/Bangkok for Hanoi). Astana: Asia/Almaty, where the nearest principal location is Qostanay.
 */
export function capitalZones(
  countries: readonly Country[],
  zoneTab: readonly ZoneTabEntry[],
  zoneAt: (latitude: number, longitude: number) => string | undefined,
  links: ReadonlyMap<string, string>,
): Map<string, string> {
  const canonical = (zone: string) => links.get(zone) ?? zone;
  const out = new Map<string, string>();
  for (const c of countries) {
    const candidates = zoneTab.filter((z) => z.country === c.code);
    if (!c.capital || !candidates.length) continue;
    const { latitude, longitude } = c.capital;
    const at = zoneAt(latitude, longitude);
    const here = at === undefined ? undefined : (candidates.find((z) => z.id === at) ?? candidates.find((z) => canonical(z.id) === canonical(at)));
    const nearest = candidates.reduce((best, z) =>
      haversineKm(latitude, longitude, z.latitude, z.longitude) < haversineKm(latitude, longitude, best.latitude, best.longitude) ? z : best,
    );
    out.set(c.code, (here ?? nearest).id);
  }
  return out;
}

/** The capital zones, with geo-tz (the package and lookup ingest-seats.ts uses). */
export async function ingestCapitalZones(countries: readonly Country[], zoneTab: readonly ZoneTabEntry[], links: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const { find } = await import('geo-tz/all');
  return capitalZones(countries, zoneTab, (lat, lon) => find(lat, lon)[0], links);
}

/** Name and zone of every business-day location (see the top of this file), by location code. */
export function nameLocations(targets: readonly Target[], countries: readonly Country[], capitals: ReadonlyMap<string, string>): Map<string, LocationIdentity> {
  const country = new Map(countries.map((c) => [c.code, c]));
  const subdivision = new Map(countries.flatMap((c) => c.subdivisions.map((s) => [s.code, s] as const)));
  const byCode = new Map(targets.map((t) => [t.location, t]));
  const out = new Map<string, LocationIdentity>();

  const resolve = (t: Target): LocationIdentity => {
    const known = out.get(t.location);
    if (known) return known;
    const c = t.kind === 'country' ? country.get(t.location) : undefined;
    const s = t.kind === 'country' ? undefined : subdivision.get(t.location);
    const name = c ? { name: c.name, nameFrom: 'countries' as const } : s ? { name: s.name, nameFrom: 'iso-3166-2' as const } : { name: t.name, nameFrom: 'date-holidays' as const };
    const parent = t.parent === null ? undefined : byCode.get(t.parent);
    if (t.parent !== null && !parent) throw new Error(`${t.location}: parent ${t.parent} is not a location`);
    let zone: Pick<LocationIdentity, 'timezone' | 'zoneFrom'>;
    const capital = c ? capitals.get(c.code) : undefined;
    if (capital) zone = { timezone: capital, zoneFrom: 'capital' };
    else if (s?.seat) zone = { timezone: s.seat.timezone, zoneFrom: 'seat' };
    else if (!parent || t.timezone !== parent.timezone) zone = { timezone: t.timezone, zoneFrom: 'date-holidays' };
    else zone = { timezone: resolve(parent).timezone, zoneFrom: 'parent' };
    const identity = { ...name, ...zone };
    out.set(t.location, identity);
    return identity;
  };
  for (const t of targets) resolve(t);
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : 1)));
}
