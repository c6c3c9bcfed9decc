/**
 * Stage: lay the countries out as files: the full list the server loads,
 * one file per country, and the default-size pages of GET /v1/countries.
 */
import { DEFAULT_PER_PAGE, paginate } from '../../lib/paginate.js';
import type { CountriesIndex, Country, CountryList } from '../../lib/schema-types.js';

/** Which schema each published countries path must satisfy (spliced into validate.ts). */
export const COUNTRY_SCHEMA_ROUTES: [RegExp, string][] = [
  [/^countries\/index\.json$/, 'countries-index.schema.json'],
  [/^countries\/[A-Z]{2}\.json$/, 'country.schema.json'],
  [/^countries\/pages\/[1-9]\d*\.json$/, 'country-list.schema.json'],
];

export function emitCountries(countries: Country[]): Map<string, unknown> {
  const sorted = [...countries].sort((a, b) => (a.code < b.code ? -1 : 1));
  const files = new Map<string, unknown>();
  files.set('countries/index.json', { countries: sorted } satisfies CountriesIndex);
  for (const c of sorted) files.set(`countries/${c.code}.json`, c);
  const pages = Math.ceil(sorted.length / DEFAULT_PER_PAGE);
  for (let page = 1; page <= pages; page++) {
    files.set(`countries/pages/${page}.json`, paginate(sorted, { page, per_page: DEFAULT_PER_PAGE }) satisfies CountryList);
  }
  return files;
}
