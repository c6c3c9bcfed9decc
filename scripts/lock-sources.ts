/**
 * `npm run lock:sources [-- DIR]`: pins every file under sources/ (or DIR) in DIR/sources.lock.json
 * and prints what changed since the last lock: added, removed and changed files with their rows
 * before → after. Run it only after changing a source on purpose; the build refuses any file that
 * differs from the lock. It refuses to pin a file it cannot read in its format (a cut CSV quote,
 * broken JSON), so every file the build parses has been read cleanly once.
 */
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describeSources, LOCK_FILE, readLock, serializeLock, type LockEntry } from '../pipeline/stages/check-sources.js';

const ROOT = join(import.meta.dirname, '..');

/** One line per added, removed or changed file; empty when the lock already matches. */
export function lockDiff(before: LockEntry[], after: LockEntry[]): string[] {
  const old = new Map(before.map((e) => [e.path, e]));
  const now = new Map(after.map((e) => [e.path, e]));
  const lines: string[] = [];
  for (const e of after) {
    const was = old.get(e.path);
    if (!was) lines.push(`  added    ${e.path}: ${e.rows} rows, ${e.bytes} bytes`);
    else if (was.sha256 !== e.sha256 || was.bytes !== e.bytes) {
      const header = was.header !== e.header ? ', header changed' : '';
      lines.push(`  changed  ${e.path}: rows ${was.rows} → ${e.rows}, bytes ${was.bytes} → ${e.bytes}${header}`);
    }
  }
  for (const e of before) if (!now.has(e.path)) lines.push(`  removed  ${e.path}: was ${e.rows} rows, ${e.bytes} bytes`);
  return lines;
}

/** Rewrites DIR's lock from the files on disk (temp file + rename) and returns the diff lines. */
export function lockSources(dir: string): { files: number; diff: string[] } {
  const described = describeSources(dir);
  const unreadable = described.filter((d) => d.error);
  if (unreadable.length > 0) {
    throw new Error(`not locked: ${unreadable.map((d) => `${join(dir, d.path)}: ${d.error}`).join('; ')}`);
  }
  const after: LockEntry[] = described.map(({ error: _, ...entry }) => entry);
  const before = existsSync(join(dir, LOCK_FILE)) ? readLock(dir) : [];
  const file = join(dir, LOCK_FILE);
  writeFileSync(`${file}.tmp`, serializeLock(after));
  renameSync(`${file}.tmp`, file);
  return { files: after.length, diff: lockDiff(before, after) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = resolve(process.argv[2] ?? join(ROOT, 'sources'));
  try {
    const { files, diff } = lockSources(dir);
    const count = (kind: string) => diff.filter((l) => l.trimStart().startsWith(kind)).length;
    const summary = diff.length === 0 ? 'unchanged' : `${count('added')} added, ${count('changed')} changed, ${count('removed')} removed`;
    console.log(`${join(dir, LOCK_FILE)}: ${files} files, ${summary}`);
    for (const line of diff) console.log(line);
  } catch (err) {
    console.error(`lock:sources: ${err instanceof Error ? err.message : String(err)}`);
    process.exit(1);
  }
}
