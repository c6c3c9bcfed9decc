/**
 * Answers and their headers. The gate puts the headers of every answer in the
 * request's env (rate-limit state, CORS, dataset version). Answers are built as
 * plain `Response`s with a header record: Hono's c.json/c.body turn a record
 * of more than one header into a WHATWG Headers object, which costs a third of
 * the throughput and takes @hono/node-server off its fast path.
 */
import type { Context } from 'hono';

/** Precomputed answers are kept as UTF-8 bytes: encoding a string on every request costs throughput. */
export const utf8 = new TextEncoder();

const JSON_ONLY = { 'content-type': 'application/json; charset=utf-8' };

export function answerHeaders(c: Context): Record<string, string> {
  return (c.env as { answerHeaders?: Record<string, string> } | undefined)?.answerHeaders ?? JSON_ONLY;
}

/** A JSON answer from its text or bytes. */
export function answer(c: Context, body: string | Uint8Array<ArrayBuffer>, status = 200, extra?: Record<string, string>): Response {
  return new Response(body, { status, headers: extra ? { ...answerHeaders(c), ...extra } : answerHeaders(c) });
}

/** A JSON answer from a value. */
export function answerJson(c: Context, value: unknown, status = 200, extra?: Record<string, string>): Response {
  return answer(c, JSON.stringify(value), status, extra);
}
