/**
 * Answers and their headers. The gate puts the headers of every answer in the
 * request's env (rate-limit state, CORS, dataset version). Answers are built as
 * plain `Response`s with a header record: Hono's c.json/c.body turn a record
 * of more than one header into a WHATWG Headers object, which costs a third of
 * the throughput and takes @hono/node-server off its fast path.
 *
 * Every 200 carries an ETag (dataset version + a hash of the body) and a
 * Cache-Control chosen by area (server/areas.ts); a request whose If-None-Match
 * names the current ETag gets a 304 without a body. How long an answer holds
 * is its route's to say (server/clock.ts).
 *
 * Large precomputed answers (byte arrays of COMPRESS_MIN_BYTES or more: the
 * docs bundle, the description, country pages, location lists) are sent with
 * brotli or gzip to clients that accept it. Each body is compressed once and
 * the result kept with it (a WeakMap on the bytes), never per request. Answers
 * computed from the request are byte arrays too, kept by what they depend on
 * (server/computed-answers.ts), so they are compressed once as well; the few
 * built per request as strings (answers for now) are small and sent as they
 * are. Every answer carries its Content-Length, so a HEAD has it too.
 *
 * An answer's request-independent part (Kept: body, ETag, Cache-Control, the
 * route's own headers) is computed once per precomputed byte array and kept
 * with it. respond() turns it into what one request gets (its coding, or a
 * 304), for answer() and for the fast path of server/main.ts alike, which
 * sends kept answers again without their route for as long as they hold.
 */
import { hash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { CACHE_PUBLIC, cachePolicy } from './areas.js';
import { holdsUntil, timeReadOf, type Holds } from './clock.js';
import { type ApiError, errorHeaders } from './errors.js';

/** Precomputed answers are kept as UTF-8 bytes: encoding a string on every request costs throughput. */
export const utf8 = new TextEncoder();

const JSON_TYPE = 'application/json; charset=utf-8';
const JSON_ONLY = { 'content-type': JSON_TYPE };

/** Cache-Control of a public answer that holds until `untilMs` (at most an hour), as read at `nowMs`. */
export function maxAgeUntil(nowMs: number, untilMs: number): string {
  const seconds = Math.max(0, Math.min(3600, Math.floor((untilMs - nowMs) / 1000)));
  return `public, max-age=${seconds}, must-revalidate`;
}

/**
 * Keeps answers for server/main.ts's fast path, which puts it on Node's request
 * (incoming[KEEPER]) for the GET requests it may answer again; answer() offers it
 * each 200 of such a request, with the instant it holds until (clock.ts).
 */
export interface AnswerKeeper {
  /**
   * `until`: the answer holds until then (Infinity: for good).
   * `maxAge`: its Cache-Control counts down to `until` (maxAgeUntil), to be remade for each request.
   * `pathname`: the path the app's gate judged the request by (its URL's, normalised), for the fast path's gate.
   */
  keep(target: string, kept: Kept, until: number, maxAge: boolean, pathname: string): void;
}
export const KEEPER = Symbol('answer keeper');

interface AnswerEnv {
  answerHeaders?: Record<string, string>;
  /** The same headers as the gate made them, a flat list [name, value, …] fresh for this request (answer() extends it). */
  answerPairs?: string[];
  /** Node's request, when served by @hono/node-server: reading its headers skips building a WHATWG Headers. */
  incoming?: { headers: Record<string, string | string[] | undefined>; url?: string; [KEEPER]?: AnswerKeeper };
  /** The dataset version, the first part of every ETag. */
  datasetVersion?: string;
}

export function answerHeaders(c: Context): Record<string, string> {
  const env = c.env as AnswerEnv | undefined;
  return env?.answerHeaders ?? (env?.answerPairs ? recordOf(env.answerPairs) : JSON_ONLY);
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
function matchesAnyForm(header: string, kept: Kept): boolean {
  if (matchesIfNoneMatch(header, kept.etag)) return true;
  // Only compressible bodies have other forms: not the bytes the fast path keeps of a computed (string) answer.
  if (!kept.compressible) return false;
  const forms = precompress(kept.body as Uint8Array);
  return matchesIfNoneMatch(header, entityTag(kept.version, forms.br)) || matchesIfNoneMatch(header, entityTag(kept.version, forms.gzip));
}

/**
 * The path app.ts's gate judges a request by: its URL's (as @hono/node-server made it: `..` and
 * `%2e` segments resolved), query cut. A raw target may name another area than the one it reaches.
 */
function gatePath(url: string): string {
  const target = url.slice(url.indexOf('/', url.indexOf('//') + 2));
  const q = target.indexOf('?');
  return q < 0 ? target : target.slice(0, q);
}

/** A 200's request-independent part: computed once per precomputed byte array, once per computed answer. */
export interface Kept {
  version: string;
  body: string | Uint8Array<ArrayBuffer>;
  /** Content-Length of the body as sent without a coding. */
  length: string;
  etag: string;
  cacheControl: string;
  /** The route's own headers (a content type), then Vary for a compressible body, as a flat list [name, value, …]. */
  own: readonly string[];
  /** Byte arrays of COMPRESS_MIN_BYTES or more: sent in the coding the client prefers. */
  compressible: boolean;
  /** Each coding's bytes and strong tag, made on first use. */
  coded?: Partial<Record<Coding, { bytes: Uint8Array<ArrayBuffer>; etag: string; length: string }>>;
  /** The route's own headers it was kept with (a frozen record, or none). */
  extra?: Readonly<Record<string, string>>;
}

/** The Kept of precomputed byte arrays answered without extra headers, kept with the bytes. */
const keptBytes = new WeakMap<Uint8Array, Kept>();

export function keep(version: string, body: string | Uint8Array<ArrayBuffer>, cacheControl: string, extra?: Readonly<Record<string, string>>): Kept {
  // Kept with the bytes when the route's own headers are none or a constant record (the iCalendar content type).
  const reusable = typeof body !== 'string' && (extra === undefined || Object.isFrozen(extra));
  if (reusable) {
    const k = keptBytes.get(body);
    if (k !== undefined && k.version === version && k.cacheControl === cacheControl && k.extra === extra) return k;
  }
  const compressible = typeof body !== 'string' && body.byteLength >= COMPRESS_MIN_BYTES;
  const own = extra === undefined ? [] : Object.entries(extra).flat();
  if (compressible) own.push('vary', 'Accept-Encoding');
  const length = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  const k: Kept = { version, body, length, etag: entityTag(version, body), cacheControl, own, compressible, extra };
  if (reusable) keptBytes.set(body, k);
  return k;
}

/** Sets a header on a flat list: in place when the list has it, else at its end. */
function setHeader(headers: string[], name: string, value: string): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === name) {
      headers[i + 1] = value;
      return;
    }
  }
  headers.push(name, value);
}

function dropHeader(headers: string[], name: string): void {
  for (let i = 0; i < headers.length; i += 2) {
    if (headers[i] === name) {
      headers.splice(i, 2);
      return;
    }
  }
}

/**
 * What a kept answer sends to one request, for the app's answer() and server/main.ts's fast path alike.
 * `headers` holds the gate's headers as a flat list [name, value, …]; respond() adds the answer's to it, in
 * this order: ETag, Cache-Control, the route's own (one the gate also set, the content type, replaces it in
 * place), Vary, Content-Encoding, Content-Length. The body goes in the coding the request prefers; when
 * If-None-Match names any form of it, a 304 without a body, Content-Type, Content-Encoding or Content-Length.
 * `cacheControl` replaces the kept one (answers whose max-age counts down to an instant).
 */
export function respond(kept: Kept, headers: string[], acceptEncoding: string | undefined, ifNoneMatch: string | undefined, cacheControl = kept.cacheControl): { status: 200 | 304; body: string | Uint8Array<ArrayBuffer> | null } {
  let etag = kept.etag;
  let body: string | Uint8Array<ArrayBuffer> = kept.body;
  let length = kept.length;
  const coding = kept.compressible ? preferredCoding(acceptEncoding) : undefined;
  if (coding) {
    // Each encoding is its own representation with its own strong tag (RFC 9110 8.8.3.3): the hash of the bytes sent.
    const form = codedForm(kept, coding);
    etag = form.etag;
    body = form.bytes;
    length = form.length;
  }
  const notModified = ifNoneMatch !== undefined && matchesAnyForm(ifNoneMatch, kept);
  if (notModified) dropHeader(headers, 'content-type');
  // The gate never sets ETag or Cache-Control (test/fast-path.test.ts): appended without a search.
  headers.push('etag', etag, 'cache-control', cacheControl);
  const own = kept.own;
  for (let i = 0; i < own.length; i += 2) if (!notModified || own[i] !== 'content-type') setHeader(headers, own[i], own[i + 1]);
  if (notModified) return { status: 304, body: null };
  if (coding) headers.push('content-encoding', coding);
  headers.push('content-length', length);
  return { status: 200, body };
}

function codedForm(kept: Kept, coding: Coding): { bytes: Uint8Array<ArrayBuffer>; etag: string; length: string } {
  const coded = (kept.coded ??= {});
  let form = coded[coding];
  if (form === undefined) {
    const bytes = precompress(kept.body as Uint8Array)[coding];
    form = coded[coding] = { bytes, etag: entityTag(kept.version, bytes), length: String(bytes.byteLength) };
  }
  return form;
}

/** A flat header list [name, value, …] as a record (the app's answers take a record). */
export function recordOf(pairs: readonly string[]): Record<string, string> {
  const record: Record<string, string> = {};
  for (let i = 0; i < pairs.length; i += 2) record[pairs[i]] = pairs[i + 1];
  return record;
}

export interface AnswerOptions {
  /** The route's own headers (its content type); a frozen record lets a byte array's answer be kept with it. */
  headers?: Readonly<Record<string, string>>;
  /** How long the answer holds (clock.ts): say it when the route read the time. */
  holds?: Holds;
}

/**
 * A 200 from its text or bytes, with its ETag and Cache-Control (its area's, or for a public answer that read
 * the time, a max-age that counts down to the instant it holds until), or a 304. Offered to the fast path.
 */
export function answer(c: Context, body: string | Uint8Array<ArrayBuffer>, options?: AnswerOptions): Response {
  const env = c.env as AnswerEnv | undefined;
  const path = c.req.path;
  const readAt = timeReadOf(c);
  const until = holdsUntil(options?.holds ?? 'for-good', readAt, path);
  const policy = cachePolicy(path);
  const countdown = readAt !== undefined && policy === CACHE_PUBLIC;
  const kept = keep(env?.datasetVersion ?? 'dev', body, countdown ? maxAgeUntil(readAt, until) : policy, options?.headers);
  const incoming = env?.incoming;
  const keeper = incoming?.[KEEPER];
  if (keeper !== undefined && incoming!.url !== undefined) keeper.keep(incoming!.url, kept, until, countdown, gatePath(c.req.url));
  const headers = env?.answerPairs ?? Object.entries(answerHeaders(c)).flat();
  const sent = respond(kept, headers, kept.compressible ? requestHeader(c, 'accept-encoding') : undefined, requestHeader(c, 'if-none-match'));
  // Content-Length on every answer: a HEAD (which Hono answers from the GET's Response, body dropped) gets it too.
  return new Response(sent.body, { status: sent.status, headers: recordOf(headers) });
}

/** A 200 from a value. */
export function answerJson(c: Context, value: unknown, options?: AnswerOptions): Response {
  return answer(c, JSON.stringify(value), options);
}

/** An error as JSON (server/errors.ts's errorHeaders), never kept; `extra`: its own headers (Allow, Retry-After). */
export function answerError(c: Context, err: ApiError, extra?: Record<string, string>): Response {
  const body = JSON.stringify(err.toBody());
  return new Response(body, { status: err.status, headers: errorHeaders(answerHeaders(c), body, extra) });
}
