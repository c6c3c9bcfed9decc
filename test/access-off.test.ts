/**
 * ACCESS_CONTROL=off (a deployment whose own gateway authenticates): every area open and uncounted, and nothing
 * of the gate is touched: no keys file read (its absence was logged on every start), no counters store reached.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Processes } from './processes.js';

const processes = new Processes();
afterAll(() => processes.stopAll());

describe('ACCESS_CONTROL=off', () => {
  it('answers premium areas without a key, uncounted, and never reads the keys file or reaches Redis', async () => {
    const { base } = await processes.server('open', {
      ACCESS_CONTROL: 'off',
      API_KEYS_FILE: '/nonexistent/refdata/api-keys.json',
      REDIS_URL: 'redis://127.0.0.1:1',
    });
    const res = await fetch(`${base}/v1/business-days/US?date=2026-01-19`);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-limit')).toBeNull();
    const health = (await (await fetch(`${base}/healthz`)).json()) as { status: string; limits: unknown; keys: unknown };
    expect(health).toMatchObject({ status: 'ok', limits: null, keys: null });
    const log = processes.logOf('open');
    expect(log).toContain('access control off');
    expect(log).not.toMatch(/keys file|api-keys|redis/i);
  });
});
