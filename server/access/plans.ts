/**
 * Plans and their limits (spec 5 and 8). Quotas count calendar periods in
 * UTC (a day for anonymous and free callers, a month for paid plans); the
 * burst limit is a short fixed window against floods.
 */

export type Plan = 'anonymous' | 'free' | 'starter' | 'pro' | 'growth';
export const PLANS: readonly Plan[] = ['anonymous', 'free', 'starter', 'pro', 'growth'];
export const PAID_PLANS: readonly Plan[] = ['starter', 'pro', 'growth'];

export interface PlanLimits {
  quota: number;
  period: 'day' | 'month';
  /** Requests allowed per burst window. */
  burst: number;
  burstSeconds: number;
}

export const DEFAULT_LIMITS: Record<Plan, PlanLimits> = {
  anonymous: { quota: 30, period: 'day', burst: 5, burstSeconds: 10 },
  free: { quota: 60, period: 'day', burst: 10, burstSeconds: 10 },
  starter: { quota: 15_000, period: 'month', burst: 20, burstSeconds: 1 },
  pro: { quota: 100_000, period: 'month', burst: 50, burstSeconds: 1 },
  growth: { quota: 500_000, period: 'month', burst: 100, burstSeconds: 1 },
};

/**
 * Limits with operator overrides from PLAN_LIMITS, a JSON object such as
 * {"growth": {"burst": 500}} (for an internal plan, or a benchmark).
 */
export function planLimits(env = process.env.PLAN_LIMITS): Record<Plan, PlanLimits> {
  if (!env) return DEFAULT_LIMITS;
  const refuse = (why: string): never => {
    throw new Error(`PLAN_LIMITS must be a JSON object of plans (${PLANS.join(', ')}) and their limits, such as {"growth": {"burst": 500}}: ${why}`);
  };
  let overrides: unknown;
  try {
    overrides = JSON.parse(env);
  } catch (err) {
    refuse(`it is not JSON (${(err as Error).message})`);
  }
  if (typeof overrides !== 'object' || overrides === null || Array.isArray(overrides)) return refuse('it is not an object');
  const out = { ...DEFAULT_LIMITS };
  for (const [plan, limits] of Object.entries(overrides)) {
    if (!(PLANS as readonly string[]).includes(plan)) refuse(`there is no plan "${plan.slice(0, 40)}"`);
    if (typeof limits !== 'object' || limits === null) return refuse(`${plan} is not an object`);
    for (const [key, value] of Object.entries(limits)) {
      const ok = key === 'period' ? value === 'day' || value === 'month' : ['quota', 'burst', 'burstSeconds'].includes(key) && Number.isInteger(value) && (value as number) > 0;
      if (!ok) refuse(`${plan}.${key.slice(0, 40)} is not a known limit with a valid value (quota, burst, burstSeconds: whole numbers above 0; period: "day" or "month")`);
    }
    out[plan as Plan] = { ...out[plan as Plan], ...(limits as Partial<PlanLimits>) };
  }
  return out;
}

const current: Record<'day' | 'month', { id: string; startsAt: number; endsAt: number } | undefined> = { day: undefined, month: undefined };

/** The calendar period in UTC containing `ms` and the instant it ends (the current one is cached). */
export function periodOf(ms: number, period: 'day' | 'month'): { id: string; endsAt: number } {
  const c = current[period];
  if (c && ms >= c.startsAt && ms < c.endsAt) return c;
  const p = computePeriod(ms, period);
  current[period] = p;
  return p;
}

function computePeriod(ms: number, period: 'day' | 'month'): { id: string; startsAt: number; endsAt: number } {
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth();
  if (period === 'day') {
    return { id: d.toISOString().slice(0, 10), startsAt: Date.UTC(y, m, d.getUTCDate()), endsAt: Date.UTC(y, m, d.getUTCDate() + 1) };
  }
  return { id: d.toISOString().slice(0, 7), startsAt: Date.UTC(y, m, 1), endsAt: Date.UTC(y, m + 1, 1) };
}

/** Which plans may use an area (server/areas.ts): reference areas are open to all, premium ones to paid plans. */
export type { Area } from '../areas.js';
