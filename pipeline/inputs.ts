/**
 * What a build reads, as one digest: the code that builds (pipeline/, lib/, schemas/), the sources
 * it was given, the installed packages (package-lock.json), Node's version and
 * the system's zic. A build records it next to the dataset it published (dist-data/.inputs, outside
 * v1/, so it is no part of the content the manifest hashes); `npm test` and `npm start` rebuild
 * only when it differs, so a dataset is never reused across a change to any of them.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listSources } from './stages/check-sources.js';
import { findZic } from './stages/ingest-timezones.js';

const ROOT = join(import.meta.dirname, '..');
const STAMP = '.inputs';

function zicVersion(): string {
  try {
    return execFileSync(findZic(), ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'no zic';
  }
}

/** The digest of everything a build from `sourcesDir` reads (a few milliseconds: ~200 files, 7 MB). */
export function inputsDigest(sourcesDir = join(ROOT, 'sources')): string {
  const hash = createHash('sha256');
  const add = (label: string, bytes: string | Buffer) => hash.update(`${label}\0${bytes.length}\0`).update(bytes);
  // listSources: the sorted file list the source lock is checked with (the lock itself aside: it describes the files).
  for (const dir of ['pipeline', 'lib', 'schemas']) {
    for (const p of listSources(join(ROOT, dir))) if (!p.endsWith('.test.ts')) add(`${dir}/${p}`, readFileSync(join(ROOT, dir, p)));
  }
  for (const p of listSources(sourcesDir)) add(`sources/${p}`, readFileSync(join(sourcesDir, p)));
  add('package-lock.json', readFileSync(join(ROOT, 'package-lock.json'))); // every installed package's version (npm ci keeps package.json in step)
  add('node', process.version);
  add('zic', zicVersion());
  return hash.digest('hex');
}

/** Records the digest a build of `outDir` was made from. */
export function writeInputsStamp(outDir: string, digest: string): void {
  writeFileSync(join(outDir, STAMP), `${digest}\n`);
}

/** The digest recorded for `outDir`'s dataset, or undefined (no dataset, or built before stamps). */
export function readInputsStamp(outDir: string): string | undefined {
  if (!existsSync(join(outDir, 'v1', 'manifest.json'))) return undefined;
  try {
    return readFileSync(join(outDir, STAMP), 'utf8').trim();
  } catch {
    return undefined;
  }
}
