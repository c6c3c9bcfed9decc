/**
 * `npm run bench`: speed goals measured, never asserted in unit tests.
 * 1. Library: 40-year count and 10,000-day add on a real calendar (median ns).
 * 2. HTTP: the real server (with the gate, and without it) and a static
 *    baseline (plain node:http answering a precomputed JSON body of similar
 *    size), each in its own process, loaded by autocannon from this process in
 *    the same run; each ratio the median of its per-round ratios (the servers
 *    of a round load back to back); each row printed as soon as measured,
 *    in throughput and in server CPU time per request (autocannon shares
 *    this 2-core machine: when it is the bottleneck, throughput ratios near
 *    100% say little; CPU per request still does).
 *    `--compare DIR` (or BENCH_COMPARE) runs another checkout's server in the
 *    same rounds, for before/after ratios; `--quick` measures only the
 *    target rows, 1 s loads, no build/package/revalidation/memory/
 *    Redis sections (under 2 minutes); `--endpoints a,b` only those rows.
 * 3. Server start to first answer, and resident memory after every location.
 * 4. Dataset build: wall time and size.
 * 5. The @refdata/dataset package in-process against date-holidays in-process
 *    (the alternative users pick): a check per call and a year's count, US.
 *    `npm run bench -- --only package` runs this section alone (~40 s).
 * Results go to stdout as Markdown and to .bench/results.json
 * (.bench/results-quick.json for --quick, .bench/results-package.json for
 * --only package). BENCH_ROUNDS, BENCH_SECONDS, BENCH_PORT (first of 8
 * ports) and BENCH_DATA_DIR (a dataset copy) change the defaults.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { addBusinessDays, countBusinessDays } from '../lib/business-calendar.js';
import { formatDate, parseDate } from '../lib/plain-date.js';
import { DatasetStore } from '../server/store.js';
import { createKey } from '../server/access/keys.js';

const ROOT = join(import.meta.dirname, '..');
const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
/** --quick: the HTTP rows with targets only, 1 s loads, no build, package, revalidation, memory or Redis sections (under 2 minutes). */
const quick = process.argv.includes('--quick');
/** The dataset the library rows read and every server answers from (BENCH_DATA_DIR: a copy, while dist-data is being rebuilt). */
const DATA = process.env.BENCH_DATA_DIR ?? join(ROOT, 'dist-data');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? (quick ? 1 : 4));
/** First of the ports the bench's servers listen on (BENCH_PORT, default 18481; it uses up to 8 from there). */
const PORT0 = Number(process.env.BENCH_PORT ?? 18_481);
/**
 * Another checkout (--compare DIR or BENCH_COMPARE), such as a `git worktree` of the commit before a change: its
 * server runs with and without the gate in the same rounds, and each row shows its ratios beside this one's.
 */
const COMPARE = arg('--compare') ?? (process.env.BENCH_COMPARE || undefined);
const skipBuild = quick || process.argv.includes('--skip-build');
const only = arg('--only');

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
    const { packDataset } = await import('../scripts/pack-dataset.js');
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

function startProcess(args: string[], env: Record<string, string>, cwd = ROOT): ChildProcess {
  return spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
}

/** The API server of a checkout (this one unless `dir`), answering from DATA. */
function startApi(port: number, env: Record<string, string> = {}, dir = ROOT): ChildProcess {
  return startProcess(['--import', 'tsx', join(dir, 'server', 'main.ts')], { ...SERVER_ENV, DATA_DIR: DATA, PORT: String(port), HOST: '127.0.0.1', ...env }, dir);
}

/** The 1-minute load average, to print beside every measurement of this shared machine. */
const load1 = () => loadavg()[0].toFixed(1);

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
const keysDir = mkdtempSync(join(tmpdir(), 'refdata-bench-keys-'));
const keysFile = join(keysDir, 'api-keys.json');
// Removed however the run ends (each run left a folder in /tmp).
process.on('exit', () => rmSync(keysDir, { recursive: true, force: true }));
process.once('SIGINT', () => process.exit(130));
const KEY = createKey(keysFile, 'growth', 'bench').key;
const SERVER_ENV = { API_KEYS_FILE: keysFile, PLAN_LIMITS: JSON.stringify({ growth: { quota: 1e12, burst: 1e12 } }), REDIS_URL: '' };

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' })) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) a process has used, in ticks (/proc/<pid>/stat fields 14 and 15). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

/**
 * Load on `paths`; with `etags`, every request revalidates (If-None-Match) and must get 304.
 * With `pid`, also the server's CPU time per answered request (µs): on this 2-core machine
 * autocannon takes one core, and when it is the bottleneck throughput ratios go to 100% whatever
 * the server does; CPU per request still shows what each answer costs the server.
 */
async function load(url: string, paths: string[], etags?: string[], seconds = SECONDS, pid?: number) {
  const ticks0 = pid === undefined ? 0 : cpuTicks(pid);
  const result = await autocannon({
    url,
    connections: 32,
    pipelining: 1,
    duration: seconds,
    headers: { 'x-api-key': KEY },
    requests: paths.map((path, i) => ({ method: 'GET', path, ...(etags ? { headers: { 'x-api-key': KEY, 'if-none-match': etags[i] } } : {}) })),
  });
  const wrong = etags ? result.requests.total - result['3xx'] : result.non2xx;
  if (wrong > 0 || result.errors > 0) throw new Error(`${url}: ${wrong} answers with another status, ${result.errors} errors`);
  const cpuUs = pid === undefined ? NaN : ((cpuTicks(pid) - ticks0) * 1e6) / CLK_TCK / result.requests.total;
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, cpuUs };
}

async function main() {
  mkdirSync(join(ROOT, '.bench'), { recursive: true });
  const out: Record<string, unknown> = {};
  const say = (line: string) => console.log(line); // every row as soon as it is measured

  if (only === 'package') {
    const p = await packageBench();
    writeFileSync(join(ROOT, '.bench', 'results-package.json'), `${JSON.stringify(p, null, 2)}\n`);
    console.log(packageLines(p).join('\n'));
    return;
  }
  if (only !== undefined) throw new Error(`--only ${only}: the only section that runs alone is "package"`);
  say(`Run: ${new Date().toISOString().slice(0, 16)}Z, node ${process.version}, ${quick ? 'quick, ' : ''}${ROUNDS} rounds x ${SECONDS}s, 32 connections, medians; load average at start ${loadavg().map((x) => x.toFixed(1)).join(' ')}.`);

  if (!skipBuild) {
    const { build } = await import('../pipeline/run.js');
    const dir = mkdtempSync(join(tmpdir(), 'refdata-bench-build-'));
    const t0 = performance.now();
    const built = await build({ outDir: dir });
    out.build = { seconds: (performance.now() - t0) / 1000, files: built.files, megabytes: built.bytes / 1e6 };
    rmSync(dir, { recursive: true, force: true });
    say(`Build: ${(out.build as any).seconds.toFixed(1)} s, ${built.files} files, ${(built.bytes / 1e6).toFixed(1)} MB.`);
  }

  out.library = libraryBench();
  say(`Library (median of 21 x 100k calls): 40-year count ${(out.library as any).count_40y_ns.toFixed(0)} ns, add 10,000 days ${(out.library as any).add_10000_ns.toFixed(0)} ns.`);
  if (!quick) {
    out.package = await packageBench();
    say(['', ...packageLines(out.package as Awaited<ReturnType<typeof packageBench>>)].join('\n'));
  }

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
    // The largest country document (12.8 kB: compressible, so sent with Vary), the row that lagged the others.
    country_jp: ['/v1/countries/JP'],
    timezone: ['America%2FNew_York', 'Europe%2FLondon', 'Asia%2FTokyo', 'Australia%2FLord_Howe', 'Asia%2FKathmandu', 'America%2FArgentina%2FBuenos_Aires', 'Asia%2FCalcutta', 'Africa%2FCasablanca'].map((z) => `/v1/timezones/${z}`),
    timezone_at: ['America%2FNew_York', 'Europe%2FLondon', 'Australia%2FLord_Howe', 'UTC', 'Etc%2FGMT%2B5', 'Africa%2FCasablanca'].flatMap((z) => ['1975-06-01T00:00:00Z', '2026-03-08T07:00:00Z', '2099-10-01T12:00:00Z'].map((at) => `/v1/timezones/${z}?at=${at}`)),
    timezone_transitions: ['America%2FNew_York', 'Europe%2FBerlin', 'Australia%2FSydney', 'Asia%2FTokyo'].flatMap((z) => [1980, 2026, 2099].map((y) => `/v1/timezones/${z}/transitions?year=${y}`)),
    // Computed answers: 10-year calendar feeds and whole-history transitions, once computed then kept.
    holidays_ics_10y: ['CN', 'US', 'DE', 'JP', 'IN', 'BR', 'GB', 'FR'].map((l) => `/v1/business-days/${l}/holidays.ics?from_year=2017&to_year=2026`),
    timezone_transitions_all: ['America%2FNew_York', 'Europe%2FBerlin', 'Australia%2FSydney', 'America%2FSantiago', 'Europe%2FLondon', 'America%2FChicago'].map((z) => `/v1/timezones/${z}/transitions`),
    timezone_lookup: [[31.7619, -106.485], [35.6807, -109.0526], [53.28, -109.99], [38.3914, -86.9311], [43.8256, 87.6168], [-31.9539, 141.4539], [51.5074, -0.1278], [30, -40]].map(([lat, lon]) => `/v1/timezones/lookup?latitude=${lat}&longitude=${lon}`),
  };

  /** The target groups: answers sent as precomputed bytes (target >= 70% of the baseline), and computed ones (>= 55%). */
  const GROUPS: Record<string, 'precomputed' | 'computed'> = {
    holidays: 'precomputed', country: 'precomputed', country_jp: 'precomputed', country_list: 'precomputed', travel: 'precomputed', timezone_list: 'precomputed',
    check: 'computed', add: 'computed', count: 'computed', next: 'computed', timezone: 'computed', travel_from_date: 'computed',
  };
  const TARGET = { precomputed: 0.7, computed: 0.55 };
  // --quick: the target rows (the 100 kB country list aside: its baseline is bound by bytes, not by work).
  if (quick) for (const name of Object.keys(endpoints)) if (!GROUPS[name] || name === 'country_list') delete endpoints[name];
  // --endpoints a,b: only these rows (to look at one or two while working on them).
  const chosen = arg('--endpoints')?.split(',');
  if (chosen) {
    for (const name of chosen) if (!endpoints[name]) throw new Error(`--endpoints: no endpoint "${name}" (${Object.keys(endpoints).join(', ')})`);
    for (const name of Object.keys(endpoints)) if (!chosen.includes(name)) delete endpoints[name];
  }

  const [port, basePort, openPort, beforePort, beforeOpenPort] = [0, 1, 2, 6, 7].map((i) => PORT0 + i);
  const t0 = performance.now();
  const server = startApi(port);
  const open = startApi(openPort, { ACCESS_CONTROL: 'off' });
  const before = COMPARE ? startApi(beforePort, {}, COMPARE) : undefined;
  const beforeOpen = COMPARE ? startApi(beforeOpenPort, { ACCESS_CONTROL: 'off' }, COMPARE) : undefined;
  const startMs = await waitFor(`http://127.0.0.1:${port}/healthz`);
  for (const p of [openPort, ...(COMPARE ? [beforePort, beforeOpenPort] : [])]) await waitFor(`http://127.0.0.1:${p}/healthz`);
  say(`Servers up after ${((performance.now() - t0) / 1000).toFixed(1)} s${COMPARE ? ` (compared with ${COMPARE})` : ''}.`);
  const urls = Object.values(endpoints).flat();
  const warmPorts = [port, openPort, ...(COMPARE ? [beforePort, beforeOpenPort] : [])];
  // Warm every location used, on every server; answers must agree byte for byte with the compared checkout's.
  for (const u of urls) {
    const texts = await Promise.all(warmPorts.map(async (p) => (await fetch(`http://127.0.0.1:${p}${u}`, { headers: { 'x-api-key': KEY } })).text()));
    if (COMPARE && texts[2] !== texts[0]) process.stderr.write(`[bench] note: ${u} answers differently in ${COMPARE}\n`);
  }

  // The baseline answers every request target of every row with the bytes the API answers it (as the issue's
  // nginx served the same bytes as files), and is loaded with the same targets: body for body, request for request.
  // (It used to answer one body of each row's median size, which was lighter than a row whose bodies vary: the
  // nine timezone list pages run from 5 to 16.5 kB around a 13 kB median.)
  const bodies: Record<string, string> = {};
  const medianBody: Record<string, string> = {};
  for (const [name, paths] of Object.entries(endpoints)) {
    const texts = await Promise.all(paths.map(async (p) => (await fetch(`http://127.0.0.1:${port}${p}`, { headers: { 'x-api-key': KEY } })).text()));
    paths.forEach((p, i) => (bodies[p] = texts[i]));
    medianBody[name] = [...texts].sort((a, b) => a.length - b.length)[Math.floor(texts.length / 2)];
  }
  const bodyFile = join(ROOT, '.bench', `baseline-bodies-${PORT0}.json`);
  writeFileSync(bodyFile, JSON.stringify(bodies));
  const baseline = startProcess(['bench/static-baseline.mjs'], { PORT: String(basePort), BODIES: bodyFile });
  await waitFor(`http://127.0.0.1:${basePort}${urls[0]}`);
  // Under load once before the first row, so that no server's first row is measured while its code is still being compiled.
  for (const p of warmPorts) await load(`http://127.0.0.1:${p}`, urls, undefined, 2);
  await load(`http://127.0.0.1:${basePort}`, urls, undefined, 1);

  type Sample = { rps: number; p50: number; p99: number; cpuUs: number };
  type Row = {
    group: string; rps: number; p50_ms: number; p99_ms: number; baseline_rps: number; ratio: number; body_bytes: number;
    no_gate_rps: number; no_gate_ratio: number; gate_cost: number; before_ratio?: number; before_no_gate_ratio?: number; before_gate_cost?: number; load: string;
    /** Server CPU µs per request (medians of rounds), and the same ratios in CPU: baseline µs / API µs, 1 - no-gate µs / API µs. */
    cpu_us: number; baseline_cpu_us: number; no_gate_cpu_us: number; cpu_ratio: number; cpu_gate_cost: number;
    before_cpu_us?: number; before_cpu_ratio?: number; before_cpu_gate_cost?: number;
  };
  const http: Record<string, Row> = {};
  const pct = (x: number | undefined) => (x === undefined ? '' : `${(x * 100).toFixed(0)}%`);
  say('');
  say(`HTTP: API (gate, memory counters) and API without the gate (ACCESS_CONTROL=off) as ratios to plain node:http answering the same bytes${COMPARE ? '; "before": the compared checkout, same rounds' : ''}; rows as measured:`);
  say('');
  say(`| endpoint | group | body bytes | API req/s | p50 ms | p99 ms | baseline req/s | API / baseline | no gate / baseline | gate cost |${COMPARE ? ' before: API / baseline | before: gate cost |' : ''} CPU µs/req: baseline, API, no gate | CPU: baseline / API | CPU: gate cost |${COMPARE ? ' before: CPU µs/req | before: CPU baseline / API | before: CPU gate cost |' : ''} load |`);
  say(`|---|---|---:|---:|---:|---:|---:|---:|---:|---:|${COMPARE ? '---:|---:|' : ''}---:|---:|---:|${COMPARE ? '---:|---:|---:|' : ''}---:|`);
  // Each endpoint's rounds run back to back, alternating the servers, so that its row can be printed at once.
  for (const [name, paths] of Object.entries(endpoints)) {
    const s: Record<'base' | 'api' | 'open' | 'before' | 'beforeOpen', Sample[]> = { base: [], api: [], open: [], before: [], beforeOpen: [] };
    for (let r = 0; r < ROUNDS; r++) {
      s.base.push(await load(`http://127.0.0.1:${basePort}`, paths, undefined, SECONDS, baseline.pid));
      s.api.push(await load(`http://127.0.0.1:${port}`, paths, undefined, SECONDS, server.pid));
      s.open.push(await load(`http://127.0.0.1:${openPort}`, paths, undefined, SECONDS, open.pid));
      if (COMPARE) {
        s.before.push(await load(`http://127.0.0.1:${beforePort}`, paths, undefined, SECONDS, before!.pid));
        s.beforeOpen.push(await load(`http://127.0.0.1:${beforeOpenPort}`, paths, undefined, SECONDS, beforeOpen!.pid));
      }
    }
    const rps = (xs: Sample[]) => median(xs.map((x) => x.rps));
    const cpu = (xs: Sample[]) => median(xs.map((x) => x.cpuUs));
    // Ratios are paired by round (each round loads every server back to back, so they share its noise): a row's
    // ratio is the median of its per-round ratios, not the ratio of two medians taken from different rounds.
    const paired = (f: (r: number) => number) => median(Array.from({ length: ROUNDS }, (_, r) => f(r)));
    const ratio = (a: Sample[], b: Sample[]) => paired((r) => a[r].rps / b[r].rps);
    const cpuRatio = (a: Sample[], b: Sample[]) => paired((r) => a[r].cpuUs / b[r].cpuUs);
    const baseRps = rps(s.base);
    const row: Row = {
      group: GROUPS[name] ?? '',
      rps: rps(s.api),
      p50_ms: median(s.api.map((x) => x.p50)),
      p99_ms: median(s.api.map((x) => x.p99)),
      baseline_rps: baseRps,
      ratio: ratio(s.api, s.base),
      body_bytes: Buffer.byteLength(medianBody[name]),
      no_gate_rps: rps(s.open),
      no_gate_ratio: ratio(s.open, s.base),
      gate_cost: 1 - ratio(s.api, s.open),
      load: load1(),
      cpu_us: cpu(s.api),
      baseline_cpu_us: cpu(s.base),
      no_gate_cpu_us: cpu(s.open),
      cpu_ratio: cpuRatio(s.base, s.api),
      cpu_gate_cost: 1 - cpuRatio(s.open, s.api),
    };
    if (COMPARE) {
      Object.assign(row, { before_ratio: ratio(s.before, s.base), before_no_gate_ratio: ratio(s.beforeOpen, s.base), before_gate_cost: 1 - ratio(s.before, s.beforeOpen) });
      Object.assign(row, { before_cpu_us: cpu(s.before), before_cpu_ratio: cpuRatio(s.base, s.before), before_cpu_gate_cost: 1 - cpuRatio(s.beforeOpen, s.before) });
    }
    http[name] = row;
    const us = (x: number | undefined) => (x === undefined ? '' : x.toFixed(1));
    say(
      `| ${name} | ${row.group} | ${row.body_bytes} | ${Math.round(row.rps)} | ${row.p50_ms} | ${row.p99_ms} | ${Math.round(baseRps)} | ${pct(row.ratio)} | ${pct(row.no_gate_ratio)} | ${pct(row.gate_cost)} |${COMPARE ? ` ${pct(row.before_ratio)} | ${pct(row.before_gate_cost)} |` : ''}` +
        ` ${us(row.baseline_cpu_us)}, ${us(row.cpu_us)}, ${us(row.no_gate_cpu_us)} | ${pct(row.cpu_ratio)} | ${pct(row.cpu_gate_cost)} |` +
        `${COMPARE ? ` ${us(row.before_cpu_us)} | ${pct(row.before_cpu_ratio)} | ${pct(row.before_cpu_gate_cost)} |` : ''} ${row.load} |`,
    );
  }
  out.http = http;
  // Per group: the lowest and the median ratio, against the targets.
  say('');
  for (const group of ['precomputed', 'computed'] as const) {
    const rows = Object.values(http).filter((h) => h.group === group);
    if (!rows.length) continue;
    say(
      `${group}: API / baseline lowest ${pct(Math.min(...rows.map((h) => h.ratio)))}, median ${pct(median(rows.map((h) => h.ratio)))} (target >= ${pct(TARGET[group])}); ` +
        `gate cost median ${pct(median(rows.map((h) => h.gate_cost)))}, highest ${pct(Math.max(...rows.map((h) => h.gate_cost)))} (target <= 15%)` +
        (COMPARE ? `; before: lowest ${pct(Math.min(...rows.map((h) => h.before_ratio!)))}, median ${pct(median(rows.map((h) => h.before_ratio!)))}, gate cost median ${pct(median(rows.map((h) => h.before_gate_cost!)))}` : '') +
        `. In CPU per request: baseline / API lowest ${pct(Math.min(...rows.map((h) => h.cpu_ratio)))}, median ${pct(median(rows.map((h) => h.cpu_ratio)))}; gate cost median ${pct(median(rows.map((h) => h.cpu_gate_cost)))}, highest ${pct(Math.max(...rows.map((h) => h.cpu_gate_cost)))}` +
        (COMPARE ? `; before: baseline / API lowest ${pct(Math.min(...rows.map((h) => h.before_cpu_ratio!)))}, median ${pct(median(rows.map((h) => h.before_cpu_ratio!)))}, gate cost median ${pct(median(rows.map((h) => h.before_cpu_gate_cost!)))}` : '') +
        '.',
    );
  }

  if (quick) {
    for (const p of [server, baseline, open, before, beforeOpen]) p?.kill();
    writeFileSync(join(ROOT, '.bench', 'results-quick.json'), `${JSON.stringify(out, null, 2)}\n`);
    say(`\nServer: first answer ${startMs.toFixed(0)} ms after spawn. Load average at the end ${loadavg().map((x) => x.toFixed(1)).join(' ')}.`);
    return;
  }

  // Revalidation: the same requests with If-None-Match naming the current ETag get 304 and no body.
  say('');
  say('Revalidation (If-None-Match with the current ETag: 304, no body) on the same requests:');
  say('');
  say('| endpoint | 304 req/s | vs its 200s | body bytes saved per answer | load |');
  say('|---|---:|---:|---:|---:|');
  const revalidate: Record<string, { rps: number; vs_200: number; bytes_200: number }> = {};
  // Only the rows measured above (--endpoints may leave some out).
  for (const name of ['check', 'country', 'country_list', 'holidays'].filter((n) => http[n])) {
    const paths = endpoints[name];
    const etags = await Promise.all(paths.map(async (p) => (await fetch(`http://127.0.0.1:${port}${p}`, { headers: { 'x-api-key': KEY } })).headers.get('etag')!));
    const xs: number[] = [];
    for (let r = 0; r < ROUNDS; r++) xs.push((await load(`http://127.0.0.1:${port}`, paths, etags)).rps);
    revalidate[name] = { rps: median(xs), vs_200: median(xs) / http[name].rps, bytes_200: http[name].body_bytes };
    say(`| ${name} | ${Math.round(median(xs))} | ${pct(median(xs) / http[name].rps)} | ${http[name].body_bytes} | ${load1()} |`);
  }
  out.revalidate = revalidate;

  // Memory after answering for every location.
  const auth = { headers: { 'x-api-key': KEY } };
  const list = (await (await fetch(`http://127.0.0.1:${port}/v1/business-days`, auth)).json()) as { locations: { location: string }[] };
  const rssBefore = rssMb(server.pid!);
  for (const { location } of list.locations) await (await fetch(`http://127.0.0.1:${port}/v1/business-days/${location}?date=2026-07-03&type=banking`, auth)).arrayBuffer();
  out.server = { start_to_first_answer_ms: startMs, rss_mb_after_warmup: rssBefore, rss_mb_after_all_locations: rssMb(server.pid!), locations: list.locations.length };
  say('');
  say(`Server: first answer ${startMs.toFixed(0)} ms after spawn; RSS ${rssBefore.toFixed(0)} MB warm, ${(out.server as any).rss_mb_after_all_locations.toFixed(0)} MB after all ${list.locations.length} locations.`);

  // What the access gate costs on one endpoint: the same premium requests against the server without
  // it, the memory-counting server above, and one counting in Redis.
  const redisPort = PORT0 + 3;
  const redisServerPort = PORT0 + 4;
  const redisServer = spawn('redis-server', ['--port', String(redisServerPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  let redisOk = true;
  redisServer.on('error', () => (redisOk = false));
  await new Promise((r) => setTimeout(r, 500));
  const withRedis = redisOk ? startApi(redisPort, { REDIS_URL: `redis://127.0.0.1:${redisServerPort}` }) : undefined;
  if (withRedis) await waitFor(`http://127.0.0.1:${redisPort}/healthz`);
  say('');
  say('Access gate on GET /v1/business-days/{location} with a growth key (check requests):');
  say('');
  say('| counters | req/s | p50 ms | p99 ms | vs no gate |');
  say('|---|---:|---:|---:|---:|');
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
    say(`| ${name === 'open' ? 'no gate (ACCESS_CONTROL=off)' : name} | ${Math.round(rps)} | ${gate[name].p50_ms} | ${gate[name].p99_ms} | ${pct(gate[name].vs_open)} |`);
  }
  out.access_gate = gate;
  for (const p of [server, baseline, open, before, beforeOpen, withRedis]) p?.kill();
  redisServer.kill();
  writeFileSync(join(ROOT, '.bench', 'results.json'), `${JSON.stringify(out, null, 2)}\n`);
  say(`\nLoad average at the end ${loadavg().map((x) => x.toFixed(1)).join(' ')}.${out.build ? '' : ' Build: skipped (--skip-build).'}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
