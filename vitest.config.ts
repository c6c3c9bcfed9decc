import { defineConfig } from 'vitest/config';

/**
 * `npm test`: every test file but the rebuild check (its own command, `npm run test:rebuild`, which CI runs too).
 * The few checks that scale with the dataset's 143,000 files run on an even spread there, and in full in
 * `npm run test:full` (REFDATA_FULL=1; test/helpers.ts FULL), which CI runs after `npm test`.
 * `npm run test:quick` (REFDATA_QUICK=1, no build): leaves out as well the differential suites against
 * independent checkers and the tests that build, pack or install (listed below); `npm test` runs them.
 *
 * Three test files at a time on this 2-core machine: vitest's default for 2 cores is one, and most of the
 * heavy files spend their time waiting on the processes they drive (servers, Python, zdump, DuckDB, npm),
 * so a third keeps both cores busy (measured: 382 s of test files one at a time, 229 s three at a time).
 * REFDATA_TEST_WORKERS overrides it.
 */
const REBUILD = ['test/rebuild.test.ts'];
const SLOW = [
  'test/workalendar.test.ts', // python3-workalendar, every day 2018-2025 of 232 locations
  'test/astronomy-ephem.test.ts', // PyEphem
  'test/timezones-zdump.test.ts', // zdump over every zone
  'test/dataset-package.test.ts', // packs, installs offline, 10,000-question differential
  'test/ingest-holidays.test.ts', // date-holidays used plainly, 13 locations x 112 years
  'test/hardening-sources.test.ts', // builds from damaged sources
  'test/diff-data.test.ts',
  'test/travel-facts.test.ts',
  'test/docs-browser.test.ts', // headless Chromium
  'test/access-redis.test.ts', // redis-server processes
  'test/hardening-redis.test.ts',
  'test/static-contract.test.ts', // every one of ~140,000 static paths against the API
  'test/bulk.test.ts', // DuckDB, Python's csv module and sqlite3 over every table
  'test/artifacts.test.ts', // validates every file against its schema
  'test/hardening-keys.test.ts', // real server processes, keys-file faults
  'test/keys-cli.test.ts', // the CLI as processes
  'test/hardening-http.test.ts', // slow and abusive clients against a real server
  'test/workweek-order.test.ts', // packs and installs the package
  'test/geo-cache.test.ts', // a real server answering 10,000 distinct points
];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'lib/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(process.env.REFDATA_REBUILD === '1' ? [] : REBUILD), ...(process.env.REFDATA_QUICK === '1' ? SLOW : [])],
    // Builds dist-data from the current sources once before any test reads it; one scratch TMPDIR for the run.
    globalSetup: ['test/global-setup.ts'],
    maxWorkers: Number(process.env.REFDATA_TEST_WORKERS ?? 3),
    minWorkers: 1,
    testTimeout: 30_000,
    hookTimeout: 180_000,
  },
});
