/**
 * `npm run diff-data -- OLD NEW [--today YYYY-MM-DD] [--json]`: the changelog
 * between two built datasets, as Markdown (a pull-request body) or JSON.
 * OLD and NEW are a dist-data folder holding v1/, or the v1 folder itself.
 * Exit 0 whether or not anything changed; 2 on bad arguments, unreadable
 * folders, or a dataset whose files do not match its manifest.
 * Each side's files are first hashed and checked against its manifest (a
 * hand-edited file under a stale manifest must not read as "No data changes");
 * then only files whose sha256 differs in the two manifests are parsed.
 * Both steps together take about a second per 30,000-file side (warm cache).
 */
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import {
  checkManifest,
  compareManifests,
  diffDatasets,
  filesToLoad,
  renderManifestProblems,
  renderMarkdown,
  type FileFacts,
  type Snapshot,
} from '../lib/data-diff/index.js';
import { parseDate } from '../lib/plain-date.js';
import type { Manifest } from '../lib/schema-types.js';
import { datasetVersion } from '../pipeline/stages/emit-manifest.js';
import { filesOnDisk } from './dataset-files.js';

const USAGE = 'usage: npm run diff-data -- OLD NEW [--today YYYY-MM-DD] [--json]\n  OLD, NEW: a dist-data folder holding v1/, or a v1 folder';

function fail(message: string): never {
  console.error(`diff-data: ${message}`);
  process.exit(2);
}

/** The v1 folder of a dataset argument. */
function datasetDir(arg: string, label: string): string {
  for (const dir of [resolve(arg), resolve(arg, 'v1')]) if (existsSync(join(dir, 'manifest.json'))) return dir;
  fail(`${label} ${arg}: no manifest.json in it or in its v1/ folder`);
}

function readJson(dir: string, path: string): unknown {
  const file = resolve(dir, path);
  // A manifest path must stay inside its dataset.
  if (!file.startsWith(dir + sep)) fail(`${dir}: manifest lists a path outside the dataset: ${path}`);
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    fail(`cannot read ${file}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function readManifest(dir: string): Manifest {
  const m = readJson(dir, 'manifest.json') as Partial<Manifest> | null;
  if (!m || typeof m.version !== 'string' || typeof m.files !== 'object' || m.files === null) fail(`${dir}/manifest.json is not a dataset manifest`);
  return { ...m, sources: m.sources ?? {} } as Manifest;
}

/** Every file under `dir` but manifest.json, with its size and sha256 (scripts/dataset-files.ts); a folder that cannot be read ends the run. */
function filesOf(dir: string): Map<string, FileFacts> {
  try {
    return filesOnDisk(dir);
  } catch (err) {
    fail(`cannot read ${dir}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** The report on one side's files, or undefined when they match its manifest. */
function verify(label: string, dir: string, manifest: Manifest): string | undefined {
  const problems = checkManifest(manifest, filesOf(dir), datasetVersion(manifest.files));
  return problems.length === 0 ? undefined : renderManifestProblems(`${label} ${dir}`, problems);
}

const { values, positionals } = (() => {
  try {
    return parseArgs({ allowPositionals: true, options: { today: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  } catch (err) {
    fail(`${err instanceof Error ? err.message : String(err)}\n${USAGE}`);
  }
})();
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
if (positionals.length !== 2) fail(`expected two dataset folders, got ${positionals.length}\n${USAGE}`);
// The only place the clock enters; --today pins it (tests, re-running an old changelog).
const today = values.today ?? new Date().toISOString().slice(0, 10);
if (parseDate(today) === undefined) fail(`--today must be a date YYYY-MM-DD, got ${today}`);

const [oldDir, newDir] = [datasetDir(positionals[0], 'OLD'), datasetDir(positionals[1], 'NEW')];
const [oldManifest, newManifest] = [readManifest(oldDir), readManifest(newDir)];
// The diff trusts the manifests' hashes, so each side must hold exactly the files its manifest lists.
const reports = [verify('OLD', oldDir, oldManifest)];
// The same folder twice (a dataset against itself) is read once.
if (realpathSync(oldDir) !== realpathSync(newDir)) reports.push(verify('NEW', newDir, newManifest));
const refused = reports.filter((r): r is string => r !== undefined);
if (refused.length > 0) {
  fail(`refusing to diff: a dataset does not match its manifest (rebuild it, or unpack it again)\n${refused.join('\n')}`);
}
const load = filesToLoad(compareManifests(oldManifest, newManifest));
const snapshot = (dir: string, manifest: Manifest, paths: string[]): Snapshot => ({
  manifest,
  files: new Map(paths.map((p) => [p, readJson(dir, p)])),
});
const diff = diffDatasets(snapshot(oldDir, oldManifest, load.old), snapshot(newDir, newManifest, load.new), today);
process.stdout.write(values.json ? `${JSON.stringify(diff, null, 2)}\n` : renderMarkdown(diff));
