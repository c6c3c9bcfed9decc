/**
 * How a published dataset is laid out on a static host and which headers each
 * file gets: the one statement of the static contract's hosting rules, read by
 * `npm run publish` (the headers it uploads with) and by the tests of
 * deploy/nginx.conf (the headers nginx must send). Pure: no I/O.
 *
 * Layout under the target (a folder or an rclone remote):
 *
 *   v1/<version>/…        every file of one dataset, never changed once written (immutable)
 *   v1/current.json       the pointer: which version readers start from (short-lived), written last
 *   v1/versions.json      the versions published, newest first (what pruning keeps)
 *   v1/current            (folder targets) a symbolic link to the pointer's version, swapped
 *                         atomically with it, so a web server can also answer the unversioned paths
 *
 * A reader that starts from current.json and then reads only under its prefix
 * never sees two datasets mixed, whatever a publish is doing meanwhile.
 */
import type { StaticPointer, StaticVersions } from './schema-types.js';

export type { StaticPointer, StaticVersions };

/** The file readers start from; everything else is under a version's prefix. */
export const POINTER = 'current.json';
/** The list of published versions, newest first. */
export const VERSIONS = 'versions.json';

/** A dataset version as the build writes it: 16 lower-case hex digits. Nothing else is ever a folder of v1/. */
export const VERSION_PATTERN = /^[0-9a-f]{16}$/;

/** Immutable: a versioned path's bytes never change (a new dataset is a new prefix). */
export const CACHE_VERSIONED = 'public, max-age=31536000, immutable';
/** The pointer and the version list: readers see a new version within a minute. */
export const CACHE_POINTER = 'public, max-age=60, must-revalidate';
/** Every file may be read from any origin (the API answers the same). */
export const CORS_ORIGIN = '*';

export interface FileFamily {
  /** The file name's ending, with its dot (".csv.gz" before ".gz"). */
  suffix: string;
  contentType: string;
  /** Worth compressing on the fly (text); already compressed or binary files are sent as they are. */
  compressible: boolean;
}

/**
 * Every kind of file a dataset holds, longest suffix first. A `.gz` file is served as what it is
 * (application/gzip), not as a Content-Encoding of its table: a browser would otherwise unpack it
 * and a download tool would save the table under the .gz name.
 */
export const FILE_FAMILIES: readonly FileFamily[] = [
  { suffix: '.csv.gz', contentType: 'application/gzip', compressible: false },
  { suffix: '.sqlite.gz', contentType: 'application/gzip', compressible: false },
  { suffix: '.json', contentType: 'application/json; charset=utf-8', compressible: true },
  { suffix: '.ics', contentType: 'text/calendar; charset=utf-8', compressible: true },
  { suffix: '.csv', contentType: 'text/csv; charset=utf-8', compressible: true },
  { suffix: '.md', contentType: 'text/markdown; charset=utf-8', compressible: true },
  // Not compressed on the fly: 177 MB per request, where refdata.sqlite.gz lies beside it.
  { suffix: '.sqlite', contentType: 'application/vnd.sqlite3', compressible: false },
];

/** The family of a dataset path, or undefined for a kind of file the contract does not know (publish refuses it). */
export function familyOf(path: string): FileFamily | undefined {
  return FILE_FAMILIES.find((f) => path.endsWith(f.suffix));
}

/**
 * The headers a static host sends with a file of the published tree, by its path relative to v1/:
 * under a version's prefix immutable; anything else (the pointer, the version list, and the
 * unversioned paths a web server may map to the current version, as deploy/nginx.conf does)
 * short-lived, since it changes with the pointer.
 */
export function staticHeaders(path: string): { 'Content-Type': string; 'Cache-Control': string; 'Access-Control-Allow-Origin': string } | undefined {
  const family = familyOf(path);
  if (family === undefined) return undefined;
  const versioned = VERSION_PATTERN.test(path.slice(0, 16)) && path[16] === '/';
  return { 'Content-Type': family.contentType, 'Cache-Control': versioned ? CACHE_VERSIONED : CACHE_POINTER, 'Access-Control-Allow-Origin': CORS_ORIGIN };
}

export interface PublishPlan {
  /** Files whose bytes the previous version holds already: copied on the host (server-side, or hard links). */
  reuse: string[];
  /** Files to transfer. */
  send: string[];
  /** Bytes to transfer. */
  sendBytes: number;
}

type Files = Readonly<Record<string, { bytes: number; sha256: string }>>;

/**
 * What a publish of `next` transfers when `previous` (the version the pointer names, if any) is on
 * the host: files with the same path and sha256 are reused, the rest sent; manifest.json is always sent.
 */
export function publishPlan(next: Files, previous: Files | undefined): PublishPlan {
  const reuse: string[] = [];
  const send: string[] = [];
  let sendBytes = 0;
  for (const path of Object.keys(next).sort()) {
    const was = previous?.[path];
    if (was !== undefined && was.sha256 === next[path]!.sha256 && was.bytes === next[path]!.bytes) reuse.push(path);
    else {
      send.push(path);
      sendBytes += next[path]!.bytes;
    }
  }
  return { reuse, send, sendBytes };
}

/** The version list after publishing `version`: it first, the others in their order, at most `keep`; and what falls off. */
export function nextVersions(list: readonly string[], version: string, keep: number): { versions: string[]; prune: string[] } {
  const all = [version, ...list.filter((v) => v !== version)];
  return { versions: all.slice(0, keep), prune: all.slice(keep) };
}
