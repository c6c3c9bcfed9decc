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
 * the result kept with it (a WeakMap on the bytes), never per request. Answers
 * computed from the request are byte arrays too, kept by what they depend on
 * (server/computed-answers.ts), so they are compressed once as well; the few
 * built per request as strings (answers for now, errors) are small and sent as
 * they are. Every answer carries its Content-Length, so a HEAD has it too.
 *
 * An answer's request-independent part (Kept: body, ETag, the headers after
 * the gate's) is computed once per precomputed byte array and kept with it.
 * respond() turns it into what one request gets (its coding, or a 304); the
 * fast path of server/main.ts sends kept answers again without their route
 * when answer() found them to be a pure function of the request target and the
 * dataset (see AnswerKeeper).
 */
import { hash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import type { Context } from 'hono';
import { cachePolicy } from './areas.js';
import { errorHeaders } from './errors.js';

/** Precomputed answers are kept as UTF-8 bytes: encoding a string on every request costs throughput. */
export const utf8 = new TextEncoder();

const JSON_TYPE = 'application/json; charset=utf-8';
const JSON_ONLY = { 'content-type': JSON_TYPE };

/** The Cache-Control of cacheUntil, without noting it (server/main.ts's fast path). */
export function maxAgeUntil(nowMs: number, untilMs: number): string {
  const seconds = Math.max(0, Math.min(3600, Math.floor((untilMs - nowMs) / 1000)));
  return `public, max-age=${seconds}, must-revalidate`;
}

/** Cache-Control for an answer that stays right until `untilMs` (at most an hour). */
export function cacheUntil(nowMs: number, untilMs: number): string {
  const value = maxAgeUntil(nowMs, untilMs);
  validity = { header: value, until: untilMs };
  return value;
}

/**
 * Which answers depend on the time. Routes read the time only through the clock
 * their app is given (createApp's `now`, which business days' `today` uses too);
 * server/main.ts gives it countingClock. Routes run synchronously, and every run
 * that reaches a route ends in one answer() (errors too, through onError), so an
 * answer() that sees no read since the previous answer() comes from a route that
 * did not read the clock: it is a function of the request target and the dataset
 * alone. A read that belongs to another run only makes an answer look
 * time-dependent (not kept), never the reverse. An answer that read the clock and
 * carries the Cache-Control cacheUntil made for it (timezones "now") holds until
 * that instant. The business-day routes read the clock only for today's date in a
 * location's zone (a default date or year): as every zone's offset is a whole number
 * of minutes, no date anywhere changes before the next whole minute (UTC) after the
 * read, so their answers hold until then.
 */
let clockReads = 0;
let clockReadsSeen = 0;
/** The first clock read since the previous answer(), in epoch ms. */
let firstRead = 0;
let validity: { header: string; until: number } | undefined;

/** The current instant, counted (see above). */
export function countingClock(): Date {
  const ms = Date.now();
  if (clockReads === clockReadsSeen) firstRead = ms;
  clockReads++;
  return new Date(ms);
}

/** The area whose routes read the clock for today's date only. */
const DATE_ONLY_AREA = '/v1/business-days';
const MINUTE_MS = 60_000;

/**
 * Until when an answer holds as far as the time goes (Infinity: for good), and whether its
 * Cache-Control is cacheUntil's (then remade for each request); undefined when not known.
 */
function holdsUntil(readClock: boolean, holds: typeof validity, path: string, extra: Record<string, string> | undefined): { until: number; maxAge: boolean } | undefined {
  if (!readClock) return { until: Infinity, maxAge: false };
  if (holds !== undefined && extra?.['cache-control'] === holds.header) return { until: holds.until, maxAge: true };
  if (path.startsWith(DATE_ONLY_AREA)) return { until: (Math.floor(firstRead / MINUTE_MS) + 1) * MINUTE_MS, maxAge: false };
  return undefined;
}

/**
 * Keeps answers for server/main.ts's fast path, which puts it on Node's request
 * (incoming[KEEPER]) for the GET requests it may answer again; answer() offers it
 * each 200 of such a request that does not depend on the time (until: Infinity)
 * or holds until an instant.
 */
export interface AnswerKeeper {
  /**
   * `maxAge`: the Cache-Control is cacheUntil(now, until), to be remade for each request.
   * `pathname`: the path the app's gate judged the request by (its URL's, normalised), for the fast path's gate.
   */
  keep(target: string, kept: Kept, until: number, maxAge: boolean, pathname: string): void;
}
export const KEEPER = Symbol('answer keeper');

interface AnswerEnv {
  answerHeaders?: Record<string, string>;
  /** Node's request, when served by @hono/node-server: reading its headers skips building a WHATWG Headers. */
  incoming?: { headers: Record<string, string | string[] | undefined>; url?: string; [KEEPER]?: AnswerKeeper };
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
  /** The headers that follow the gate's, in answer()'s order: etag, cache-control, the route's own, vary. */
  headers: Record<string, string>;
  /** Byte arrays of COMPRESS_MIN_BYTES or more: sent in the coding the client prefers. */
  compressible: boolean;
  /** Each coding's bytes and strong tag, made on first use. */
  coded?: Partial<Record<Coding, { bytes: Uint8Array<ArrayBuffer>; etag: string; length: string }>>;
  /** `headers` as a flat list [name, value, …] for respondPairs(), made on first use. */
  pairs?: string[];
  /** The route's own headers it was kept with (a frozen record, or none). */
  extra?: Record<string, string>;
}

/** The Kept of precomputed byte arrays answered without extra headers, kept with the bytes. */
const keptBytes = new WeakMap<Uint8Array, Kept>();

export function keep(version: string, path: string, body: string | Uint8Array<ArrayBuffer>, extra?: Record<string, string>): Kept {
  const policy = cachePolicy(path);
  // Kept with the bytes when the route's own headers are none or a constant record (the iCalendar content type).
  const reusable = typeof body !== 'string' && (extra === undefined || Object.isFrozen(extra));
  if (reusable) {
    const k = keptBytes.get(body);
    if (k !== undefined && k.version === version && k.headers['cache-control'] === policy && k.extra === extra) return k;
  }
  const compressible = typeof body !== 'string' && body.byteLength >= COMPRESS_MIN_BYTES;
  const etag = entityTag(version, body);
  const headers: Record<string, string> = Object.assign({ etag, 'cache-control': policy }, extra);
  if (compressible) headers.vary = 'Accept-Encoding';
  const length = String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength);
  const k: Kept = { version, body, length, etag, headers, compressible, extra };
  if (reusable) keptBytes.set(body, k);
  return k;
}

export interface Sent {
  status: 200 | 304;
  headers: Record<string, string>;
  body: string | Uint8Array<ArrayBuffer> | null;
  /** Content-Length of the body (null for a 304). */
  length: string | null;
}

/**
 * What a kept answer sends to one request: the gate's headers then the answer's, the body in the
 * coding the request prefers, or a 304 when If-None-Match names any form of it. `cacheControl`
 * replaces the kept one (answers that hold until an instant: their max-age shrinks with time).
 */
export function respond(kept: Kept, base: Record<string, string>, acceptEncoding: string | undefined, ifNoneMatch: string | undefined, cacheControl?: string): Sent {
  // Object.assign, not a spread: on Node 20 spreading a record costs ~0.5 µs, five times as much.
  const headers: Record<string, string> = Object.assign({}, base, kept.headers);
  if (cacheControl !== undefined) headers['cache-control'] = cacheControl;
  let body: string | Uint8Array<ArrayBuffer> = kept.body;
  let length = kept.length;
  if (kept.compressible) {
    const coding = preferredCoding(acceptEncoding);
    // Each encoding is its own representation with its own strong tag (RFC 9110 8.8.3.3): the hash of the bytes sent.
    if (coding) {
      const form = codedForm(kept, coding);
      headers['content-encoding'] = coding;
      headers.etag = form.etag;
      body = form.bytes;
      length = form.length;
    }
  }
  if (ifNoneMatch !== undefined && matchesAnyForm(ifNoneMatch, kept)) {
    const { 'content-type': _type, 'content-encoding': _coding, ...rest } = headers;
    return { status: 304, headers: rest, body: null, length: null };
  }
  return { status: 200, headers, body, length };
}

/**
 * respond() for the fast path, on a flat header list: appends the answer's headers (and its
 * Content-Length) to `headers`, the gate's for this request, in the order respond() and
 * server/main.ts's writeAnswer() give them. Only for a kept answer none of whose headers the gate
 * also sets (they would appear twice: respond()'s record replaces them in place instead).
 * Returns the status and the body; `headers` is then the list to write.
 */
export function respondPairs(kept: Kept, headers: string[], acceptEncoding: string | undefined, ifNoneMatch: string | undefined, cacheControl?: string): { status: 200 | 304; body: string | Uint8Array<ArrayBuffer> | null } {
  // keep() makes etag and cache-control the first two of a kept answer's headers, the route's own and vary after.
  const own = (kept.pairs ??= Object.entries(kept.headers).flat());
  let etag = kept.etag;
  let body: string | Uint8Array<ArrayBuffer> = kept.body;
  let length = kept.length;
  const coding = kept.compressible ? preferredCoding(acceptEncoding) : undefined;
  if (coding) {
    const form = codedForm(kept, coding);
    etag = form.etag;
    body = form.bytes;
    length = form.length;
  }
  const notModified = ifNoneMatch !== undefined && matchesAnyForm(ifNoneMatch, kept);
  // A 304 carries neither Content-Type nor Content-Encoding (respond() drops them).
  if (notModified) {
    for (let i = 0; i < headers.length; i += 2) {
      if (headers[i] === 'content-type') {
        headers.splice(i, 2);
        break;
      }
    }
  }
  headers.push('etag', etag, 'cache-control', cacheControl ?? own[3]);
  for (let i = 4; i < own.length; i += 2) if (!notModified || own[i] !== 'content-type') headers.push(own[i], own[i + 1]);
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

/** A JSON answer from its text or bytes; a 200 gets an ETag and Cache-Control, or becomes a 304. */
export function answer(c: Context, body: string | Uint8Array<ArrayBuffer>, status = 200, extra?: Record<string, string>): Response {
  // Whether the route read the clock, and the instant its answer holds until: since the previous answer().
  const readClock = clockReads !== clockReadsSeen;
  clockReadsSeen = clockReads;
  const holds = validity;
  validity = undefined;
  const base = answerHeaders(c);
  // Content-Length on every answer: a HEAD (which Hono answers from the GET's Response, body dropped) gets it too.
  if (status !== 200) return new Response(body, { status, headers: errorHeaders(base, body, extra) });
  const env = c.env as AnswerEnv | undefined;
  const kept = keep(env?.datasetVersion ?? 'dev', c.req.path, body, extra);
  const keeper = env?.incoming?.[KEEPER];
  if (keeper !== undefined && env!.incoming!.url !== undefined) {
    const holdsFor = holdsUntil(readClock, holds, c.req.path, extra);
    if (holdsFor !== undefined) keeper.keep(env!.incoming!.url, kept, holdsFor.until, holdsFor.maxAge, gatePath(c.req.url));
  }
  const sent = respond(kept, base, kept.compressible ? requestHeader(c, 'accept-encoding') : undefined, requestHeader(c, 'if-none-match'));
  if (sent.length !== null) sent.headers['content-length'] = sent.length;
  return new Response(sent.body, { status: sent.status, headers: sent.headers });
}

/** A JSON answer from a value. */
export function answerJson(c: Context, value: unknown, status = 200, extra?: Record<string, string>): Response {
  return answer(c, JSON.stringify(value), status, extra);
}
