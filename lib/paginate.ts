/**
 * The pagination envelope of spec 2.2, shared by every list endpoint.
 * Pure: parses page/per_page text and slices a sorted list.
 */

export const DEFAULT_PER_PAGE = 50;
export const MAX_PER_PAGE = 100;

export interface Page<T> {
  data: T[];
  pagination: { page: number; per_page: number; total_items: number; total_pages: number };
}

export type PageParams = { page: number; per_page: number };

/** Why a page parameter was rejected: the parameter's name and a message. */
export interface PageParamError {
  parameter: 'page' | 'per_page';
  message: string;
}

function parsePositive(raw: string | undefined, fallback: number): number | undefined {
  if (raw === undefined) return fallback;
  if (!/^\d{1,9}$/.test(raw)) return undefined;
  return Number(raw);
}

/** Validates page (>= 1) and per_page (1..100); a page past the end is allowed (empty data). */
export function parsePageParams(page: string | undefined, perPage: string | undefined): PageParams | PageParamError {
  const p = parsePositive(page, 1);
  if (p === undefined || p < 1) return { parameter: 'page', message: `page must be an integer of at least 1, got "${String(page).slice(0, 40)}"` };
  const pp = parsePositive(perPage, DEFAULT_PER_PAGE);
  if (pp === undefined || pp < 1 || pp > MAX_PER_PAGE) {
    return { parameter: 'per_page', message: `per_page must be an integer from 1 to ${MAX_PER_PAGE}, got "${String(perPage).slice(0, 40)}"` };
  }
  return { page: p, per_page: pp };
}

export function paginate<T>(items: readonly T[], { page, per_page }: PageParams): Page<T> {
  const start = (page - 1) * per_page;
  return {
    data: items.slice(start, start + per_page),
    pagination: { page, per_page, total_items: items.length, total_pages: Math.ceil(items.length / per_page) },
  };
}
