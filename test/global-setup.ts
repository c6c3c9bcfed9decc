/**
 * Before the tests: builds dist-data/ from the current code and sources, so the
 * artifact, golden and HTTP tests never read a stale dataset
 * (REFDATA_SKIP_BUILD=1 reuses an existing dataset, for quick local runs), and
 * points TMPDIR at one fresh folder for the whole run. Every scratch folder a
 * test, a server it starts or a checker it runs makes with os.tmpdir() lands
 * there, and the teardown removes it: a run leaves nothing behind in /tmp.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../pipeline/run.js';

export default async function setup() {
  const scratch = mkdtempSync(join(tmpdir(), 'refdata-tests-'));
  process.env.TMPDIR = scratch;
  const dir = join(import.meta.dirname, '..', 'dist-data');
  if (!(process.env.REFDATA_SKIP_BUILD === '1' && existsSync(join(dir, 'v1', 'manifest.json')))) await build({ outDir: dir });
  return () => rmSync(scratch, { recursive: true, force: true });
}
