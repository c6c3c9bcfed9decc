/**
 * Differential audit against an independent implementation, workalendar
 * (Debian's python3-workalendar, run with /usr/bin/python3): every day of
 * 2018-2025 in every location both cover, our business-day answer (the
 * server's own code over the built dataset) against workalendar's working-day
 * answer. Each disagreement is grouped by location and holiday name and must
 * be listed, with a verdict and a source, in test/workalendar/ledger*.csv
 * (one file per reviewer; ledger.csv holds the first pass):
 *
 * - theirs-wrong: workalendar is wrong (the source says so);
 * - ours-fixed:   we were wrong, a cited row in sources/holidays/<CC>/
 *                 fixed it: the dates must now agree;
 * - ours-wrong:   we are wrong, not fixed yet (the explanation says what would fix it);
 * - definition:   a difference of definition (bank vs public holiday, state
 *                 employees only, half day ...), the explanation says which we follow.
 *
 * The ledger is kept exact: a disagreement missing from it fails, an
 * ours-fixed date that still disagrees fails, and a row (or a date in a row)
 * that no longer disagrees fails as stale. REFDATA_DATA_DIR points the test
 * at another build (e.g. `npx tsx pipeline/run.ts /tmp/wk-build`).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { isBusinessDay } from '../lib/business-calendar.js';
import { daysFromCivil, formatDate, weekdayIndex } from '../lib/plain-date.js';
import { requirePackage, runs, sharedStore } from './helpers.js';

const PYTHON = '/usr/bin/python3';
const AUDIT = join(import.meta.dirname, 'workalendar', 'audit.py');
const LEDGER_DIR = join(import.meta.dirname, 'workalendar');
const LEDGERS = readdirSync(LEDGER_DIR).filter((f) => /^ledger.*\.csv$/.test(f)).sort();
const YEARS = [2018, 2019, 2020, 2021, 2022, 2023, 2024, 2025];
const VERDICTS = new Set(['theirs-wrong', 'ours-fixed', 'ours-wrong', 'definition']);
/** Group name of a disagreement on a day that is neither side's holiday. */
const WEEKEND = '(weekend)';

interface LedgerRow { location: string; holiday: string; dates: string; verdict: string; explanation: string; source: string; where: string }
interface TheirDay { date: string; ours: 'open' | 'closed'; theirs: 'open' | 'closed'; their_names: string[] }
interface AuditOutput {
  workalendar: string;
  locations: Record<string, { days: number; disagreements: TheirDay[]; errors: string[]; warnings: string[] }>;
  missing: string[];
}
interface Disagreement extends TheirDay { location: string; holiday: string }

/** The audit script, awaited: a worker blocked on a child for a minute misses vitest's RPC deadline (60 s). */
async function runPython(args: string[]): Promise<string> {
  try {
    return (await promisify(execFile)(PYTHON, [AUDIT, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 })).stdout;
  } catch (err) {
    const e = err as { code?: number; stderr?: string };
    throw new Error(`${PYTHON} ${AUDIT} ${args.join(' ')} failed (${e.code}): ${e.stderr ?? String(err)}`);
  }
}

// Without the independent implementation the file fails, naming the install line, on every machine (not only in CI).
requirePackage('python3-workalendar', runs(PYTHON, ['-c', 'import workalendar']));

/** Our answers for every location workalendar also has, audited; disagreements named and grouped. */
async function audit() {
  const store = sharedStore();
  const theirCodes = new Set(JSON.parse(await runPython(['--codes'])) as string[]);
  const shared = store.list.locations.filter((l) => theirCodes.has(l.location));
  const first = daysFromCivil(YEARS[0], 1, 1);
  const last = daysFromCivil(YEARS.at(-1)!, 12, 31);
  const answers: Record<string, { closed: string[]; open_weekend: string[] }> = {};
  for (const { location } of shared) {
    const cal = store.location(location).calendar('business');
    const closed: string[] = [];
    const openWeekend: string[] = [];
    for (let day = first; day <= last; day++) {
      if (!isBusinessDay(cal, day)) closed.push(formatDate(day));
      else if (weekdayIndex(day) >= 5) openWeekend.push(formatDate(day));
    }
    answers[location] = { closed, open_weekend: openWeekend };
  }
  const dir = mkdtempSync(join(tmpdir(), 'refdata-workalendar-'));
  let out: AuditOutput;
  try {
    const file = join(dir, 'answers.json');
    writeFileSync(file, JSON.stringify({ years: YEARS, locations: answers }));
    out = JSON.parse(await runPython([file])) as AuditOutput;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const disagreements: Disagreement[] = [];
  for (const [location, res] of Object.entries(out.locations)) {
    const loc = store.location(location);
    for (const d of res.disagreements) {
      const [y, m, dd] = d.date.split('-').map(Number);
      const ours = loc.holidaysOn(daysFromCivil(y, m, dd));
      // Our name where we have a row that day (the closing ones when we close), else theirs.
      const named = d.ours === 'closed' ? ours.filter((h) => h.closes.includes('business')) : ours;
      const names = named.length ? named.map((h) => h.name) : d.their_names;
      const holiday = names.length ? [...new Set(names)].sort().join(' + ') : WEEKEND;
      disagreements.push({ ...d, location, holiday });
    }
  }
  const kinds = new Map(shared.map((l) => [l.location, l.kind]));
  return { out, disagreements, kinds };
}

function readLedger(): LedgerRow[] {
  return LEDGERS.flatMap((f) =>
    (parse(readFileSync(join(LEDGER_DIR, f), 'utf8'), { columns: true, skip_empty_lines: true, trim: true }) as LedgerRow[]).map((r, i) => ({ ...r, where: `${f} row ${i + 2}` })),
  );
}

const audited = await audit();

describe('workalendar differential audit 2018-2025', () => {
  const { out, disagreements, kinds } = audited;
  const ledger = readLedger();
  const key = (location: string, holiday: string) => `${location}\t${holiday}`;
  const rowsByKey = new Map<string, LedgerRow[]>();
  for (const r of ledger) rowsByKey.set(key(r.location, r.holiday), [...(rowsByKey.get(key(r.location, r.holiday)) ?? []), r]);
  const disagreeing = new Set(disagreements.map((d) => `${d.location}\t${d.date}`));
  const groupOf = new Map(disagreements.map((d) => [`${d.location}\t${d.date}`, d.holiday]));

  it('prints the agreement (share of location-days that agree)', () => {
    const tally = { country: { days: 0, off: 0, n: 0 }, region: { days: 0, off: 0, n: 0 } };
    for (const [location, res] of Object.entries(out.locations)) {
      const t = kinds.get(location) === 'country' ? tally.country : tally.region;
      t.days += res.days;
      t.off += res.disagreements.length;
      t.n++;
    }
    const pct = (t: { days: number; off: number }) => (t.days ? (100 * (1 - t.off / t.days)).toFixed(3) : 'n/a');
    const errors = Object.entries(out.locations).flatMap(([l, r]) => r.errors.map((e) => `${l} ${e}`));
    console.log(
      [
        `workalendar ${out.workalendar} vs refdata, ${YEARS[0]}-${YEARS.at(-1)}:`,
        `  countries: ${tally.country.n} locations, ${pct(tally.country)}% of ${tally.country.days} location-days agree (${tally.country.off} disagree)`,
        `  regions:   ${tally.region.n} locations, ${pct(tally.region)}% of ${tally.region.days} location-days agree (${tally.region.off} disagree)`,
        `  groups: ${new Set(disagreements.map((d) => key(d.location, d.holiday))).size}; ledger rows: ${ledger.length}`,
        ...(errors.length ? [`  years workalendar could not compute: ${errors.join('; ')}`] : []),
      ].join('\n'),
    );
    expect(tally.country.n + tally.region.n).toBeGreaterThan(100);
  });

  it('ledger rows are well formed', () => {
    const problems: string[] = [];
    const seen = new Set<string>();
    ledger.forEach((r) => {
      const where = `${r.where} (${r.location} ${r.holiday})`;
      if (!kinds.has(r.location)) problems.push(`${where}: location not covered by both sides`);
      if (!VERDICTS.has(r.verdict)) problems.push(`${where}: verdict "${r.verdict}" is not one of ${[...VERDICTS].join(', ')}`);
      if (!/^https?:\/\//.test(r.source)) problems.push(`${where}: source must be a URL`);
      if (!r.explanation) problems.push(`${where}: no explanation`);
      const dates = r.dates.split(/\s+/).filter(Boolean);
      if (!dates.length) problems.push(`${where}: no dates`);
      for (const d of dates) {
        if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || !YEARS.includes(Number(d.slice(0, 4)))) problems.push(`${where}: bad date ${d}`);
        if (seen.has(`${r.location}\t${d}`)) problems.push(`${where}: ${d} listed twice`);
        seen.add(`${r.location}\t${d}`);
      }
    });
    expect(problems, problems.join('\n')).toEqual([]);
  });

  it('ours-fixed rows now agree', () => {
    const still = ledger
      .filter((r) => r.verdict === 'ours-fixed')
      .flatMap((r) => r.dates.split(/\s+/).filter((d) => d && disagreeing.has(`${r.location}\t${d}`)).map((d) => `${r.location} ${d} ${r.holiday}`));
    expect(still, `marked ours-fixed but still disagreeing:\n${still.join('\n')}`).toEqual([]);
  });

  it('no stale ledger rows (every listed date of an open verdict still disagrees, in that group)', () => {
    const stale = ledger
      .filter((r) => r.verdict !== 'ours-fixed')
      .flatMap((r) =>
        r.dates
          .split(/\s+/)
          .filter((d) => d && groupOf.get(`${r.location}\t${d}`) !== r.holiday)
          .map((d) => `${r.location},${r.holiday},${d} (${r.verdict}) now ${disagreeing.has(`${r.location}\t${d}`) ? `in group "${groupOf.get(`${r.location}\t${d}`)}"` : 'agrees'}`),
      );
    expect(stale, `stale ledger entries (remove or move them):\n${stale.join('\n')}`).toEqual([]);
  });

  it('every disagreement is in the ledger', () => {
    const groups = new Map<string, Disagreement[]>();
    for (const d of disagreements) {
      const listed = (rowsByKey.get(key(d.location, d.holiday)) ?? []).some((r) => r.verdict !== 'ours-fixed' && r.dates.split(/\s+/).includes(d.date));
      if (!listed) groups.set(key(d.location, d.holiday), [...(groups.get(key(d.location, d.holiday)) ?? []), d]);
    }
    const lines = [...groups.values()].map((ds) => {
      const d0 = ds[0];
      const theirs = [...new Set(ds.flatMap((d) => d.their_names))].join(' | ');
      return `${d0.location},${JSON.stringify(d0.holiday)},${ds.map((d) => d.date).join(' ')} (ours ${d0.ours}, theirs ${d0.theirs}${theirs ? `: ${theirs}` : ''})`;
    });
    expect(lines, `${lines.length} disagreement groups not in test/workalendar/ledger*.csv:\n${lines.join('\n')}`).toEqual([]);
  });
});
