/**
 * The files of a dataset folder as found on disk, for checks against its manifest
 * (lib/data-diff/verify.ts): used by `npm run diff-data` and `npm run publish`.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { FileFacts } from '../lib/data-diff/verify.js';

/**
 * Every file under `dir` but manifest.json, by '/'-separated path, with its size and sha256.
 * Symbolic links and other non-files are not data: a listed one reads as missing. `onFile`
 * is called after each file (progress). Throws when the folder cannot be listed or a file read.
 */
export function filesOnDisk(dir: string, onFile: (count: number) => void = () => {}): Map<string, FileFacts> {
  const out = new Map<string, FileFacts>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const file = join(e.parentPath, e.name);
    const path = relative(dir, file).split(sep).join('/');
    if (path === 'manifest.json') continue;
    // One synchronous read per file: 0.6-1.3 s for 30,678 files (124 MB) with a warm cache.
    const bytes = readFileSync(file);
    out.set(path, { bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
    onFile(out.size);
  }
  return out;
}
