/**
 * API keys: random, 192 bits, prefixed "rdk_"; only their SHA-256 is stored,
 * with the plan, a name and the creation date, in a JSON file (API_KEYS_FILE,
 * default data/api-keys.json, ignored by git). A key is never written,
 * returned or logged in clear after `createKey` hands it out once.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plan } from './plans.js';

export const KEY_PREFIX = 'rdk_';
const KEY_RE = /^rdk_[A-Za-z0-9_-]{32}$/;

export interface KeyRecord {
  hash: string;
  plan: Exclude<Plan, 'anonymous'>;
  name: string;
  created: string;
}

export interface KeysFile {
  keys: KeyRecord[];
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

export function readKeys(path: string): KeysFile {
  if (!existsSync(path)) return { keys: [] };
  return JSON.parse(readFileSync(path, 'utf8')) as KeysFile;
}

/** Writes to a temporary name and renames, so a reader never sees half a file. */
function writeKeys(path: string, file: KeysFile): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
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

/** The keys by hash, re-read when the file changes (a revoke takes effect within a second). */
export class KeyRing {
  private byHash = new Map<string, KeyRecord>();
  /**
   * Keys already seen -> their record (or null): hashing on every request costs a fifth of
   * the throughput. In process memory only; cleared whenever the file changes.
   */
  private seen = new Map<string, KeyRecord | null>();
  private mtime = -1;
  private readonly timer: NodeJS.Timeout;

  constructor(readonly path: string) {
    this.reload();
    this.timer = setInterval(() => this.reload(), 1000);
    this.timer.unref();
  }

  reload(): void {
    const mtime = existsSync(this.path) ? statSync(this.path).mtimeMs : 0;
    if (mtime === this.mtime) return;
    this.mtime = mtime;
    this.byHash = new Map(readKeys(this.path).keys.map((k) => [k.hash, k]));
    this.seen = new Map();
  }

  /** The record of a key presented by a client, if it is a live key. */
  find(key: string): KeyRecord | undefined {
    let record = this.seen.get(key);
    if (record === undefined) {
      record = (looksLikeKey(key) && this.byHash.get(hashKey(key))) || null;
      if (this.seen.size >= 10_000) this.seen.clear(); // bounded against floods of random keys
      this.seen.set(key, record);
    }
    return record ?? undefined;
  }

  close(): void {
    clearInterval(this.timer);
  }
}
