/**
 * Answers and their headers. The gate puts the headers of every answer in the
 * request's env (rate-limit state, CORS, dataset version). Answers are built as
 * plain `Response`s with a header record: Hono's c.json/c.body turn a record
 * of more than one header into a WHATWG Headers object, which costs a third of
 * the throughput and takes @hono/node-server off its fast path.
 *
 * Every 200 carries an ETag (dataset version + a hash of the body) and a
 * Cache-Control chosen by area; a request whose If-None-Match names the
 * current ETag gets a 304 without a body.
 *
 * Large precomputed answers (byte arrays of COMPRESS_MIN_BYTES or more: the
 * docs bundle, the description, country pages, location lists) are sent with
 * brotli or gzip to clients that accept it. Each body is compressed once and
 * the result kept with it (a WeakMap on the bytes), never per request; answers
 * built per request (strings) are sent as they are.
 */
import { hash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Context } from 'hono';

/** Precomputed answers are kept as UTF-8 bytes: encoding a string on every request costs throughput. */
export const utf8 = new TextEncoder();

const JSON_TYPE = 'application/json; charset=utf-8';
const JSON_ONLY = { 'content-type': JSON_TYPE };

/** Reference areas: the same for every caller and changed only by a new dataset, so shared caches may keep them. */
export const CACHE_PUBLIC = 'public, max-age=3600, stale-while-revalidate=86400';
/** Paid areas: answers sit behind a key, so only the caller's own cache may keep them, revalidating each time. */
export const CACHE_PRIVATE = 'private, no-cache';
/** Errors and health: never cached (a 429 or a 404 must not outlive its cause). */
export const CACHE_NONE = 'no-store';

/** Cache-Control of a 200 by path, unless the route gives its own (timezones, which change at transitions). */
export function cachePolicy(path: string): string {
  if (path.startsWith('/v1/countries')) return CACHE_PUBLIC;
  if (path.startsWith('/v1/business-days') || path.startsWith('/v1/travel') || path.startsWith('/v1/astronomy')) return CACHE_PRIVATE;
  return CACHE_PUBLIC;
}

/** Cache-Control for an answer that stays right until `untilMs` (at most an hour). */
export function cacheUntil(nowMs: number, untilMs: number): string {
  const seconds = Math.max(0, Math.min(3600, Math.floor((untilMs - nowMs) / 1000)));
  return `public, max-age=${seconds}, must-revalidate`;
}

interface AnswerEnv {
  answerHeaders?: Record<string, string>;
  /** Node's request, when served by @hono/node-server: reading its headers skips building a WHATWG Headers. */
  incoming?: { headers: Record<string, string | string[] | undefined> };
  /** The dataset version, the first part of every ETag. */
  datasetVersion?: string;
}

export function answerHeaders(c: Context): Record<string, string> {
  return (c.env as AnswerEnv | undefined)?.answerHeaders ?? JSON_ONLY;
}

/** A request header, read from Node's request when there is one. */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = (c.env as AnswerEnv | undefined)?.incoming;
  if (incoming) {
    const v = incoming.headers[name];
    return Array.isArray(v) ? v.join(', ') : v;
  }
  return c.req.header(name);
}

/** Body hashes of precomputed answers, computed once per byte array. */
const hashes = new WeakMap<Uint8Array, string>();

function bodyHash(body: string | Uint8Array): string {
  if (typeof body === 'string') return hash('sha1', body, 'base64url').slice(0, 16);
  let h = hashes.get(body);
  if (h === undefined) {
    h = hash('sha1', body, 'base64url').slice(0, 16);
    hashes.set(body, h);
  }
  return h;
}

/** The strong entity tag of a body: the dataset version and the body's hash, so either changing changes it. */
export function entityTag(version: string, body: string | Uint8Array): string {
  return `"${version}-${bodyHash(body)}"`;
}

/** Whether an If-None-Match header names `etag` (RFC 9110 13.1.2: weak comparison, `*` matches any). */
export function matchesIfNoneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  for (const part of header.split(',')) {
    const tag = part.trim();
    if (tag === etag || (tag.startsWith('W/') && tag.slice(2) === etag)) return true;
  }
  return false;
}

/** Byte arrays at least this large are compressed for clients that accept it; below, the headers would eat the gain. */
export const COMPRESS_MIN_BYTES = 8 * 1024;

export type Coding = 'br' | 'gzip';
export interface Encoded {
  br: Uint8Array<ArrayBuffer>;
  gzip: Uint8Array<ArrayBuffer>;
}
const encoded = new WeakMap<Uint8Array, Encoded>();

/**
 * The brotli and gzip forms of a kept body, made on the first call and kept
 * with the bytes. Call it at start for bodies known then (the docs bundle,
 * at quality 9: 150 ms for its 1.1 MB; 11 would take 2.3 s for 8 % less).
 * Bodies first met on a request get quality 5: 3 ms for a 73 kB JSON list.
 */
export function precompress(body: Uint8Array, quality = 5): Encoded {
  let forms = encoded.get(body);
  if (forms === undefined) {
    const br = brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality, [zlib.BROTLI_PARAM_SIZE_HINT]: body.byteLength } });
    const gzip = gzipSync(body, { level: 9 });
    forms = { br: new Uint8Array(br.buffer, br.byteOffset, br.byteLength) as Uint8Array<ArrayBuffer>, gzip: new Uint8Array(gzip.buffer, gzip.byteOffset, gzip.byteLength) as Uint8Array<ArrayBuffer> };
    encoded.set(body, forms);
  }
  return forms;
}

/**
 * The coding to send for an Accept-Encoding header: brotli, else gzip, else
 * none. `q=0` refuses a coding; `*` stands for the codings not named.
 */
export function preferredCoding(header: string | undefined): Coding | undefined {
  if (!header) return undefined;
  const accepted: Partial<Record<'br' | 'gzip' | '*', boolean>> = {};
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim());
    const q = params.find((p) => p.startsWith('q='));
    const ok = q === undefined || Number(q.slice(2)) > 0;
    if (name === 'br' || name === 'gzip' || name === '*') accepted[name] = ok;
    else if (name === 'x-gzip') accepted.gzip = ok;
  }
  if (accepted.br ?? accepted['*']) return 'br';
  if (accepted.gzip ?? accepted['*']) return 'gzip';
  return undefined;
}

/** The bytes that answer() sends for `body` to this request: its compressed form when one applies, with its coding. */
export function representation(c: Context, body: string | Uint8Array<ArrayBuffer>): { bytes: string | Uint8Array<ArrayBuffer>; coding?: Coding } {
  if (typeof body === 'string' || body.byteLength < COMPRESS_MIN_BYTES) return { bytes: body };
  const coding = preferredCoding(requestHeader(c, 'accept-encoding'));
  return coding ? { bytes: precompress(body)[coding], coding } : { bytes: body };
}

/**
 * Whether If-None-Match names any encoding of the body: a cache that stored
 * the gzip form may revalidate it for a client that now asks for brotli.
 */
function matchesAnyForm(header: string, version: string, body: string | Uint8Array, etag: string): boolean {
  if (matchesIfNoneMatch(header, etag)) return true;
  if (typeof body === 'string' || body.byteLength < COMPRESS_MIN_BYTES) return false;
  const forms = precompress(body);
  return matchesIfNoneMatch(header, entityTag(version, forms.br)) || matchesIfNoneMatch(header, entityTag(version, forms.gzip));
}

/** A JSON answer from its text or bytes; a 200 gets an ETag and Cache-Control, or becomes a 304. */
export function answer(c: Context, body: string | Uint8Array<ArrayBuffer>, status = 200, extra?: Record<string, string>): Response {
  const base = answerHeaders(c);
  if (status !== 200) return new Response(body, { status, headers: { ...base, 'cache-control': CACHE_NONE, ...extra } });
  const version = (c.env as AnswerEnv | undefined)?.datasetVersion ?? 'dev';
  const etag = entityTag(version, body);
  const headers: Record<string, string> = { ...base, etag, 'cache-control': cachePolicy(c.req.path), ...extra };
  const { bytes, coding } = representation(c, body);
  if (typeof body !== 'string' && body.byteLength >= COMPRESS_MIN_BYTES) headers.vary = 'Accept-Encoding';
  // Each encoding is its own representation with its own strong tag (RFC 9110 8.8.3.3): the hash of the bytes sent.
  if (coding) {
    headers['content-encoding'] = coding;
    headers.etag = entityTag(version, bytes);
  }
  const inm = requestHeader(c, 'if-none-match');
  if (inm !== undefined && matchesAnyForm(inm, version, body, etag)) {
    const { 'content-type': _type, 'content-encoding': _coding, ...rest } = headers;
    return new Response(null, { status: 304, headers: rest });
  }
  return new Response(bytes, { status, headers });
}

/** A JSON answer from a value. */
export function answerJson(c: Context, value: unknown, status = 200, extra?: Record<string, string>): Response {
  return answer(c, JSON.stringify(value), status, extra);
}
