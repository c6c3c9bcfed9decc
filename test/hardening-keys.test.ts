/**
 * Keys file and key hygiene under hostile conditions, against real server
 * processes (server/main.ts on a free port):
 * - a keys file made invalid while serving (bad JSON, {}, [], truncated,
 *   empty, deleted) keeps the last good keys, logs one line per distinct
 *   failure, shows in /healthz, and recovers when the file is good again
 *   (before: the process exited on the first bad reload);
 * - an invalid file at start-up exits 1 with one line (before: a stack trace);
 *   a missing one is logged and the server refuses keys until it appears
 *   (before: silence);
 * - a key put in a path or a query value is never echoed in an error body
 *   (before: `got "rdk_…"`);
 * - 10,000 distinct 7.8 KB junk keys do not stay in memory (before: ~78 MB kept
 *   by the lookup cache).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey, hashKey } from '../server/access/keys.js';
import { DATA_DIR, makeKeys, freePort } from './helpers.js';
import { rssMb } from './processes.js';

const ROOT = join(import.meta.dirname, '..');
const children = new Set<ChildProcess>();
const tmpDirs: string[] = [];

afterAll(async () => {
  await Promise.all([...children].map(stop));
  for (const dir of tmpDirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'refdata-hardening-keys-'));
  tmpDirs.push(dir);
  return dir;
}


const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

interface Instance {
  base: string;
  proc: ChildProcess;
  /** Everything the process wrote, stdout and stderr. */
  log: () => string;
  exited: Promise<number | null>;
}

function spawnServer(keysFile: string, port: number): Instance {
  const proc = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR, API_KEYS_FILE: keysFile, REDIS_URL: '', PLAN_LIMITS: '{"free":{"burst":100000,"quota":1000000},"pro":{"burst":100000}}' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(proc);
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => (children.delete(proc), resolve(code))));
  return { base: `http://127.0.0.1:${port}`, proc, log: () => out, exited };
}

async function startServer(keysFile: string): Promise<Instance> {
  const inst = spawnServer(keysFile, await freePort());
  const until = Date.now() + 30_000;
  while (Date.now() < until && inst.proc.exitCode === null) {
    try {
      if ((await fetch(`${inst.base}/healthz`)).ok) return inst;
    } catch {
      /* not up yet */
    }
    await sleep(100);
  }
  throw new Error(`server did not start:\n${inst.log()}`);
}

const call = (inst: Instance, key: string | undefined, path = '/v1/travel/JP') => fetch(inst.base + path, key ? { headers: { 'x-api-key': key } } : undefined);
const health = async (inst: Instance) => (await (await fetch(`${inst.base}/healthz`)).json()) as { status: string; keys: { source: string; reload_failed: boolean; failing_since: string | null; reason: string | null } };

/** Polls /healthz until `ok` holds (the file is re-read once a second). */
async function until(inst: Instance, ok: (h: Awaited<ReturnType<typeof health>>) => boolean, what: string) {
  const end = Date.now() + 4000;
  let h = await health(inst);
  while (!ok(h)) {
    if (Date.now() > end) throw new Error(`${what}: /healthz still says ${JSON.stringify(h)}\n${inst.log()}`);
    await sleep(100);
    h = await health(inst);
  }
  return h;
}

/**
 * Replaces the file in one step, as the keys CLI does: an in-place write could be
 * read half done by the once-a-second reload and log a failure the test did not make.
 */
function replaceFile(file: string, text: string) {
  writeFileSync(`${file}.tmp`, text);
  renameSync(`${file}.tmp`, file);
}

/** Nothing in a log or a body that is a key, or a hash of one. */
function expectNoSecrets(text: string, keys: string[]) {
  for (const key of keys) {
    expect(text).not.toContain(key);
    expect(text).not.toContain(hashKey(key));
  }
  expect(text).not.toMatch(/[0-9a-f]{64}/);
}

describe('a keys file broken while serving', () => {
  it('keeps the last good keys through bad JSON, {}, [], truncation, an empty file and deletion, then recovers', async () => {
    const { file, keys } = makeKeys();
    tmpDirs.push(join(file, '..'));
    const good = readFileSync(file, 'utf8');
    const inst = await startServer(file);
    expect((await call(inst, keys.pro)).status).toBe(200);
    await sleep(1100); // let the first reload tick pass on the good file
    expect((await health(inst)).status).toBe('ok');

    const breakages: [string, () => void, RegExp][] = [
      ['invalid JSON', () => replaceFile(file, '{"keys": [}'), /^is not valid JSON$/],
      ['{}', () => replaceFile(file, '{}'), /no "keys" array/],
      ['[]', () => replaceFile(file, '[]'), /not a JSON object/],
      ['truncated', () => replaceFile(file, good.slice(0, Math.floor(good.length / 2))), /ends early/],
      ['empty', () => replaceFile(file, ''), /is empty/],
      ['deleted', () => unlinkSync(file), /was deleted/],
    ];
    let since: string | null = null;
    for (const [what, breakIt, reason] of breakages) {
      breakIt();
      await sleep(1100); // one reload tick (before: the process exited here)
      expect(inst.proc.exitCode, `${what}\n${inst.log()}`).toBeNull();
      for (const key of [keys.pro, keys.growth, keys.starter]) expect((await call(inst, key)).status, what).toBe(200);
      expect((await call(inst, keys.free, '/v1/timezones/Asia%2FTokyo')).status, what).toBe(200);
      expect((await call(inst, 'rdk_' + 'x'.repeat(32))).status, what).toBe(401);
      const h = await until(inst, (h) => reason.test(h.keys.reason ?? ''), what);
      expect(h.status, what).toBe('degraded');
      expect(h.keys.reload_failed, what).toBe(true);
      since ??= h.keys.failing_since;
      expect(h.keys.failing_since, `${what}: one failure, from the first bad write`).toBe(since);
    }
    await sleep(2200); // still deleted: retried twice more, logged no more
    expect(inst.proc.exitCode).toBeNull();

    // A good file again, without the free key and with a new one: both changes apply.
    replaceFile(file, good);
    const extra = createKey(file, 'pro', 'after recovery').key;
    const rest = JSON.parse(readFileSync(file, 'utf8')) as { keys: { hash: string }[] };
    replaceFile(file, JSON.stringify({ keys: rest.keys.filter((k) => k.hash !== hashKey(keys.free)) }));
    expect(await until(inst, (h) => !h.keys.reload_failed, 'recovery')).toMatchObject({ status: 'ok', keys: { source: 'file', reason: null, failing_since: null } });
    expect((await call(inst, extra)).status).toBe(200);
    expect((await call(inst, keys.free, '/v1/timezones/Asia%2FTokyo')).status).toBe(401);

    const log = inst.log();
    const failures = log.split('\n').filter((l) => l.includes('reload failed'));
    expect(failures, log).toHaveLength(breakages.length); // one line per distinct failure, none repeated
    for (const line of failures) expect(line).toContain(file);
    expect(log.split('\n').filter((l) => /reload works again/.test(l))).toHaveLength(1);
    expectNoSecrets(log, [...Object.values(keys), extra]);
    await stop(inst.proc);
  }, 90_000);
});

describe('the keys file at start-up', () => {
  for (const [what, text] of [['invalid JSON', '{"keys": [ {"hash": '], ['{}', '{}'], ['[]', '[]']] as const) {
    it(`${what}: exits 1 with one line naming the file and the reason, no stack trace`, async () => {
      const file = join(tempDir(), 'api-keys.json');
      writeFileSync(file, text);
      const inst = spawnServer(file, await freePort());
      const code = await Promise.race([inst.exited, sleep(20_000).then(() => 'timeout' as const)]);
      expect(code, inst.log()).toBe(1);
      const lines = inst.log().trim().split('\n');
      expect(lines, inst.log()).toHaveLength(1);
      expect(lines[0]).toContain(file);
      expect(lines[0]).not.toMatch(/\bat .*:\d+|Error:/);
    });
  }

  it('missing: one line says so, keys are refused, and the file is picked up once created', async () => {
    const file = join(tempDir(), 'api-keys.json');
    const inst = await startServer(file);
    expect(await health(inst)).toMatchObject({ status: 'ok', keys: { source: 'none', reload_failed: false } });
    const notFound = inst.log().split('\n').filter((l) => l.includes(file));
    expect(notFound, inst.log()).toHaveLength(1);
    expect(notFound[0]).toMatch(/not found; every API key is refused/);
    expect((await call(inst, undefined, '/v1/timezones/Asia%2FTokyo')).status).toBe(200);

    const { key } = createKey(file, 'pro', 'first key');
    await until(inst, (h) => h.keys.source === 'file', 'created');
    expect((await call(inst, key)).status).toBe(200);
    expectNoSecrets(inst.log(), [key]);
    await stop(inst.proc);
  });
});

describe('the keys CLI', () => {
  const cli = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'keys.ts'), ...args], { cwd: ROOT, encoding: 'utf8' });

  it('replaces the file by rename, leaves no temporary file, and refuses to overwrite an invalid file', () => {
    const dir = tempDir();
    const file = join(dir, 'api-keys.json');
    expect(cli('create', '--plan', 'pro', '--name', 'one', '--file', file).status).toBe(0);
    const { ino } = statSync(file);
    expect(cli('create', '--plan', 'free', '--name', 'two', '--file', file).status).toBe(0);
    expect(statSync(file).ino, 'a new file renamed over the old one, not rewritten in place').not.toBe(ino);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['api-keys.json']);

    // Before: a create on a corrupt file died with a stack trace (exit 1) instead of one line.
    replaceFile(file, '{"keys": [');
    const refused = cli('create', '--plan', 'pro', '--name', 'three', '--file', file);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([expect.stringMatching(/api-keys\.json: is not valid JSON/)]);
    expect(readFileSync(file, 'utf8')).toBe('{"keys": [');
    expect(readdirSync(dir)).toEqual(['api-keys.json']);
  });
});

describe('keys are never echoed', () => {
  it('a key in a path or query value is redacted from every error message', async () => {
    const { file, keys } = makeKeys();
    tmpDirs.push(join(file, '..'));
    const inst = await startServer(file);
    const secret = keys.growth;
    const paths = [
      `/v1/business-days/US?date=${secret}`,
      `/v1/business-days/US/add?start=2026-01-15&days=${secret}`,
      `/v1/business-days/US/holidays?year=${secret}`,
      `/v1/business-days/${secret}`,
      `/v1/countries/${secret}`,
      `/v1/timezones/${secret}`,
      `/v1/travel/${secret}`,
      `/v1/travel/JP?date=${secret}`,
      `/v1/astronomy/sun/JP?date=${secret}`,
      `/v1/astronomy/sun/coordinates?latitude=${secret}&longitude=0&timezone=UTC`,
      `/v1/no-such-area/${secret}`,
      `/v1/business-days/US?date=${secret.toUpperCase()}`,
      `/v1/business-days/US?date=${secret.replace('_', '%5F')}`,
      `/v1/business-days/US?date=x${secret.slice(0, 20)}`,
    ];
    for (const path of paths) {
      const res = await call(inst, keys.pro, path);
      const text = await res.text();
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(text, path).not.toContain(secret.slice(4, 20));
      expect(text.toLowerCase(), path).not.toContain(secret.slice(4, 20).toLowerCase());
      expect(text, path).not.toMatch(/rdk_(?!\[redacted\])/i);
    }
    expectNoSecrets(inst.log(), Object.values(keys));
    await stop(inst.proc);
  });
});

describe('junk keys cost no memory', () => {
  const JUNK = 10_000;
  const junk = (i: number) => `junk-${i}-`.padEnd(7_800, 'x');

  it(`${JUNK} distinct 7.8 KB junk keys leave the key ring's heap where it was`, async () => {
    const { file } = makeKeys();
    tmpDirs.push(join(file, '..'));
    // A child with --expose-gc, so the heap is measured after a full collection, not guessed from RSS.
    const script = `
      const { KeyRing } = await import(${JSON.stringify(join(ROOT, 'server', 'access', 'keys.ts'))});
      const ring = new KeyRing(${JSON.stringify(file)});
      const junk = ${junk.toString()};
      const heap = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
      const before = heap();
      for (let i = 0; i < ${JUNK}; i++) if (ring.find(junk(i))) throw new Error('junk accepted');
      const junkGrowth = heap() - before;
      for (let i = 0; i < ${JUNK}; i++) if (ring.find('rdk_' + String(i).padStart(32, '0'))) throw new Error('unknown key accepted');
      console.log(JSON.stringify({ junkGrowth, unknownGrowth: heap() - before }));
      ring.close();`;
    const out = await new Promise<string>((resolve, reject) => {
      const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      children.add(child);
      let text = '';
      child.stdout.on('data', (d) => (text += d));
      child.stderr.on('data', (d) => (text += d));
      child.on('exit', (code) => (children.delete(child), code === 0 ? resolve(text) : reject(new Error(text))));
    });
    const { junkGrowth, unknownGrowth } = JSON.parse(out.trim().split('\n').pop()!) as { junkGrowth: number; unknownGrowth: number };
    expect(junkGrowth, `heap growth after junk keys: ${(junkGrowth / 1e6).toFixed(1)} MB`).toBeLessThan(2e6); // before: ~78 MB
    expect(unknownGrowth, `heap growth after well-formed unknown keys: ${(unknownGrowth / 1e6).toFixed(1)} MB`).toBeLessThan(2e6);
  }, 30_000);

  it(`${JUNK} junk keys over HTTP: every one is refused and the server's memory stays bounded`, async () => {
    const { file } = makeKeys();
    tmpDirs.push(join(file, '..'));
    const inst = await startServer(file);
    const rss = () => rssMb(inst.proc.pid!) * 1024 * 1024;
    for (let i = 0; i < 200; i++) await call(inst, junk(-i), '/v1/timezones/Asia%2FTokyo'); // warm up
    const before = rss();
    let next = 0;
    const worker = async () => {
      while (next < JUNK) {
        const res = await call(inst, junk(next++), '/v1/timezones/Asia%2FTokyo');
        expect(res.status).toBe(401);
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    const growth = rss() - before;
    console.log(`RSS growth after ${JUNK} junk keys: ${(growth / 1e6).toFixed(1)} MB`);
    expect(growth).toBeLessThan(40e6); // before: ~90 MB (every key kept by the cache)
    await stop(inst.proc);
  }, 45_000);
});
