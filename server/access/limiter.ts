/**
 * Request counting with rate-limiter-flexible: in memory by default, in Redis
 * when REDIS_URL is set so that several instances share one quota. If Redis
 * becomes unreachable the service keeps answering (fails open) and counts in
 * each instance's memory meanwhile; the state shows in the log and /healthz.
 */
import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { periodOf, PLANS, type Plan, type PlanLimits } from './plans.js';

export interface Verdict {
  allowed: boolean;
  /** The policy the headers describe: the quota, or the burst window when that is what refused. */
  limit: number;
  remaining: number;
  /** Seconds until the counted window resets. */
  reset: number;
}

interface PlanLimiters {
  limits: PlanLimits;
  quota: RateLimiterAbstract;
  burst: RateLimiterAbstract;
}

export class Limiter {
  private readonly plans = new Map<Plan, PlanLimiters>();
  private readonly redis?: Redis;
  private lastReachable = true;

  constructor(limits: Record<Plan, PlanLimits>, redisUrl?: string, private readonly log: (line: string) => void = console.error) {
    if (redisUrl) {
      this.redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
      this.redis.on('error', () => this.noteReachable()); // ioredis reconnects by itself; the state is logged once per change
      this.redis.on('ready', () => this.noteReachable());
      this.redis.on('end', () => this.noteReachable());
      this.redis.on('close', () => this.noteReachable());
    }
    for (const plan of PLANS) {
      const l = limits[plan];
      // Quota keys carry their calendar period, so a counter never needs to reset by itself.
      // Redis expires old ones a little after their period ends; in memory a TTL over 24.8 days
      // would overflow Node's timers (and expire at once), so there they live until restart:
      // one small entry per caller and period.
      const quotaTtl = l.period === 'day' ? 90_000 : 32 * 86_400;
      const quotaOpts = { points: l.quota, keyPrefix: `rdq_${plan}` };
      const burstOpts = { points: l.burst, duration: l.burstSeconds, keyPrefix: `rdb_${plan}` };
      const memoryQuota = () => new RateLimiterMemory({ ...quotaOpts, duration: 0 });
      this.plans.set(
        plan,
        this.redis
          ? {
              limits: l,
              quota: new RateLimiterRedis({ ...quotaOpts, duration: quotaTtl, storeClient: this.redis, rejectIfRedisNotReady: true, insuranceLimiter: memoryQuota() }),
              burst: new RateLimiterRedis({ ...burstOpts, storeClient: this.redis, rejectIfRedisNotReady: true, insuranceLimiter: new RateLimiterMemory(burstOpts) }),
            }
          : { limits: l, quota: memoryQuota(), burst: new RateLimiterMemory(burstOpts) },
      );
    }
  }

  get store(): 'memory' | 'redis' {
    return this.redis ? 'redis' : 'memory';
  }

  /** Whether the shared store is reachable (always true in memory). */
  get reachable(): boolean {
    return !this.redis || this.redis.status === 'ready';
  }

  private noteReachable(): void {
    const now = this.reachable;
    if (now === this.lastReachable) return;
    this.lastReachable = now;
    this.log(now ? 'rate-limit store: redis reachable again, limits shared' : 'rate-limit store: redis unreachable, limits degraded to per-instance memory counters (failing open)');
  }

  /** Counts one request of `identity` (a key hash or a client address) on `plan`. */
  async check(plan: Plan, identity: string, now = Date.now()): Promise<Verdict> {
    const p = this.plans.get(plan)!;
    const period = periodOf(now, p.limits.period);
    const reset = Math.max(1, Math.ceil((period.endsAt - now) / 1000));
    // The burst window first: a refused request does not use up quota.
    try {
      await p.burst.consume(identity);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) return this.failOpen(p, reset);
      return { allowed: false, limit: p.limits.burst, remaining: 0, reset: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
    }
    try {
      const res = await p.quota.consume(`${identity}:${period.id}`);
      return { allowed: true, limit: p.limits.quota, remaining: res.remainingPoints, reset };
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) return this.failOpen(p, reset);
      return { allowed: false, limit: p.limits.quota, remaining: 0, reset };
    }
  }

  /** Neither the store nor its in-memory insurance answered: let the request through. */
  private failOpen(p: PlanLimiters, reset: number): Verdict {
    this.noteReachable();
    return { allowed: true, limit: p.limits.quota, remaining: p.limits.quota, reset };
  }

  async close(): Promise<void> {
    if (this.redis) this.redis.disconnect();
  }
}
