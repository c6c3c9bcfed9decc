/**
 * The keys CLI as a script calls it, and a running server picking up what it
 * writes (issue 15), against real processes:
 * - `--help` on every command prints its usage and exits 0 (before: a stack trace);
 * - every mistake is one line on stderr and exit 2, nothing on stdout;
 * - `create --quiet` prints the key alone (before: three lines, `grep '^rdk_'`);
 * - a key created while the server runs works on its first request, with no
 *   sleep or retry (before: 401 "unknown or revoked" for up to a second);
 * - a flood of unknown keys makes the server check the keys file at most once
 *   per UNKNOWN_KEY_CHECK_MS, counted by a hook on the server's own fs calls.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey, hashKey, UNKNOWN_KEY_CHECK_MS } from '../server/access/keys.js';
import { DATA_DIR, makeKeys } from './helpers.js';
import { Processes } from './processes.js';

const ROOT = join(import.meta.dirname, '..');
const KEY_LINE = /^rdk_[A-Za-z0-9_-]{32}$/;
const STACK = /^\s+at |\bError\b|node:internal/m;
const procs = new Processes();
const tmpDirs: string[] = [];

afterAll(async () => {
  await procs.stopAll();
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'refdata-keys-cli-'));
  tmpDirs.push(dir);
  return join(dir, 'api-keys.json');
}

/** The CLI as `npm run keys --` runs it (tsx), without npm's own lines. */
const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'keys.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });

describe('--help', () => {
  const cases: [string[], RegExp][] = [
    [['--help'], /^usage: npm run keys -- <command> \[options\]\n/],
    [['-h'], /^usage: npm run keys -- <command> \[options\]\n/],
    [['help'], /^usage: npm run keys -- <command> \[options\]\n/],
    [['create', '--help'], /^usage: npm run keys -- create --plan <free\|starter\|pro\|growth> --name "<who>" \[--quiet\]/],
    [['create', '-h', '--plan', 'nonsense'], /^usage: npm run keys -- create /], // help wins over a bad value
    [['help', 'create'], /^usage: npm run keys -- create /],
    [['list', '--help'], /^usage: npm run keys -- list /],
    [['revoke', '--help'], /^usage: npm run keys -- revoke <hash-prefix>/],
    [['--help', 'revoke'], /^usage: npm run keys -- revoke <hash-prefix>/],
  ];
  for (const [args, usage] of cases) {
    it(`keys ${args.join(' ')}: usage on stdout, exit 0, no stack trace`, () => {
      const r = cli(...args);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(usage);
      expect(r.stdout).toMatch(/--file <path>/);
      expect(r.stdout).not.toMatch(STACK);
      expect(r.stderr).toBe('');
    });
  }

  it('the overview lists every command and each command lists its options', () => {
    expect(cli('--help').stdout).toMatch(/create[\s\S]*list[\s\S]*revoke/);
    expect(cli('create', '--help').stdout).toMatch(/--plan[\s\S]*--name[\s\S]*--quiet, -q/);
  });
});

describe('errors are one line', () => {
  const file = tempFile();
  const cases: [string, string[], RegExp][] = [
    ['no command', [], /^no command given: use create, list, revoke/],
    ['an unknown command', ['rotate'], /^unknown command "rotate": use create, list, revoke or help/],
    ['help on an unknown command', ['help', 'rotate'], /^unknown command "rotate"/],
    ['an unknown option', ['create', '--plan', 'free', '--name', 'x', '--bogus'], /^create: unknown option '--bogus'; create takes --plan, --name, --quiet, --file, --help/],
    ['an option of another command', ['list', '--quiet'], /^list: unknown option '--quiet'/],
    ['an option without its value', ['create', '--name', 'x', '--plan'], /^create: option --plan needs a value /],
    ['a value for a flag', ['create', '--plan', 'free', '--name', 'x', '--quiet=yes'], /^create: option '-q, --quiet' does not take an argument/],
    ['an ambiguous value', ['create', '--plan', 'free', '--name', '--quiet'], /^create: option --name needs a value, not the next option/],
    ['an unknown plan', ['create', '--plan', 'gold', '--name', 'x'], /^create: --plan must be one of free, starter, pro, growth, not "gold"$/],
    ['no name', ['create', '--plan', 'pro'], /^create: --name is required/],
    ['an extra argument', ['create', '--plan', 'pro', '--name', 'x', 'extra'], /^create: unexpected argument "extra"/],
    ['revoke without a prefix', ['revoke'], /^revoke: missing <hash-prefix>/],
    ['revoke with a short prefix', ['revoke', 'abc'], /^revoke: give at least 8 hex digits/],
    ['revoke with an unknown prefix', ['revoke', 'deadbeef'], /^revoke: no key has that hash prefix$/],
  ];
  for (const [what, args, message] of cases) {
    it(`${what}: one line on stderr, nothing on stdout, exit 2`, () => {
      const r = cli(...args.slice(0, 1), '--file', file, ...args.slice(1));
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.endsWith('\n')).toBe(true);
      expect(r.stderr.trimEnd().split('\n'), r.stderr).toEqual([expect.stringMatching(message)]);
      expect(r.stderr).not.toMatch(STACK);
    });
  }

  it('a key typed where a command goes is not echoed', () => {
    const key = 'rdk_' + 'Q'.repeat(32);
    const r = cli(key, '--file', file);
    expect(r.status).toBe(2);
    expect(r.stderr).not.toContain(key.slice(4));
    expect(r.stderr).toMatch(/^unknown command "rdk_\[redacted\]"/);
  });
});

describe('create --quiet', () => {
  it('prints exactly one line, the key, whose hash is now in the file', () => {
    const file = tempFile();
    for (const quiet of ['--quiet', '-q']) {
      const r = cli('create', '--plan', 'free', '--name', 'ci', quiet, '--file', file);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toBe('');
      const lines = r.stdout.split('\n');
      expect(lines, r.stdout).toHaveLength(2); // the key and the final newline
      expect(lines[0]).toMatch(KEY_LINE);
      expect(lines[1]).toBe('');
      expect(readFileSync(file, 'utf8')).toContain(hashKey(lines[0]!));
    }
  });

  it('without --quiet, the key is still printed once, with what was created', () => {
    const file = tempFile();
    const r = cli('create', '--plan', 'pro', '--name', 'billing backend', '--file', file);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^created pro key "billing backend" \(hash [0-9a-f]{12}\) in /);
    expect(r.stdout.split('\n').filter((l) => KEY_LINE.test(l))).toHaveLength(1);
  });
});

describe('a key created while the server runs', () => {
  // One connection per request: the CLI runs synchronously between two requests and blocks this process, so a pooled
  // keep-alive connection can be closed by the server's keep-alive timeout meanwhile and reused after it
  // ("other side closed" on a loaded machine). The tests are about the keys file, not connection reuse.
  const call = (base: string, key: string, path = '/v1/travel/JP') => fetch(base + path, { headers: { 'x-api-key': key, connection: 'close' } });

  it('works on its first request: keys create, then one request, no sleep and no retry', async () => {
    const { file, keys } = makeKeys();
    tmpDirs.push(join(file, '..'));
    const { base } = await procs.server('first-request', { DATA_DIR, API_KEYS_FILE: file, REDIS_URL: '' });
    expect((await call(base, keys.pro)).status).toBe(200);
    for (const plan of ['pro', 'starter', 'growth']) {
      const r = cli('create', '--plan', plan, '--name', `new ${plan}`, '--quiet', '--file', file);
      expect(r.status, r.stderr).toBe(0);
      const res = await call(base, r.stdout.trim());
      expect(res.status, `${plan}: ${await res.text()}`).toBe(200);
    }
  });

  it('works on its first request even right after an unknown key made the server check the file', async () => {
    // The unknown key spends this window's check; the new key's request falls inside the same
    // window and must wait for the next check rather than be refused.
    const { file, keys } = makeKeys();
    tmpDirs.push(join(file, '..'));
    const { base } = await procs.server('inside-window', { DATA_DIR, API_KEYS_FILE: file, REDIS_URL: '' });
    expect((await call(base, keys.pro)).status).toBe(200);
    for (let i = 0; i < 5; i++) {
      expect((await call(base, 'rdk_' + String(i).padStart(32, '0'))).status).toBe(401);
      const { key } = createKey(file, 'pro', `quick ${i}`);
      const started = performance.now();
      expect((await call(base, key)).status).toBe(200);
      expect(performance.now() - started).toBeLessThan(UNKNOWN_KEY_CHECK_MS + 400);
    }
  });

  it('works on its first request when the server started before the file existed', async () => {
    const file = tempFile();
    const { base } = await procs.server('no-file-yet', { DATA_DIR, API_KEYS_FILE: file, REDIS_URL: '' });
    const r = cli('create', '--plan', 'pro', '--name', 'first', '--quiet', '--file', file);
    expect(r.status, r.stderr).toBe(0);
    expect((await call(base, r.stdout.trim())).status).toBe(200);
  });
});

/**
 * Counts the server's statSync and readFileSync calls on the keys file, printed on SIGUSR2.
 * Loaded before the server's modules (NODE_OPTIONS --import), so keys.ts binds the counting
 * versions; the counts are the server's real file-system calls, not a model of them.
 */
const FS_HOOK = `
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
const file = process.env.API_KEYS_FILE;
const counts = { stat: 0, read: 0 };
for (const [name, kind] of [['statSync', 'stat'], ['readFileSync', 'read']]) {
  const real = fs[name];
  fs[name] = function (path, ...rest) { if (path === file) counts[kind]++; return real.call(this, path, ...rest); };
}
syncBuiltinESMExports();
process.on('SIGUSR2', () => process.stderr.write('keys-file-calls ' + JSON.stringify(counts) + '\\n'));
`;

describe('a flood of unknown keys', () => {
  it(`checks the keys file at most once per ${UNKNOWN_KEY_CHECK_MS} ms (plus the once-a-second reload), and reads it only when it changed`, async () => {
    const { file, keys } = makeKeys();
    tmpDirs.push(join(file, '..'));
    const name = 'flood';
    const { base, proc } = await procs.server(name, { DATA_DIR, API_KEYS_FILE: file, REDIS_URL: '', NODE_OPTIONS: `--import=data:text/javascript,${encodeURIComponent(FS_HOOK)}` });
    const counts = async () => {
      const before = procs.logOf(name).split('keys-file-calls').length;
      proc.kill('SIGUSR2');
      while (procs.logOf(name).split('keys-file-calls').length === before) await new Promise((r) => setTimeout(r, 10));
      const line = procs.logOf(name).split('\n').filter((l) => l.startsWith('keys-file-calls')).at(-1)!;
      return JSON.parse(line.slice('keys-file-calls '.length)) as { stat: number; read: number };
    };

    /** `requests` distinct unknown keys from 64 clients at once; returns the calls made meanwhile and the time it took. */
    const flood = async (requests: number, during?: () => void) => {
      const start = await counts();
      const t0 = performance.now();
      let next = 0;
      const statuses = new Map<number, number>();
      const worker = async () => {
        while (next < requests) {
          const res = await fetch(`${base}/v1/timezones/Asia%2FTokyo`, { headers: { 'x-api-key': 'rdk_' + String(next++).padStart(32, 'u') } });
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          await res.arrayBuffer();
          during?.();
        }
      };
      await Promise.all(Array.from({ length: 64 }, worker));
      const ms = performance.now() - t0;
      const end = await counts();
      expect(Object.fromEntries(statuses)).toEqual({ 401: requests });
      // One check per window (the first of a window at once, the rest at its end), plus the timer's.
      const allowed = Math.ceil(ms / UNKNOWN_KEY_CHECK_MS) + 1 + Math.ceil(ms / 1000) + 1;
      return { stat: end.stat - start.stat, read: end.read - start.read, ms, allowed };
    };

    expect(await counts(), 'the hook sees the start-up read').toMatchObject({ read: 1 });
    expect((await fetch(`${base}/v1/travel/JP`, { headers: { 'x-api-key': keys.pro } })).status).toBe(200);

    // An unchanged file: stats only, at most one per window.
    const still = await flood(3000);
    expect(still.stat, JSON.stringify(still)).toBeLessThanOrEqual(still.allowed);
    expect(still.stat).toBeGreaterThan(0);
    expect(still.read).toBe(0);
    expect(3000 / still.allowed, 'the limit, not the request count, bounds the checks').toBeGreaterThan(10);

    // A file that changes all the time: still no more than one check (stat, then read) per window.
    let n = 0;
    const churn = await flood(3000, () => {
      if (++n % 20 === 0) createKey(file, 'free', `churn ${n}`);
    });
    expect(churn.stat, JSON.stringify(churn)).toBeLessThanOrEqual(churn.allowed);
    expect(churn.read).toBeGreaterThan(0);
    expect(churn.read).toBeLessThanOrEqual(churn.stat);
    expect(procs.logOf(name)).not.toMatch(/reload failed/);
  }, 60_000);
});
