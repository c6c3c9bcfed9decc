/**
 * The nightly refresh (scripts/refresh.ts, `npm run refresh`) rehearsed offline: the real script runs
 * in a copy of this checkout with fixture upstreams instead of the network.
 *
 * - date-holidays, a local copy of the installed release with France's Assumption moved (15 -> 16
 *   August, every year, 2025's a golden fact), a holiday added in a past year (France, 3 June 2019)
 *   and one removed (Andorra's Constitution Day, 14 March);
 * - tzdata, this checkout's tzdata.zi as a newer release with one rule changed (Jordan's 1973 DST
 *   start, 6 -> 7 June: Asia/Amman).
 *
 * Checked: with no fixture nothing is built and the run says "no change"; with them the dataset
 * version changes, the changelog lists the past-date changes first as warnings, then each change,
 * and the golden facts (test/golden/FR.json: 15 August 2025 is a holiday) fail, so the run ends
 * "changed, tests fail" with exit 1. The copy's node_modules/ links to this checkout's packages, so
 * the fixture replaces date-holidays there only.
 */
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATA_DIR } from './helpers.js';

const ROOT = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'refdata-refresh-test-'));
const repo = join(work, 'repo');
const fixtures = join(work, 'fixtures');
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * Runs the real script in the copy; returns its exit status, last stdout line, result.json and changelog.
 * Asynchronous: a synchronous child would block this worker's replies to vitest for the minutes a build takes.
 */
async function refresh(args: string[]) {
  const out = join(work, `out-${Math.random().toString(36).slice(2)}`);
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/refresh.ts', '--out', out, '--old', DATA_DIR, '--today', '2026-11-28', ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const r = { status, stdout, stderr };
  const line = r.stdout.trim().split('\n').pop() ?? '';
  const result = existsSync(join(out, 'result.json')) ? JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) : undefined;
  const changelog = existsSync(join(out, 'changelog.md')) ? readFileSync(join(out, 'changelog.md'), 'utf8') : '';
  return { status: r.status, line, result, changelog, stderr: r.stderr };
}

beforeAll(async () => {
  // The checkout as it is (tracked and new files), without the installed packages and the built dataset.
  const files = execFileSync('git', ['ls-files', '-z', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(ROOT, f))) continue; // deleted in the work tree
    mkdirSync(dirname(join(repo, f)), { recursive: true });
    cpSync(join(ROOT, f), join(repo, f));
  }
  mkdirSync(join(repo, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) symlinkSync(join(ROOT, 'node_modules', name), join(repo, 'node_modules', name));

  // date-holidays, one holiday moved, one added in a past year, one removed.
  const dh = join(fixtures, 'npm', 'date-holidays');
  cpSync(join(ROOT, 'node_modules', 'date-holidays'), dh, { recursive: true, dereference: true });
  const { data } = (await import(pathToFileURL(join(dh, 'src', 'data.js')).href)) as { data: { holidays: Record<string, { days: Record<string, unknown> }> } };
  const fr = data.holidays.FR!.days;
  fr['08-16'] = fr['08-15'];
  delete fr['08-15'];
  fr['2019-06-03'] = { name: { en: 'Rehearsal Day', fr: 'Jour de répétition' } };
  delete data.holidays.AD!.days['03-14'];
  const text = JSON.stringify(data, null, 2);
  writeFileSync(join(dh, 'src', 'data.js'), `export const data = ${text}\n`);
  writeFileSync(join(dh, 'lib', 'data.cjs'), `'use strict';\n\nObject.defineProperty(exports, '__esModule', { value: true });\n\nconst data = ${text};\n\nexports.data = data;\n`);
  const pkg = JSON.parse(readFileSync(join(dh, 'package.json'), 'utf8'));
  writeFileSync(join(dh, 'package.json'), JSON.stringify({ ...pkg, version: `${pkg.version}-rehearsal` }, null, 2));

  // tzdata: a newer release with one rule changed.
  mkdirSync(join(fixtures, 'tzdata'), { recursive: true });
  const zi = readFileSync(join(ROOT, 'sources', 'tzdata', 'tzdata.zi'), 'utf8');
  expect(zi).toContain('\nR J 1973 o - Jun 6 0 1 S\n');
  writeFileSync(join(fixtures, 'tzdata', 'tzdata.zi'), zi.replace(/^# version \S+/, '# version 9999a').replace('\nR J 1973 o - Jun 6 0 1 S\n', '\nR J 1973 o - Jun 7 0 1 S\n'));
  cpSync(join(ROOT, 'sources', 'tzdata', 'zone.tab'), join(fixtures, 'tzdata', 'zone.tab'));
});

describe('npm run refresh, rehearsed offline', () => {
  it('with no upstream moved, says "no change" and builds nothing', async () => {
    const empty = join(work, 'no-fixtures');
    mkdirSync(empty, { recursive: true });
    const r = await refresh(['--fixtures', empty, '--test-command', 'false']);
    expect(r.stderr).not.toMatch(/build of the new dataset/);
    expect(r.line).toMatch(/^no change: no upstream moved \(dataset [0-9a-f]{16}\)$/);
    expect(r.status).toBe(0);
    expect(r.result.status).toBe('no-change');
  });

  it('with a moved, an added and a removed holiday and a changed zone rule: a new version, past changes first, and the golden facts stop it', async () => {
    const golden = 'REFDATA_SKIP_BUILD=1 REFDATA_DATA_DIR=dist-data npx vitest run test/golden.test.ts';
    const r = await refresh(['--fixtures', fixtures, '--test-command', golden]);
    expect(r.stderr, r.stderr.slice(-3000)).toMatch(/build of the new dataset: done/);
    expect(r.status, r.line).toBe(1);
    expect(r.line).toMatch(/^changed, tests fail: [0-9a-f]{16} -> [0-9a-f]{16} \(date-holidays .*; tzdata \S+ -> 9999a/);
    expect(r.result.status).toBe('changed-fail');
    expect(r.result.new).not.toBe(r.result.old);
    // The tests that failed are the golden facts of the moved holiday.
    expect(r.stderr).toMatch(/FR.*2025-08-15|2025-08-15.*FR/);

    const log = r.changelog;
    if (process.env.REFDATA_REHEARSAL_CHANGELOG) writeFileSync(process.env.REFDATA_REHEARSAL_CHANGELOG, log);
    const at = (s: string) => log.indexOf(s);
    expect(log).toMatch(/- Sources: date-holidays \S+ → \S+-rehearsal, tzdata \S+ → 9999a/);
    // Warnings (changes to dates before --today) come before the sections that list every change,
    // and name each of the four upstream changes.
    expect(at('### ⚠️ Warnings')).toBeGreaterThan(-1);
    expect(at('### ⚠️ Warnings')).toBeLessThan(at('### Holidays'));
    const warnings = log.slice(at('### ⚠️ Warnings'), at('### Holidays'));
    expect(warnings).toMatch(/`Asia\/Amman`: offset changed .* from 1973-06-0/);
    expect(warnings).toMatch(/`AD`.*holiday removed: Constitution Day — 1990-03-14/);
    expect(warnings).toMatch(/`FR`.*holiday moved: Assumption .*1990-08-15 → 1990-08-16/);
    expect(warnings).toMatch(/`FR`.*holiday added: Rehearsal Day — 2019-06-03/);
    // Then every change, per location.
    const holidays = log.slice(at('### Holidays'));
    expect(holidays).toMatch(/#### `AD`[^\n]*\n\n- removed \*\*Constitution Day\*\*: 1990-03-14 ⚠️/);
    expect(holidays).toMatch(/- moved \*\*Assumption\*\*[^\n]*2025-08-15 → 2025-08-16 ⚠️|- moved \*\*Assumption\*\*[^\n]*… and \d+ more/);
  }, 25 * 60_000);

  it('run again with the same upstreams, nothing moved since: "no change" without a build', async () => {
    const r = await refresh(['--fixtures', fixtures, '--test-command', 'false']);
    expect(r.line).toMatch(/^no change/);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(/build of the new dataset/);
  });
});
