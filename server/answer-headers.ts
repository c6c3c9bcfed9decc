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
 */
import { hash } from 'node:crypto';
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

/** A JSON answer from its text or bytes; a 200 gets an ETag and Cache-Control, or becomes a 304. */
export function answer(c: Context, body: string | Uint8Array<ArrayBuffer>, status = 200, extra?: Record<string, string>): Response {
  const base = answerHeaders(c);
  if (status !== 200) return new Response(body, { status, headers: { ...base, 'cache-control': CACHE_NONE, ...extra } });
  const version = (c.env as AnswerEnv | undefined)?.datasetVersion ?? 'dev';
  const etag = entityTag(version, body);
  const headers: Record<string, string> = { ...base, etag, 'cache-control': cachePolicy(c.req.path), ...extra };
  const inm = requestHeader(c, 'if-none-match');
  if (inm !== undefined && matchesIfNoneMatch(inm, etag)) {
    const { 'content-type': _type, ...rest } = headers;
    return new Response(null, { status: 304, headers: rest });
  }
  return new Response(body, { status, headers });
}

/** A JSON answer from a value. */
export function answerJson(c: Context, value: unknown, status = 200, extra?: Record<string, string>): Response {
  return answer(c, JSON.stringify(value), status, extra);
}
