/**
 * The @refdata/dataset package, packed once per test run and shared by the files that need it
 * (test/dataset-package.test.ts installs the tarball, test/workweek-order.test.ts imports the
 * staged package): packing copies and compiles for ~15 s, and the two files may run at the same
 * time in different workers. The first caller packs into the run's scratch TMPDIR (see
 * test/global-setup.ts) under a lock folder; the others wait for its "done" record. The pack is
 * the CLI as a user runs it, in a child process, so a worker never blocks for its duration.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DATA_DIR } from './helpers.js';

const ROOT = join(import.meta.dirname, '..');

export interface Packed {
  /** The --out folder: the tarball and the staged package (dataset-package/). */
  out: string;
  tarball: string;
  /** What the pack CLI printed. */
  stdout: string;
  seconds: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Packs DATA_DIR once per run (per TMPDIR); every later or concurrent call gets the same pack. */
export async function packedDataset(timeoutMs = 280_000): Promise<Packed> {
  const root = join(tmpdir(), 'refdata-packed');
  const done = join(root, 'done.json');
  const failed = join(root, 'failed.txt');
  let mine = false;
  try {
    mkdirSync(root); // atomic: exactly one caller creates it
    mine = true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  if (mine) {
    const out = join(root, 'out');
    const t0 = performance.now();
    try {
      const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'pack-dataset.ts'), '--data', DATA_DIR, '--out', out], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      const tarball = join(out, readdirSync(out).find((f) => f.endsWith('.tgz'))!);
      const packed: Packed = { out, tarball, stdout, seconds: (performance.now() - t0) / 1000 };
      writeFileSync(done, JSON.stringify(packed));
      return packed;
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message?: string };
      const why = `pack-dataset failed:\n${e.stdout ?? ''}${e.stderr ?? e.message ?? ''}`;
      writeFileSync(failed, why);
      throw new Error(why);
    }
  }
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (existsSync(done)) return JSON.parse(readFileSync(done, 'utf8')) as Packed;
    if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
    await sleep(200);
  }
  throw new Error(`the shared pack in ${root} did not finish within ${timeoutMs / 1000} s`);
}
