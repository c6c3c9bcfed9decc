/**
 * Differential audit against python-holidays, the second independent source (sources/python-holidays/):
 *
 * 1. The pinned files are what the pinned release gives: a sample of countries is extracted again with the
 *    release itself, installed in a virtual environment by scripts/python-holidays.sh (CI installs it; a missing
 *    checker fails there, never skips), and compared byte for byte.
 * 2. Every day of 2018-2027 of every location both sources cover (scripts/audit-python-holidays.ts): each
 *    disagreeing group (location, which side closes the day, holiday name) must be listed in
 *    test/python-holidays/ledger*.csv with a verdict settled from the law or the government's list:
 *    - theirs-wrong: python-holidays is wrong (the source says so);
 *    - ours-wrong:   we are wrong, not fixed yet (the explanation says what would fix it);
 *    - definition:   a difference of what counts (a day off for one faith's believers, government offices only …),
 *                    the explanation cites the definition we follow;
 *    or, until someone has settled it, in test/python-holidays/backlog.csv (`unreviewed`: not a verdict, a work
 *    list; the closing notes count it). A new disagreement in neither file fails, and so does a row that matches no
 *    disagreement any more (stale). A row's `location` is a code, or `CC-*` for every subdivision of CC; its `dates`
 *    lists the dates it covers, or is empty for every date of the groups it matches.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit, groups } from '../scripts/audit-python-holidays.js';
import { DATA_DIR, requirePackage, runs } from './helpers.js';

const ROOT = join(import.meta.dirname, '..');
const LEDGER_DIR = join(import.meta.dirname, 'python-holidays');
const VERDICTS = new Set(['theirs-wrong', 'ours-wrong', 'definition']);
const SAMPLE = ['BA', 'KZ', 'LK', 'NP', 'QA'];
const run = promisify(execFile);

interface Row { location: string; holiday: string; side: string; dates: string; verdict: string; explanation: string; source: string; where: string }

function read(file: string): Row[] {
  const rows = parse(readFileSync(join(LEDGER_DIR, file), 'utf8'), { columns: true, skip_empty_lines: true, trim: true }) as Row[];
  return rows.map((r, i) => ({ ...r, where: `${file} row ${i + 2}` }));
}

const matches = (r: Row, location: string) => (r.location.endsWith('-*') ? location.startsWith(r.location.slice(0, -1)) : r.location === location);

describe('python-holidays: the pinned files are what the pinned release gives', () => {
  // scripts/python-holidays.sh makes .venv-holidays/ (when it is missing or its requirements changed) with
  // `python3 -m venv`, which on Debian needs python3-venv for ensurepip; `python3 -m venv --help` works without it.
  beforeAll(() => {
    const venv = join(ROOT, '.venv-holidays');
    const requirements = (dir: string) => (existsSync(join(dir, 'requirements.txt')) ? readFileSync(join(dir, 'requirements.txt'), 'utf8') : undefined);
    const ready = existsSync(join(venv, 'bin', 'python')) && requirements(venv) === requirements(join(ROOT, 'sources', 'python-holidays'));
    requirePackage('python3-venv', ready || runs('python3', ['-c', 'import ensurepip']));
  });
  it(`re-extracts ${SAMPLE.join(', ')} with the release and compares byte for byte`, async () => {
    const python = (await run('bash', [join(ROOT, 'scripts', 'python-holidays.sh')], { encoding: 'utf8' })).stdout.trim();
    const dir = mkdtempSync(join(tmpdir(), 'refdata-python-holidays-'));
    try {
      await run(python, [join(ROOT, 'scripts', 'extract-python-holidays.py'), dir, '--only', SAMPLE.join(',')], { encoding: 'utf8', env: { ...process.env, WORKERS: '1' }, maxBuffer: 64 * 1024 * 1024 });
      for (const cc of SAMPLE) expect(readFileSync(join(dir, `${cc}.csv`), 'utf8') === readFileSync(join(ROOT, 'sources', 'python-holidays', `${cc}.csv`), 'utf8'), `${cc}.csv`).toBe(true);
      const version = (await run(python, ['-c', 'import holidays; print(holidays.__version__)'], { encoding: 'utf8' })).stdout.trim();
      expect(JSON.parse(readFileSync(join(ROOT, 'sources', 'python-holidays', 'meta.json'), 'utf8')).version).toBe(version);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

const result = await audit({ dataDir: join(DATA_DIR, 'v1') });

describe('python-holidays differential audit 2018-2027', () => {
  const found = groups(result.disagreements);
  const ledger = readdirSync(LEDGER_DIR).filter((f) => /^ledger.*\.csv$/.test(f)).sort().flatMap(read);
  const backlog = read('backlog.csv');

  it('compares every location both sources cover, and says how much agrees', () => {
    const pct = (k: 'countries' | 'regions') => (100 * result.agree[k]) / result.days[k];
    console.log(
      `python-holidays ${result.python_holidays}: ${result.locations.countries} countries ${pct('countries').toFixed(2)}% and ${result.locations.regions} regions ${pct('regions').toFixed(2)}% of days agree; ` +
        `${result.disagreements.length} disagreeing days in ${found.length} groups (${result.rebased_years} location-years built from python-holidays left out); ledger ${ledger.length} rows, backlog ${backlog.length} rows not yet settled`,
    );
    expect(result.locations.countries).toBeGreaterThan(190);
    expect(result.locations.regions).toBeGreaterThan(200);
    expect(pct('countries')).toBeGreaterThan(98);
  });

  it('ledger rows are well formed: a verdict, an explanation and a source', () => {
    for (const r of ledger) {
      expect(VERDICTS.has(r.verdict), `${r.where}: verdict ${r.verdict}`).toBe(true);
      expect(r.explanation.length, `${r.where}: explanation`).toBeGreaterThan(20);
      expect(r.source, `${r.where}: source`).toMatch(/^https?:\/\/\S+$/);
      expect(['ours', 'theirs'], `${r.where}: side`).toContain(r.side);
    }
    for (const r of backlog) expect(r.verdict, `${r.where}`).toBe('unreviewed');
  });

  it('every disagreement is in the ledger or the backlog', () => {
    const missing: string[] = [];
    for (const g of found) {
      const covers = (r: Row) => matches(r, g.location) && r.holiday === g.name && r.side === g.closed_by;
      const rows = [...ledger, ...backlog].filter(covers);
      const listed = new Set(rows.flatMap((r) => (r.dates ? r.dates.split(' ') : g.dates)));
      const left = g.dates.filter((d) => !listed.has(d));
      if (left.length) missing.push(`${g.location},${JSON.stringify(g.name)},${g.closed_by},${left.join(' ')}`);
    }
    expect(missing, `${missing.length} disagreement groups in neither test/python-holidays/ledger*.csv nor backlog.csv:\n${missing.slice(0, 40).join('\n')}`).toEqual([]);
  });

  it('no stale row: each matches a disagreement, each listed date still disagrees', () => {
    const stale: string[] = [];
    for (const r of [...ledger, ...backlog]) {
      const hit = found.filter((g) => matches(r, g.location) && r.holiday === g.name && r.side === g.closed_by);
      if (!hit.length) stale.push(`${r.where}: ${r.location} ${r.holiday} (${r.side}) matches no disagreement`);
      const dates = new Set(hit.flatMap((g) => g.dates));
      for (const d of r.dates ? r.dates.split(' ') : []) if (!dates.has(d)) stale.push(`${r.where}: ${r.location} ${r.holiday} ${d} now agrees`);
    }
    expect(stale, `stale rows (remove them):\n${stale.slice(0, 40).join('\n')}`).toEqual([]);
  });
});
