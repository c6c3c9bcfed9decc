/**
 * @refdata/dataset as a downstream project sees it: pack dist-data with the
 * CLI, install the tarball offline into a fresh project, type-check a
 * TypeScript consumer against the shipped .d.ts with the project's tsc, run
 * it with node, and check its answers against facts typed in by hand from
 * official sources.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../lib/schema-types.js';
import { verifyData } from '../scripts/pack-dataset.js';

const ROOT = join(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const DATA_DIR = join(ROOT, 'dist-data');
const LONG = 600_000; // measured: pack 20-25 s, npm install 25-50 s (30,700 files), more when the whole suite runs
const manifest = JSON.parse(readFileSync(join(DATA_DIR, 'v1', 'manifest.json'), 'utf8')) as Manifest;

/** Runs a command without blocking: a worker stuck in execFileSync for a minute misses vitest's RPC deadline. */
async function run(cmd: string, args: string[], cwd: string): Promise<{ stdout: string; seconds: number }> {
  const t0 = performance.now();
  try {
    const { stdout } = await promisify(execFile)(cmd, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    return { stdout, seconds: (performance.now() - t0) / 1000 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`); // tsc reports on stdout
  }
}

/** The consumer: typed calls through the package's public entry, printing what the test checks. */
const CONSUMER = String.raw`
import type { BusinessDaysYear, Country, Holiday, Manifest, TimezoneZone, TravelInfo } from '@refdata/dataset';

const t0 = performance.now();
const ds = await import('@refdata/dataset');
const importMs = performance.now() - t0;
const t1 = performance.now();
const ca: BusinessDaysYear | undefined = ds.getCalendar('US-CA', 2026);
const firstCalendarMs = performance.now() - t1;

// @ts-expect-error: the field is "holidays"; this line only compiles against real types
void ca?.holiday;
// @ts-expect-error: a year is a number, not a string
void ds.getCalendar('US-CA', '2026');
// @ts-expect-error: driving_side is 'left' | 'right'
const side: 'up' | undefined = ds.getTravel('JP')?.driving_side;
void side;

const pick = (h: Holiday) => ({ date: h.date, name: h.name, type: h.type, closes: h.closes });
const jp: Country | undefined = ds.getCountry('jp');
const jpTravel: TravelInfo | undefined = ds.getTravel('JP');
const tokyo: TimezoneZone | undefined = ds.getTimezone('Asia/Tokyo');
const m: Manifest = ds.manifest;
const ny = (iso: string) => ds.getOffset('America/New_York', new Date(iso));
const tricks = ['../../etc/passwd', '..', '.', '', ' JP', 'JP ', 'US-CA/../JP', '%2e%2e%2fJP', 'US\\CA', 'US-CA\u0000',
  'index', 'pages', '__proto__', 'constructor', 'toString', 'America/../../../etc/passwd', '../zones/Asia/Tokyo',
  'Asia/Tokyo/../../index', 'Asia/Tokyo.json', 'zones/Asia/Tokyo', 'A'.repeat(500)];
const junk = [null, undefined, 42, {}, ['JP']] as unknown as string[];
let mutationThrew = false;
try {
  (ca!.holidays as Holiday[]).push(ca!.holidays[0]);
} catch {
  mutationThrew = true;
}

console.log(JSON.stringify({
  importMs,
  firstCalendarMs,
  ca: ca?.holidays.map(pick),
  caLower: ds.getCalendar('us-ca', 2026) === ca,
  jp2026: ds.getCalendar('JP', 2026)?.holidays.map(pick),
  outOfRange: [ds.getCalendar('US-CA', 1999), ds.getCalendar('US-CA', 2046), ds.getCalendar('US-CA', 2026.5), ds.getCalendar('US-CA', Number.NaN)],
  location: ds.getLocation('US-CA'),
  locations: ds.listLocations().length,
  countries: ds.listCountries().length,
  jp: jp && { code: jp.code, phone_code: jp.phone_code, driving_side: jp.driving_side, name: jp.name },
  jpTravel,
  usCaTravel: ds.getTravel('us-ca'),
  tokyo: tokyo && { id: tokyo.id, transitions: tokyo.transitions.length },
  tokyoJuly: ds.getOffset('Asia/Tokyo', Date.UTC(2026, 6, 1, 12)),
  tokyoJanuary: ds.getOffset('asia/tokyo', new Date('2026-01-15T12:00:00Z')),
  nyJuly: ny('2026-07-01T12:00:00Z'),
  nyJanuary: ny('2026-01-15T12:00:00Z'),
  nyEdges: ['2026-03-08T06:59:59Z', '2026-03-08T07:00:00Z', '2026-11-01T05:59:59Z', '2026-11-01T06:00:00Z'].map((at) => ny(at)?.offset_minutes),
  nyOutside: [ny('1999-12-31T23:59:59Z') ?? null, ny('2046-01-01T00:00:00Z') ?? null, ds.getOffset('America/New_York', Number.NaN) ?? null],
  aliases: ['US/Eastern', 'Asia/Calcutta', 'america/new_york', 'ASIA/KOLKATA'].map((id) => ds.getTimezone(id)?.id),
  tricks: tricks.flatMap((s) => [ds.getCalendar(s, 2026), ds.getLocation(s), ds.getTravel(s), ds.getTimezone(s), ds.getCountry(s), ds.getOffset(s, 0)]).filter((x) => x !== undefined).length,
  junk: junk.flatMap((s) => [ds.getCalendar(s, 2026), ds.getLocation(s), ds.getTravel(s), ds.getTimezone(s), ds.getCountry(s)]).filter((x) => x !== undefined).length,
  frozen: Object.isFrozen(ca) && Object.isFrozen(ca?.holidays[0]),
  mutationThrew,
  datasetVersion: ds.datasetVersion,
  manifestVersion: m.version,
  manifestFiles: Object.keys(m.files).length,
  datasetLicense: ds.attribution.dataset_license,
}));
`;

describe('@refdata/dataset package', () => {
  const work = mkdtempSync(join(tmpdir(), 'refdata-dataset-test-'));
  const out = join(work, 'out');
  const app = join(work, 'app');
  let tarball = '';
  let entries: string[] = [];
  let result: any;

  beforeAll(async () => {
    const pack = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'pack-dataset.ts'), '--out', out], ROOT);
    tarball = join(out, readdirSync(out).find((f) => f.endsWith('.tgz'))!);
    entries = (await run('tar', ['-tzf', tarball], work)).stdout.split('\n').filter(Boolean);

    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'downstream', private: true, type: 'module' }));
    // No dependencies, so no registry: --offline proves it, and a private cache leaves ~/.npm alone.
    const install = await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-update-notifier', '--ignore-scripts', '--cache', join(work, 'npm-cache'), tarball], app);

    writeFileSync(join(app, 'consumer.ts'), CONSUMER);
    writeFileSync(join(app, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, skipLibCheck: false, outDir: 'dist' },
      include: ['consumer.ts'],
    }));
    // Rejects with tsc's messages when the shipped types are wrong or an @ts-expect-error is unused.
    await run(process.execPath, [TSC, '-p', app], app);
    result = JSON.parse((await run(process.execPath, [join(app, 'dist', 'consumer.js')], app)).stdout);

    console.log(`${pack.stdout.trim()}\n  test: pack ${pack.seconds.toFixed(1)} s, npm install ${install.seconds.toFixed(1)} s, ` +
      `import ${result.importMs.toFixed(1)} ms, first getCalendar ${result.firstCalendarMs.toFixed(1)} ms`);
  }, LONG);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('ships the data, attribution, licenses, reader and types', () => {
    for (const f of ['package/package.json', 'package/README.md', 'package/LICENSE', 'package/LICENSE-date-holidays',
      'package/index.js', 'package/index.d.ts', 'package/schema-types.d.ts', 'package/data/attribution.json', 'package/data/manifest.json']) {
      expect(entries).toContain(f);
    }
    const data = entries.filter((e) => e.startsWith('package/data/'));
    expect(data.length).toBe(Object.keys(manifest.files).length + 1); // + manifest.json itself
    expect(entries.filter((e) => /\.ts$/.test(e) && !e.endsWith('.d.ts'))).toEqual([]); // no sources
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules', '@refdata', 'dataset', 'package.json'), 'utf8'));
    expect(pkg.version).toBe(`0.1.0-data-${manifest.version}`);
    expect(pkg.refdata.datasetVersion).toBe(manifest.version);
    expect(pkg.dependencies).toBeUndefined();
  });

  it("states the manifest's counts in the package README", () => {
    const readme = readFileSync(join(ROOT, 'packages', 'dataset', 'README.md'), 'utf8');
    const c = manifest.counts;
    for (const phrase of [`${c.locations} locations (${c.first_year}–${c.last_year})`, `${c.timezones} IANA time zones`,
      `${c.iso_countries} ISO 3166-1 countries`, `listLocations().length;                      // ${c.locations}`]) {
      expect(readme).toContain(phrase);
    }
  });

  it('exports the dataset version and metadata', () => {
    expect(result.datasetVersion).toBe(manifest.version);
    expect(result.manifestVersion).toBe(manifest.version);
    expect(result.manifestFiles).toBe(Object.keys(manifest.files).length);
    expect(result.datasetLicense).toContain('CC BY-SA 3.0');
    expect(result.locations).toBe(manifest.counts.locations);
    expect(result.countries).toBe(manifest.counts.iso_countries);
  });

  it('reads calendars', () => {
    // CalHR state holidays: "March 31, 2026 (Tuesday) Cesar Chavez Day"
    // https://www.calhr.ca.gov/employees/pages/state-holidays.aspx
    expect(result.ca).toContainEqual({ date: '2026-03-31', name: 'César Chávez Day', type: 'public', closes: ['business', 'banking', 'government'] });
    expect(result.caLower).toBe(true);
    // Cabinet Office, national holidays: 建国記念の日 2月11日; 振替休日 2026-05-06 (5月3日 is a Sunday); 国民の休日 2026-09-22
    // https://www8.cao.go.jp/chosei/shukujitsu/gaiyou.html
    const jp = new Map(result.jp2026.map((h: any) => [h.date, h.type]));
    for (const d of ['2026-02-11', '2026-05-06', '2026-09-22']) expect(jp.get(d)).toBe('public');
    expect(result.outOfRange).toEqual([null, null, null, null]); // undefined prints as null in JSON arrays
    expect(result.location).toMatchObject({ location: 'US-CA', parent: 'US', timezone: 'America/Los_Angeles' });
  });

  it('reads countries and travel facts', () => {
    // ITU-T E.164 assigned country codes: Japan 81. https://www.itu.int/pub/T-SP-E.164D
    // Road Traffic Act (道路交通法) art. 17(4): vehicles keep to the left of the road's centre.
    // https://laws.e-gov.go.jp/law/335AC0000000105
    expect(result.jp).toEqual({ code: 'JP', phone_code: '+81', driving_side: 'left', name: 'Japan' });
    expect(result.jpTravel).toMatchObject({ destination: 'JP', country: 'JP', phone_code: '+81', driving_side: 'left' });
    // A region without facts of its own answers with its country's, as GET /v1/travel/US-CA does.
    // California Vehicle Code § 21650: "a vehicle shall be driven upon the right half of the roadway".
    // https://leginfo.legislature.ca.gov/faces/codes_displaySection.xhtml?lawCode=VEH&sectionNum=21650
    expect(result.usCaTravel).toMatchObject({ destination: 'US-CA', country: 'US', phone_code: '+1', driving_side: 'right' });
    expect(result.usCaTravel.sources.climate).toBeNull();
  });

  it('reads time zones and offsets', () => {
    // Japan: UTC+9 all year, no DST (tz "asia": Zone Asia/Tokyo 9:00 Japan J%sT, no rule since 1951).
    // https://github.com/eggert/tz/blob/main/asia
    expect(result.tokyo).toEqual({ id: 'Asia/Tokyo', transitions: 0 });
    for (const s of [result.tokyoJuly, result.tokyoJanuary]) expect(s).toMatchObject({ offset_minutes: 540, is_dst: false, abbreviation: 'JST' });
    // US DST: second Sunday of March 2:00 to first Sunday of November 2:00 local (15 U.S.C. 260a):
    // 2026-03-08 07:00Z and 2026-11-01 06:00Z. https://www.law.cornell.edu/uscode/text/15/260a
    expect(result.nyJuly).toMatchObject({ offset: '-04:00', offset_minutes: -240, is_dst: true, abbreviation: 'EDT' });
    expect(result.nyJanuary).toMatchObject({ offset: '-05:00', offset_minutes: -300, is_dst: false, abbreviation: 'EST' });
    expect(result.nyJanuary.next_transition).toMatchObject({ at: '2026-03-08T07:00:00Z', offset_minutes: -240 });
    expect(result.nyEdges).toEqual([-300, -240, -240, -300]);
    expect(result.nyOutside).toEqual([null, null, null]);
    // tz "backward": Link America/New_York US/Eastern; Link Asia/Kolkata Asia/Calcutta.
    // https://github.com/eggert/tz/blob/main/backward
    expect(result.aliases).toEqual(['America/New_York', 'Asia/Kolkata', 'America/New_York', 'Asia/Kolkata']);
  });

  it('answers undefined for path tricks and junk, and shares frozen answers', () => {
    expect(result.tricks).toBe(0);
    expect(result.junk).toBe(0);
    expect(result.frozen).toBe(true);
    expect(result.mutationThrew).toBe(true);
  });

  it('refuses to pack data that does not match its manifest', () => {
    const dir = join(work, 'tampered');
    mkdirSync(dir);
    const files = { 'a.json': '{"a":1}\n', 'b/c.json': '[]\n' };
    mkdirSync(join(dir, 'b'));
    for (const [p, text] of Object.entries(files)) writeFileSync(join(dir, p), text);
    const sha = (t: string) => createHash('sha256').update(t).digest('hex');
    const listed = Object.fromEntries(Object.entries(files).map(([p, t]) => [p, { sha256: sha(t), bytes: Buffer.byteLength(t) }]));
    const version = sha(Object.entries(listed).map(([p, f]) => `${f.sha256}  ${p}\n`).join('')).slice(0, 16);
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, version, files: listed }));
    expect(verifyData(dir).version).toBe(version);
    writeFileSync(join(dir, 'a.json'), '{"a":2}\n');
    expect(() => verifyData(dir)).toThrow(/changed: a\.json/);
    writeFileSync(join(dir, 'a.json'), files['a.json']);
    writeFileSync(join(dir, 'stale.json'), '{}');
    expect(() => verifyData(dir)).toThrow(/not in the manifest: stale\.json/);
  });
});
