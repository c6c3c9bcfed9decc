/**
 * Sources fail closed (issue: "Keep serving through … broken inputs", faults 3 and 6).
 * Before: a power-overrides.csv cut to half its lines built and published 25 fewer destinations;
 * cut mid-row it failed with "Quote Not Closed: … at line 24", naming no file; a build killed while
 * publishing left .staging-<pid> folders that no later build removed.
 * Every build here runs on a copy of sources/ and a temp output folder; the failing builds stop at
 * the lock check, before the long ingest, so the file stays fast.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { build } from '../pipeline/run.js';
import { checkSources, LOCK_FILE, readLock } from '../pipeline/stages/check-sources.js';
import { lockSources as relock } from '../scripts/lock-sources.js';

const ROOT = join(import.meta.dirname, '..');
const SOURCES = join(ROOT, 'sources');
const POWER = join('travel', 'power-overrides.csv');
const temps: string[] = [];

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
}

/** A private copy of sources/ with its lock. */
function copySources(): string {
  const dir = temp('refdata-h-sources-');
  cpSync(SOURCES, dir, { recursive: true });
  return dir;
}

/** An output folder holding a "published" dataset, as a failing build must leave it. */
function publishedOut(): string {
  const out = temp('refdata-h-out-');
  mkdirSync(join(out, 'v1'));
  writeFileSync(join(out, 'v1', 'manifest.json'), '{"version":"published"}\n');
  return out;
}

/** Every file under dir with its content, to compare a folder before and after a build. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(dir, p)] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

const pinned = (path: string) => readLock(SOURCES).find((e) => e.path === path)!;

afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('the source lock', () => {
  it('pins every file under sources/, and the real sources match it', () => {
    const lock = readLock(SOURCES);
    expect(lock.length).toBeGreaterThan(80);
    expect(lock.map((e) => e.path)).toContain('tzdata/tzdata.zi');
    expect(lock.map((e) => e.path)).toContain('holidays/TW/dgpa/SOURCE.md');
    expect(pinned(POWER)).toMatchObject({ format: 'csv', header: 'code,plugs,voltage,frequency,inherit_from,source,note' });
    expect(pinned('countries/restcountries/countries-v3.1.json')).toMatchObject({ format: 'json', rows: 250 });
    expect(checkSources(SOURCES).files).toBe(lock.length);
  });

  it('is written sorted, one file per line', () => {
    const lines = readFileSync(join(SOURCES, LOCK_FILE), 'utf8').split('\n').filter((l) => l.includes('"path"'));
    const paths = lines.map((l) => (JSON.parse(l.replace(/,$/, '')) as { path: string }).path);
    expect(paths).toEqual([...paths].sort());
    expect(paths.length).toBe(readLock(SOURCES).length);
  });
});

describe('the build fails closed on a source that does not match the lock', () => {
  it('refuses power-overrides.csv cut to half its lines, naming the file and the rows, and publishes nothing', async () => {
    const sources = copySources();
    const out = publishedOut();
    const before = snapshot(out);
    const csv = join(sources, POWER);
    const lines = readFileSync(csv, 'utf8').split('\n');
    writeFileSync(csv, `${lines.slice(0, 25).join('\n')}\n`);
    const { rows } = pinned(POWER);
    await expect(build({ outDir: out, sourcesDir: sources })).rejects.toThrow(
      new RegExp(`travel/power-overrides\\.csv: rows ${rows} → 24, bytes \\d+ → \\d+, sha256 `),
    );
    expect(snapshot(out)).toEqual(before);
  });

  it('refuses power-overrides.csv cut mid-row, naming the file and the parse error', async () => {
    const sources = copySources();
    const out = publishedOut();
    const before = snapshot(out);
    const csv = join(sources, POWER);
    const bytes = readFileSync(csv);
    const half = Math.floor(bytes.length / 2);
    writeFileSync(csv, bytes.subarray(0, half));
    const err = await build({ outDir: out, sourcesDir: sources }).then(() => undefined, (e: Error) => e);
    expect(err?.message).toMatch(/travel\/power-overrides\.csv: unreadable as csv \(Quote Not Closed/);
    expect(err?.message).toContain(`bytes ${bytes.length} → ${half}`);
    // csv-parse's own message, which named no file before, never comes first.
    expect(err?.message).not.toMatch(/^Quote Not Closed/);
    expect(snapshot(out)).toEqual(before);
  });

  it('refuses a file the lock does not list, and one it lists that is gone', async () => {
    const sources = copySources();
    const out = publishedOut();
    const before = snapshot(out);
    writeFileSync(join(sources, 'travel', 'extra.csv'), 'code,note\nXX,new\n');
    unlinkSync(join(sources, 'holidays', 'README.md'));
    const err = await build({ outDir: out, sourcesDir: sources }).then(() => undefined, (e: Error) => e);
    expect(err?.message).toMatch(/travel\/extra\.csv: unlisted file/);
    expect(err?.message).toMatch(/holidays\/README\.md: missing/);
    expect(err?.message).toMatch(/npm run lock:sources/);
    expect(snapshot(out)).toEqual(before);
  });

  it('checks rows after the lock: a bad row locked on purpose still fails at its row check', async () => {
    const sources = copySources();
    const out = publishedOut();
    const csv = join(sources, 'holidays', 'AE', 'workweeks.csv');
    const cited = readFileSync(join(sources, 'holidays', 'AE', 'citations.csv'), 'utf8').split('\n')[1].split(',')[0]; // the folder's first citation
    writeFileSync(csv, `${readFileSync(csv, 'utf8')}AE,2020-01-01,2019-01-01,monday,${cited},until before from\n`);
    const { rows } = pinned('holidays/AE/workweeks.csv');
    await expect(build({ outDir: out, sourcesDir: sources })).rejects.toThrow(new RegExp(`holidays/AE/workweeks\\.csv: rows ${rows} → ${rows + 1}`));
    relock(sources);
    await expect(build({ outDir: out, sourcesDir: sources })).rejects.toThrow(/AE\/workweeks\.csv line \d+: until before from/);
  });

  it('refuses a source folder without a lock', async () => {
    const sources = copySources();
    unlinkSync(join(sources, LOCK_FILE));
    await expect(build({ outDir: publishedOut(), sourcesDir: sources })).rejects.toThrow(/sources\.lock\.json is missing/);
  });
});

describe('npm run lock:sources', () => {
  // Awaited: hashing and counting the rows of every source (python-holidays' 39 MB among them) takes long enough
  // under load that a worker blocked in execFileSync would miss vitest's RPC deadline (60 s).
  const lockSources = async (dir: string) =>
    (await promisify(execFile)('npm', ['run', '--silent', 'lock:sources', '--', dir], { cwd: ROOT, encoding: 'utf8' })).stdout;

  it('rewrites a changed copy\'s lock, prints the count diff, and only the changed lines differ', async () => {
    const real = readFileSync(join(SOURCES, LOCK_FILE), 'utf8');
    const sources = copySources();
    const csv = join(sources, POWER);
    writeFileSync(csv, `${readFileSync(csv, 'utf8').split('\n').slice(0, 25).join('\n')}\n`);
    writeFileSync(join(sources, 'travel', 'extra.csv'), 'code,note\nXX,new\n');
    unlinkSync(join(sources, 'holidays', 'README.md'));
    expect(() => checkSources(sources)).toThrow();

    const printed = await lockSources(sources);
    expect(printed).toContain('1 added, 1 changed, 1 removed');
    expect(printed).toMatch(new RegExp(`changed +travel/power-overrides\\.csv: rows ${pinned(POWER).rows} → 24, bytes \\d+ → \\d+`));
    expect(printed).toMatch(/added +travel\/extra\.csv: 1 rows/);
    expect(printed).toMatch(/removed +holidays\/README\.md: was \d+ rows/);
    expect(checkSources(sources).files).toBe(readLock(SOURCES).length);

    const oldLines = new Set(real.split('\n'));
    const changed = readFileSync(join(sources, LOCK_FILE), 'utf8').split('\n').filter((l) => !oldLines.has(l));
    expect(changed.map((l) => (JSON.parse(l.replace(/,$/, '')) as { path: string }).path).sort()).toEqual(['travel/extra.csv', 'travel/power-overrides.csv']);
    expect(readFileSync(join(SOURCES, LOCK_FILE), 'utf8')).toBe(real);
    expect(await lockSources(sources)).toContain(`: ${readLock(SOURCES).length} files, unchanged`);
  });

  it('refuses to pin a file it cannot read, naming it, and leaves the lock alone', async () => {
    const sources = copySources();
    const csv = join(sources, POWER);
    const bytes = readFileSync(csv);
    writeFileSync(csv, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const lock = readFileSync(join(sources, LOCK_FILE), 'utf8');
    let stderr = '';
    try {
      await lockSources(sources);
    } catch (err) {
      stderr = String((err as { stderr?: string }).stderr);
    }
    expect(stderr).toMatch(/travel\/power-overrides\.csv: unreadable as csv \(Quote Not Closed/);
    expect(readFileSync(join(sources, LOCK_FILE), 'utf8')).toBe(lock);
  });
});

describe('stale publish folders', () => {
  // 99999999 is above Linux's pid_max (4194304), so no process can hold it.
  it('the next build removes a dead build\'s .staging-<pid> and .previous-<pid>, keeps a live one\'s and the published data', async () => {
    const out = publishedOut();
    mkdirSync(join(out, '.staging-99999999', 'v1'), { recursive: true });
    writeFileSync(join(out, '.staging-99999999', 'v1', 'manifest.json'), '{"version":"half-written"}\n');
    mkdirSync(join(out, '.previous-99999999', 'v1'), { recursive: true });
    const live = `.staging-${process.ppid}`;
    mkdirSync(join(out, live));
    const sources = copySources();
    writeFileSync(join(sources, 'unlisted.txt'), 'x\n');
    // Cleaning comes before any source is read, so even this failing build does it.
    await expect(build({ outDir: out, sourcesDir: sources })).rejects.toThrow(/unlisted/);
    expect(readdirSync(out).sort()).toEqual([live, 'v1']);
    expect(readFileSync(join(out, 'v1', 'manifest.json'), 'utf8')).toBe('{"version":"published"}\n');
  });

  it('puts back the published dataset a build died holding in .previous-<pid>', async () => {
    const out = temp('refdata-h-out-');
    mkdirSync(join(out, '.previous-99999999', 'v1'), { recursive: true });
    writeFileSync(join(out, '.previous-99999999', 'v1', 'manifest.json'), '{"version":"published"}\n');
    mkdirSync(join(out, '.staging-99999999', 'v1'), { recursive: true });
    const sources = copySources();
    writeFileSync(join(sources, 'unlisted.txt'), 'x\n');
    await expect(build({ outDir: out, sourcesDir: sources })).rejects.toThrow(/unlisted/);
    expect(readdirSync(out)).toEqual(['v1']);
    expect(existsSync(join(out, 'v1', 'manifest.json'))).toBe(true);
  });
});
