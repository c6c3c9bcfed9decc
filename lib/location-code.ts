/**
 * Location codes: a country (ISO 3166-1 alpha-2), COUNTRY-SUBDIVISION (ISO 3166-2 where one exists) or
 * COUNTRY-SUBDIVISION-REGION (date-holidays' sub-regions, upper-cased: BR-GO-GOIANIA, GT-1-101).
 * The one pattern the pipeline, the server and the package check codes with; it is the schema's
 * `LocationCode` (schemas/defs.schema.json), which a test keeps equal to it.
 */

/** A published (upper-case) location code. */
export const LOCATION_CODE_RE = /^[A-Z]{2}(-[A-Z0-9]{1,12}){0,2}$/;

/** A location code as a client may type it (any letter case); `canonicalLocation` upper-cases it. */
export const LOCATION_INPUT_RE = /^[A-Za-z]{2}(-[A-Za-z0-9]{1,12}){0,2}$/;

/** The published form of a code a client typed, or undefined when it is not a location code. */
export function canonicalLocation(text: string): string | undefined {
  return LOCATION_INPUT_RE.test(text) ? text.toUpperCase() : undefined;
}

/**
 * Does something given for `code` (a curated row, a complete year, a rule) apply to `location`?
 * A country's rows apply to its subdivisions and regions, a subdivision's to its regions.
 */
export function appliesTo(code: string, location: string): boolean {
  return location === code || location.startsWith(`${code}-`);
}

/** Does a curated row apply to `location`: its own location, and the codes under it unless the row is for that location `only`? */
export function rowAppliesTo(row: { location: string; only?: boolean }, location: string): boolean {
  return row.only ? location === row.location : appliesTo(row.location, location);
}

/**
 * A country or ISO 3166-2 subdivision code as a client may type it (JP, jp-13, US-CA): the travel and astronomy
 * areas' codes. Narrower than a location code: ISO 3166-2 subdivision codes have 1-3 characters and no region.
 */
export const ISO_SUBDIVISION_INPUT_RE = /^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/;
