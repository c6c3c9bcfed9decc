import { describe, expect, it } from 'vitest';
import { CACHE_POINTER, CACHE_VERSIONED, familyOf, nextVersions, publishPlan, staticHeaders } from './static-hosting.js';

const f = (sha256: string, bytes = 10) => ({ bytes, sha256 });

describe('static hosting', () => {
  it('reuses files whose path, size and sha256 the previous version has, and sends the rest', () => {
    const plan = publishPlan({ 'a.json': f('1'), 'b.json': f('2'), 'c.ics': f('3', 7) }, { 'a.json': f('1'), 'b.json': f('x'), 'd.json': f('4') });
    expect(plan).toEqual({ reuse: ['a.json'], send: ['b.json', 'c.ics'], sendBytes: 17 });
    expect(publishPlan({ 'a.json': f('1') }, undefined)).toEqual({ reuse: [], send: ['a.json'], sendBytes: 10 });
  });

  it('keeps the newest versions, the published one first, and names what falls off', () => {
    expect(nextVersions(['b', 'c', 'd'], 'a', 3)).toEqual({ versions: ['a', 'b', 'c'], prune: ['d'] });
    // Publishing a kept version again moves it to the front without duplicating it.
    expect(nextVersions(['b', 'a', 'c'], 'a', 2)).toEqual({ versions: ['a', 'b'], prune: ['c'] });
  });

  it('gives versioned paths a year, anything else a minute, and the .gz tables their own type', () => {
    expect(staticHeaders('0123456789abcdef/countries/JP.json')).toEqual({ 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': CACHE_VERSIONED, 'Access-Control-Allow-Origin': '*' });
    expect(staticHeaders('countries/JP.json')!['Cache-Control']).toBe(CACHE_POINTER);
    expect(staticHeaders('current.json')!['Cache-Control']).toBe(CACHE_POINTER);
    expect(staticHeaders('0123456789ABCDEF/countries/JP.json')!['Cache-Control']).toBe(CACHE_POINTER);
    expect(familyOf('bulk/holidays.csv.gz')!.contentType).toBe('application/gzip');
    expect(familyOf('bulk/holidays.csv')!.contentType).toBe('text/csv; charset=utf-8');
    expect(familyOf('bulk/x.parquet')).toBeUndefined();
  });
});
