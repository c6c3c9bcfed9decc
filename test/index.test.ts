/**
 * Issue 15: the start-up line pointed at http://localhost:8080/v1, which
 * answered 404, and never mentioned /docs. `GET /` and `GET /v1` now answer
 * an index, the start-up line names the docs and health URLs, and a port in
 * use or an unreadable dataset is one line and a non-zero exit, not a stack.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DATA_DIR, freePort, sharedKeys } from './helpers.js';
import { Processes } from './processes.js';
import { assertMatchesSchema } from './schemas.js';

const ROOT = join(import.meta.dirname, '..');
const procs = new Processes();
afterAll(() => procs.stopAll());

/** main.ts run to its end: its exit code and what it printed. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
      cwd: ROOT,
      env: { ...process.env, HOST: '127.0.0.1', API_KEYS_FILE: sharedKeys().file, REDIS_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('a real server', () => {
  let base: string;
  let log: string;

  it('prints where the API, its docs and its health check answer, and each of them answers', async () => {
    const started = await procs.server('api', { DATA_DIR, API_KEYS_FILE: sharedKeys().file, REDIS_URL: '' });
    base = started.base;
    const port = new URL(base).port;
    log = procs.logOf('api');
    const line = log.split('\n').find((l) => l.includes('listening on'))!;
    expect(line).toMatch(new RegExp(`^refdata dataset [0-9a-f]{16} listening on http://127\\.0\\.0\\.1:${port}/v1 \\(docs: http://127\\.0\\.0\\.1:${port}/docs, health: http://127\\.0\\.0\\.1:${port}/healthz; rate-limit store: memory\\)$`));
    for (const url of line.match(/http:\/\/[^ ,;)]+/g)!) expect((await fetch(url)).status, url).toBe(200);
  }, 60_000);

  it('answers GET / and GET /v1 with the same index, to anyone, uncounted', async () => {
    const [root, v1] = await Promise.all([fetch(`${base}/`), fetch(`${base}/v1`)]);
    for (const res of [root, v1]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(res.headers.get('ratelimit-limit')).toBeNull();
      expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{16}-/);
    }
    const [a, b] = [await root.text(), await v1.text()];
    expect(a).toBe(b);
    const index = JSON.parse(a);
    assertMatchesSchema('api-index.schema.json', index);
    expect(index.dataset_version).toBe(root.headers.get('x-dataset-version'));
    expect((await fetch(`${base}/v1`, { headers: { 'if-none-match': root.headers.get('etag')! } })).status).toBe(304);
  });

  it('lists every area with its access, and paths that are the described operations', async () => {
    const index = (await (await fetch(`${base}/v1`)).json()) as { areas: { name: string; access: string; paths: string[] }[]; docs: string; console: string; openapi: string; health: string };
    expect(index.areas.map((a) => [a.name, a.access])).toEqual([
      ['business-days', 'premium'],
      ['travel', 'premium'],
      ['astronomy', 'premium'],
      ['timezones', 'reference'],
      ['countries', 'reference'],
    ]);
    const doc = (await (await fetch(`${base}${index.openapi}`)).json()) as { paths: Record<string, unknown> };
    const inAreas = index.areas.flatMap((a) => a.paths);
    expect(inAreas.sort()).toEqual(Object.keys(doc.paths).filter((p) => p.startsWith('/v1/') && p !== '/v1/openapi.json').sort());
    for (const area of index.areas) for (const p of area.paths) expect(p.startsWith(`/v1/${area.name}`), p).toBe(true);
    for (const link of [index.docs, index.console, index.openapi, index.health]) expect((await fetch(base + link)).status, link).toBe(200);
  });

  it('refuses a parameter on the index', async () => {
    const res = await fetch(`${base}/v1?format=xml`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('unknown_parameter');
  });
});

describe('a server that cannot start says why in one line and exits non-zero', () => {
  const oneLine = (stderr: string) => stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('npm warn'));

  it('when the port is in use', async () => {
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((r) => holder.listen(port, '127.0.0.1', r));
    try {
      const { code, stderr } = await runToExit({ PORT: String(port), DATA_DIR });
      expect(code).toBe(1);
      expect(oneLine(stderr)).toEqual([`refdata: cannot start: port ${port} is already in use on 127.0.0.1: stop the process that holds it, or set PORT to another port`]);
    } finally {
      holder.close();
    }
  }, 60_000);

  it('when the dataset is missing', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'refdata-nodata-')), 'dist-data');
    const { code, stderr } = await runToExit({ PORT: String(await freePort()), DATA_DIR: dir });
    expect(code).toBe(1);
    expect(oneLine(stderr)).toEqual([
      `refdata: cannot start: the dataset in ${dir}/v1 cannot be read: ENOENT: no such file or directory, open '${dir}/v1/manifest.json'. Build it with \`npm run build\`, or set DATA_DIR to the folder holding a built v1/.`,
    ]);
  }, 60_000);

  it('when a file of the dataset is not JSON', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'refdata-baddata-'));
    mkdirSync(join(dir, 'v1'));
    writeFileSync(join(dir, 'v1', 'manifest.json'), '{"version": "0123456789abcdef",');
    const { code, stderr } = await runToExit({ PORT: String(await freePort()), DATA_DIR: dir });
    expect(code).toBe(1);
    const lines = oneLine(stderr);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^refdata: cannot start: the dataset in ${dir}/v1 cannot be read: a file is not valid JSON \\(.+\\)\\. Build it with`));
  }, 60_000);

  it('when a setting is not a value it takes (ANON_IPV6_PREFIX, GEO_CACHE_MB)', async () => {
    const prefix = await runToExit({ PORT: String(await freePort()), DATA_DIR, ANON_IPV6_PREFIX: '200' });
    expect(prefix.code).toBe(1);
    expect(oneLine(prefix.stderr)).toEqual(['refdata: cannot start: ANON_IPV6_PREFIX must be a whole number from 1 to 128 (got "200")']);
    const cache = await runToExit({ PORT: String(await freePort()), DATA_DIR, GEO_CACHE_MB: 'lots' });
    expect(cache.code).toBe(1);
    expect(oneLine(cache.stderr)).toEqual(['refdata: cannot start: GEO_CACHE_MB must be a positive number of megabytes (got "lots")']);
  }, 60_000);

  it('when PORT, PLAN_LIMITS or REDIS_COMMAND_TIMEOUT_MS is not a value it takes (they were stack traces)', async () => {
    const port = await runToExit({ PORT: '80a', DATA_DIR });
    expect(port.code).toBe(1);
    expect(oneLine(port.stderr)).toEqual(['refdata: cannot start: PORT must be a port number from 0 to 65535, not "80a"']);
    const limits = await runToExit({ PORT: String(await freePort()), DATA_DIR, PLAN_LIMITS: '{"gold":{"burst":5}}' });
    expect(limits.code).toBe(1);
    expect(oneLine(limits.stderr)).toEqual(['refdata: cannot start: PLAN_LIMITS must be a JSON object of plans (anonymous, free, starter, pro, growth) and their limits, such as {"growth": {"burst": 500}}: there is no plan "gold"']);
    const redis = await runToExit({ PORT: String(await freePort()), DATA_DIR, REDIS_URL: 'redis://127.0.0.1:1', REDIS_COMMAND_TIMEOUT_MS: 'soon' });
    expect(redis.code).toBe(1);
    expect(oneLine(redis.stderr).at(-1)).toBe('refdata: cannot start: REDIS_COMMAND_TIMEOUT_MS must be a whole number of milliseconds from 1 to 60000, not "soon"');
  }, 60_000);
});
