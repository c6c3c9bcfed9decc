/**
 * @refdata/dataset: the refdata dataset as a handful of files under data/,
 * with a synchronous reader and the business-day arithmetic of the API.
 * Every lookup validates its argument, answers undefined for anything
 * unknown, and caches what it read. Documents are frozen and shared: copy one
 * before changing it. ./schema-types.js (generated from schemas/) and the
 * calendar model are lib/ files, which scripts/pack-dataset.ts compiles in
 * beside this file.
 */
import { readFileSync } from 'node:fs';
import { lazyDocument, readJson } from './read-json.js';
import type { Attribution, Manifest } from './schema-types.js';

export type * from './schema-types.js';
export {
  addBusinessDays,
  checkDate,
  countBusinessDays,
  getBasis,
  getCalendar,
  getHolidays,
  getLocation,
  getWorkingDays,
  isBusinessDay,
  listLocations,
  nextBusinessDay,
  subtractBusinessDays,
  type DayType,
} from './business-days.js';
export { getCountry, listCountries } from './countries.js';
export { getOffset, getTimezone, type OffsetAt } from './timezones.js';
export { getTravel } from './travel.js';

/** data/manifest.json: version, sources, counts and the sha256 of every file; read on first access. */
export const manifest: Manifest = lazyDocument<Manifest>('manifest.json');

/** Licenses and attribution lines of every source (data/attribution.json); the data is CC BY-SA 3.0. */
export const attribution: Attribution = readJson<Attribution>('attribution.json');

/**
 * The dataset's version (manifest.version, a content hash), as recorded in
 * this package's package.json when it was packed: cheaper than the manifest.
 */
export const datasetVersion: string = (
  JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { refdata: { datasetVersion: string } }
).refdata.datasetVersion;
