/**
 * Stage: the manifest lists the sha256 of every other file; the dataset
 * version is derived from those hashes, so it changes exactly when the data does.
 */
import { createHash } from 'node:crypto';
import type { Manifest } from '../../lib/schema-types.js';

export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The dataset version: the first 16 hex digits of the sha256 over every file's sha256 and path, in path order. */
export function datasetVersion(files: Manifest['files']): string {
  return sha256(Object.entries(files).map(([p, f]) => `${f.sha256}  ${p}\n`).join('')).slice(0, 16);
}

/** Files are text (hashed as UTF-8) or bytes (the gzipped tables, the SQLite file), hashed as they are. */
export function emitManifest(
  serialized: Map<string, string | Uint8Array>,
  sources: Manifest['sources'],
  counts: Manifest['counts'],
  timezoneBoundaries?: Manifest['timezone_boundaries'],
  onFile: () => void = () => {},
): Manifest {
  const files: Manifest['files'] = {};
  for (const path of [...serialized.keys()].sort()) {
    const data = serialized.get(path)!;
    onFile();
    files[path] = { sha256: sha256(data), bytes: typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength };
  }
  return { dataset: 'refdata', version: datasetVersion(files), sources, counts, ...(timezoneBoundaries ? { timezone_boundaries: timezoneBoundaries } : {}), files };
}
