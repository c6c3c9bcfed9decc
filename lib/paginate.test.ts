import { describe, expect, it } from 'vitest';
import { paginate, parsePageParams } from './paginate.js';

describe('pagination', () => {
  const items = Array.from({ length: 418 }, (_, i) => i);
  it('defaults to page 1 of 50', () => {
    expect(parsePageParams(undefined, undefined)).toEqual({ page: 1, per_page: 50 });
    expect(paginate(items, { page: 1, per_page: 50 }).pagination).toEqual({ page: 1, per_page: 50, total_items: 418, total_pages: 9 });
  });
  it('the last page is short and a page past the end is empty with correct metadata', () => {
    expect(paginate(items, { page: 9, per_page: 50 }).data).toHaveLength(18);
    expect(paginate(items, { page: 10, per_page: 50 })).toEqual({ data: [], pagination: { page: 10, per_page: 50, total_items: 418, total_pages: 9 } });
  });
  it('rejects non-integer and out-of-range values', () => {
    for (const [p, pp] of [['0', undefined], ['-1', undefined], ['1.5', undefined], ['x', undefined], ['', undefined], [undefined, '0'], [undefined, '101'], [undefined, '1e2'], ['9999999999', undefined]]) {
      expect(parsePageParams(p, pp)).toHaveProperty('parameter');
    }
    expect(parsePageParams('3', '100')).toEqual({ page: 3, per_page: 100 });
  });
});
