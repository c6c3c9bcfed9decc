/**
 * Stage: the manifest lists the sha256 of every other file; the dataset
 * version is derived from those hashes, so it changes exactly when the data does.
 */
import { createHash } from 'node:crypto';
import type { Manifest } from '../../lib/schema-types.js';

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function emitManifest(
  serialized: Map<string, string>,
  sources: Manifest['sources'],
  counts: Manifest['counts'],
): Manifest {
  const files: Manifest['files'] = {};
  for (const path of [...serialized.keys()].sort()) {
    const text = serialized.get(path)!;
    files[path] = { sha256: sha256(text), bytes: Buffer.byteLength(text) };
  }
  const version = sha256(Object.entries(files).map(([p, f]) => `${f.sha256}  ${p}\n`).join('')).slice(0, 16);
  return { dataset: 'refdata', version, sources, counts, files };
}
