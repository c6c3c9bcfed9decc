/**
 * Reads the package's own data/ folder. Every document is parsed once and
 * frozen: answers are shared between callers, so one caller mutating its
 * answer must not change the next caller's.
 */
import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';

const DATA = new URL('./data/', import.meta.url);

const cache = new Map<string, unknown>();

/** The URL of a file inside data/; throws for any path that would leave it (paths are constants, this is the backstop). */
function dataUrl(path: string): URL {
  const url = new URL(path, DATA);
  if (!url.href.startsWith(DATA.href)) throw new Error(`refusing to read outside data/: ${path}`);
  return url;
}

/** The parsed, frozen document at `path` (relative to data/), cached: the package ships a handful of files. */
export function readJson<T>(path: string): T {
  let doc = cache.get(path);
  if (doc === undefined) {
    doc = deepFreeze(JSON.parse(readFileSync(dataUrl(path), 'utf8')));
    cache.set(path, doc);
  }
  return doc as T;
}

/** The raw bytes of a file inside data/. */
export function readBytes(path: string): Buffer {
  return readFileSync(dataUrl(path));
}

/** A brotli-compressed JSON document (a slice of a packed file), parsed and frozen; not cached here. */
export function parseBrotliJson<T>(bytes: Uint8Array): T {
  return deepFreeze(JSON.parse(brotliDecompressSync(bytes).toString('utf8'))) as T;
}

export function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/** A value computed on first use (indexes are read only by the functions that need them). */
export function once<T>(make: () => T): () => T {
  let value: T | undefined;
  let made = false;
  return () => {
    if (!made) {
      value = make();
      made = true;
    }
    return value as T;
  };
}

/**
 * A read-only view of a document that is read on first access. The manifest
 * is 4.6 MB (~50 ms to parse): importing the package should not pay for it
 * when only a calendar is wanted.
 */
export function lazyDocument<T extends object>(path: string): T {
  const doc = once(() => readJson<T>(path));
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(doc(), key),
    has: (_, key) => Reflect.has(doc(), key),
    ownKeys: () => Reflect.ownKeys(doc()),
    // Reported configurable: a proxy may not claim a non-configurable property its (empty) target lacks.
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(doc(), key);
      return d && { ...d, configurable: true };
    },
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}
