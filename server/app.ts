/**
 * The lookup layer: a Hono app over a DatasetStore. Runtime-neutral (Node via
 * server/main.ts; the same app can run on edge runtimes with a store adapter).
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from './errors.js';
import { businessDaysRoutes } from './routes/business-days.js';
import { countriesRoutes } from './routes/countries.js';
import { timezonesRoutes } from './routes/timezones.js';
import { travelRoutes } from './routes/travel.js';
import type { DatasetStore } from './store.js';
import type { TimezoneStore } from './timezone-store.js';

/** Longest request target accepted (path + query), in characters. */
export const MAX_URL_LENGTH = 2048;

export interface AppOptions {
  store: DatasetStore;
  timezones: TimezoneStore;
  /** Current instant; tests freeze it. */
  now?: () => Date;
}

/** The request target (path and query) of an absolute URL. */
function pathAndQuery(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Today's date (YYYY-MM-DD) in a time zone; formatters are costly to build, so they are kept. */
export function todayIn(timeZone: string, now: Date): string {
  let f = formatters.get(timeZone);
  if (!f) {
    // en-CA formats as YYYY-MM-DD.
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  return f.format(now);
}

/** Headers of every successful answer. */
export type AnswerHeaders = Record<string, string>;

export function createApp({ store, timezones, now = () => new Date() }: AppOptions) {
  const app = new Hono();

  // Handlers pass these headers themselves: a middleware (or touching the
  // headers of a finished response) costs a quarter of the throughput and
  // takes @hono/node-server off its fast path.
  const headers: AnswerHeaders = { 'content-type': 'application/json; charset=utf-8', 'x-dataset-version': store.manifest.version };

  app.get('/v1/business-days', (c) => c.json(store.list, 200, headers));
  app.route('/v1/business-days', businessDaysRoutes({ store, today: (tz) => todayIn(tz, now()), headers }));
  app.route('/v1/timezones', timezonesRoutes(timezones, now, headers));
  app.route('/v1/countries', countriesRoutes(store.root, headers));
  app.route('/v1/travel', travelRoutes(store.root, headers));

  // Unmatched requests. Nothing else is registered for every path: a GET must
  // match exactly one handler for Hono to take its single-handler fast path.
  app.notFound((c) => {
    const err =
      c.req.method === 'GET' || c.req.method === 'HEAD'
        ? new ApiError(404, 'not_found', `No endpoint at ${c.req.path.slice(0, 100)}`)
        : new ApiError(405, 'method_not_allowed', `${c.req.method.slice(0, 20)} is not allowed: this API is read-only (GET, HEAD)`);
    if (err.status === 405) c.header('Allow', 'GET, HEAD');
    return c.json(err.toBody(), err.status);
  });

  app.onError((err, c) => {
    if (err instanceof ApiError) {
      if (err.status === 405) c.header('Allow', 'GET, HEAD');
      return c.json(err.toBody(), err.status);
    }
    if (err instanceof HTTPException) {
      return c.json(new ApiError(err.status as 400, 'bad_request', err.message || 'Bad request').toBody(), err.status as 400);
    }
    console.error(`internal error on ${c.req.method} ${c.req.path.slice(0, 200)}: ${err instanceof Error ? err.message : String(err)}`);
    return c.json(new ApiError(500, 'internal_error', 'Internal error').toBody(), 500);
  });
  // The request-target limit is checked before routing, for every method.
  const route = app.fetch;
  app.fetch = (req, env, ctx) => {
    if (req.url.length > MAX_URL_LENGTH + 200 && pathAndQuery(req.url).length > MAX_URL_LENGTH) {
      const err = new ApiError(414, 'uri_too_long', `The request target is longer than ${MAX_URL_LENGTH} characters`);
      return Response.json(err.toBody(), { status: 414 });
    }
    return route(req, env, ctx);
  };
  return app;
}
