import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../server/app.js';
import { createKey, KeyRing } from '../server/access/keys.js';
import { Limiter } from '../server/access/limiter.js';
import { DEFAULT_LIMITS, PLANS, type Plan, type PlanLimits } from '../server/access/plans.js';
import { DatasetStore } from '../server/store.js';
import { TimezoneStore } from '../server/timezone-store.js';

/** The dataset the tests read: dist-data/, or another build (REFDATA_DATA_DIR, with REFDATA_SKIP_BUILD=1). */
export const DATA_DIR = process.env.REFDATA_DATA_DIR ?? join(import.meta.dirname, '..', 'dist-data');

/**
 * `npm run test:full` (REFDATA_FULL=1, which CI runs after `npm test`): the exhaustive form of the
 * few checks that scale with the dataset's 143,000 files (every static path through the API, the
 * bulk tables rebuilt from every JSON file, 10,000 package questions). `npm test` runs the same
 * checks on an even spread that covers every location and family; see vitest.config.ts.
 */
export const FULL = process.env.REFDATA_FULL === '1';

let store: DatasetStore | undefined;
export function sharedStore(): DatasetStore {
  store ??= new DatasetStore(DATA_DIR);
  return store;
}

let timezones: TimezoneStore | undefined;
export function sharedTimezones(): TimezoneStore {
  timezones ??= new TimezoneStore(DATA_DIR);
  return timezones;
}

/** Limits high enough that data tests never meet them (the access tests use the real ones). */
export const UNLIMITED: Record<Plan, PlanLimits> = Object.fromEntries(
  PLANS.map((p) => [p, { ...DEFAULT_LIMITS[p], quota: 1e9, burst: 1e9 }]),
) as Record<Plan, PlanLimits>;

/** A keys file in a temporary folder with one key per paid or free plan. */
export function makeKeys() {
  const file = join(mkdtempSync(join(tmpdir(), 'refdata-keys-')), 'api-keys.json');
  const keys = {
    free: createKey(file, 'free', 'test free').key,
    starter: createKey(file, 'starter', 'test starter').key,
    pro: createKey(file, 'pro', 'test pro').key,
    growth: createKey(file, 'growth', 'test growth').key,
  };
  return { file, keys };
}

let testKeys: ReturnType<typeof makeKeys> | undefined;
export function sharedKeys() {
  testKeys ??= makeKeys();
  return testKeys;
}

/** An in-process app over the built dataset, clock frozen at `now`, limits out of the way. */
export function appAt(now = new Date('2026-11-21T12:00:00Z')) {
  const { file } = sharedKeys();
  return createApp({
    store: sharedStore(),
    timezones: sharedTimezones(),
    access: { keys: new KeyRing(file), limiter: new Limiter(UNLIMITED), trustProxy: false },
    now: () => now,
  });
}

/** GET with a growth-plan key, unless `key` says otherwise (null: no key). */
export async function getJson(app: ReturnType<typeof appAt>, path: string, key: string | null = sharedKeys().keys.growth) {
  const res = await app.request(path, key === null ? undefined : { headers: { 'x-api-key': key } });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

/** A free TCP port on loopback, for a child server process. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** True when `command` (a name on PATH, or a path) runs with `args` and exits 0. */
export function runs(command: string, args: string[]): boolean {
  return spawnSync(command, args, { stdio: 'ignore' }).status === 0;
}

/**
 * Fails, naming the install line, when a Debian package a test needs is missing (`present` false). Never a skip: a
 * differential test that skips passes in silence on a machine without its independent implementation. `bash .ci/run`
 * installs every package the tests use; README.md's prerequisites list them.
 */
export function requirePackage(debianPackage: string, present: boolean, what = debianPackage): void {
  if (present) return;
  const needed = what === debianPackage ? '' : ` (${what})`;
  throw new Error(`Debian package ${debianPackage} is not installed${needed}: sudo apt-get install -y ${debianPackage}`);
}
