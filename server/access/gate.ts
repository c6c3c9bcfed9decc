/**
 * The access gate, run before routing for every request: identifies the
 * caller (X-API-Key, else the client address), enforces plan access (401,
 * 402), counts the request (429) and hands the routes the headers every
 * answer carries (RateLimit-*, CORS on the reference areas). It runs outside
 * Hono's middleware chain, which would cost a quarter of the throughput.
 *
 * gate.decidePairs() is the same gate for callers holding Node's request (the fast
 * path of server/main.ts): it decides in the same tick when it can (a known
 * key or none, counters in memory) and returns a promise only when it must
 * wait (a key first seen, counters in Redis).
 */
import { clientBlock } from '../../lib/client-block.js';
import { formatInstant } from '../../lib/rfc3339.js';
import { ApiError, errorAnswer } from '../errors.js';
import type { KeyRecord, KeyRing } from './keys.js';
import type { Limiter, Verdict } from './limiter.js';
import { gatedAreaOf, type Area } from '../areas.js';
import { PAID_PLANS, type Plan } from './plans.js';

/** Node's request as @hono/node-server passes it in the env, when running on Node. */
interface NodeIncoming {
  headers: Record<string, string | string[] | undefined>;
  socket?: { remoteAddress?: string };
}

export interface GateOptions {
  keys: KeyRing;
  limiter: Limiter;
  /** Trust the last X-Forwarded-For entry (set when a proxy we run appends it). */
  trustProxy: boolean;
  /** Anonymous IPv6 callers are counted per block of this prefix length (ANON_IPV6_PREFIX, default 64). */
  ipv6Prefix?: number;
  /** Whether a GET to the path has a route: OPTIONS answers 204 only there, and goes on to the router's 404 elsewhere. */
  routeExists?: (pathname: string) => boolean;
  baseHeaders: Record<string, string>;
}


/** A gate's answer without a route (refusals, OPTIONS), as parts: server/main.ts writes them straight to Node's response. */
export interface GateAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}
/**
 * What decidePairs() decides: a refusal (or an OPTIONS answer), or the admitted request's headers as a flat
 * list [name, value, …], in the record's order, new for each request (the caller appends the
 * answer's). Node's writeHead takes such a list as it is: no record to build, copy or walk.
 */
export type PairsDecision = { answer: GateAnswer } | { pairs: string[] };

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Dataset-Version, ETag',
};
const CORS_PAIRS = Object.entries(CORS).flat();

/** The names of the headers an admitted request gets from the gate besides its base headers. */
export const GATE_HEADER_NAMES: readonly string[] = ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', ...Object.keys(CORS)];

function header(req: Request | undefined, incoming: NodeIncoming | undefined, name: string): string | undefined {
  if (incoming) {
    const v = incoming.headers[name];
    return Array.isArray(v) ? v[0] : v;
  }
  return req?.headers.get(name) ?? undefined;
}


/**
 * Said when a request carries an Authorization header: callers used to bearer
 * tokens send the key there, are served as anonymous, and were told nothing
 * about why. The header's value is never quoted.
 */
const AUTHORIZATION_HINT = 'This API does not read the Authorization header: send the key in the X-API-Key header instead (X-API-Key: <key>, no Bearer prefix).';

function invalidKeyMessage(authorization: boolean): string {
  const base = 'The X-API-Key header does not hold a valid key (unknown or revoked). Omit it to call the free reference endpoints anonymously.';
  return authorization ? `${base} ${AUTHORIZATION_HINT}` : base;
}

function paidPlanMessage(plan: Plan, authorization: boolean): string {
  if (plan !== 'anonymous') return 'The free plan cannot use the business-days, travel and astronomy areas: they need a starter, pro or growth plan.';
  const base = 'Anonymous callers cannot use the business-days, travel and astronomy areas: they need a key of a starter, pro or growth plan in the X-API-Key header.';
  return authorization ? `${base} ${AUTHORIZATION_HINT}` : base;
}

export function createGate({ keys, limiter, trustProxy, ipv6Prefix = 64, routeExists = () => true, baseHeaders }: GateOptions) {
  // Every answer, refusals included, names the dataset it comes from.
  const version = { 'x-dataset-version': baseHeaders['x-dataset-version'] };
  const refuse = (err: ApiError, headers: Record<string, string> = {}): { answer: GateAnswer } => ({ answer: errorAnswer(err, {}, Object.assign({}, version, headers)) });
  /** A key's counting identity (its hash's first 32 digits), made once per key record. */
  const identities = new WeakMap<KeyRecord, string>();
  const identityOf = (record: KeyRecord) => {
    let id = identities.get(record);
    if (id === undefined) identities.set(record, (id = `k:${record.hash.slice(0, 32)}`));
    return id;
  };
  // Read only to word a refusal: the hot path never looks at it.
  const authorization = (req: Request | undefined, incoming: NodeIncoming | undefined) => header(req, incoming, 'authorization') !== undefined;

  const basePairs = Object.entries(baseHeaders).flat();
  /** The answer's headers for a counted request (a new list: base, RateLimit-*, CORS on reference areas), or its 429. */
  const count = (plan: Plan, reference: boolean, verdict: Verdict): PairsDecision => {
    if (!verdict.allowed) {
      const limits = { 'ratelimit-limit': String(verdict.limit), 'ratelimit-remaining': String(verdict.remaining), 'ratelimit-reset': String(verdict.reset) };
      const err = new ApiError(429, 'rate_limited', `The ${plan} plan's limit of ${verdict.limit} requests is used up; it resets in ${verdict.reset} s (at ${formatInstant(verdict.resetAt)}).`);
      return refuse(err, Object.assign(limits, reference ? CORS : {}, { 'retry-after': String(verdict.reset) }));
    }
    const pairs = basePairs.slice();
    pairs.push('ratelimit-limit', String(verdict.limit), 'ratelimit-remaining', String(verdict.remaining), 'ratelimit-reset', String(verdict.reset));
    if (reference) pairs.push(...CORS_PAIRS);
    return { pairs };
  };

  /** What follows the key's lookup: plan access, then counting (in this tick when the counters are in memory). */
  const admit = (area: Area, plan: Plan, identity: string, req: Request | undefined, incoming: NodeIncoming | undefined, now: number): PairsDecision | Promise<PairsDecision> => {
    const reference = area === 'reference';
    if (!reference && !PAID_PLANS.includes(plan)) {
      return refuse(new ApiError(402, 'paid_plan_required', paidPlanMessage(plan, authorization(req, incoming))));
    }
    const verdict = limiter.checkNow(plan, identity, now);
    if (verdict !== undefined) return count(plan, reference, verdict);
    return limiter.check(plan, identity, now).then((v) => count(plan, reference, v));
  };

  /**
   * The gate on a request given by its method, path and headers (Node's request, else the WHATWG
   * one), with the admitted request's headers as a flat list; `area` is gatedAreaOf(pathname), when the
   * caller has it already; `now` the instant the request is counted at.
   */
  function decidePairs(method: string, pathname: string, incoming: NodeIncoming | undefined, req?: Request, area: Area | undefined = gatedAreaOf(pathname), now = Date.now()): PairsDecision | Promise<PairsDecision> {
    if (method === 'OPTIONS') {
      if (!routeExists(pathname)) return { pairs: basePairs.slice() }; // uncounted, to the router's 404 (as GET gets)
      const allow = { allow: 'GET, HEAD, OPTIONS' };
      const cors = area === 'reference' ? { ...CORS, 'access-control-allow-methods': 'GET, HEAD, OPTIONS', 'access-control-allow-headers': 'X-API-Key, If-None-Match', 'access-control-max-age': '86400' } : {};
      return { answer: { status: 204, headers: { ...version, ...allow, ...cors }, body: null } };
    }
    if (!area) return { pairs: basePairs.slice() };

    const key = header(req, incoming, 'x-api-key');
    if (key === undefined) {
      const forwarded = trustProxy ? header(req, incoming, 'x-forwarded-for')?.split(',').pop()?.trim() : undefined;
      return admit(area, 'anonymous', `ip:${clientBlock(forwarded || incoming?.socket?.remoteAddress || 'unknown', ipv6Prefix)}`, req, incoming, now);
    }
    const k = key.trim();
    const record = keys.find(k);
    if (record !== undefined) return admit(area, record.plan, identityOf(record), req, incoming, now);
    // An unknown key may be one created a moment ago: findNew checks the file first (rate-limited).
    // It counts at the instant the check ends, as it did when the gate took the time itself.
    return keys.findNew(k).then((found) =>
      found ? admit(area, found.plan, identityOf(found), req, incoming, Date.now()) : refuse(new ApiError(401, 'invalid_api_key', invalidKeyMessage(authorization(req, incoming)))),
    );
  }

  return { decidePairs };
}
