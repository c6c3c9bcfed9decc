/**
 * `npm run bench`: speed goals measured, never asserted in unit tests.
 * 1. Library: 40-year count and 10,000-day add on a real calendar (median ns).
 * 2. HTTP: the real server and a static baseline (plain node:http answering a
 *    precomputed JSON body of similar size), each in its own process, loaded
 *    by autocannon from this process in the same run; medians of rounds.
 * 3. Server start to first answer, and resident memory after every location.
 * 4. Dataset build: wall time and size.
 * 5. The @refdata/dataset package in-process against date-holidays in-process
 *    (the alternative users pick): a check per call and a year's count, US.
 *    `npm run bench -- --only package` runs this section alone (~40 s).
 * Results go to stdout as Markdown and to .bench/results.json
 * (.bench/results-package.json for --only package).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { addBusinessDays, countBusinessDays } from '../lib/business-calendar.js';
import { formatDate, parseDate } from '../lib/plain-date.js';
import { DatasetStore } from '../server/store.js';
import { build } from '../pipeline/run.js';
import { createKey } from '../server/access/keys.js';
import { packDataset } from '../scripts/pack-dataset.js';

const ROOT = join(import.meta.dirname, '..');
const DATA = join(ROOT, 'dist-data');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const skipBuild = process.argv.includes('--skip-build');
const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function libraryBench() {
  const store = new DatasetStore(DATA);
  const cal = store.location('US').calendar('business');
  const a = parseDate('2000-01-03')!;
  const b = parseDate('2039-12-31')!;
  const time = (fn: () => unknown) => {
    const samples: number[] = [];
    for (let r = 0; r < 21; r++) {
      const n = 100_000;
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < n; i++) fn();
      samples.push(Number(process.hrtime.bigint() - t0) / n);
    }
    return median(samples);
  };
  let sink = 0;
  const countNs = time(() => (sink += countBusinessDays(cal, a, b)));
  const addNs = time(() => (sink += addBusinessDays(cal, a, 10_000)!));
  const subNs = time(() => (sink += addBusinessDays(cal, a + (sink & 7), 10_000)!));
  return { count_40y_ns: countNs, add_10000_ns: addNs, add_varied_ns: subNs, sink };
}

/** Median nanoseconds per call of `fn` over 7 rounds, each long enough (>= 40 ms) to time. */
function nsPerCall(fn: (i: number) => unknown): number {
  let n = 1;
  for (;;) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i);
    if (Number(process.hrtime.bigint() - t0) >= 40e6) break;
    n *= 2;
  }
  const samples: number[] = [];
  for (let r = 0; r < 7; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i);
    samples.push(Number(process.hrtime.bigint() - t0) / n);
  }
  return median(samples);
}

/**
 * The package as a user gets it (packed from dist-data, imported from the
 * staged package) against date-holidays 3.37 (the source of our rules) doing
 * the same job the usual way: a weekday that is not a public holiday is a
 * business day; a year's count walks the year against getHolidays(year).
 * Both answer US 2026, warm, in this process; their answers are compared.
 */
async function packageBench() {
  const dir = mkdtempSync(join(tmpdir(), 'refdata-bench-package-'));
  try {
    packDataset({ data: DATA, out: dir });
    const ds = await import(pathToFileURL(join(dir, 'dataset-package', 'index.js')).href);
    const { default: Holidays } = await import('date-holidays');
    const hd = new Holidays('US');
    const jan1 = parseDate('2026-01-01')!;
    const dates = Array.from({ length: 365 }, (_, i) => formatDate(jan1 + i));
    const weekday = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) < 5;
    const dhIsBusinessDay = (date: string) => {
      if (!weekday(date)) return false;
      // date-holidays reads a Date in the location's zone (a 'YYYY-MM-DD' string would be UTC midnight, the evening before
      // in New York): noon local time names the intended day whether EST or EDT is in force.
      const hs = hd.isHoliday(new Date(`${date}T12:00:00-05:00`));
      return !(hs && hs.some((h) => h.type === 'public'));
    };
    const dhCountYear = (year: number) => {
      const closed = new Set(hd.getHolidays(year).filter((h) => h.type === 'public').map((h) => h.date.slice(0, 10)));
      let n = 0;
      for (const date of dates) if (weekday(date) && !closed.has(date)) n++;
      return n;
    };
    const pkgCountYear = () => ds.countBusinessDays('US', '2026-01-01', '2026-12-31')!.business_days as number;
    // Same job, same answers? (date-holidays also closes the Friday before a Saturday holiday; we follow it for `business`.)
    const disagreements = dates.filter((date) => ds.isBusinessDay('US', date) !== dhIsBusinessDay(date));
    let sink = 0;
    const check = { package_ns: nsPerCall((i) => (sink += ds.isBusinessDay('US', dates[i % 365]) ? 1 : 0)), date_holidays_ns: nsPerCall((i) => (sink += dhIsBusinessDay(dates[i % 365]) ? 1 : 0)) };
    const count = { package_ns: nsPerCall(() => (sink += pkgCountYear())), date_holidays_ns: nsPerCall(() => (sink += dhCountYear(2026))) };
    return {
      is_business_day: { ...check, ratio: check.date_holidays_ns / check.package_ns },
      year_count: { ...count, ratio: count.date_holidays_ns / count.package_ns, package_answer: pkgCountYear(), date_holidays_answer: dhCountYear(2026) },
      disagreements_2026: disagreements,
      sink,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function packageLines(p: Awaited<ReturnType<typeof packageBench>>): string[] {
  const us = (ns: number) => (ns >= 1000 ? `${(ns / 1000).toFixed(1)} µs` : `${ns.toFixed(0)} ns`);
  return [
    'Package in-process vs date-holidays in-process (US, 2026, warm, median of 7 rounds):',
    '',
    '| job | @refdata/dataset | date-holidays | ratio |',
    '|---|---:|---:|---:|',
    `| is a date a business day (one call) | ${us(p.is_business_day.package_ns)} | ${us(p.is_business_day.date_holidays_ns)} | ${p.is_business_day.ratio.toFixed(0)}x |`,
    `| business days in a year (one call) | ${us(p.year_count.package_ns)} | ${us(p.year_count.date_holidays_ns)} | ${p.year_count.ratio.toFixed(0)}x |`,
    '',
    `Answers: ${p.year_count.package_answer} vs ${p.year_count.date_holidays_answer} business days in 2026; ${p.disagreements_2026.length} dates of 2026 answered differently${p.disagreements_2026.length ? ` (${p.disagreements_2026.join(', ')})` : ''}.`,
  ];
}

function startProcess(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

async function waitFor(url: string, timeoutMs = 30_000): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    try {
      const res = await fetch(url);
      if (res.ok) {
        await res.arrayBuffer();
        return performance.now() - t0;
      }
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`no answer from ${url}`);
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024;
}

// A growth key with limits no benchmark reaches: requests are checked and counted, never refused.
const keysFile = join(mkdtempSync(join(tmpdir(), 'refdata-bench-keys-')), 'api-keys.json');
const KEY = createKey(keysFile, 'growth', 'bench').key;
const SERVER_ENV = { API_KEYS_FILE: keysFile, PLAN_LIMITS: JSON.stringify({ growth: { quota: 1e12, burst: 1e12 } }), REDIS_URL: '' };

/** Load on `paths`; with `etags`, every request revalidates (If-None-Match) and must get 304. */
async function load(url: string, paths: string[], etags?: string[]) {
  const result = await autocannon({
    url,
    connections: 32,
    pipelining: 1,
    duration: SECONDS,
    headers: { 'x-api-key': KEY },
    requests: paths.map((path, i) => ({ method: 'GET', path, ...(etags ? { headers: { 'x-api-key': KEY, 'if-none-match': etags[i] } } : {}) })),
  });
  const wrong = etags ? result.requests.total - result['3xx'] : result.non2xx;
  if (wrong > 0 || result.errors > 0) throw new Error(`${url}: ${wrong} answers with another status, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function main() {
  mkdirSync(join(ROOT, '.bench'), { recursive: true });
  const out: Record<string, unknown> = {};

  if (only === 'package') {
    const p = await packageBench();
    writeFileSync(join(ROOT, '.bench', 'results-package.json'), `${JSON.stringify(p, null, 2)}\n`);
    console.log(packageLines(p).join('\n'));
    return;
  }
  if (only !== undefined) throw new Error(`--only ${only}: the only section that runs alone is "package"`);

  if (!skipBuild) {
    const dir = mkdtempSync(join(tmpdir(), 'refdata-bench-build-'));
    const t0 = performance.now();
    const built = await build({ outDir: dir });
    out.build = { seconds: (performance.now() - t0) / 1000, files: built.files, megabytes: built.bytes / 1e6 };
    rmSync(dir, { recursive: true, force: true });
  }

  out.library = libraryBench();
  out.package = await packageBench();

  // Representative requests; each endpoint rotates over locations and dates.
  const locs = ['US', 'US-CA', 'DE-BY', 'GB-SCT', 'JP', 'AE', 'IL', 'IN', 'BR', 'AU-NSW'];
  const dates = ['2026-01-19', '2026-07-03', '2025-12-24', '2030-05-01', '2041-11-11'];
  const endpoints: Record<string, string[]> = {
    check: locs.flatMap((l) => dates.map((d) => `/v1/business-days/${l}?date=${d}`)),
    add: locs.flatMap((l) => dates.map((d) => `/v1/business-days/${l}/add?start=${d}&days=250`)),
    count: locs.flatMap((l) => dates.map((d) => `/v1/business-days/${l}/count?start=${d}&end=${d.slice(0, 4)}-12-31`)),
    next: locs.flatMap((l) => dates.map((d) => `/v1/business-days/${l}/next?from=${d}`)),
    holidays: locs.flatMap((l) => [2000, 2026, 2031, 2045].map((y) => `/v1/business-days/${l}/holidays?year=${y}`)),
    timezone_list: [1, 2, 3, 4, 5, 6, 7, 8, 9].map((p) => `/v1/timezones?page=${p}`),
    travel: ['JP', 'US', 'GB', 'DE', 'BR-DF', 'JP-27', 'FR-75C', 'AR'].map((d) => `/v1/travel/${d}`),
    travel_from_date: ['JP', 'US', 'GB', 'DE', 'BR-DF', 'JP-27', 'FR-75C', 'AR'].map((d, i) => `/v1/travel/${d}?from=${['US', 'GB', 'FR', 'JP'][i % 4]}&date=2026-0${1 + (i % 9)}-15`),
    astronomy_sun: ['NO', 'JP', 'US', 'AR', 'SG', 'IS', 'EC', 'ZA'].map((c, i) => `/v1/astronomy/sun/${c}?date=2026-0${1 + i}-21`),
    astronomy_moon: ['NO', 'JP', 'US', 'AR', 'SG', 'IS', 'EC', 'ZA'].map((c, i) => `/v1/astronomy/moon/${c}?date=2026-0${1 + i}-21`),
    country_list: [1, 2, 3, 4, 5].map((p) => `/v1/countries?page=${p}`),
    country: ['JP', 'US', 'DE', 'BR', 'IN', 'ZA', 'gb', 'AU'].map((c) => `/v1/countries/${c}`),
    timezone: ['America%2FNew_York', 'Europe%2FLondon', 'Asia%2FTokyo', 'Australia%2FLord_Howe', 'Asia%2FKathmandu', 'America%2FArgentina%2FBuenos_Aires', 'Asia%2FCalcutta', 'Africa%2FCasablanca'].map((z) => `/v1/timezones/${z}`),
  };

  const port = 18_481;
  const basePort = 18_482;
  const server = startProcess(['--import', 'tsx', 'server/main.ts'], { ...SERVER_ENV, PORT: String(port), HOST: '127.0.0.1' });
  const startMs = await waitFor(`http://127.0.0.1:${port}/healthz`);
  const urls = Object.values(endpoints).flat();
  for (const u of urls) await (await fetch(`http://127.0.0.1:${port}${u}`, { headers: { 'x-api-key': KEY } })).arrayBuffer(); // warm every location used

  // The baseline serves, for each endpoint, a precomputed body of that endpoint's median answer size.
  const bodies: Record<string, string> = {};
  for (const [name, paths] of Object.entries(endpoints)) {
    const texts = await Promise.all(paths.map(async (p) => (await fetch(`http://127.0.0.1:${port}${p}`, { headers: { 'x-api-key': KEY } })).text()));
    texts.sort((a, b) => a.length - b.length);
    bodies[name] = texts[Math.floor(texts.length / 2)];
  }
  const bodyFile = join(ROOT, '.bench', 'baseline-bodies.json');
  writeFileSync(bodyFile, JSON.stringify(bodies));
  const baseline = startProcess(['bench/static-baseline.mjs'], { PORT: String(basePort), BODIES: bodyFile });
  await waitFor(`http://127.0.0.1:${basePort}/check`);

  type Sample = { rps: number; p50: number; p99: number };
  const rounds: Record<string, { api: Sample[]; base: Sample[] }> = {};
  for (const name of Object.keys(endpoints)) rounds[name] = { api: [], base: [] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, paths] of Object.entries(endpoints)) {
      rounds[name].base.push(await load(`http://127.0.0.1:${basePort}`, [`/${name}`]));
      rounds[name].api.push(await load(`http://127.0.0.1:${port}`, paths));
    }
    process.stderr.write(`[bench] round ${r + 1}/${ROUNDS} done\n`);
  }
  const http: Record<string, { rps: number; p50_ms: number; p99_ms: number; baseline_rps: number; ratio: number; body_bytes: number }> = {};
  for (const [name, { api, base }] of Object.entries(rounds)) {
    const rps = median(api.map((x) => x.rps));
    const baseRps = median(base.map((x) => x.rps));
    http[name] = { rps, p50_ms: median(api.map((x) => x.p50)), p99_ms: median(api.map((x) => x.p99)), baseline_rps: baseRps, ratio: rps / baseRps, body_bytes: Buffer.byteLength(bodies[name]) };
  }
  out.http = http;

  // Revalidation: the same requests with If-None-Match naming the current ETag get 304 and no body.
  const revalidate: Record<string, { rps: number; vs_200: number; bytes_200: number }> = {};
  for (const name of ['check', 'country', 'country_list', 'holidays']) {
    const paths = endpoints[name];
    const etags = await Promise.all(paths.map(async (p) => (await fetch(`http://127.0.0.1:${port}${p}`, { headers: { 'x-api-key': KEY } })).headers.get('etag')!));
    const xs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) xs.push((await load(`http://127.0.0.1:${port}`, paths, etags)).rps);
    revalidate[name] = { rps: median(xs), vs_200: median(xs) / http[name].rps, bytes_200: http[name].body_bytes };
  }
  out.revalidate = revalidate;

  // Memory after answering for every location.
  const auth = { headers: { 'x-api-key': KEY } };
  const list = (await (await fetch(`http://127.0.0.1:${port}/v1/business-days`, auth)).json()) as { locations: { location: string }[] };
  const rssBefore = rssMb(server.pid!);
  for (const { location } of list.locations) await (await fetch(`http://127.0.0.1:${port}/v1/business-days/${location}?date=2026-07-03&type=banking`, auth)).arrayBuffer();
  out.server = { start_to_first_answer_ms: startMs, rss_mb_after_warmup: rssBefore, rss_mb_after_all_locations: rssMb(server.pid!), locations: list.locations.length };

  // What the access gate costs: the same premium requests against a server without it,
  // the memory-counting server above, and one counting in Redis.
  const openPort = 18_483;
  const redisPort = 18_484;
  const redisServerPort = 18_485;
  const open = startProcess(['--import', 'tsx', 'server/main.ts'], { ...SERVER_ENV, ACCESS_CONTROL: 'off', PORT: String(openPort), HOST: '127.0.0.1' });
  const redisServer = spawn('redis-server', ['--port', String(redisServerPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  let redisOk = true;
  redisServer.on('error', () => (redisOk = false));
  await new Promise((r) => setTimeout(r, 500));
  const withRedis = redisOk ? startProcess(['--import', 'tsx', 'server/main.ts'], { ...SERVER_ENV, REDIS_URL: `redis://127.0.0.1:${redisServerPort}`, PORT: String(redisPort), HOST: '127.0.0.1' }) : undefined;
  await waitFor(`http://127.0.0.1:${openPort}/healthz`);
  if (withRedis) await waitFor(`http://127.0.0.1:${redisPort}/healthz`);
  const gateRounds: Record<string, Sample[]> = { open: [], memory: [], redis: [] };
  for (let r = 0; r < ROUNDS; r++) {
    gateRounds.open.push(await load(`http://127.0.0.1:${openPort}`, endpoints.check));
    gateRounds.memory.push(await load(`http://127.0.0.1:${port}`, endpoints.check));
    if (withRedis) gateRounds.redis.push(await load(`http://127.0.0.1:${redisPort}`, endpoints.check));
  }
  const openRps = median(gateRounds.open.map((x) => x.rps));
  const gate: Record<string, { rps: number; p50_ms: number; p99_ms: number; vs_open: number }> = {};
  for (const [name, xs] of Object.entries(gateRounds)) {
    if (!xs.length) continue;
    const rps = median(xs.map((x) => x.rps));
    gate[name] = { rps, p50_ms: median(xs.map((x) => x.p50)), p99_ms: median(xs.map((x) => x.p99)), vs_open: rps / openRps };
  }
  out.access_gate = gate;
  for (const p of [server, baseline, open, withRedis]) p?.kill();
  redisServer.kill();
  writeFileSync(join(ROOT, '.bench', 'results.json'), `${JSON.stringify(out, null, 2)}\n`);

  const lines = [
    `Run: ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${ROUNDS} rounds x ${SECONDS}s, 32 connections, medians.`,
    '',
    '| endpoint | body bytes (median) | API req/s | p50 ms | p99 ms | static baseline req/s | API / baseline |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...Object.entries(http).map(([n, h]) => `| ${n} | ${h.body_bytes} | ${Math.round(h.rps)} | ${h.p50_ms} | ${h.p99_ms} | ${Math.round(h.baseline_rps)} | ${(h.ratio * 100).toFixed(0)}% |`),
    '',
    `Library (median of 21 x 100k calls): 40-year count ${out.library && (out.library as any).count_40y_ns.toFixed(0)} ns, add 10,000 days ${(out.library as any).add_10000_ns.toFixed(0)} ns.`,
    `Server: first answer ${startMs.toFixed(0)} ms after spawn; RSS ${rssBefore.toFixed(0)} MB warm, ${(out.server as any).rss_mb_after_all_locations.toFixed(0)} MB after all ${list.locations.length} locations.`,
    '',
    'Revalidation (If-None-Match with the current ETag: 304, no body) on the same requests:',
    '',
    '| endpoint | 304 req/s | vs its 200s | body bytes saved per answer |',
    '|---|---:|---:|---:|',
    ...Object.entries(revalidate).map(([n, v]) => `| ${n} | ${Math.round(v.rps)} | ${(v.vs_200 * 100).toFixed(0)}% | ${v.bytes_200} |`),
    '',
    'Access gate on GET /v1/business-days/{location} with a growth key (check requests):',
    '',
    '| counters | req/s | p50 ms | p99 ms | vs no gate |',
    '|---|---:|---:|---:|---:|',
    ...Object.entries(gate).map(([n, g]) => `| ${n === 'open' ? 'no gate (ACCESS_CONTROL=off)' : n} | ${Math.round(g.rps)} | ${g.p50_ms} | ${g.p99_ms} | ${(g.vs_open * 100).toFixed(0)}% |`),
    '',
    ...packageLines(out.package as Awaited<ReturnType<typeof packageBench>>),
    '',
    out.build ? `Build: ${(out.build as any).seconds.toFixed(1)} s, ${(out.build as any).files} files, ${(out.build as any).megabytes.toFixed(1)} MB.` : 'Build: skipped (--skip-build).',
  ];
  console.log(lines.join('\n'));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
