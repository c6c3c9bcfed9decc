/**
 * The lookup layer: a Hono app over the dataset stores, behind the access
 * gate. Runtime-neutral (Node via server/main.ts; the same app can run on
 * edge runtimes with store adapters).
 */
import { Hono, type Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { answer, answerError, utf8 } from './answer-headers.js';
import { Clock } from './clock.js';
import { createGate, type PairsDecision } from './access/gate.js';
import type { KeyRing } from './access/keys.js';
import type { Limiter } from './access/limiter.js';
import { ApiError, errorAnswer, redactKeys } from './errors.js';
import { apiIndex, exampleTargets } from './openapi.js';
import { answerExamples, type Examples } from './openapi-examples.js';
import { MAX_URL_LENGTH, queryOf } from './query.js';
import { astronomyRoutes } from './routes/astronomy.js';
import { businessDaysRoutes } from './routes/business-days.js';
import { countriesRoutes } from './routes/countries.js';
import { docsRoutes } from './routes/docs.js';
import { timezonesRoutes } from './routes/timezones.js';
import { travelRoutes } from './routes/travel.js';
import type { Health } from '../lib/schema-types.js';
import { geoCacheStats } from './geo.js';
import { ComputedAnswers } from './computed-answers.js';
import type { DatasetStore } from './store.js';
import type { TimezoneStore } from './timezone-store.js';


export interface AccessOptions {
  keys: KeyRing;
  limiter: Limiter;
  trustProxy: boolean;
  /** Anonymous IPv6 callers counted per block of this prefix length (default 64). */
  ipv6Prefix?: number;
}

export interface AppOptions {
  store: DatasetStore;
  timezones: TimezoneStore;
  /** API keys, plans and rate limits; without it every area is open and uncounted. */
  access?: AccessOptions;
  /** Current instant, the one clock of every route (clock.ts); tests freeze it. */
  now?: () => Date;
  /** Budget of the computed answers kept (server/computed-answers.ts; ANSWER_CACHE_MB). */
  answerCacheBytes?: number;
}

/** The request target (path and query) of an absolute URL. */
function pathAndQuery(url: string): string {
  return url.slice(url.indexOf('/', url.indexOf('//') + 2));
}

/** Does a GET to this path reach a route (rather than the not-found handler)? No handler is registered for every path. */
export function hasGetRoute(app: Hono<any>, path: string): boolean {
  return (app.router.match('GET', path) as unknown as [unknown[]])[0].length > 0;
}

export function createApp({ store, timezones, access, now, answerCacheBytes }: AppOptions) {
  const app = new Hono();
  const clock = new Clock(now);
  // Every area tells the time by the dataset's tzdata: a location or place whose zone it lacks is a broken dataset.
  const places = store.astronomyPlaces();
  for (const zone of [...store.list.locations.map((l) => l.timezone), ...Object.values(places).map((p) => p.timezone)]) {
    if (!timezones.resolve(zone)) throw new Error(`the dataset names time zone ${zone}, which timezones/ does not serve`);
  }
  // Answers that depend only on the request and the dataset, computed once and kept by what they depend on.
  const answers = new ComputedAnswers(answerCacheBytes);
  const baseHeaders = { 'content-type': 'application/json; charset=utf-8', 'x-dataset-version': store.manifest.version };

  // degraded when the counters' store is unreachable or the keys file failed to reload: the
  // service still answers, but limits are per instance, or revocations since the failure are not applied.
  app.get('/healthz', (c) => {
    queryOf(c, '');
    const limits: Health['limits'] = access ? { store: access.limiter.store, reachable: access.limiter.reachable, on_store_failure: 'open' } : null;
    const keys: Health['keys'] = access ? access.keys.health() : null;
    const degraded = (limits && !limits.reachable) || keys?.reload_failed;
    const body: Health = { status: degraded ? 'degraded' : 'ok', dataset_version: store.manifest.version, limits, keys, caches: { geo_polygons: geoCacheStats(), computed_answers: answers.stats() } };
    return c.json(body, 200, { ...baseHeaders, 'cache-control': 'no-store' });
  });
  // Handlers take their headers from the gate (answerHeaders): a Hono middleware would
  // cost a quarter of the throughput and take @hono/node-server off its fast path.
  /** A handler answering the same bytes every time, for a path that takes no query parameters. */
  const fixed = (bytes: Uint8Array<ArrayBuffer>) => (c: Context) => {
    queryOf(c, '');
    return answer(c, bytes);
  };
  app.get('/v1/business-days', fixed(store.listBytes));
  app.route('/v1/business-days', businessDaysRoutes({ store, today: (c, tz) => timezones.today(tz, clock.now(c)), answers }));
  app.route('/v1/timezones', timezonesRoutes(timezones, clock, answers));
  app.route('/v1/countries', countriesRoutes(store.root));
  app.route('/v1/travel', travelRoutes(store.root, answers));
  app.route('/v1/astronomy', astronomyRoutes({ capitalOf: (code) => places[code], clock, zones: timezones }));
  const zoneYears = { first_year: new Date(timezones.window.start).getUTCFullYear(), last_year: new Date(timezones.window.end - 1).getUTCFullYear() };
  const dataset = { version: store.manifest.version, range: store.list.range, zones: zoneYears };
  // The index: what the API offers and where its documentation is (the start-up line points at it).
  const index = utf8.encode(JSON.stringify(apiIndex(dataset)));
  app.get('/', fixed(index));
  app.get('/v1', fixed(index));
  // Answered once every route is registered (below), through the app without its gate.
  let answerTheExamples!: (examples: Promise<Examples>) => void;
  const examples = new Promise<Examples>((resolve) => (answerTheExamples = resolve));
  app.route('/', docsRoutes(dataset, { examples, ipv6Prefix: access?.ipv6Prefix }));

  // Unmatched requests. Nothing else is registered for every path: a GET must
  // match exactly one handler for Hono to take its single-handler fast path.
  app.notFound((c) => {
    // OPTIONS has no handlers of its own: it answers 204 where GET has a route, 404 where GET would (the gate
    // answers it first when there is one, with CORS on the reference areas).
    if (c.req.method === 'OPTIONS' && hasGetRoute(app, c.req.path)) return c.body(null, 204, { ...baseHeaders, allow: 'GET, HEAD, OPTIONS' });
    const err =
      c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS'
        ? new ApiError(404, 'not_found', `No endpoint at ${c.req.path.slice(0, 100)}`)
        : new ApiError(405, 'method_not_allowed', `${c.req.method.slice(0, 20)} is not allowed: this API is read-only (GET, HEAD, OPTIONS)`);
    return answerError(c, err, err.status === 405 ? { allow: 'GET, HEAD, OPTIONS' } : undefined);
  });
  app.onError((err, c) => {
    if (err instanceof ApiError) return answerError(c, err);
    if (err instanceof HTTPException) return answerError(c, new ApiError(err.status as 400, 'bad_request', err.message || 'Bad request'));
    // Never the stack, the request's headers or its query: only what and where.
    console.error(redactKeys(`internal error on ${c.req.method} ${c.req.path.slice(0, 200)}: ${err instanceof Error ? err.message : String(err)}`));
    return answerError(c, new ApiError(500, 'internal_error', 'Internal error'));
  });

  const gate = access ? createGate({ ...access, baseHeaders, routeExists: (path) => hasGetRoute(app, path) }) : undefined;
  const route = app.fetch;
  // The description's examples are real answers of this app, from this dataset (server/openapi-examples.ts).
  answerTheExamples(answerExamples((req) => route(req, { answerHeaders: baseHeaders, datasetVersion: store.manifest.version }), exampleTargets(dataset)));
  type Env = { incoming?: never; answerHeaders?: Record<string, string>; answerPairs?: string[]; datasetVersion?: string };
  const basePairs = Object.entries(baseHeaders).flat();
  // Before routing, for every request: the request-target limit, then the access gate.
  // Not async: without a gate the answer stays synchronous, which @hono/node-server serves faster.
  app.fetch = (req, env, ctx) => {
    const target = pathAndQuery(req.url);
    if (target.length > MAX_URL_LENGTH) {
      const { status, headers, body } = errorAnswer(new ApiError(414, 'uri_too_long', `The request target is longer than ${MAX_URL_LENGTH} characters`), baseHeaders);
      return new Response(body, { status, headers });
    }
    const e = (env ?? {}) as Env; // @hono/node-server makes a fresh env per request: safe to extend
    e.datasetVersion = store.manifest.version;
    if (!gate) {
      e.answerHeaders = baseHeaders;
      e.answerPairs = basePairs.slice();
      return route(req, e, ctx);
    }
    const q = target.indexOf('?');
    // The gate's list goes to the answer as it is: answer() appends the answer's own headers to it.
    return new Promise<PairsDecision>((decided) => decided(gate.decidePairs(req.method, q < 0 ? target : target.slice(0, q), e.incoming, req))).then((d) => {
      if ('answer' in d) return new Response(d.answer.body, { status: d.answer.status, headers: d.answer.headers });
      e.answerPairs = d.pairs;
      return route(req, e, ctx);
    });
  };
  // server/main.ts's fast path answers kept answers behind this same gate (one set of counters) with these headers.
  return Object.assign(app, { gate, baseHeaders });
}
