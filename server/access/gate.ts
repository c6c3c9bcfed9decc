/**
 * The access gate, run before routing for every request: identifies the
 * caller (X-API-Key, else the client address), enforces plan access (401,
 * 402), counts the request (429) and hands the routes the headers every
 * answer carries (RateLimit-*, CORS on the reference areas). It runs outside
 * Hono's middleware chain, which would cost a quarter of the throughput.
 */
import { ApiError } from '../errors.js';
import type { KeyRing } from './keys.js';
import type { Limiter } from './limiter.js';
import { areaOf, PAID_PLANS, type Plan } from './plans.js';

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
  baseHeaders: Record<string, string>;
}

export type GateResult = { response: Response } | { headers: Record<string, string> };

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Dataset-Version, ETag',
};

function errorResponse(err: ApiError, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(err.toBody()), { status: err.status, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers } });
}

function header(req: Request, incoming: NodeIncoming | undefined, name: string): string | undefined {
  if (incoming) {
    const v = incoming.headers[name];
    return Array.isArray(v) ? v[0] : v;
  }
  return req.headers.get(name) ?? undefined;
}

export function createGate({ keys, limiter, trustProxy, baseHeaders }: GateOptions) {
  // Every answer, refusals included, names the dataset it comes from.
  const version = { 'x-dataset-version': baseHeaders['x-dataset-version'] };
  const refuse = (err: ApiError, headers: Record<string, string> = {}) => errorResponse(err, { ...version, ...headers });
  return async function gate(req: Request, pathname: string, incoming: NodeIncoming | undefined): Promise<GateResult> {
    const area = areaOf(pathname);
    if (req.method === 'OPTIONS') {
      const allow = { allow: 'GET, HEAD, OPTIONS' };
      const cors = area === 'reference' ? { ...CORS, 'access-control-allow-methods': 'GET, HEAD, OPTIONS', 'access-control-allow-headers': 'X-API-Key, If-None-Match', 'access-control-max-age': '86400' } : {};
      return { response: new Response(null, { status: 204, headers: { ...version, ...allow, ...cors } }) };
    }
    if (!area) return { headers: baseHeaders };

    let plan: Plan = 'anonymous';
    let identity: string;
    const key = header(req, incoming, 'x-api-key');
    if (key !== undefined) {
      const record = keys.find(key.trim());
      if (!record) return { response: refuse(new ApiError(401, 'invalid_api_key', 'The X-API-Key header does not hold a valid key (unknown or revoked). Omit it to call the free reference endpoints anonymously.')) };
      plan = record.plan;
      identity = `k:${record.hash.slice(0, 32)}`;
    } else {
      const forwarded = trustProxy ? header(req, incoming, 'x-forwarded-for')?.split(',').pop()?.trim() : undefined;
      identity = `ip:${forwarded || incoming?.socket?.remoteAddress || 'unknown'}`;
    }
    const cors = area === 'reference' ? CORS : {};
    if (area === 'premium' && !PAID_PLANS.includes(plan)) {
      const who = plan === 'anonymous' ? 'Anonymous callers' : 'The free plan';
      return { response: refuse(new ApiError(402, 'paid_plan_required', `${who} cannot use the business-days, travel and astronomy areas: they need a starter, pro or growth plan.`)) };
    }
    const verdict = await limiter.check(plan, identity);
    const limits = { 'ratelimit-limit': `${verdict.limit}`, 'ratelimit-remaining': `${verdict.remaining}`, 'ratelimit-reset': `${verdict.reset}` };
    if (!verdict.allowed) {
      const err = new ApiError(429, 'rate_limited', `The ${plan} plan's limit of ${verdict.limit} requests is used up; it resets in ${verdict.reset} s.`);
      return { response: refuse(err, { ...limits, ...cors, 'retry-after': String(verdict.reset) }) };
    }
    return { headers: { ...baseHeaders, ...limits, ...cors } };
  };
}
