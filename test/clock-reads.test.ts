/**
 * How long an answer may be kept is declared by its route (server/clock.ts): a route that reads the time through
 * the Clock it is given must say how long its answer holds, or answer() refuses it. A route that read the time some
 * other way would escape that check, so the routes (server/routes/) and the pure code they call (lib/) may not read
 * the time themselves. One exception, listed: /docs' byte meter, which decides whether to answer 429 (never kept)
 * and not what a 200 says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { answer, KEEPER, type AnswerKeeper } from '../server/answer-headers.js';
import { Clock, type Holds } from '../server/clock.js';

const ROOT = join(import.meta.dirname, '..');
const READS = /\bDate\.now\(\)|new Date\(\)|performance\.now\(\)|process\.hrtime/;
const ALLOWED: Record<string, string> = {
  'server/routes/docs.ts': "the docs' byte meter: its window and a 429's reset instant, never part of a 200",
};

const files = (dir: string) =>
  readdirSync(join(ROOT, dir))
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.fixture.ts'))
    .map((f) => `${dir}/${f}`);

describe('routes and lib/ read the time only through the clock they are given', () => {
  it('no Date.now(), new Date() or performance.now() in server/routes/ or lib/ (but the listed exception)', () => {
    const offenders: string[] = [];
    for (const file of [...files('server/routes'), ...files('lib')]) {
      if (ALLOWED[file]) continue;
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (READS.test(line) && !line.trim().startsWith('*') && !line.trim().startsWith('//')) offenders.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(offenders).toEqual([]);
  });

  it('the exception still reads the time (remove it from the list when it no longer does)', () => {
    for (const file of Object.keys(ALLOWED)) expect(READS.test(readFileSync(join(ROOT, file), 'utf8')), file).toBe(true);
  });
});

describe('a route that reads the time says how long its answer holds', () => {
  const NOW = Date.UTC(2026, 10, 28, 10, 15, 30);
  const clock = new Clock(() => new Date(NOW));
  /** One route on a path of a public area and one of a private one, reading the time or not, declaring `holds` or not. */
  async function run(path: string, reads: boolean, holds?: Holds) {
    const app = new Hono();
    app.get(path, (c) => {
      if (reads) clock.now(c);
      return answer(c, '{}', holds === undefined ? undefined : { holds });
    });
    app.onError((err) => new Response(err.message, { status: 500 }));
    const offered: Array<{ until: number; maxAge: boolean }> = [];
    const keeper: AnswerKeeper = { keep: (_t, _k, until, maxAge) => void offered.push({ until, maxAge }) };
    const res = await app.fetch(new Request(`http://localhost${path}`), { incoming: { headers: {}, url: path, [KEEPER]: keeper } } as never);
    return { status: res.status, text: await res.text(), cacheControl: res.headers.get('cache-control'), offered: offered[0] };
  }

  it('reading the time without a declaration is an internal error, not an answer kept for good', async () => {
    for (const path of ['/v1/timezones/UTC', '/v1/business-days/US']) {
      const r = await run(path, true);
      expect(r.status, path).toBe(500);
      expect(r.text).toMatch(/read the time without saying how long its answer holds/);
      expect(r.offered).toBeUndefined();
    }
  });

  it('declared: today holds until the next whole minute, an instant until that instant; not read: for good', async () => {
    expect((await run('/v1/business-days/US', true, 'today')).offered).toEqual({ until: Date.UTC(2026, 10, 28, 10, 16), maxAge: false });
    expect((await run('/v1/business-days/US', false, 'today')).offered).toEqual({ until: Infinity, maxAge: false });
    expect((await run('/v1/business-days/US', false)).offered).toEqual({ until: Infinity, maxAge: false });
    // A public answer that read the time: its max-age counts down to the instant (at most an hour), for shared caches too.
    const zone = await run('/v1/timezones/UTC', true, { until: NOW + 90_000 });
    expect(zone.offered).toEqual({ until: NOW + 90_000, maxAge: true });
    expect(zone.cacheControl).toBe('public, max-age=90, must-revalidate');
    expect((await run('/v1/timezones/UTC', true, { until: Infinity })).cacheControl).toBe('public, max-age=3600, must-revalidate');
    // A private answer stays private whatever it holds until.
    expect((await run('/v1/business-days/US', true, 'today')).cacheControl).toBe('private, no-cache');
  });
});
