/**
 * Where a path belongs: the one table that the gate (who may call, counted or
 * not), the answers' headers (Cache-Control), the fast path (which answers it
 * may keep by request target) and the OpenAPI description read. Adding an
 * area is adding a row; a path no row names is never public (no-store) and
 * outside the gate (it is a 404 or an error).
 */

/** Reference areas: the same for every caller and changed only by a new dataset, so shared caches may keep them. */
export const CACHE_PUBLIC = 'public, max-age=3600, stale-while-revalidate=86400';
/** Paid areas: answers sit behind a key, so only the caller's own cache may keep them, revalidating each time. */
export const CACHE_PRIVATE = 'private, no-cache';
/** Errors, health and unknown paths: never cached (a 429 or a 404 must not outlive its cause). */
export const CACHE_NONE = 'no-store';

/**
 * Who may call: premium areas need a key of a paid plan, reference areas take anyone (counted per key or
 * address), service paths (the index, the description, the docs, health) are outside the gate, not counted.
 */
export type Access = 'premium' | 'reference' | 'service';

export interface AreaRow {
  /** The path, or the first segments of the paths, it covers: `/v1/travel` covers `/v1/travel` and `/v1/travel/…`. */
  path: string;
  /** Only `path` itself, not the paths below it. */
  exact?: boolean;
  access: Access;
  /** Cache-Control of its 200s, unless a route gives its own (time-zone answers for now: until the next transition). */
  cache: typeof CACHE_PUBLIC | typeof CACHE_PRIVATE | typeof CACHE_NONE;
  /** server/main.ts's fast path may keep its answers by request target (astronomy keeps its own, by place and day). */
  fastPath: boolean;
}

export const AREAS: readonly AreaRow[] = [
  { path: '/v1/business-days', access: 'premium', cache: CACHE_PRIVATE, fastPath: true },
  { path: '/v1/travel', access: 'premium', cache: CACHE_PRIVATE, fastPath: true },
  { path: '/v1/astronomy', access: 'premium', cache: CACHE_PRIVATE, fastPath: false },
  { path: '/v1/timezones', access: 'reference', cache: CACHE_PUBLIC, fastPath: true },
  { path: '/v1/countries', access: 'reference', cache: CACHE_PUBLIC, fastPath: true },
  { path: '/v1/openapi.json', exact: true, access: 'service', cache: CACHE_PUBLIC, fastPath: false },
  { path: '/v1', exact: true, access: 'service', cache: CACHE_PUBLIC, fastPath: false },
  { path: '/', exact: true, access: 'service', cache: CACHE_PUBLIC, fastPath: false },
  { path: '/docs', access: 'service', cache: CACHE_PUBLIC, fastPath: false },
  { path: '/healthz', exact: true, access: 'service', cache: CACHE_NONE, fastPath: false },
];

/** The row a path belongs to (matched on whole segments: `/v1/travelx` is no travel path), or undefined. */
export function areaOf(pathname: string): AreaRow | undefined {
  for (const row of AREAS) {
    if (pathname === row.path) return row;
    if (!row.exact && pathname.startsWith(row.path) && pathname.charCodeAt(row.path.length) === 47 /* / */) return row;
  }
  return undefined;
}

/** The gate's areas: premium or reference; undefined for service paths and paths no row names (not counted). */
export type Area = 'premium' | 'reference';
export function gatedAreaOf(pathname: string): Area | undefined {
  const access = areaOf(pathname)?.access;
  return access === 'premium' || access === 'reference' ? access : undefined;
}

/** Cache-Control of a 200 on this path: its row's, and no-store for a path no row names. */
export function cachePolicy(pathname: string): string {
  return areaOf(pathname)?.cache ?? CACHE_NONE;
}
