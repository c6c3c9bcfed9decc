/**
 * Byte-identical rebuilds: a second full build from the same sources must give
 * the same manifest (every file's sha256) as the dataset the tests read. It
 * takes as long as a build (about two minutes for 1990-2099), so it is its own
 * command, `npm run test:rebuild`, which CI runs after `npm test`
 * (vitest.config.ts leaves it out of the default run).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { build } from '../pipeline/run.js';
import { DATA_DIR } from './helpers.js';

it('a second build from the same inputs gives byte-identical output', async () => {
  const out = mkdtempSync(join(tmpdir(), 'refdata-build-'));
  try {
    const manifest = readFileSync(join(DATA_DIR, 'v1', 'manifest.json'), 'utf8');
    const again = await build({ outDir: out });
    expect(again.version).toBe(JSON.parse(manifest).version);
    expect(readFileSync(join(out, 'v1', 'manifest.json'), 'utf8')).toBe(manifest);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}, 900_000);
