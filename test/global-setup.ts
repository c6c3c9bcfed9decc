/**
 * Before the tests: makes sure dist-data/ is the dataset the current code and sources build, so
 * the artifact, golden and HTTP tests never read a stale one. It is rebuilt unless dist-data/.inputs
 * records that it was built from exactly the current inputs (pipeline/inputs.ts: the build's code,
 * sources, installed packages, Node and zic), as after `npm start` or an earlier `npm test` on the
 * same checkout. REFDATA_SKIP_BUILD=1 reuses any existing dataset (quick local runs, other builds).
 *
 * It also points TMPDIR at one fresh folder for the whole run. Every scratch folder a test, a
 * server it starts or a checker it runs makes with os.tmpdir() lands there, and the teardown
 * removes it: a run leaves nothing behind in /tmp.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../pipeline/run.js';
import { inputsDigest, readInputsStamp } from '../pipeline/inputs.js';

export default async function setup() {
  const scratch = mkdtempSync(join(tmpdir(), 'refdata-tests-'));
  process.env.TMPDIR = scratch;
  const dir = join(import.meta.dirname, '..', 'dist-data');
  if (process.env.REFDATA_SKIP_BUILD === '1' && existsSync(join(dir, 'v1', 'manifest.json'))) {
    // as asked
  } else if (readInputsStamp(dir) === inputsDigest()) {
    console.log('dist-data/ was built from the current code and sources (dist-data/.inputs): testing it without a rebuild.');
  } else {
    await build({ outDir: dir });
  }
  return () => rmSync(scratch, { recursive: true, force: true });
}
