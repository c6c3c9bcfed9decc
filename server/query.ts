/** Query parameters as every route reads them: only those the endpoint takes, each at most once, list pages validated. */
import type { Context } from 'hono';
import { parsePageParams, type PageParams } from '../lib/paginate.js';
import { badRequest, redactKeys } from './errors.js';

export type Query = Record<string, string[]>;

/** The query of every request without one: shared, so such requests allocate nothing here. */
const NO_QUERY: Query = Object.freeze({});

/** Each endpoint's accepted names, split once from the text its handler passes. */
const acceptedNames = new Map<string, readonly string[]>();

/**
 * The request's query, refusing any parameter the endpoint does not take
 * with 400 `unknown_parameter`: a misspelled one (`?dat=2026-07-03`) was
 * ignored and the default answered in its place, a wrong answer that looks
 * right. Every handler reads its query through this, first.
 *
 * @param accepted the endpoint's parameter names, separated by spaces ('' for none)
 * @example const q = queryOf(c, 'date type');
 */
export function queryOf(c: Context, accepted: string): Query {
  if (!c.req.url.includes('?')) return NO_QUERY;
  const q = c.req.queries();
  let names = acceptedNames.get(accepted);
  if (names === undefined) acceptedNames.set(accepted, (names = accepted.split(' ').filter(Boolean)));
  for (const name in q) if (!names.includes(name)) throw unknownParameter(name, names);
  return q;
}

/** One query parameter; a repeated one is ambiguous and rejected with a 400. */
export function single(q: Query, name: string): string | undefined {
  const all = q[name];
  if (all && all.length > 1) throw badRequest('duplicate_parameter', `${name} is given ${all.length} times; give it once`, name);
  return all?.[0];
}

/** `page` and `per_page` of a list request, or a 400 naming the one at fault. */
export function pageParams(q: Query): PageParams {
  const params = parsePageParams(single(q, 'page'), single(q, 'per_page'));
  if ('parameter' in params) throw badRequest(`invalid_${params.parameter}`, params.message, params.parameter);
  return params;
}

/** Longest request target accepted (path + query), in characters; longer ones get 414. */
export const MAX_URL_LENGTH = 2048;

function unknownParameter(name: string, accepted: readonly string[]) {
  const shown = name.slice(0, 40); // ApiError redacts a key-shaped name in the message; `parameter` is redacted here
  const guess = accepted.find((a) => resembles(name, a));
  const takes =
    accepted.length === 0
      ? 'this endpoint takes no query parameters'
      : `this endpoint accepts ${accepted.length === 1 ? accepted[0] : `${accepted.slice(0, -1).join(', ')} and ${accepted[accepted.length - 1]}`}`;
  return badRequest('unknown_parameter', `Unknown parameter ${JSON.stringify(shown)}${guess ? ` (did you mean ${guess}?)` : ''}: ${takes}.`, redactKeys(shown));
}

/** Whether `name` looks like a slip for `accepted`: another letter case, a prefix (lat), or one or two typing slips (dat, pgae, per-page). */
function resembles(name: string, accepted: string): boolean {
  const a = name.toLowerCase();
  if (a === accepted || (a.length >= 3 && accepted.startsWith(a))) return true;
  if (accepted.length < 3) return false; // "dat" is no slip for "at"
  const slips = accepted.length <= 4 ? 1 : 2;
  return Math.abs(a.length - accepted.length) <= slips && editDistance(a, accepted) <= slips;
}

/** Edits (insert, delete, replace, swap two neighbours) from a to b; only run on the error path, on names of at most a few characters more than b. */
function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}
