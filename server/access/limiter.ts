/**
 * Request counting: in memory by default, in Redis (rate-limiter-flexible)
 * when REDIS_URL is set so that several instances share one quota. If Redis
 * becomes unreachable, or hangs (no answer within REDIS_COMMAND_TIMEOUT_MS),
 * the service keeps answering (fails open) and counts in each instance's
 * memory meanwhile; the state shows in the log and /healthz.
 *
 * The memory counters are counted synchronously (MemoryCounter, the fixed
 * windows of rate-limiter-flexible's RateLimiterMemory without its promises):
 * checkNow() gives the verdict in the same tick, so that an answer needs no
 * promise when no Redis is involved (measured: the promise alone cost about a
 * sixth of the throughput).
 */
import { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { periodOf, PLANS, type Plan, type PlanLimits } from './plans.js';

export interface Verdict {
  allowed: boolean;
  /** The policy the headers describe: the quota, or the burst window when that is what refused. */
  limit: number;
  remaining: number;
  /** Seconds until the counted window resets (RateLimit-Reset, Retry-After). */
  reset: number;
  /** The instant it resets, in epoch milliseconds (the 429 message names it). */
  resetAt: number;
}

interface Counters {
  quota: RateLimiterAbstract;
  burst: RateLimiterAbstract;
}

/**
 * Fixed-window counters in this instance's memory, with RateLimiterMemory's
 * semantics: a key's window starts at its first request and lasts `durationMs`,
 * or, for a quota (`durationMs` 0), until the end of the calendar period the
 * caller names (its keys carry the period, so a new period is a new key); every
 * request counts, refused ones too; a request is refused once the window's count
 * exceeds `points`. Ended windows are dropped by a sweep rather than a timer per
 * key, so yesterday's callers leave memory once yesterday is over.
 */
export class MemoryCounter {
  private readonly windows = new Map<string, { count: number; endsAt: number }>();
  private nextSweep = 0;

  constructor(
    readonly points: number,
    private readonly durationMs: number,
  ) {}

  /** Windows held now (ended ones may linger until the next sweep, at most one window length or a second). */
  get size(): number {
    return this.windows.size;
  }

  /**
   * Counts one request of `key`: the count in its window so far, and the ms before that window ends. A quota
   * counter (`durationMs` 0) takes the end of the key's period as `endsAt`.
   */
  consume(key: string, now = Date.now(), endsAt = now + this.durationMs): { consumed: number; msBeforeNext: number } {
    const w = this.windows.get(key);
    if (w !== undefined && now < w.endsAt) {
      w.count++;
      return { consumed: w.count, msBeforeNext: w.endsAt - now };
    }
    if (now >= this.nextSweep) this.sweep(now);
    this.windows.set(key, { count: 1, endsAt });
    return { consumed: 1, msBeforeNext: endsAt - now };
  }

  /** Drops ended windows, at most once per window length or second (a new key's first request pays for it). */
  private sweep(now: number): void {
    this.nextSweep = now + Math.max(this.durationMs, 1000);
    for (const [key, w] of this.windows) if (w.endsAt <= now) this.windows.delete(key);
  }
}

interface LocalCounters {
  quota: MemoryCounter;
  burst: MemoryCounter;
}

interface PlanLimiters {
  limits: PlanLimits;
  /** This instance's memory: the only counters without Redis, the fallback with it. */
  local: LocalCounters;
  shared?: Counters;
}

/** How long one Redis command may take before the gate stops waiting and fails open. */
export const DEFAULT_REDIS_TIMEOUT_MS = 100;
/** How often a PING checks Redis: it notices a hang with no traffic, and the recovery. */
const HEARTBEAT_MS = 1000;

/** REDIS_COMMAND_TIMEOUT_MS, in milliseconds (1 to 60000; default 100). */
export function redisTimeoutMs(env = process.env.REDIS_COMMAND_TIMEOUT_MS): number {
  if (env === undefined || env === '') return DEFAULT_REDIS_TIMEOUT_MS;
  const ms = Number(env);
  if (!Number.isInteger(ms) || ms < 1 || ms > 60_000) throw new Error(`REDIS_COMMAND_TIMEOUT_MS must be a whole number of milliseconds from 1 to 60000, not ${JSON.stringify(env)}`);
  return ms;
}

/** ioredis rejects a command that outlives `commandTimeout` with exactly this message. */
const isTimeout = (err: unknown) => err instanceof Error && err.message === 'Command timed out';

export class Limiter {
  private readonly plans = new Map<Plan, PlanLimiters>();
  /**
   * Each caller's quota counter key (`identity:period`), per kind of period, for the period it was
   * made in: building and hashing the joined string on every request cost a tenth of the gate
   * (measured). Emptied when its period ends, so it never holds more callers than that period's counters.
   */
  private readonly quotaKeys = { day: { id: '', keys: new Map<string, string>() }, month: { id: '', keys: new Map<string, string>() } };
  private readonly redis?: Redis;
  private readonly timeoutMs: number;
  private heartbeat?: NodeJS.Timeout;
  /** The connection is up but Redis stopped answering (a SIGSTOP, a long fork, a saturated host). */
  private hung = false;
  private lastReachable = true;

  constructor(limits: Record<Plan, PlanLimits>, redisUrl?: string, private readonly log: (line: string) => void = console.error, timeoutMs?: number) {
    this.timeoutMs = redisUrl ? (timeoutMs ?? redisTimeoutMs()) : 0;
    if (redisUrl) {
      // commandTimeout bounds every command; without it a hung Redis holds each request until
      // the TCP connection dies (the kernel keeps acknowledging, so that can take minutes).
      this.redis = new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: this.timeoutMs });
      this.redis.on('error', () => this.noteReachable()); // ioredis reconnects by itself; the state is logged once per change
      this.redis.on('ready', () => this.setHung(false)); // a new connection passed ioredis' ready check: Redis answers
      this.redis.on('end', () => this.noteReachable());
      this.redis.on('close', () => this.noteReachable());
      this.heartbeat = setInterval(() => this.probe(), HEARTBEAT_MS).unref();
    }
    for (const plan of PLANS) this.plans.set(plan, this.countersFor(plan, limits[plan]));
  }

  private countersFor(plan: Plan, l: PlanLimits): PlanLimiters {
    // Quota keys carry their calendar period, so a counter never needs to reset by itself.
    // Redis expires old ones a little after their period ends; in memory each window ends with
    // its period and the counter's sweep drops it (no timer per key: a TTL over 24.8 days would
    // overflow Node's timers).
    const quotaTtl = l.period === 'day' ? 90_000 : 32 * 86_400;
    const quotaOpts = { points: l.quota, keyPrefix: `rdq_${plan}` };
    const burstOpts = { points: l.burst, duration: l.burstSeconds, keyPrefix: `rdb_${plan}` };
    const local = { quota: new MemoryCounter(l.quota, 0), burst: new MemoryCounter(l.burst, l.burstSeconds * 1000) };
    if (!this.redis) return { limits: l, local };
    // No insuranceLimiter: check() falls back to `local` itself, so it sees why Redis failed.
    const shared = {
      quota: new RateLimiterRedis({ ...quotaOpts, duration: quotaTtl, storeClient: this.redis, rejectIfRedisNotReady: true }),
      burst: new RateLimiterRedis({ ...burstOpts, storeClient: this.redis, rejectIfRedisNotReady: true }),
    };
    return { limits: l, local, shared };
  }

  /** Counter windows held in this instance's memory, over every plan (quota and burst). */
  get memoryWindows(): number {
    let n = 0;
    for (const p of this.plans.values()) n += p.local.quota.size + p.local.burst.size;
    return n;
  }

  get store(): 'memory' | 'redis' {
    return this.redis ? 'redis' : 'memory';
  }

  /** Whether the shared store is reachable and answering in time (always true in memory). */
  get reachable(): boolean {
    return !this.redis || (this.redis.status === 'ready' && !this.hung);
  }

  private setHung(hung: boolean): void {
    this.hung = hung;
    this.noteReachable();
  }

  private noteReachable(): void {
    const now = this.reachable;
    if (now === this.lastReachable) return;
    this.lastReachable = now;
    const why = this.hung ? `no answer within ${this.timeoutMs} ms` : 'not connected';
    this.log(now ? 'rate-limit store: redis reachable again, limits shared' : `rate-limit store: redis unreachable, limits degraded to per-instance memory counters (failing open): ${why}`);
  }

  /** One PING per heartbeat on an open connection: a timeout marks Redis hung, an answer clears it. */
  private probe(): void {
    if (this.redis?.status !== 'ready') return; // a closed connection is ioredis' to reconnect
    this.redis.ping().then(
      () => this.setHung(false),
      (err) => this.noteFailure(err),
    );
  }

  private noteFailure(err: unknown): void {
    if (isTimeout(err)) this.setHung(true);
    else this.noteReachable();
  }

  /**
   * Consumes one point in Redis while it is reachable, otherwise (or when the command fails
   * or times out) in this instance's memory: the same fail-open path for a dead and a hung
   * Redis. While Redis is hung no command is sent, so none waits; the heartbeat finds the way back.
   */
  private async consume(p: PlanLimiters, which: keyof Counters, key: string, endsAt?: number): Promise<RateLimiterRes> {
    if (p.shared && this.reachable) {
      try {
        return await p.shared[which].consume(key);
      } catch (err) {
        if (err instanceof RateLimiterRes) throw err;
        this.noteFailure(err);
      }
    }
    const counter = p.local[which];
    const { consumed, msBeforeNext } = counter.consume(key, Date.now(), endsAt);
    const res = new RateLimiterRes(Math.max(counter.points - consumed, 0), msBeforeNext, consumed);
    if (consumed > counter.points) throw res;
    return res;
  }

  /**
   * check() in the same tick when the counting is in this instance's memory (no Redis, or
   * Redis unreachable); undefined when it needs a round trip to Redis (then call check()).
   */
  checkNow(plan: Plan, identity: string, now = Date.now()): Verdict | undefined {
    if (this.redis && this.reachable) return undefined;
    const p = this.plans.get(plan)!;
    const period = periodOf(now, p.limits.period);
    const reset = Math.max(1, Math.ceil((period.endsAt - now) / 1000));
    // The burst window first: a refused request does not use up quota.
    const burst = p.local.burst.consume(identity, now);
    if (burst.consumed > p.limits.burst) {
      // The window's end, rounded up to the second like the reset it is reported with.
      const resetAt = Math.ceil((now + burst.msBeforeNext) / 1000) * 1000;
      return { allowed: false, limit: p.limits.burst, remaining: 0, reset: Math.max(1, Math.ceil(burst.msBeforeNext / 1000)), resetAt };
    }
    const quota = p.local.quota.consume(this.quotaKey(identity, p.limits.period, period.id), now, period.endsAt);
    if (quota.consumed > p.limits.quota) return { allowed: false, limit: p.limits.quota, remaining: 0, reset, resetAt: period.endsAt };
    return { allowed: true, limit: p.limits.quota, remaining: p.limits.quota - quota.consumed, reset, resetAt: period.endsAt };
  }

  private quotaKey(identity: string, period: 'day' | 'month', id: string): string {
    const cache = this.quotaKeys[period];
    if (cache.id !== id) {
      cache.keys.clear();
      cache.id = id;
    }
    let key = cache.keys.get(identity);
    if (key === undefined) cache.keys.set(identity, (key = `${identity}:${id}`));
    return key;
  }

  /** Counts one request of `identity` (a key hash or a client address) on `plan`. */
  async check(plan: Plan, identity: string, now = Date.now()): Promise<Verdict> {
    const local = this.checkNow(plan, identity, now);
    if (local !== undefined) return local;
    const p = this.plans.get(plan)!;
    const period = periodOf(now, p.limits.period);
    const reset = Math.max(1, Math.ceil((period.endsAt - now) / 1000));
    // The burst window first: a refused request does not use up quota.
    try {
      await this.consume(p, 'burst', identity);
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) return this.failOpen(p, reset, period.endsAt);
      // The window's end, rounded up to the second like the reset it is reported with.
      const resetAt = Math.ceil((now + res.msBeforeNext) / 1000) * 1000;
      return { allowed: false, limit: p.limits.burst, remaining: 0, reset: Math.max(1, Math.ceil(res.msBeforeNext / 1000)), resetAt };
    }
    try {
      const res = await this.consume(p, 'quota', `${identity}:${period.id}`, period.endsAt);
      return { allowed: true, limit: p.limits.quota, remaining: res.remainingPoints, reset, resetAt: period.endsAt };
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) return this.failOpen(p, reset, period.endsAt);
      return { allowed: false, limit: p.limits.quota, remaining: 0, reset, resetAt: period.endsAt };
    }
  }

  /** Neither the store nor this instance's memory answered: let the request through. */
  private failOpen(p: PlanLimiters, reset: number, resetAt: number): Verdict {
    this.noteReachable();
    return { allowed: true, limit: p.limits.quota, remaining: p.limits.quota, reset, resetAt };
  }

  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    if (this.redis) this.redis.disconnect();
  }
}
