/**
 * Business-day data: the location list, each location's description and its
 * holidays per calendar year (data/business-days/).
 */
import { once, readJson } from './read-json.js';
import type { BusinessDaysLocation, BusinessDaysLocations, BusinessDaysYear } from './schema-types.js';

/** Country, subdivision and date-holidays sub-region codes: US, US-CA, US-CA-LA, BR-GO-GOIANIA, GT-1-101. */
const LOCATION_RE = /^[A-Za-z]{2}(-[A-Za-z0-9]{1,13}){0,2}$/;

const index = () => readJson<BusinessDaysLocations>('business-days/index.json');
const known = once(() => new Set(index().locations.map((l) => l.location)));

/** The upper-case code of a known location; paths are only ever built from these. */
function knownLocation(location: string): string | undefined {
  if (typeof location !== 'string' || !LOCATION_RE.test(location)) return undefined;
  const code = location.toUpperCase();
  return known().has(code) ? code : undefined;
}

/**
 * Every location with business-day data (code, name, kind, time zone), sorted by code.
 * @example listLocations().filter((l) => l.location.startsWith('US-'))
 */
export function listLocations(): BusinessDaysLocations['locations'] {
  return index().locations;
}

/**
 * A location's name, parent, time zone, workweeks, day-type coverage and years; case-insensitive.
 * @example getLocation('us-ca')?.timezone // 'America/Los_Angeles'
 */
export function getLocation(location: string): BusinessDaysLocation | undefined {
  const code = knownLocation(location);
  return code === undefined ? undefined : readJson<BusinessDaysLocation>(`business-days/${code}/index.json`);
}

/**
 * The holidays of a location in one calendar year, or undefined for an unknown
 * location or a year outside the dataset's range.
 * @example getCalendar('US-CA', 2026)?.holidays.map((h) => h.date)
 */
export function getCalendar(location: string, year: number): BusinessDaysYear | undefined {
  if (!Number.isInteger(year)) return undefined;
  const meta = getLocation(location);
  if (meta === undefined || !meta.years.includes(year)) return undefined;
  return readJson<BusinessDaysYear>(`business-days/${meta.location}/${year}.json`);
}
