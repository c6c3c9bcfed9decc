/**
 * The lookup layer: a Hono app over a DatasetStore. Runtime-neutral (Node via
 * server/main.ts; the same app can run on edge runtimes with a store adapter).
 */
import { Hono } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { ApiError } from './errors.js';
import { businessDaysRoutes } from './routes/business-days.js';
import { timezonesRoutes } from './routes/timezones.js';
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

export function todayIn(timeZone: string, now: Date): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

export function createApp({ store, timezones, now = () => new Date() }: AppOptions) {
  const app = new Hono();

  const version = store.manifest.version;
  app.use('*', async (c, next) => {
    // Set before the handler runs: touching headers of a finished response
    // would force @hono/node-server off its fast path.
    c.header('X-Dataset-Version', version);
    if (c.req.url.length > MAX_URL_LENGTH + 200 && pathAndQuery(c.req.url).length > MAX_URL_LENGTH) {
      throw new ApiError(414, 'uri_too_long', `The request target is longer than ${MAX_URL_LENGTH} characters`);
    }
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      c.header('Allow', 'GET, HEAD');
      throw new ApiError(405, 'method_not_allowed', `${c.req.method} is not allowed: this API is read-only (GET, HEAD)`);
    }
    await next();
  });

  app.get('/v1/business-days', (c) => c.json(store.list));
  app.route('/v1/business-days', businessDaysRoutes({ store, today: (tz) => todayIn(tz, now()) }));
  app.route('/v1/timezones', timezonesRoutes(timezones, now));

  app.notFound((c) => c.json(new ApiError(404, 'not_found', `No endpoint at ${c.req.path.slice(0, 100)}`).toBody(), 404));
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
  return app;
}
