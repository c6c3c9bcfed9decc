/**
 * @refdata/dataset as a downstream project sees it: pack dist-data with the
 * CLI, install the tarball offline into a fresh project (timed: a handful of
 * files installs in seconds), type-check a TypeScript consumer against the
 * shipped .d.ts with the project's tsc, run it with node, and check its
 * answers against facts typed in by hand from official sources. Then 3,000
 * random business-day questions over every sixth location (`npm run test:full`:
 * 10,000 over every location) through the installed package and through
 * the API in-process must get identical answers.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../lib/schema-types.js';
import { verifyData } from '../scripts/pack-dataset.js';
import { appAt, DATA_DIR, FULL, getJson } from './helpers.js';
import { packedDataset } from './packed.js';

const ROOT = join(import.meta.dirname, '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const LONG = 300_000; // measured: pack 25 s (verify 2, data 10, compile 7, npm pack 2), npm install 1.4 s
/** Random questions asked of both the package and the API: 3,000 in `npm test`, 10,000 in `npm run test:full`. */
const QUESTIONS = FULL ? 10_000 : 3_000;
const manifest = JSON.parse(readFileSync(join(DATA_DIR, 'v1', 'manifest.json'), 'utf8')) as Manifest;
const nyWindow = (JSON.parse(readFileSync(join(DATA_DIR, 'v1', 'timezones', 'zones', 'America', 'New_York.json'), 'utf8')) as { window: { start: string; end: string } }).window;
const { first_year: FIRST_YEAR, last_year: LAST_YEAR } = manifest.counts as { first_year: number; last_year: number };

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
import type { BusinessDayCheck, BusinessDayCount, BusinessDaysYear, Country, DayType, Holiday, Manifest, TimezoneZone, TravelInfo } from '@refdata/dataset';

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

// @ts-expect-error: 'weekend' is not a day type
void ds.isBusinessDay('US', '2026-07-03', 'weekend');
// @ts-expect-error: days is a number
void ds.addBusinessDays('US', '2026-01-15', '10');
const govType: DayType = 'government';
const usGov: BusinessDayCheck | undefined = ds.checkDate('US', '2026-07-03', govType);
const july: BusinessDayCount | undefined = ds.countBusinessDays('US', '2026-07-01', '2026-07-31');
const t2 = performance.now();
let openDays = 0;
for (let i = 0; i < 100_000; i++) if (ds.isBusinessDay('US', '2026-01-20')) openDays++;
const isBusinessDayNs = ((performance.now() - t2) * 1e6) / 100_000;

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
  outOfRange: [ds.getCalendar('US-CA', ${FIRST_YEAR - 1}), ds.getCalendar('US-CA', ${LAST_YEAR + 1}), ds.getCalendar('US-CA', 2026.5), ds.getCalendar('US-CA', Number.NaN)],
  business: {
    mlk: ds.isBusinessDay('US', '2026-01-19'),
    dayAfter: ds.isBusinessDay('us', '2026-01-20'),
    openDays,
    isBusinessDayNs,
    usGov: usGov && { open: usGov.is_business_day, reason: usGov.reason, holiday: usGov.holiday?.name, next: usGov.next_business_day },
    usBank: ds.checkDate('US', '2026-07-03', 'banking')?.is_business_day,
    add: ds.addBusinessDays('US', '2026-01-15', 10)?.result,
    subtract: ds.subtractBusinessDays('US', '2026-01-20', 1)?.result,
    july: july && [july.business_days, july.weekend_days, july.holidays, july.holiday_list.map((h) => h.date)],
    next: ds.nextBusinessDay('GB-SCT', '2026-12-24')?.next,
    cnWorking: ds.checkDate('CN', '2025-01-26')?.working_day?.for_holiday,
    cnOpen: ds.isBusinessDay('CN', '2025-01-26'),
    cnWorkingDays: ds.getWorkingDays('CN', 2025)?.map((w) => w.date),
    cnBasis: ds.getBasis('CN', 2025),
    jpBank: ds.getHolidays('JP', 2026, 'banking')?.filter((h) => h.type === 'bank').map((h) => h.date),
    jpAll: ds.getHolidays('JP', 2026)?.length === ds.getCalendar('JP', 2026)?.holidays.length,
    bad: [ds.isBusinessDay('US', '2026-02-30'), ds.isBusinessDay('US', '${FIRST_YEAR - 1}-12-31'), ds.isBusinessDay('US', '${LAST_YEAR + 1}-01-01'),
      ds.isBusinessDay('XX', '2026-01-20'), ds.isBusinessDay('US', '2026-1-20'), ds.checkDate('US', '2026-01-20', 'weekend' as DayType),
      ds.addBusinessDays('US', '2026-01-15', 0), ds.addBusinessDays('US', '2026-01-15', 1.5), ds.addBusinessDays('US', '${LAST_YEAR}-12-30', 10),
      ds.subtractBusinessDays('US', '${FIRST_YEAR}-01-03', 10), ds.countBusinessDays('US', '2026-02-01', '2026-01-31'),
      ds.nextBusinessDay('US', '${LAST_YEAR}-12-31'), ds.getHolidays('US', ${LAST_YEAR + 1}), ds.getBasis('US', ${FIRST_YEAR - 1})].map((x) => x ?? null),
  },
  location: ds.getLocation('US-CA'),
  locations: ds.listLocations().length,
  countries: ds.listCountries().length,
  jp: jp && { code: jp.code, phone_code: jp.phone_code, driving_side: jp.driving_side, name: jp.name },
  jpTravel,
  usCaTravel: ds.getTravel('us-ca'),
  tokyo: tokyo && { id: tokyo.id, transitions: tokyo.transitions.length, after1951: tokyo.transitions.filter((t) => t.at >= '1952').length },
  tokyoJuly: ds.getOffset('Asia/Tokyo', Date.UTC(2026, 6, 1, 12)),
  tokyoJanuary: ds.getOffset('asia/tokyo', new Date('2026-01-15T12:00:00Z')),
  nyJuly: ny('2026-07-01T12:00:00Z'),
  nyJanuary: ny('2026-01-15T12:00:00Z'),
  nyEdges: ['2026-03-08T06:59:59Z', '2026-03-08T07:00:00Z', '2026-11-01T05:59:59Z', '2026-11-01T06:00:00Z'].map((at) => ny(at)?.offset_minutes),
  nyOutside: [ds.getOffset('America/New_York', Date.parse('${nyWindow.start}') - 1) ?? null, ny('${nyWindow.end}') ?? null, ds.getOffset('America/New_York', Number.NaN) ?? null],
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
  const app = join(work, 'app');
  let tarball = '';
  let entries: string[] = [];
  let result: any;

  beforeAll(async () => {
    const pack = await packedDataset(); // the CLI, once per run (test/packed.ts)
    tarball = pack.tarball;
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
      `import ${result.importMs.toFixed(1)} ms, first getCalendar ${result.firstCalendarMs.toFixed(1)} ms, ` +
      `isBusinessDay ${result.business.isBusinessDayNs.toFixed(0)} ns per call`);
  }, LONG);

  afterAll(() => rmSync(work, { recursive: true, force: true }));

  // The install time is printed above (1.4 s measured for 39 files; 44-76 s for the 30,700 files shipped before), not
  // asserted: a timed test fails on a loaded machine and proves nothing the file count does not.
  it('installs offline: a handful of files per area', () => {
    expect(entries.length).toBeLessThan(60); // 39 today: 10 data files, the reader and lib files (.js and .d.ts), licenses
    const installed = readdirSync(join(app, 'node_modules', '@refdata', 'dataset'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    expect(installed.length).toBe(entries.length);
  });

  it('ships the data, attribution, licenses, reader and types', () => {
    for (const f of ['package/package.json', 'package/README.md', 'package/LICENSE', 'package/LICENSE-date-holidays',
      'package/index.js', 'package/index.d.ts', 'package/schema-types.d.ts', 'package/location-calendar.js', 'package/business-answers.js']) {
      expect(entries).toContain(f);
    }
    const data = entries.filter((e) => e.startsWith('package/data/')).sort();
    expect(data).toEqual(['attribution.json', 'business-days/index.json', 'business-days/locations.bin', 'business-days/locations.json',
      'countries/index.json', 'manifest.json', 'timezones/index.json', 'timezones/zones.json', 'travel/destinations.json', 'travel/index.json'].map((f) => `package/data/${f}`));
    expect(entries.filter((e) => /\.ts$/.test(e) && !e.endsWith('.d.ts'))).toEqual([]); // no sources
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules', '@refdata', 'dataset', 'package.json'), 'utf8'));
    expect(pkg.version).toBe(`0.1.0-data-${manifest.version}`);
    expect(pkg.refdata.datasetVersion).toBe(manifest.version);
    expect(pkg.dependencies).toBeUndefined();
  });

  it("states the manifest's counts and its own tarball's name in the package README", () => {
    const readme = readFileSync(join(app, 'node_modules', '@refdata', 'dataset', 'README.md'), 'utf8');
    const c = manifest.counts;
    for (const phrase of [`${c.locations} locations (${c.first_year}–${c.last_year})`, `${c.timezones} IANA time zones`,
      `${c.iso_countries} ISO 3166-1 countries`, `listLocations().length;                      // ${c.locations}`, `npm install ./${basename(tarball)}`]) {
      expect(readme).toContain(phrase);
    }
    expect(readme).not.toMatch(/\{\{\w+\}\}/);
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

  it('answers the business-day questions', () => {
    const b = result.business;
    // OPM federal holidays 2026: Martin Luther King Jr. Day, Monday January 19; Independence Day observed Friday July 3.
    // https://www.opm.gov/policy-data-oversight/pay-leave/federal-holidays/
    expect([b.mlk, b.dayAfter, b.openDays]).toEqual([false, true, 100_000]);
    expect(b.usGov).toEqual({ open: false, reason: 'holiday', holiday: 'Independence Day (substitute day)', next: '2026-07-06' });
    // Federal Reserve: "For holidays falling on Saturday, Federal Reserve Banks and Branches will be open the preceding Friday".
    // https://www.frbservices.org/about/holiday-schedules
    expect(b.usBank).toBe(true);
    expect([b.add, b.subtract]).toEqual(['2026-01-30', '2026-01-16']);
    // July 2026: 23 weekdays, Friday July 3 closed; Saturday July 4 is a weekend day.
    expect(b.july).toEqual([22, 8, 1, ['2026-07-03', '2026-07-04']]);
    // gov.uk bank holidays, Scotland 2026: Christmas Day Friday 25 December, Boxing Day (substitute day) Monday 28 December.
    // https://www.gov.uk/bank-holidays
    expect(b.next).toBe('2026-12-29');
    // State Council notice on the 2025 holidays (国办发明电〔2024〕12号): 1月26日（周日）、2月8日（周六）、4月27日（周日）、
    // 9月28日（周日）、10月11日（周六）上班. https://www.gov.cn/zhengce/content/202411/content_6986383.htm
    expect(b.cnWorkingDays).toEqual(['2025-01-26', '2025-02-08', '2025-04-27', '2025-09-28', '2025-10-11']);
    expect([b.cnWorking, b.cnOpen, b.cnBasis]).toEqual(['Spring Festival', true, 'official']);
    // Banks close 2-3 January and 31 December (Banking Act enforcement order, art. 5). https://laws.e-gov.go.jp/law/357CO0000000040
    expect(b.jpBank).toEqual(['2026-01-02', '2026-01-03', '2026-12-31']);
    expect(b.jpAll).toBe(true);
    expect(b.bad).toEqual(b.bad.map(() => null));
  });

  it(`answers ${QUESTIONS.toLocaleString('en')} random business-day questions exactly as the API does`, async () => {
    const ds = await import(pathToFileURL(join(app, 'node_modules', '@refdata', 'dataset', 'index.js')).href);
    const api = appAt();
    // Each location's 110 year files load on both sides: `npm test` asks about every sixth location (about 120,
    // three minutes less in CI), `npm run test:full` about every location.
    const all: string[] = ds.listLocations().map((l: { location: string }) => l.location);
    const locations = FULL ? all : all.filter((_, i) => i % 6 === 0);
    const { start: first, end: last } = JSON.parse(readFileSync(join(DATA_DIR, 'v1', 'business-days', 'index.json'), 'utf8')).range;
    const day0 = Date.parse(`${first}T00:00:00Z`) / 86_400_000;
    const span = Date.parse(`${last}T00:00:00Z`) / 86_400_000 - day0 + 1;
    const date = (offset: number) => new Date((day0 + Math.min(offset, span - 1)) * 86_400_000).toISOString().slice(0, 10);

    // mulberry32, seeded: the same questions on every run.
    let seed = 0x13_2026;
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
    };
    const int = (n: number) => Math.floor(random() * n);
    const ops = ['check', 'add', 'subtract', 'count', 'next'] as const;
    const types = ['business', 'banking', 'government'] as const;
    const questions = Array.from({ length: QUESTIONS }, () => {
      const location = locations[int(locations.length)];
      const op = ops[int(ops.length)];
      const type = types[int(types.length)];
      const start = int(span);
      // Mostly near, sometimes far: 10,000 days reaches past the range's end from most starts.
      const days = [1 + int(10), 1 + int(400), 1 + int(10_000)][int(3)];
      const length = [int(40), int(3_660)][int(2)];
      return { location, op, type, a: date(start), b: date(start + length), days };
    });
    // Grouped by location so each is loaded once on either side; the order of questions within a location stays random.
    questions.sort((x, y) => (x.location < y.location ? -1 : x.location > y.location ? 1 : 0));

    const tally: Record<string, number> = { answered: 0, out_of_range: 0 };
    const mismatches: unknown[] = [];
    for (const [i, q] of questions.entries()) {
      // app.request settles in microtasks only: yield to the event loop now and then, or this loop (a minute under
      // load) keeps the worker from answering the runner's RPC (vitest's 60 s onTaskUpdate deadline).
      if (i % 25 === 0) await yieldToLoop();
      const loc = int(2) === 0 ? q.location : q.location.toLowerCase();
      const base = `/v1/business-days/${loc}`;
      const [path, mine] = {
        check: () => [`${base}?date=${q.a}&type=${q.type}`, ds.checkDate(loc, q.a, q.type)],
        add: () => [`${base}/add?start=${q.a}&days=${q.days}&type=${q.type}`, ds.addBusinessDays(loc, q.a, q.days, q.type)],
        subtract: () => [`${base}/subtract?start=${q.a}&days=${q.days}&type=${q.type}`, ds.subtractBusinessDays(loc, q.a, q.days, q.type)],
        count: () => [`${base}/count?start=${q.a}&end=${q.b}&type=${q.type}`, ds.countBusinessDays(loc, q.a, q.b, q.type)],
        next: () => [`${base}/next?from=${q.a}&type=${q.type}`, ds.nextBusinessDay(loc, q.a, q.type)],
      }[q.op]();
      const { status, body } = await getJson(api, path);
      const theirs = status === 200 ? body : status === 400 && body.error.code === 'out_of_range' ? undefined : { status, body };
      tally[theirs === undefined ? 'out_of_range' : 'answered']++;
      const same = JSON.stringify(mine) === JSON.stringify(theirs) && (q.op !== 'check' || ds.isBusinessDay(loc, q.a, q.type) === body.is_business_day);
      if (!same && mismatches.length < 5) mismatches.push({ path, api: theirs, package: mine });
    }
    console.log(`differential: ${questions.length} questions over ${new Set(questions.map((q) => q.location)).size} locations, ` +
      `${tally.answered} answered, ${tally.out_of_range} out of range on both sides, ${mismatches.length} mismatches`);
    expect(mismatches).toEqual([]);
    expect(tally.answered).toBeGreaterThan(QUESTIONS * 0.9);
  }, LONG);

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
    // Japan: UTC+9 all year, no DST since 1951 (tz "asia": Zone Asia/Tokyo 9:00 Japan J%sT; the Japan rules are
    // the summer time of 1948-1951, four springs and four autumns). https://github.com/eggert/tz/blob/main/asia
    expect(result.tokyo).toEqual({ id: 'Asia/Tokyo', transitions: 8, after1951: 0 });
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
