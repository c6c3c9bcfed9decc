/**
 * Builds dist-data/ from the current code and sources before the tests run,
 * so the artifact, golden and HTTP tests never read a stale dataset.
 * REFDATA_SKIP_BUILD=1 reuses an existing dataset (for quick local runs).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from '../pipeline/run.js';

export default async function setup() {
  const dir = join(import.meta.dirname, '..', 'dist-data');
  if (process.env.REFDATA_SKIP_BUILD === '1' && existsSync(join(dir, 'v1', 'manifest.json'))) return;
  await build({ outDir: dir });
}
