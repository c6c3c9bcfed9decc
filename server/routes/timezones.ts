/**
 * GET /v1/timezones (paginated, sorted by id) and GET /v1/timezones/{identifier}.
 * The identifier is normally URL-encoded (America%2FNew_York); an unencoded
 * one (America/New_York) is accepted too, and aliases answer with the
 * canonical zone. Offsets are those in force at the request instant.
 */
import { Hono } from 'hono';
import { answer, answerJson } from '../answer-headers.js';
import { notFound } from '../errors.js';
import { pageParams } from '../query.js';
import type { TimezoneStore } from '../timezone-store.js';

export function timezonesRoutes(store: TimezoneStore, now: () => Date) {
  const app = new Hono();

  app.get('/', (c) => {
    return answer(c, store.pageText(pageParams(c.req.queries()), now().getTime()));
  });

  app.get('/:identifier{.+}', (c) => {
    const raw = c.req.param('identifier');
    const id = raw.length <= 64 ? store.resolve(raw) : undefined;
    if (!id) throw notFound('unknown_timezone', `Unknown time zone "${raw.slice(0, 64)}": use an IANA id such as America%2FNew_York; GET /v1/timezones lists them.`, 'identifier');
    return answer(c, store.zoneText(id, now().getTime()));
  });

  return app;
}
