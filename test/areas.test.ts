/**
 * The one table of areas (server/areas.ts): every route the app serves belongs
 * to a row, whole segments decide, and a path no row names is never public.
 * The OpenAPI description reads the same rows (test/openapi.test.ts checks
 * that no premium answer it documents carries `public`).
 */
import { describe, expect, it } from 'vitest';
import { areaOf, AREAS, cachePolicy, CACHE_NONE, CACHE_PRIVATE, gatedAreaOf } from '../server/areas.js';
import { appAt } from './helpers.js';

describe('server/areas.ts', () => {
  it('matches whole segments', () => {
    expect(gatedAreaOf('/v1/travel/JP')).toBe('premium');
    expect(gatedAreaOf('/v1/travel')).toBe('premium');
    expect(gatedAreaOf('/v1/travelx')).toBeUndefined();
    expect(gatedAreaOf('/v1/timezones/Europe/Oslo')).toBe('reference');
    expect(areaOf('/v1/openapi.json')?.access).toBe('service');
    expect(areaOf('/v1/openapi.jsonx')).toBeUndefined();
    expect(areaOf('/docs/try')?.access).toBe('service');
  });

  it('a path no row names is never public, and every premium row is private', () => {
    for (const path of ['/v1/nowhere', '/v2/business-days/US', '/v1/business-daysX', '/favicon.ico']) expect(cachePolicy(path), path).toBe(CACHE_NONE);
    for (const row of AREAS.filter((r) => r.access === 'premium')) expect(row.cache, row.path).toBe(CACHE_PRIVATE);
  });

  it('every GET route the app registers belongs to a row', () => {
    const app = appAt();
    const paths = [...new Set(app.routes.filter((r) => r.method === 'GET').map((r) => r.path))];
    expect(paths.length).toBeGreaterThan(20);
    const orphans = paths.filter((p) => areaOf(p.replace(/\/:[^/]*$/, '/x').replace(/:[^/]+/g, 'x')) === undefined);
    expect(orphans).toEqual([]);
  });
});
