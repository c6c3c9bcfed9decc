/**
 * Real processes for the tests that need them: the API (server/main.ts) or a redis-server on a free
 * loopback port, their output kept by name, every one stopped at the end (`stopAll` in afterAll).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, requirePackage, runs } from './helpers.js';

const ROOT = join(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resident set size of a running process in MB, from the kernel (/proc/<pid>/status VmRSS). */
export const rssMb = (pid: number): number => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/** Resolves once `url` answers 2xx; throws after `ms`. */
export async function waitFor(url: string, ms = 90_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await sleep(100);
  }
  throw new Error(`${url} did not answer`);
}

export class Processes {
  private readonly children = new Set<ChildProcess>();
  private readonly logs = new Map<string, string[]>();

  /** Keeps the child's stdout and stderr under `name` and stops it in stopAll. */
  track(child: ChildProcess, name: string): ChildProcess {
    this.children.add(child);
    const log = this.logs.get(name) ?? [];
    this.logs.set(name, log);
    child.stdout?.on('data', (d) => log.push(String(d)));
    child.stderr?.on('data', (d) => log.push(String(d)));
    child.on('exit', () => this.children.delete(child));
    return child;
  }

  logOf(name: string): string {
    return (this.logs.get(name) ?? []).join('');
  }

  /** Everything every process printed. */
  allLogs(): string {
    return [...this.logs.values()].flat().join('');
  }

  stop(child: ChildProcess): Promise<void> {
    return new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGCONT'); // a stopped process would hold SIGTERM until continued
      child.kill('SIGTERM');
    });
  }

  stopAll(): Promise<void[]> {
    return Promise.all([...this.children].map((c) => this.stop(c)));
  }

  /** The API on a free port with `env` added to ours, once /healthz answers. */
  async server(name: string, env: Record<string, string>): Promise<{ base: string; proc: ChildProcess }> {
    const port = await freePort();
    const proc = this.track(
      spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'main.ts')], {
        cwd: ROOT,
        env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
      name,
    );
    const base = `http://127.0.0.1:${port}`;
    await waitFor(`${base}/healthz`);
    return { base, proc };
  }

  /** Debian's redis-server (installed by .ci/run) on a free port, in memory only, once it accepts connections. */
  async redis(name = 'redis'): Promise<{ url: string; proc: ChildProcess }> {
    requirePackage('redis-server', runs('redis-server', ['--version']));
    const port = await freePort();
    const proc = this.track(spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] }), name);
    proc.on('error', (err) => this.logs.get(name)!.push(`redis-server could not start (is Debian's redis-server installed? .ci/run installs it): ${err.message}`));
    const until = Date.now() + 10_000;
    while (!this.logOf(name).includes('Ready to accept connections')) {
      if (Date.now() > until || proc.exitCode !== null) throw new Error(`redis-server did not start:\n${this.logOf(name)}`);
      await sleep(50);
    }
    return { url: `redis://127.0.0.1:${port}`, proc };
  }
}
