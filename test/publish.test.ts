/**
 * `npm run publish` (scripts/publish.ts) for real: small datasets made of real files of the built
 * dataset are published to a folder and to an S3-protocol endpoint (s3rver, through Debian's
 * rclone), and the folder is served by Debian's nginx with deploy/refdata.nginx.conf. Checked:
 * versioned immutable prefixes and the pointer written last, reuse of unchanged files (hard links,
 * server-side copies), the check against manifest.json, pruning to --keep, an interrupted publish
 * (the previous version stays served; a second run finishes it), a dataset that does not match its
 * manifest (refused, nothing written), and nginx's bytes and headers against lib/static-hosting.ts
 * and against the API.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../lib/schema-types.js';
import { CACHE_POINTER, CACHE_VERSIONED, familyOf, staticHeaders, type StaticPointer, type StaticVersions } from '../lib/static-hosting.js';
import { datasetVersion } from '../pipeline/stages/emit-manifest.js';
import { publish } from '../scripts/publish.js';
import { appAt, DATA_DIR, freePort, requirePackage, runs, sharedKeys } from './helpers.js';

const ROOT = join(import.meta.dirname, '..');
const REAL = join(DATA_DIR, 'v1');
/** Real files of every family: the static contract's kinds, a zone, the bulk tables. */
const SAMPLE = [
  'README.md',
  'attribution.json',
  'business-days/index.json',
  'business-days/JP/2026.json',
  'business-days/JP/2026.ics',
  'countries/JP.json',
  'countries/pages/1.json',
  'travel/JP.json',
  'timezones/zones/Asia/Tokyo.json',
  'bulk/countries.csv',
  'bulk/workweeks.csv.gz',
];
const realManifest = JSON.parse(readFileSync(join(REAL, 'manifest.json'), 'utf8')) as Manifest;
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

const work = mkdtempSync(join(tmpdir(), 'refdata-publish-test-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A dataset folder (holding v1/) of the sample's real bytes, with `changes` replacing some; returns it and its version. */
function dataset(name: string, changes: Record<string, string> = {}): { dir: string; version: string } {
  const dir = join(work, name);
  const files: Manifest['files'] = {};
  for (const path of SAMPLE) {
    const bytes = changes[path] !== undefined ? Buffer.from(changes[path]!) : readFileSync(join(REAL, path));
    mkdirSync(dirname(join(dir, 'v1', path)), { recursive: true });
    writeFileSync(join(dir, 'v1', path), bytes);
    files[path] = { ...realManifest.files[path]!, bytes: bytes.length, sha256: sha256(bytes) };
  }
  const version = datasetVersion(files);
  writeFileSync(join(dir, 'v1', 'manifest.json'), JSON.stringify({ ...realManifest, version, files }, null, 2) + '\n');
  return { dir, version };
}

const target = join(work, 'site');
const read = (path: string) => readFileSync(join(target, 'v1', path));
const pointer = () => JSON.parse(read('current.json').toString()) as StaticPointer;
const versions = () => (JSON.parse(read('versions.json').toString()) as StaticVersions).versions;

const first = dataset('first');
const second = dataset('second', { 'countries/JP.json': '{"changed":true}\n' });
const third = dataset('third', { 'countries/JP.json': '{"changed":2}\n', 'travel/JP.json': '{"changed":3}\n' });

// --- nginx, serving the folder target with deploy/refdata.nginx.conf ---------------------------
let nginx: ChildProcess | undefined;
let site = '';
beforeAll(async () => {
  const binary = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';
  requirePackage('nginx-light', runs(binary, ['-v']));
  const port = await freePort();
  const prefix = join(work, 'nginx');
  mkdirSync(join(prefix, 'logs'), { recursive: true });
  copyFileSync(join(ROOT, 'deploy', 'nginx.conf'), join(prefix, 'nginx.conf'));
  const conf = readFileSync(join(ROOT, 'deploy', 'refdata.nginx.conf'), 'utf8');
  expect(conf).toContain('listen 8080;');
  expect(conf).toContain('root /srv/refdata;');
  writeFileSync(join(prefix, 'refdata.nginx.conf'), conf.replace('listen 8080;', `listen 127.0.0.1:${port};`).replace('root /srv/refdata;', `root ${target};`));
  // As root, nginx's workers would run as nobody, who may not enter a private temporary folder.
  const globals = `error_log stderr; daemon off;${process.getuid?.() === 0 ? ' user root;' : ''}`;
  nginx = spawn(binary, ['-p', prefix, '-c', 'nginx.conf', '-g', globals], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  nginx.stderr!.on('data', (d) => (log += d));
  site = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(site);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`nginx did not start: ${log}`);
});
afterAll(() => {
  nginx?.kill();
});

describe('npm run publish to a folder', () => {
  it('refuses a dataset whose files do not match its manifest, naming the file, and writes nothing', () => {
    const bad = dataset('bad');
    writeFileSync(join(bad.dir, 'v1', 'travel/JP.json'), '{"edited":"by hand"}\n');
    const badTarget = join(work, 'refused');
    let out = '';
    let status = 0;
    try {
      execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'publish.ts'), badTarget, '--data', bad.dir], { cwd: ROOT, encoding: 'utf8', stdio: 'pipe' });
    } catch (err) {
      const e = err as { status: number; stderr: string };
      status = e.status;
      out = e.stderr;
    }
    expect(status).toBe(1);
    expect(out).toMatch(/travel\/JP\.json/);
    expect(existsSync(badTarget)).toBe(false);
  });

  it('publishes a first version under its own prefix, then the pointer, the version list and the current link', async () => {
    const r = await publish(target, { dataDir: first.dir, keep: 2 });
    expect(r).toMatchObject({ version: first.version, sentFiles: SAMPLE.length + 1, reusedFiles: 0, current: false });
    for (const path of SAMPLE) expect(sha256(read(`${first.version}/${path}`)), path).toBe(sha256(readFileSync(join(first.dir, 'v1', path))));
    expect(pointer()).toEqual({ dataset: 'refdata', version: first.version, prefix: `${first.version}/`, manifest_sha256: sha256(readFileSync(join(first.dir, 'v1', 'manifest.json'))) });
    expect(versions()).toEqual([first.version]);
    expect(readlinkSync(join(target, 'v1', 'current'))).toBe(first.version);
  });

  it('nginx serves it with the contract\'s headers per file family: versioned paths immutable, the pointer and unversioned paths short-lived', async () => {
    for (const path of SAMPLE) {
      for (const [url, cache] of [
        [`/v1/${first.version}/${path}`, CACHE_VERSIONED],
        [`/v1/${path}`, CACHE_POINTER],
      ] as const) {
        const res = await fetch(site + url, { headers: { 'accept-encoding': 'identity' } });
        expect(res.status, url).toBe(200);
        const expected = staticHeaders(url.slice(4))!;
        expect(res.headers.get('content-type'), url).toBe(expected['Content-Type']);
        expect(res.headers.get('cache-control'), url).toBe(cache);
        expect(res.headers.get('access-control-allow-origin'), url).toBe('*');
        expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(REAL, path))), url).toBe(true);
      }
    }
    const p = await fetch(`${site}/v1/current.json`);
    expect(p.headers.get('cache-control')).toBe(CACHE_POINTER);
    expect(((await p.json()) as StaticPointer).version).toBe(first.version);
  });

  it('nginx compresses the text families (not the .gz tables) and answers a missing file with the API\'s JSON 404', async () => {
    for (const path of SAMPLE) {
      const res = await fetch(`${site}/v1/${path}`, { headers: { 'accept-encoding': 'gzip' } });
      const size = readFileSync(join(REAL, path)).length;
      const gzipped = res.headers.get('content-encoding') === 'gzip';
      expect(gzipped, path).toBe(familyOf(path)!.compressible && size >= 1024);
      await res.arrayBuffer();
    }
    // fetch() unpacks gzip itself; the raw bytes are checked with curl-like Node http below.
    const raw = execFileSync('curl', ['-s', '-H', 'Accept-Encoding: gzip', `${site}/v1/countries/JP.json`]);
    expect(gunzipSync(raw).equals(readFileSync(join(REAL, 'countries/JP.json')))).toBe(true);
    for (const url of ['/v1/countries/XX.json', '/v1/', '/', `/v1/${first.version}/`, '/v1/current']) {
      const res = await fetch(site + url);
      expect(res.status, url).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
  });

  it('nginx answers the static contract\'s paths with the bytes the API answers', async () => {
    const app = appAt();
    const key = { 'x-api-key': sharedKeys().keys.growth };
    const pairs: [string, string][] = [
      ['/v1/countries/JP', 'countries/JP.json'],
      ['/v1/countries', 'countries/pages/1.json'],
      ['/v1/business-days', 'business-days/index.json'],
      ['/v1/business-days/JP/holidays?year=2026', 'business-days/JP/2026.json'],
      ['/v1/business-days/JP/holidays.ics?from_year=2026&to_year=2026', 'business-days/JP/2026.ics'],
      ['/v1/travel/JP', 'travel/JP.json'],
    ];
    for (const [request, file] of pairs) {
      const api = Buffer.from(await (await app.request(request, { headers: key })).arrayBuffer());
      const served = Buffer.from(await (await fetch(`${site}/v1/${file}`)).arrayBuffer());
      expect(served.equals(api), `${request} = /v1/${file}`).toBe(true);
    }
  });

  it('a new version sends only the changed file and the manifest; the rest are hard links to the previous version', async () => {
    const r = await publish(target, { dataDir: second.dir, keep: 2 });
    const manifestBytes = readFileSync(join(second.dir, 'v1', 'manifest.json')).length;
    expect(r).toMatchObject({ version: second.version, previous: first.version, sentFiles: 2, reusedFiles: SAMPLE.length - 1, copiedOnHost: SAMPLE.length - 1, pruned: [] });
    expect(r.sentBytes).toBe('{"changed":true}\n'.length + manifestBytes);
    expect(statSync(join(target, 'v1', second.version, 'travel/JP.json')).ino).toBe(statSync(join(target, 'v1', first.version, 'travel/JP.json')).ino);
    expect(read(`${second.version}/countries/JP.json`).toString()).toBe('{"changed":true}\n');
    expect(versions()).toEqual([second.version, first.version]);
    // Readers of the old version still get it under its prefix; the unversioned path moved.
    expect(await (await fetch(`${site}/v1/${first.version}/countries/JP.json`)).text()).toBe(readFileSync(join(REAL, 'countries/JP.json'), 'utf8'));
    expect(await (await fetch(`${site}/v1/countries/JP.json`)).text()).toBe('{"changed":true}\n');
  });

  it('keeps the newest --keep versions and removes older ones; publishing the current version again sends nothing', async () => {
    const r = await publish(target, { dataDir: third.dir, keep: 2 });
    expect(r.pruned).toEqual([first.version]);
    expect(versions()).toEqual([third.version, second.version]);
    expect(existsSync(join(target, 'v1', first.version))).toBe(false);
    expect((await fetch(`${site}/v1/${first.version}/countries/JP.json`)).status).toBe(404);
    const again = await publish(target, { dataDir: third.dir, keep: 2 });
    expect(again).toMatchObject({ current: true, sentFiles: 0 });
  });

  it('an interrupted publish leaves the previous version served; running it again repairs and finishes it', async () => {
    const fourth = dataset('fourth', { 'countries/JP.json': '{"changed":4}\n' });
    // What an interruption leaves: part of the files, one half-written temporary file, one damaged
    // file, no manifest, and the pointer still on the third version.
    const partial = join(target, 'v1', fourth.version);
    mkdirSync(join(partial, 'countries'), { recursive: true });
    writeFileSync(join(partial, 'countries/JP.json'), '{"changed":4}\n');
    writeFileSync(join(partial, 'countries/pages.json.tmp-999'), '{"half');
    mkdirSync(join(partial, 'travel'), { recursive: true });
    writeFileSync(join(partial, 'travel/JP.json'), '{"damaged"');
    expect(pointer().version).toBe(third.version);
    expect(await (await fetch(`${site}/v1/countries/JP.json`)).text()).toBe('{"changed":2}\n');
    expect((await fetch(`${site}/v1/${fourth.version}/countries/pages.json.tmp-999`)).status).toBe(404);

    const r = await publish(target, { dataDir: fourth.dir, keep: 2 });
    expect(r.version).toBe(fourth.version);
    expect(pointer().version).toBe(fourth.version);
    expect(read(`${fourth.version}/travel/JP.json`).equals(readFileSync(join(REAL, 'travel/JP.json')))).toBe(true);
    expect(existsSync(join(partial, 'countries/pages.json.tmp-999'))).toBe(false);
    expect(versions()).toEqual([fourth.version, third.version]);
    expect(await (await fetch(`${site}/v1/countries/JP.json`)).text()).toBe('{"changed":4}\n');
  });

  it('the current link and the pointer agree, and nothing but version folders, the link and the two pointer files is left', () => {
    expect(lstatSync(join(target, 'v1', 'current')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(target, 'v1', 'current'))).toBe(pointer().version);
    const names = execFileSync('ls', ['-A', join(target, 'v1')], { encoding: 'utf8' }).trim().split('\n').sort();
    expect(names).toEqual([...versions(), 'current', 'current.json', 'versions.json'].sort());
  });
});

describe('npm run publish to an S3-protocol endpoint (s3rver, through rclone)', () => {
  let stop: (() => Promise<void>) | undefined;
  let endpoint = '';
  beforeAll(async () => {
    requirePackage('rclone', runs('rclone', ['version']));
    const { default: S3rver } = await import('s3rver');
    const port = await freePort();
    const server = new S3rver({ port, address: '127.0.0.1', silent: true, directory: join(work, 's3'), configureBuckets: [{ name: 'refdata', configs: [] }] });
    await server.run();
    stop = () => server.close();
    endpoint = `http://127.0.0.1:${port}`;
    Object.assign(process.env, {
      RCLONE_CONFIG_REFDATATEST_TYPE: 's3',
      RCLONE_CONFIG_REFDATATEST_PROVIDER: 'Other',
      RCLONE_CONFIG_REFDATATEST_ENDPOINT: endpoint,
      RCLONE_CONFIG_REFDATATEST_ACCESS_KEY_ID: 'S3RVER',
      RCLONE_CONFIG_REFDATATEST_SECRET_ACCESS_KEY: 'S3RVER',
      RCLONE_CONFIG_REFDATATEST_FORCE_PATH_STYLE: 'true',
    });
  });
  afterAll(async () => {
    await stop?.();
  });
  const object = (path: string) => fetch(`${endpoint}/refdata/site/v1/${path}`);

  it('publishes, reuses unchanged objects by server-side copy with their headers, moves the pointer last and prunes', async () => {
    const r1 = await publish('refdatatest:refdata/site', { dataDir: first.dir, keep: 1 });
    expect(r1).toMatchObject({ sentFiles: SAMPLE.length + 1, reusedFiles: 0 });
    for (const path of SAMPLE) {
      const res = await object(`${first.version}/${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(staticHeaders(`${first.version}/${path}`)!['Content-Type']);
      expect(res.headers.get('cache-control'), path).toBe(CACHE_VERSIONED);
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(REAL, path))), path).toBe(true);
    }
    const p = await object('current.json');
    expect(p.headers.get('cache-control')).toBe(CACHE_POINTER);
    expect(((await p.json()) as StaticPointer).version).toBe(first.version);

    const r2 = await publish('refdatatest:refdata/site', { dataDir: second.dir, keep: 1 });
    expect(r2).toMatchObject({ previous: first.version, sentFiles: 2, reusedFiles: SAMPLE.length - 1, copiedOnHost: SAMPLE.length - 1, pruned: [first.version] });
    const copied = await object(`${second.version}/business-days/JP/2026.ics`);
    expect(copied.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(copied.headers.get('cache-control')).toBe(CACHE_VERSIONED);
    expect(Buffer.from(await copied.arrayBuffer()).equals(readFileSync(join(REAL, 'business-days/JP/2026.ics')))).toBe(true);
    expect((await object(`${first.version}/countries/JP.json`)).status).toBe(404);
    expect(((await (await object('versions.json')).json()) as StaticVersions).versions).toEqual([second.version]);
  });
});
