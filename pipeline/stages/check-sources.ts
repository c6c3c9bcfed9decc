/**
 * Stage: every file under sources/ must match sources/sources.lock.json (sha256, size, row count and
 * the format it must meet) before the build reads anything. A source cut at a line boundary parses
 * cleanly and would publish fewer records; this gate refuses it, naming the file and what differs.
 * Changing a source is a deliberate act: `npm run lock:sources` rewrites the lock and prints the diff.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { parse } from 'csv-parse/sync';

export const LOCK_FILE = 'sources.lock.json';

/** csv/tsv: a header line, then rows; json: one document; text: lines (SOURCE.md, licences, tzdata, scripts). */
export type SourceFormat = 'csv' | 'tsv' | 'json' | 'text';

/** One pinned file. `rows` counts CSV/TSV records after the header, text lines, or JSON records. */
export interface LockEntry {
  path: string;
  format: SourceFormat;
  rows: number;
  bytes: number;
  sha256: string;
  /** csv/tsv: the exact first line the file must have. */
  header?: string;
  /** json objects: the top-level keys the document must have. */
  keys?: string[];
}

/** What a file on disk looks like; `error` when it cannot be read in its format (a cut quote, broken JSON). */
export type SourceDescription = LockEntry & { error?: string };

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function formatOf(path: string): SourceFormat {
  const ext = extname(path).toLowerCase();
  return ext === '.csv' ? 'csv' : ext === '.tsv' ? 'tsv' : ext === '.json' ? 'json' : 'text';
}

/** Lines of a text, the last one counted even without its newline (a cut file still has it). */
const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0));

const firstLine = (text: string) => text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0];

/** CSV rows as the stages read them (csv-parse, blank lines skipped); strict column count, so a cut row fails. */
function csvRows(text: string): number {
  const records = parse(text, { bom: true, skip_empty_lines: true }) as string[][];
  return Math.max(0, records.length - 1);
}

/** A JSON document's records: a top-level array's length, or the length of an object's longest array. */
function jsonShape(text: string): { rows: number; keys?: string[] } {
  const doc = JSON.parse(text) as unknown;
  if (Array.isArray(doc)) return { rows: doc.length };
  if (doc === null || typeof doc !== 'object') return { rows: 1 };
  const values = Object.values(doc);
  return { rows: Math.max(0, ...values.map((v) => (Array.isArray(v) ? v.length : 0))), keys: Object.keys(doc).sort() };
}

/** Describes one file's bytes; never throws, so a check can report every difference at once. */
export function describeSource(path: string, bytes: Buffer): SourceDescription {
  const format = formatOf(path);
  const text = bytes.toString('utf8');
  const base = { path, format, rows: lineCount(text), bytes: bytes.length, sha256: sha256(bytes) };
  try {
    if (format === 'csv') return { ...base, rows: csvRows(text), header: firstLine(text) };
    if (format === 'tsv') return { ...base, rows: Math.max(0, text.split(/\r?\n/).filter((l) => l.trim() !== '').length - 1), header: firstLine(text) };
    if (format === 'json') return { ...base, ...jsonShape(text) };
    return base;
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    return { ...base, ...(format === 'csv' ? { header: firstLine(text) } : {}), error: `unreadable as ${format} (${reason})` };
  }
}

/** Every file under `dir` but the lock, as sorted forward-slash paths. */
export function listSources(dir: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const name of readdirSync(join(dir, prefix))) {
    const rel = prefix ? `${prefix}/${name}` : name;
    if (statSync(join(dir, rel)).isDirectory()) out.push(...listSources(dir, rel));
    else if (rel !== LOCK_FILE) out.push(rel);
  }
  return prefix ? out : out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function describeSources(dir: string): SourceDescription[] {
  return listSources(dir).map((path) => describeSource(path, readFileSync(join(dir, path))));
}

/** The lock as written: sorted, one file per line, so a source change reads as a one-line diff. */
export function serializeLock(entries: LockEntry[]): string {
  const lines = [...entries]
    .sort((a, b) => (a.path < b.path ? -1 : 1))
    .map(({ path, format, rows, bytes, sha256: hash, header, keys }) =>
      `    ${JSON.stringify({ path, format, rows, bytes, sha256: hash, ...(header !== undefined ? { header } : {}), ...(keys ? { keys } : {}) })}`,
    );
  const about = 'Every file under sources/ with its sha256, size, row count and format; the build refuses any difference. Rewrite with `npm run lock:sources`.';
  return `{\n  "about": ${JSON.stringify(about)},\n  "files": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

export function readLock(dir: string): LockEntry[] {
  const file = join(dir, LOCK_FILE);
  if (!existsSync(file)) throw new Error(`${file} is missing: every file under sources/ must be pinned (run npm run lock:sources)`);
  let files: unknown;
  try {
    files = (JSON.parse(readFileSync(file, 'utf8')) as { files?: unknown }).files;
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const ok = (e: any) => e && typeof e.path === 'string' && typeof e.sha256 === 'string' && Number.isInteger(e.bytes) && Number.isInteger(e.rows);
  if (!Array.isArray(files) || !files.every(ok)) throw new Error(`${file}: "files" must list {path, format, rows, bytes, sha256} entries`);
  return files as LockEntry[];
}

const short = (hash: string) => hash.slice(0, 12);
const keyList = (keys?: string[]) => `[${(keys ?? []).join(',')}]`;

/** What differs between the pinned entry and the file on disk, most telling first. */
export function differences(want: LockEntry, got: SourceDescription): string[] {
  const out: string[] = [];
  if (got.error) out.push(got.error);
  if (want.header !== undefined && got.header !== want.header) out.push(`header ${JSON.stringify(want.header)} → ${JSON.stringify(got.header ?? '')}`);
  if (want.keys && keyList(got.keys) !== keyList(want.keys)) out.push(`keys ${keyList(want.keys)} → ${keyList(got.keys)}`);
  if (!got.error && got.rows !== want.rows) out.push(`rows ${want.rows} → ${got.rows}`);
  if (got.bytes !== want.bytes) out.push(`bytes ${want.bytes} → ${got.bytes}`);
  if (got.sha256 !== want.sha256) out.push(`sha256 ${short(want.sha256)}… → ${short(got.sha256)}…`);
  return out;
}

/**
 * Fails unless every file under `dir` is exactly as the lock pins it and the lock lists every file.
 * Files whose size and hash match are not parsed, so the check costs one read of sources/ (about 5 MB).
 */
export function checkSources(dir: string): { files: number } {
  const lock = readLock(dir);
  const present = new Set(listSources(dir));
  const problems: string[] = [];
  for (const want of lock) {
    const file = join(dir, want.path);
    if (!present.has(want.path)) {
      problems.push(`${file}: missing (the lock pins ${want.rows} rows, ${want.bytes} bytes)`);
      continue;
    }
    const bytes = readFileSync(file);
    if (bytes.length === want.bytes && sha256(bytes) === want.sha256) continue;
    problems.push(`${file}: ${differences(want, describeSource(want.path, bytes)).join(', ')}`);
  }
  const listed = new Set(lock.map((e) => e.path));
  for (const path of present) if (!listed.has(path)) problems.push(`${join(dir, path)}: unlisted file (not in ${LOCK_FILE})`);
  if (problems.length > 0) {
    const head = `sources do not match ${join(dir, LOCK_FILE)} (${problems.length} file${problems.length === 1 ? '' : 's'}); if the change is deliberate, run npm run lock:sources and commit the lock`;
    throw new Error([head, ...problems.map((p) => `  ${p}`)].join('\n'));
  }
  return { files: lock.length };
}
