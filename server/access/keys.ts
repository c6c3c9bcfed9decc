/**
 * API keys: random, 192 bits, prefixed "rdk_"; only their SHA-256 is stored,
 * with the plan, a name and the creation date, in a JSON file (API_KEYS_FILE,
 * default data/api-keys.json, ignored by git). A key is never written,
 * returned or logged in clear after `createKey` hands it out once, and no
 * message about the file quotes its content (it holds the hashes).
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Health } from '../../lib/schema-types.js';
import { StartupError } from '../errors.js';
import { PAID_PLANS, type Plan } from './plans.js';

export const KEY_PREFIX = 'rdk_';
const KEY_RE = /^rdk_[A-Za-z0-9_-]{32}$/;
const HASH_RE = /^[0-9a-f]{64}$/;
const FILE_PLANS: readonly string[] = ['free', ...PAID_PLANS];

export interface KeyRecord {
  hash: string;
  plan: Exclude<Plan, 'anonymous'>;
  name: string;
  created: string;
}

export interface KeysFile {
  keys: KeyRecord[];
}

/** A keys file that cannot be used; the message is one line: the file and why, never its content. */
export class KeysFileError extends StartupError {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`keys file ${path}: ${reason}`);
    this.name = 'KeysFileError';
  }
}

export function defaultKeysFile(): string {
  return process.env.API_KEYS_FILE ?? join(import.meta.dirname, '..', '..', 'data', 'api-keys.json');
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function looksLikeKey(key: string): boolean {
  return KEY_RE.test(key);
}

/**
 * Why a JSON.parse failed, without its message: V8's quotes the text around
 * the fault, and that text is a hash line. A fault at the very end means the
 * text stops early: a truncated file, or one caught half written.
 */
function jsonFault(err: unknown, length: number): string {
  const message = err instanceof Error ? err.message : '';
  const at = /position (\d+)/.exec(message);
  if (/end of (JSON )?input/i.test(message) || (at && Number(at[1]) >= length - 1)) return 'is not valid JSON (it ends early: truncated?)';
  return at ? `is not valid JSON (fault at character ${at[1]})` : 'is not valid JSON';
}

/** What is wrong with one record, naming the field but never quoting a value. */
function recordFault(r: unknown): string | undefined {
  if (typeof r !== 'object' || r === null || Array.isArray(r)) return 'is not an object';
  const { hash, plan, name, created } = r as Record<string, unknown>;
  if (typeof hash !== 'string' || !HASH_RE.test(hash)) return 'has no valid "hash" (64 lowercase hex digits)';
  if (typeof plan !== 'string' || !FILE_PLANS.includes(plan)) return `has no valid "plan" (${FILE_PLANS.join(', ')})`;
  if (typeof name !== 'string') return 'has no "name"';
  if (typeof created !== 'string') return 'has no "created" date';
  return undefined;
}

/** Parses and checks a keys file's text; throws the reason (a phrase, not a KeysFileError). */
export function parseKeysFile(text: string): KeysFile {
  if (!text.trim()) throw new Error('is empty');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(jsonFault(err, text.length));
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error('is not a JSON object with a "keys" array');
  const keys = (data as { keys?: unknown }).keys;
  if (!Array.isArray(keys)) throw new Error('has no "keys" array (write {"keys": []} to refuse every key)');
  const seen = new Set<string>();
  keys.forEach((r, i) => {
    const fault = recordFault(r);
    if (fault) throw new Error(`key record ${i + 1} ${fault}`);
    if (seen.has((r as KeyRecord).hash)) throw new Error(`key record ${i + 1} repeats an earlier hash`);
    seen.add((r as KeyRecord).hash);
  });
  return { keys: keys as KeyRecord[] };
}

/** The file's keys, or 'missing'; anything else that goes wrong is a KeysFileError. */
export function loadKeys(path: string): KeysFile | 'missing' {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'missing';
    throw new KeysFileError(path, `cannot be read (${code ?? 'read error'})`);
  }
  try {
    return parseKeysFile(text);
  } catch (err) {
    throw new KeysFileError(path, (err as Error).message);
  }
}

/** The keys of a file for the CLI: none when it does not exist yet; an invalid file throws rather than being overwritten. */
export function readKeys(path: string): KeysFile {
  const file = loadKeys(path);
  return file === 'missing' ? { keys: [] } : file;
}

/**
 * Writes to a temporary name in the same folder (so the rename stays on one
 * file system), flushes it to disk, then renames: a reader, or a server that
 * reloads the file, sees the old file or the new one, never half of one.
 */
function writeKeys(path: string, file: KeysFile): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = join(dirname(path), `.${path.split('/').pop()}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(file, null, 2)}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Creates a key and returns it: the only time it exists in clear. */
export function createKey(path: string, plan: KeyRecord['plan'], name: string, now = new Date()): { key: string; record: KeyRecord } {
  const key = KEY_PREFIX + randomBytes(24).toString('base64url');
  const record: KeyRecord = { hash: hashKey(key), plan, name, created: now.toISOString().slice(0, 10) };
  const file = readKeys(path);
  file.keys.push(record);
  writeKeys(path, file);
  return { key, record };
}

/** Removes the key whose hash starts with `hashPrefix` (at least 8 hex digits); returns it, or throws. */
export function revokeKey(path: string, hashPrefix: string): KeyRecord {
  if (!/^[0-9a-f]{8,64}$/.test(hashPrefix)) throw new Error('give at least 8 hex digits of the key hash (see `list`)');
  const file = readKeys(path);
  const matches = file.keys.filter((k) => k.hash.startsWith(hashPrefix));
  if (matches.length !== 1) throw new Error(matches.length ? 'that prefix matches several keys: give more digits' : 'no key has that hash prefix');
  writeKeys(path, { keys: file.keys.filter((k) => k !== matches[0]) });
  return matches[0];
}

/** The keys part of GET /healthz (schemas/health.schema.json). */
export type KeysHealth = NonNullable<Health['keys']>;

/** What identifies one version of the file: a rename changes the inode, an edit the time or size. */
function signatureOf(path: string): string {
  try {
    const s = statSync(path);
    return `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
  } catch {
    return 'missing';
  }
}

/**
 * How often well-formed keys the ring does not know may make it check the
 * file: the first such key in a window checks at once, later ones wait for
 * the check due at the window's end and share it. A flood of unknown keys
 * thus costs at most ten stats a second (and a read only when the file
 * changed), and a key written to the file before its first request is always
 * found (a check by modification time alone refused a new key for up to a second).
 */
export const UNKNOWN_KEY_CHECK_MS = 100;

/**
 * The keys by hash, re-read when the file changes: once a second (a revoke
 * takes effect within a second), and when a well-formed key it does not know
 * arrives (findNew), so a key created while serving works on its first
 * request. A file that cannot be used at start-up is fatal (the
 * constructor throws a KeysFileError); once running, a reload that fails
 * keeps the last good keys, logs one line per distinct reason, shows in
 * /healthz, and is retried every second until the file is good again. A
 * file deleted while running is such a failure: to refuse every key, write
 * {"keys": []}.
 */
export class KeyRing {
  private byHash = new Map<string, KeyRecord>();
  /**
   * Keys that matched -> their record: hashing on every request costs a fifth
   * of the throughput. Only live keys enter, so it holds at most one entry per
   * key in the file; unknown or malformed keys are never cached, and a flood
   * of junk keys costs no memory. Cleared whenever the keys are reloaded.
   */
  private live = new Map<string, KeyRecord>();
  private signature = '';
  private source: KeysHealth['source'] = 'none';
  private failure: { reason: string; since: Date } | undefined;
  private readonly timer: NodeJS.Timeout;
  /** When findNew last checked the file (performance.now()), and the check it has scheduled, if any. */
  private lastCheck = -Infinity;
  private nextCheck: { due: Promise<void>; timer: NodeJS.Timeout; run: () => void } | undefined;

  constructor(
    readonly path: string,
    private readonly log: (line: string) => void = console.error,
  ) {
    this.signature = signatureOf(path);
    const file = loadKeys(path); // throws: a server must not start on a file it cannot read
    if (file === 'missing') this.log(`keys file ${path}: not found; every API key is refused until it is created (npm run keys -- create)`);
    else this.use(file);
    this.timer = setInterval(() => this.reload(), 1000);
    this.timer.unref();
  }

  /** Re-reads the file if it changed, or if the last attempt failed (retry). Never throws. */
  reload(): void {
    const signature = signatureOf(this.path);
    if (signature === this.signature && !this.failure) return;
    this.signature = signature;
    try {
      const file = loadKeys(this.path);
      if (file === 'missing') {
        if (this.source === 'none') return this.missingAgain(); // never had a file: back to refusing every key
        throw new KeysFileError(this.path, 'was deleted');
      }
      const recovered = this.failure !== undefined || this.source === 'none';
      this.use(file);
      if (recovered) this.log(`keys file ${this.path}: loaded ${file.keys.length} keys${this.failure ? ' (reload works again)' : ''}`);
      this.failure = undefined;
    } catch (err) {
      this.fail(err instanceof KeysFileError ? err.reason : 'cannot be loaded');
    }
  }

  private missingAgain(): void {
    if (!this.failure) return;
    this.failure = undefined;
    this.log(`keys file ${this.path}: not found; every API key is refused until it is created`);
  }

  private use(file: KeysFile): void {
    this.byHash = new Map(file.keys.map((k) => [k.hash, k]));
    this.live = new Map();
    this.source = 'file';
  }

  /** Keeps the last good keys; logs only when the reason is new, so a broken file is one line, not one a second. */
  private fail(reason: string): void {
    if (this.failure?.reason === reason) return;
    this.failure = { reason, since: this.failure?.since ?? new Date() };
    this.log(`keys file ${this.path}: reload failed, ${reason}; still serving the ${this.byHash.size} keys loaded before (retrying every second)`);
  }

  /** The record of a key presented by a client, if it is a live key. */
  find(key: string): KeyRecord | undefined {
    const cached = this.live.get(key);
    if (cached) return cached;
    if (!looksLikeKey(key)) return undefined; // cheap: the pattern fails at the first wrong character or past 36
    const record = this.byHash.get(hashKey(key));
    if (record) this.live.set(key, record);
    return record;
  }

  /**
   * For a key find() does not know: checks whether the file changed (a key
   * created a moment ago), then looks again. Rate-limited to one check per
   * UNKNOWN_KEY_CHECK_MS; a call inside the window waits for the check at its
   * end, so it still sees a key written before it arrived.
   */
  async findNew(key: string): Promise<KeyRecord | undefined> {
    if (!looksLikeKey(key)) return undefined;
    await this.checkFile();
    return this.find(key);
  }

  private checkFile(): Promise<void> | undefined {
    if (this.nextCheck) return this.nextCheck.due;
    const wait = this.lastCheck + UNKNOWN_KEY_CHECK_MS - performance.now();
    const check = () => {
      this.nextCheck = undefined;
      this.lastCheck = performance.now();
      this.reload();
    };
    if (wait <= 0) return void check();
    let run!: () => void;
    const due = new Promise<void>((resolve) => (run = () => (check(), resolve())));
    this.nextCheck = { due, timer: setTimeout(run, wait), run };
    return due;
  }

  health(): KeysHealth {
    return { source: this.source, reload_failed: this.failure !== undefined, failing_since: this.failure?.since.toISOString() ?? null, reason: this.failure?.reason ?? null };
  }

  close(): void {
    clearInterval(this.timer);
    // Answers the callers waiting for a check now rather than holding them (and the process) for up to 100 ms.
    if (this.nextCheck) {
      clearTimeout(this.nextCheck.timer);
      this.nextCheck.run();
    }
  }
}
