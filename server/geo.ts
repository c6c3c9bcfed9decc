/**
 * The time zone at a point on Earth, from timezone-boundary-builder's polygons
 * through geo-tz's comprehensive product (one zone per country and region, right
 * before 1970 too). Points at sea answer their nautical Etc/GMT±N zone. Where a
 * point lies on a border or in a disputed area geo-tz returns several zones:
 * the first is answered, all are available through zonesAt.
 *
 * geo-tz decodes the polygons of one cell of its quadtree on first use and keeps
 * them in the store it is given; its default store is a Map that never lets go,
 * so every new place asked about grew the process for good (100,000 distinct
 * points: +1 GB). The store here is an LRU bounded by the decoded cells' size on
 * the heap: GEO_CACHE_MB (default 128) megabytes, least recently used cells
 * evicted first and decoded again when asked for.
 */
import { LRUCache } from 'lru-cache';
import { find, setCache } from 'geo-tz/all';

export const GEO_CACHE_DEFAULT_MB = 128;

/**
 * Heap bytes a decoded cell takes per coordinate pair, its features, rings and
 * properties included: measured with --expose-gc over 195 and 1,815 cells
 * (226.5 and 227.4 bytes; node 20, geo-tz 8.1.9).
 */
export const BYTES_PER_POSITION = 228;

interface Cell {
  features: { geometry: { coordinates: unknown[] } }[];
}

/** The coordinate pairs of a decoded cell. */
function positions(coordinates: unknown[]): number {
  if (typeof coordinates[0] === 'number') return 1;
  let n = 0;
  for (const c of coordinates) n += positions(c as unknown[]);
  return n;
}

/** Estimated heap bytes of one decoded cell. */
export function cellBytes(cell: Cell): number {
  let n = 0;
  for (const f of cell.features) n += positions(f.geometry.coordinates);
  return Math.max(1, n * BYTES_PER_POSITION);
}

/** The cache budget in bytes from GEO_CACHE_MB; anything but a positive number fails at start with what was wrong. */
export function geoCacheBytes(env = process.env.GEO_CACHE_MB): number {
  if (env === undefined || env === '') return GEO_CACHE_DEFAULT_MB * 1024 * 1024;
  const mb = Number(env);
  if (!Number.isFinite(mb) || mb <= 0) throw new Error(`GEO_CACHE_MB must be a positive number of megabytes (got "${env}")`);
  return Math.round(mb * 1024 * 1024);
}

let cache: LRUCache<string, Cell>;

/** Gives geo-tz a fresh store bounded to `maxBytes` (a cell larger than the whole budget is decoded per lookup, never kept). */
export function useGeoCache(maxBytes: number): void {
  cache = new LRUCache<string, Cell>({ maxSize: maxBytes, sizeCalculation: cellBytes });
  setCache({ store: cache as unknown as Map<string, unknown> });
}

useGeoCache(GEO_CACHE_DEFAULT_MB * 1024 * 1024); // startServer (server/main.ts) applies GEO_CACHE_MB

/** What the polygon cache holds now, for /healthz and the tests. */
export function geoCacheStats(): { cells: number; bytes: number; max_bytes: number } {
  return { cells: cache.size, bytes: cache.calculatedSize, max_bytes: cache.maxSize };
}

/** Every zone geo-tz finds at the point (at least one: the ocean zone at sea). */
export function zonesAt(latitude: number, longitude: number): string[] {
  const zones = find(latitude, longitude);
  if (Math.abs(latitude) !== 90 || zones.length < 2) return zones;
  // At a pole every meridian meets, and every zone touching it is an answer: the one the given longitude reaches
  // it in comes first (latitude 90 answered Etc/GMT-12 at longitude 0, and 89.9999999 Etc/GMT).
  const near = find(latitude - Math.sign(latitude) * 1e-7, longitude).filter((z) => zones.includes(z));
  return [...near, ...zones.filter((z) => !near.includes(z))];
}

/** The zone at the point: geo-tz's first answer. */
export function zoneAt(latitude: number, longitude: number): string {
  return zonesAt(latitude, longitude)[0];
}
