/** Every error leaves the server as { error: { status, code, message, parameter? } }. */
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorResponse } from '../lib/schema-types.js';

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
