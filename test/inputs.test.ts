/**
 * pipeline/inputs.ts: the digest npm test and npm start compare with dist-data/.inputs before reusing a
 * dataset. It must change with any source file and be stable otherwise.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inputsDigest, readInputsStamp, writeInputsStamp } from '../pipeline/inputs.js';

const ROOT = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'refdata-inputs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the build inputs digest', () => {
  it('is stable, and changes with one byte of one source file', () => {
    const sources = join(work, 'sources');
    cpSync(join(ROOT, 'sources'), sources, { recursive: true });
    const before = inputsDigest(sources);
    expect(before).toMatch(/^[0-9a-f]{64}$/);
    expect(inputsDigest(sources)).toBe(before);
    expect(inputsDigest(join(ROOT, 'sources'))).toBe(before); // the path is not part of it, the contents are
    const file = join(sources, 'holidays', 'AE', 'workweeks.csv');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/\n$/, '\n\n'));
    expect(inputsDigest(sources)).not.toBe(before);
    writeFileSync(file, text);
    expect(inputsDigest(sources)).toBe(before);
    writeFileSync(join(sources, 'new-file.txt'), '');
    expect(inputsDigest(sources)).not.toBe(before);
  });

  it('is read back only next to a dataset', () => {
    const out = join(work, 'out');
    cpSync(join(ROOT, 'dist-data', 'README.md'), join(out, 'README.md'));
    writeInputsStamp(out, 'a'.repeat(64));
    expect(readInputsStamp(out)).toBeUndefined(); // no v1/manifest.json: nothing to reuse
    cpSync(join(ROOT, 'dist-data', 'README.md'), join(out, 'v1', 'manifest.json'));
    expect(readInputsStamp(out)).toBe('a'.repeat(64));
  });

  it.skipIf(process.env.REFDATA_SKIP_BUILD === '1')('the dataset under test was built from the current inputs', () => {
    expect(readInputsStamp(join(ROOT, 'dist-data'))).toBe(inputsDigest());
  });
});
