/** Every error leaves the server as { error: { status, code, message, parameter? } }. */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorResponse } from '../lib/schema-types.js';
import { CACHE_NONE } from './areas.js';

/**
 * Anything shaped like an API key: "rdk_" (any case, the underscore possibly
 * percent-encoded) and the key characters after it, however many. A route
 * that quotes a bad value back ("got …") would otherwise echo a key a client
 * put in the wrong place (?date=rdk_…) into a body that proxies and browsers
 * may log; a cut-off key is still most of a secret.
 */
const KEY_LIKE = /rdk(?:_|%5f)[A-Za-z0-9_%-]*/gi;

/** The text with every key-shaped run replaced by "rdk_[redacted]". */
export function redactKeys(text: string): string {
  return text.replace(KEY_LIKE, 'rdk_[redacted]');
}

export class ApiError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly parameter?: string,
  ) {
    // Redacted here, once, so that neither a response body nor a log line built from it can carry a key.
    super(redactKeys(message));
  }

  toBody(): ErrorResponse {
    const error: ErrorResponse['error'] = { status: this.status, code: this.code, message: this.message };
    if (this.parameter) error.parameter = this.parameter;
    return { error };
  }
}

/** The headers every error answer carries besides its base (the gate's or the server's): JSON, never cached. */
const ERROR_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': CACHE_NONE };

/**
 * The one way an error answer's headers are made, for the app's routes (answer()), the gate and the server's
 * own errors (server/main.ts): `base` first (a key already there keeps its place), then JSON and no-store, then
 * the answer's own (`allow`, `retry-after`, RateLimit-*), then the Content-Length of `body`.
 */
export function errorHeaders(base: Record<string, string>, body: string | Uint8Array, extra?: Record<string, string>): Record<string, string> {
  return Object.assign({}, base, ERROR_HEADERS, extra, { 'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength) });
}

/** An error's status, headers and JSON text: errorHeaders() around ApiError.toBody(). */
export function errorAnswer(err: ApiError, base: Record<string, string> = {}, extra?: Record<string, string>): { status: ContentfulStatusCode; headers: Record<string, string>; body: string } {
  const body = JSON.stringify(err.toBody());
  return { status: err.status, headers: errorHeaders(base, body, extra), body };
}

export const badRequest = (code: string, message: string, parameter?: string) => new ApiError(400, code, message, parameter);
export const notFound = (code: string, message: string, parameter?: string) => new ApiError(404, code, message, parameter);

/** A configuration the server cannot start with; its message is the one line an operator needs. */
export class StartupError extends Error {}

/**
 * For an entry point's `catch` around start-up: a StartupError is printed as
 * one line and exits 1 (a stack trace would bury the reason); anything else
 * is a bug and is rethrown with its stack.
 */
export function exitOnStartupError(err: unknown): never {
  if (!(err instanceof StartupError)) throw err;
  console.error(`refdata: cannot start: ${err.message}`);
  process.exit(1);
}
