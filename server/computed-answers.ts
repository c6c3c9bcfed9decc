/**
 * Answers computed from the request and the dataset alone (business-day
 * checks, shifts and counts, range feeds, time-zone answers for a given
 * instant, transitions, travel for a date), kept as UTF-8 bytes under a key
 * made of what the answer depends on, after parsing: the canonical location
 * code or zone id, the day number, the type. So `?from_year=2017&to_year=2026`
 * and `?to_year=2026&from_year=2017`, `cn` and `CN`, share one entry, and an
 * answer is computed once while it stays here.
 *
 * Because the bytes are the same object on every request, what answer() keeps
 * with a byte array (server/answer-headers.ts: the ETag's hash, the brotli
 * and gzip forms of a body of 8 KB or more) is made once too: a 10-year
 * holidays.ics is compressed on its first request, not on each.
 *
 * Bounded by bytes (ANSWER_CACHE_MB, default 32; keys counted at two bytes a
 * character); the least recently used go first. An answer larger than a
 * sixteenth of the budget is computed and sent but not kept.
 */
import { LRUCache } from 'lru-cache';
import { utf8 } from './answer-headers.js';

export const DEFAULT_ANSWER_CACHE_MB = 32;

/** ANSWER_CACHE_MB in bytes (default 32 MB); a bad value throws, for startServer's one-line settings error. */
export function answerCacheBytes(env = process.env.ANSWER_CACHE_MB): number {
  if (env === undefined || env === '') return DEFAULT_ANSWER_CACHE_MB * 1024 * 1024;
  const mb = Number(env);
  if (!Number.isFinite(mb) || mb <= 0) throw new Error(`ANSWER_CACHE_MB must be a positive number of megabytes (got "${env}")`);
  return Math.round(mb * 1024 * 1024);
}

export class ComputedAnswers {
  private readonly cache: LRUCache<string, Uint8Array<ArrayBuffer>>;

  constructor(readonly maxBytes = DEFAULT_ANSWER_CACHE_MB * 1024 * 1024) {
    this.cache = new LRUCache({ maxSize: maxBytes, maxEntrySize: Math.max(1, Math.floor(maxBytes / 16)), sizeCalculation: (body, key) => key.length * 2 + body.byteLength });
  }

  /**
   * The answer under `key`, made by `make` when not kept; undefined when `make` gives undefined
   * (an answer that is an error, which the route throws: errors are not kept).
   * @example answers.get(`check|${code}|${type}|${day}`, () => JSON.stringify(checkAnswer(cal, type, day)))
   */
  get(key: string, make: () => string | undefined): Uint8Array<ArrayBuffer> | undefined {
    const kept = this.cache.get(key);
    if (kept !== undefined) return kept;
    const text = make();
    if (text === undefined) return undefined;
    const body = utf8.encode(text);
    this.cache.set(key, body); // lru-cache refuses an entry over maxEntrySize: it is sent, not kept
    return body;
  }

  /** For /healthz and the docs' list of caches. */
  stats(): { entries: number; bytes: number; max_bytes: number } {
    return { entries: this.cache.size, bytes: this.cache.calculatedSize, max_bytes: this.maxBytes };
  }
}
