/**
 * GET /v1/countries (paginated, sorted by code) and GET /v1/countries/{code}.
 * Single countries and default-size pages answer the bytes of the static files
 * countries/{CODE}.json and countries/pages/{n}.json, read once at start, so
 * the API and a static host serve identical bytes. Other page sizes are
 * written the same way (lib/stable-json) and cached.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono, type Context } from 'hono';
import { DEFAULT_PER_PAGE, paginate, type PageParams } from '../../lib/paginate.js';
import { stableJson } from '../../lib/stable-json.js';
import type { CountriesIndex } from '../../lib/schema-types.js';
import { answer, answerError, utf8 } from '../answer-headers.js';
import { ApiError, notFound } from '../errors.js';
import { pageParams, queryOf } from '../query.js';

/**
 * A handler whose ApiErrors are answered here, so that this sub-app answers
 * the same JSON whether it is mounted in createApp or used on its own (tests).
 */
const handle =
  (h: (c: Context) => Response) =>
  (c: Context): Response => {
    try {
      return h(c);
    } catch (err) {
      if (err instanceof ApiError) return answerError(c, err);
      throw err;
    }
  };

/**
 * @param dataDir the dist-data folder (holding v1/)
 * @example app.route('/v1/countries', countriesRoutes(dataDir))
 */
export function countriesRoutes(dataDir: string) {
  const dir = join(dataDir, 'v1', 'countries');
  const { countries } = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as CountriesIndex;
  // Kept as bytes: encoding a 100 kB page on every request would halve throughput.
  const fileBytes = (name: string) => new Uint8Array(readFileSync(join(dir, name)));
  const single = new Map(countries.map((c) => [c.code, fileBytes(`${c.code}.json`)]));
  const totalPages = Math.ceil(countries.length / DEFAULT_PER_PAGE);

  // Pages within range, keyed "page/per_page": at most ~1,300 entries for 249
  // countries and per_page 1..100, so the cache is bounded. Pages past the
  // end are cheap and not cached (their number is unbounded).
  const pages = new Map<string, Uint8Array<ArrayBuffer>>();
  const pageText = (params: PageParams) => {
    const key = `${params.page}/${params.per_page}`;
    let text = pages.get(key);
    if (text === undefined) {
      text = utf8.encode(stableJson(paginate(countries, params)));
      if ((params.page - 1) * params.per_page < countries.length) pages.set(key, text);
    }
    return text;
  };
  for (let page = 1; page <= totalPages; page++) pages.set(`${page}/${DEFAULT_PER_PAGE}`, fileBytes(`pages/${page}.json`));

  const app = new Hono();

  app.get('/', handle((c) => answer(c, pageText(pageParams(queryOf(c, 'page per_page'))))));

  app.get(
    '/:code',
    handle((c) => {
      queryOf(c, '');
      const raw = c.req.param('code') ?? '';
      const text = /^[A-Za-z]{2}$/.test(raw) ? single.get(raw.toUpperCase()) : undefined;
      if (text === undefined) throw notFound('unknown_country', `Unknown country "${raw.slice(0, 40)}": use an ISO 3166-1 alpha-2 code (JP); GET /v1/countries lists them.`, 'code');
      return answer(c, text);
    }),
  );

  return app;
}
