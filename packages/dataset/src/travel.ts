/**
 * Travel facts (data/travel/index.json and data/travel/destinations.json),
 * resolved as GET /v1/travel/{destination} without from and date: a
 * destination's own document, else, for an ISO 3166-2 code, its country's
 * document re-addressed to the region.
 */
import { ISO_SUBDIVISION_INPUT_RE } from './location-code.js';
import { deepFreeze, once, readJson } from './read-json.js';
import type { TravelIndex, TravelInfo } from './schema-types.js';

const index = once(() => {
  const doc = readJson<TravelIndex>('travel/index.json');
  return { own: new Set(doc.destinations), regions: new Map(Object.entries(doc.regions)) };
});
/** Every destination's own document by code (dist-data's travel/{CODE}.json files, in one file). */
const documents = once(() => new Map(Object.entries(readJson<Record<string, TravelInfo>>('travel/destinations.json'))));
const regionDocs = new Map<string, TravelInfo>();

/**
 * Power, plugs, emergency numbers, calling code and driving side of a country
 * or region; case-insensitive; undefined for an unknown code.
 * @example getTravel('JP')?.driving_side // 'left'
 */
export function getTravel(code: string): TravelInfo | undefined {
  // The API's destination pattern (server/routes/travel.ts): JP, JP-13.
  if (typeof code !== 'string' || !ISO_SUBDIVISION_INPUT_RE.test(code)) return undefined;
  const destination = code.toUpperCase();
  const { own, regions } = index();
  if (own.has(destination)) return documents().get(destination);
  const country = regions.get(destination);
  if (country === undefined || !own.has(country)) return undefined;
  let doc = regionDocs.get(destination);
  if (doc === undefined) {
    const base = documents().get(country)!;
    // The capital's climate station does not describe another region.
    doc = deepFreeze({ ...base, destination, sources: { ...base.sources, climate: null } });
    regionDocs.set(destination, doc); // bounded by the regions map (~5,000 codes)
  }
  return doc;
}
