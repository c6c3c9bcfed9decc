/**
 * Does a dataset folder hold exactly the files its manifest lists? The diff
 * trusts manifest hashes to skip unchanged files, so a hand-edited file under
 * a stale manifest would otherwise read as "No data changes".
 * Pure: the caller lists the folder and hashes each file (sha256 of its bytes).
 */
import type { Manifest } from '../schema-types.js';

/** What the caller found on disk for one file. */
export interface FileFacts {
  bytes: number;
  sha256: string;
}

export type ManifestProblem =
  | { kind: 'missing'; path: string; expected: FileFacts }
  | { kind: 'unlisted'; path: string; actual: FileFacts }
  | { kind: 'changed'; path: string; expected: FileFacts; actual: FileFacts }
  /** The manifest's version is not the hash of its own file list (the list was edited by hand). */
  | { kind: 'version'; path: 'manifest.json'; expected: string; actual: string };

/**
 * Every difference between a manifest and the files found beside it, sorted by path.
 * `onDisk`: each file under the dataset folder except manifest.json, by '/'-separated path.
 * `version`: the version recomputed from `manifest.files`, if the caller checks it.
 */
export function checkManifest(manifest: Manifest, onDisk: ReadonlyMap<string, FileFacts>, version?: string): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  for (const [path, expected] of Object.entries(manifest.files)) {
    const actual = onDisk.get(path);
    if (!actual) problems.push({ kind: 'missing', path, expected });
    else if (actual.bytes !== expected.bytes || actual.sha256 !== expected.sha256) problems.push({ kind: 'changed', path, expected, actual });
  }
  for (const [path, actual] of onDisk) if (!Object.hasOwn(manifest.files, path)) problems.push({ kind: 'unlisted', path, actual });
  problems.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (version !== undefined && version !== manifest.version) {
    problems.push({ kind: 'version', path: 'manifest.json', expected: manifest.version, actual: version });
  }
  return problems;
}

const short = (sha: string) => `${sha.slice(0, 12)}…`;

/** One line per problem: the path and what differs. */
export function describeProblem(p: ManifestProblem): string {
  switch (p.kind) {
    case 'missing':
      return `missing: ${p.path} (listed with ${p.expected.bytes} bytes, sha256 ${short(p.expected.sha256)})`;
    case 'unlisted':
      return `not in the manifest: ${p.path} (${p.actual.bytes} bytes)`;
    case 'changed': {
      const diffs: string[] = [];
      if (p.actual.bytes !== p.expected.bytes) diffs.push(`bytes ${p.expected.bytes} → ${p.actual.bytes}`);
      if (p.actual.sha256 !== p.expected.sha256) diffs.push(`sha256 ${short(p.expected.sha256)} → ${short(p.actual.sha256)}`);
      return `changed: ${p.path} (manifest → file: ${diffs.join(', ')})`;
    }
    case 'version':
      return `manifest.json: version ${p.expected} is not the hash of its file list (${p.actual})`;
  }
}

/** The report for one dataset: a header, at most `limit` problems, then how many more. */
export function renderManifestProblems(label: string, problems: ManifestProblem[], limit = 20): string {
  const shown = problems.slice(0, limit).map((p) => `  ${describeProblem(p)}`);
  const more = problems.length > limit ? [`  … and ${problems.length - limit} more`] : [];
  const noun = problems.length === 1 ? 'difference' : 'differences';
  return [`${label} does not match its manifest.json (${problems.length} ${noun}):`, ...shown, ...more].join('\n');
}
