/**
 * GET /v1/timezones (paginated, sorted by id) and GET /v1/timezones/{identifier}.
 * The identifier is normally URL-encoded (America%2FNew_York); an unencoded
 * one (America/New_York) is accepted too, and aliases answer with the
 * canonical zone. Offsets are those in force at the request instant.
 */
import { Hono, type Context } from 'hono';
import { answer, cacheUntil } from '../answer-headers.js';
import { notFound } from '../errors.js';
import { pageParams } from '../query.js';
import type { Cached, TimezoneStore } from '../timezone-store.js';

export function timezonesRoutes(store: TimezoneStore, now: () => Date) {
  const app = new Hono();

  // Answers are cacheable until the next transition among their zones (at most an hour).
  const send = (c: Context, { text, until }: Cached, ms: number) => answer(c, text, 200, { 'cache-control': cacheUntil(ms, until) });

  app.get('/', (c) => {
    const ms = now().getTime();
    return send(c, store.pageText(pageParams(c.req.queries()), ms), ms);
  });

  app.get('/:identifier{.+}', (c) => {
    const raw = c.req.param('identifier');
    const id = raw.length <= 64 ? store.resolve(raw) : undefined;
    if (!id) throw notFound('unknown_timezone', `Unknown time zone "${raw.slice(0, 64)}": use an IANA id such as America%2FNew_York; GET /v1/timezones lists them.`, 'identifier');
    const ms = now().getTime();
    return send(c, store.zoneText(id, ms), ms);
  });

  return app;
}
