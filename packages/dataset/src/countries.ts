/**
 * ISO 3166-1 countries and territories (data/countries/index.json, one file).
 */
import { once, readJson } from './read-json.js';
import type { CountriesIndex, Country } from './schema-types.js';

const CODE_RE = /^[A-Za-z]{2}$/;

const byCode = once(() => new Map(listCountries().map((c) => [c.code, c])));

/**
 * Every country, sorted by code (one 470 kB file, read on first call).
 * @example listCountries().filter((c) => c.driving_side === 'left').length
 */
export function listCountries(): Country[] {
  return readJson<CountriesIndex>('countries/index.json').countries;
}

/**
 * One country by its ISO 3166-1 alpha-2 code, case-insensitive.
 * @example getCountry('jp')?.phone_code // '+81'
 */
export function getCountry(code: string): Country | undefined {
  if (typeof code !== 'string' || !CODE_RE.test(code)) return undefined;
  return byCode().get(code.toUpperCase());
}
