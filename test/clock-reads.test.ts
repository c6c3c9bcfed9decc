/**
 * Whether an answer may be kept is decided by the clock reads of its route (server/answer-headers.ts): a route
 * that read the time through the app's clock (createApp's `now`) is kept only as long as its answer holds. A route
 * that read the time some other way would be kept for good, and no type stops it; this test does. The routes
 * (server/routes/) and the pure code they call (lib/) may not read the time themselves. One exception, listed:
 * /docs' byte meter, which decides whether to answer 429 (never kept) and not what a 200 says.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

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
