/**
 * The static contract (dist-data/v1/README.md): dist-data/ served by a plain
 * static file server (Python's http.server, which knows nothing of this
 * project) answers every documented path with exactly the bytes the API
 * answers for the corresponding request. Paths are checked to be safe on any
 * host, and every published file is documented in one of the README's lists.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusinessDaysLocation, BusinessDaysLocations, CountriesIndex, TimezoneZone, TravelIndex, TravelInfo } from '../lib/schema-types.js';
import { appAt, DATA_DIR, FULL, requirePackage, runs, sharedKeys } from './helpers.js';

const V1 = join(DATA_DIR, 'v1');
const read = <T>(p: string) => JSON.parse(readFileSync(join(V1, p), 'utf8')) as T;
const manifest = read<{ files: Record<string, unknown> }>('manifest.json');
const paths = Object.keys(manifest.files).concat('manifest.json');
const readme = readFileSync(join(V1, 'README.md'), 'utf8');
const KEY = { 'x-api-key': sharedKeys().keys.growth };
const app = appAt();

let server: ChildProcess;
let base: string;

beforeAll(async () => {
  requirePackage('python3', runs('python3', ['--version']));
  // -u: unbuffered, so the "Serving HTTP on … port N" line arrives at once; port 0 picks a free one.
  server = spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', DATA_DIR], { stdio: ['ignore', 'pipe', 'ignore'] }); // stderr (a log line per request) unread would fill the pipe and block the server
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    server.stdout!.on('data', (chunk: Buffer) => {
      out += chunk;
      const m = /port (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    server.on('exit', (code) => reject(new Error(`python3 -m http.server exited with ${code}: ${out}`)));
    setTimeout(() => reject(new Error(`python3 -m http.server did not start: ${out}`)), 10_000);
  });
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  server?.kill();
});

/** The rows of the byte-identical table: [API request template, file template]. */
function contractRows(): [string, string][] {
  const block = /<!-- static-contract:start -->\n([\s\S]*?)<!-- static-contract:end -->/.exec(readme);
  if (!block) throw new Error('dist-data/v1/README.md has no static-contract block');
  return block[1]
    .split('\n')
    .filter((l) => l.startsWith('| `GET'))
    .map((l) => {
      const cells = l.split('|').map((c) => c.trim());
      const code = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      return [code(cells[1]).filter((c) => c.startsWith('GET ')).join(' | '), code(cells[2])[0]];
    });
}

const locations = read<BusinessDaysLocations>('business-days/index.json').locations.map((l) => l.location);
const countries = read<CountriesIndex>('countries/index.json').countries.map((c) => c.code);
const travel = read<TravelIndex>('travel/index.json');

/** Every (API request, file) pair a documented row stands for. */
function expand(file: string): [string, string][] {
  switch (file) {
    case 'business-days/index.json':
      return [['/v1/business-days', file]];
    case 'business-days/{LOCATION}/{YEAR}.json':
      return locations.flatMap((loc) =>
        read<BusinessDaysLocation>(`business-days/${loc}/index.json`).years.map((y): [string, string] => [`/v1/business-days/${loc}/holidays?year=${y}`, `business-days/${loc}/${y}.json`]),
      );
    case 'business-days/{LOCATION}/{YEAR}.ics':
      return locations.flatMap((loc) =>
        read<BusinessDaysLocation>(`business-days/${loc}/index.json`).years.map((y): [string, string] => [`/v1/business-days/${loc}/holidays.ics?from_year=${y}&to_year=${y}`, `business-days/${loc}/${y}.ics`]),
      );
    case 'countries/pages/{N}.json': {
      const pages = Math.ceil(countries.length / 50);
      const out: [string, string][] = [['/v1/countries', 'countries/pages/1.json']];
      for (let n = 1; n <= pages; n++) out.push([`/v1/countries?page=${n}`, `countries/pages/${n}.json`]);
      return out;
    }
    case 'countries/{CODE}.json':
      return countries.map((c) => [`/v1/countries/${c}`, `countries/${c}.json`]);
    case 'travel/{CODE}.json':
      return travel.destinations.map((c) => [`/v1/travel/${c}`, `travel/${c}.json`]);
    default:
      throw new Error(`the README documents ${file}, which this test does not know how to expand: add it here`);
  }
}

/** Runs `fn` over `items` with at most `limit` in flight. */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < items.length) await fn(items[next++]);
  }));
}

describe('every documented static path answers the API\'s bytes', () => {
  const rows = contractRows();

  it('the README documents the six byte-identical families, and docs/dataset.md shows the same table', () => {
    expect(rows.map(([, file]) => file)).toEqual(['business-days/index.json', 'business-days/{LOCATION}/{YEAR}.json', 'business-days/{LOCATION}/{YEAR}.ics', 'countries/pages/{N}.json', 'countries/{CODE}.json', 'travel/{CODE}.json']);
    const block = (text: string) => /<!-- static-contract:start -->[\s\S]*?<!-- static-contract:end -->/.exec(text)?.[0];
    const datasetDoc = readFileSync(join(import.meta.dirname, '..', 'docs', 'dataset.md'), 'utf8');
    expect(block(datasetDoc)).toBe(block(readme));
  });

  for (const [request, file] of rows) {
    it(`${request}  =  ${file}`, async () => {
      const all = expand(file);
      expect(all.length).toBeGreaterThan(0);
      // The API's bytes against the file's: every pair in `npm run test:full` (1990-2099 has 69,080 year files of
      // each kind), an even spread of 3,000 in `npm test` (every location, ~5 years each, a different set of years
      // from one location to the next: pairs are ordered by location, then year). Small families: every pair.
      const pairs = FULL ? all : all.filter((_, i) => i % Math.max(1, Math.ceil(all.length / 3000)) === 0);
      if (file.includes('{LOCATION}')) expect(new Set(pairs.map(([path]) => path.split('/')[3])).size).toBe(locations.length);
      // Through the static host (Python's http.server, one request at a time): an even spread of at most 500 pairs;
      // serving them all took minutes and proves nothing more about the host (the API-to-file comparison above is the
      // one that covers every location).
      const stride = Math.max(1, Math.ceil(pairs.length / 500));
      let compared = 0;
      let hosted = 0;
      await pool(pairs.map((pair, i) => [...pair, i] as const), 16, async ([path, static_, i]) => {
        const api = await app.request(path, { headers: KEY });
        expect(api.status, path).toBe(200);
        const a = Buffer.from(await api.arrayBuffer());
        if (!a.equals(readFileSync(join(V1, static_)))) expect.fail(`${path} and ${static_} differ`);
        compared++;
        if (i % stride !== 0) return;
        const cdn = await fetch(`${base}/v1/${static_}`);
        expect(cdn.status, static_).toBe(200);
        expect(cdn.headers.get('content-type'), static_).toMatch(static_.endsWith('.ics') ? /^text\/calendar/ : /^application\/json/);
        if (!a.equals(Buffer.from(await cdn.arrayBuffer()))) expect.fail(`${path} and ${static_} differ through the static host`);
        hosted++;
      });
      expect(compared).toBe(pairs.length);
      expect(hosted).toBe(Math.ceil(pairs.length / stride));
    }, 300_000);
  }

  it('lower-case codes answer the same bytes', async () => {
    for (const [path, file] of [['/v1/countries/jp', 'countries/JP.json'], ['/v1/travel/jp-13', 'travel/JP-13.json'], ['/v1/business-days/us-ca/holidays?year=2026', 'business-days/US-CA/2026.json']]) {
      const api = Buffer.from(await (await app.request(path, { headers: KEY })).arrayBuffer());
      expect(api.equals(readFileSync(join(V1, file))), path).toBe(true);
    }
  });
});

describe('computed answers agree with the files they are computed from', () => {
  it('every zone\'s offset now is the last transition at or before now in its zone file', async () => {
    const now = Date.parse('2026-11-21T12:00:00Z'); // the instant appAt() freezes
    const { zones } = read<{ zones: { id: string }[] }>('timezones/index.json');
    for (const { id } of zones) {
      const doc = read<TimezoneZone>(`timezones/zones/${id}.json`);
      const last = doc.transitions.filter((t) => Date.parse(t.at) <= now).at(-1) ?? doc.initial;
      const body = (await (await app.request(`/v1/timezones/${encodeURIComponent(id)}`)).json()) as { offset_minutes: number; is_dst: boolean; abbreviation: string };
      expect([body.offset_minutes, body.is_dst, body.abbreviation], id).toEqual([last.offset_minutes, last.is_dst, last.abbreviation]);
    }
  });

  it('the timezone list pages hold the same zones in the same order as the static pages', async () => {
    for (let n = 1; ; n++) {
      const res = await app.request(`/v1/timezones?page=${n}`);
      const api = (await res.json()) as { data: { id: string; name: string; country?: string }[]; pagination: { total_pages: number } };
      const file = read<{ data: { id: string; name: string; country?: string }[] }>(`timezones/pages/${n}.json`);
      expect(api.data.map((z) => [z.id, z.name, z.country])).toEqual(file.data.map((z) => [z.id, z.name, z.country]));
      if (n === api.pagination.total_pages) break;
    }
  });

  it('a region without its own travel document answers its country\'s, re-addressed', async () => {
    const own = new Set(travel.destinations);
    const regions = Object.entries(travel.regions).filter(([code]) => !own.has(code));
    expect(regions.length).toBeGreaterThan(4000);
    for (const [region, country] of regions) {
      const doc = read<TravelInfo>(`travel/${country}.json`);
      const body = await (await app.request(`/v1/travel/${region}`, { headers: KEY })).json();
      expect(body, region).toEqual({ ...doc, destination: region, sources: { ...doc.sources, climate: null } });
    }
  }, 120_000);
});

describe('paths are safe on any static host', () => {
  it('plain ASCII that needs no encoding, no dot segments', () => {
    // Offenders are collected and compared once (an expect() per path was most of these tests' time: 160,000 paths).
    const safe = /^[A-Za-z0-9_-]+(\.[a-z]+)?(\/[A-Za-z0-9_-]+(\.[a-z]+){0,2})*$/; // at most two extensions: holidays.csv.gz
    expect(paths.filter((p) => !safe.test(p) || encodeURI(p) !== p)).toEqual([]);
  });

  it('no two paths differ only by case (safe to copy to case-insensitive file systems)', () => {
    const seen = new Map<string, string>();
    const collisions: string[] = [];
    for (const p of paths) {
      const k = p.toLowerCase();
      if (seen.has(k)) collisions.push(`${p} collides with ${seen.get(k)}`);
      seen.set(k, p);
    }
    expect(collisions).toEqual([]);
  });

  it('codes are upper-case, every other name lower-case (but README.md), zone ids in IANA case', () => {
    const wrong: string[] = [];
    for (const p of paths.filter((f) => f !== 'README.md')) {
      const [area, ...rest] = p.split('/');
      const name = rest.join('/');
      if (area === 'timezones' && name.startsWith('zones/')) continue; // IANA ids: America/Port-au-Prince
      if (area === 'business-days' && rest.length === 2 && !/^[A-Z0-9]{2}(-[A-Z0-9]+)*$/.test(rest[0])) wrong.push(`${p}: location code not upper-case`);
      if ((area === 'countries' || area === 'travel') && !name.includes('/') && name !== 'index.json' && !/^[A-Z]{2}(-[A-Z0-9]+)?\.json$/.test(name)) wrong.push(`${p}: not CODE.json`);
      const lowerParts = [area, ...rest].filter((s) => !/^[A-Z]{2}(-[A-Z0-9]+)*(\.json)?$/.test(s));
      for (const s of lowerParts) if (s !== s.toLowerCase()) wrong.push(`${p}: ${s} not lower-case`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('every published file is documented', () => {
  it('each path belongs to a family the dataset README names', () => {
    const families = [
      /^manifest\.json$/, /^attribution\.json$/, /^README\.md$/,
      /^business-days\/index\.json$/, /^business-days\/[A-Z0-9-]+\/index\.json$/, /^business-days\/[A-Z0-9-]+\/\d{4}\.json$/,
      /^timezones\/index\.json$/, /^timezones\/zones\/.+\.json$/, /^timezones\/pages\/\d+\.json$/,
      /^countries\/index\.json$/, /^countries\/pages\/\d+\.json$/, /^countries\/[A-Z]{2}\.json$/,
      /^travel\/index\.json$/, /^travel\/[A-Z]{2}(-[A-Z0-9]+)?\.json$/, /^travel\/climate\/[A-Z]{2}(-[A-Z0-9]+)?\.json$/,
      /^astronomy\/places\.json$/,
      /^bulk\/datapackage\.json$/, /^bulk\/refdata\.sqlite(\.gz)?$/, /^bulk\/[a-z_]+\.csv(\.gz)?$/,
      /^business-days\/[A-Z0-9-]+\/\d{4}\.ics$/,
    ];
    expect(paths.filter((p) => !families.some((re) => re.test(p))), 'paths in no documented family').toEqual([]);
    // And the README names each family.
    for (const name of ['manifest.json', 'attribution.json', 'business-days/{LOCATION}/index.json', 'business-days/{LOCATION}/{YEAR}.json', 'timezones/index.json', 'timezones/zones/{id}.json', 'timezones/pages/{N}.json', 'countries/index.json', 'countries/pages/{N}.json', 'countries/{CODE}.json', 'travel/index.json', 'travel/{CODE}.json', 'travel/climate/{CODE}.json', 'astronomy/places.json',
      'bulk/datapackage.json', 'bulk/{TABLE}.csv', 'bulk/{TABLE}.csv.gz', 'bulk/refdata.sqlite', 'bulk/refdata.sqlite.gz', 'business-days/{LOCATION}/{YEAR}.ics']) {
      expect(readme, name).toContain(`\`${name}\``);
    }
  });
});
