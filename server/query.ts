/** Query parameters as every route reads them: each at most once, list pages validated. */
import { parsePageParams, type PageParams } from '../lib/paginate.js';
import { badRequest } from './errors.js';

export type Query = Record<string, string[]>;

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
