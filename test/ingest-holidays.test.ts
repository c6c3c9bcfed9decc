/**
 * The ingest's shortcuts (pipeline/stages/ingest-holidays.ts, lunar-cache.ts) must not change a
 * single row: dates in wall-clock time with no zone, the
 * local-language pass reusing the English pass's dates, and one lunisolar cache per process.
 * Reference: date-holidays used plainly (a fresh instance per language, every rule type, the
 * location's zone). Sample: lunisolar (CN, KR, VN, HK), Islamic (SA, MY-01), bridge days and
 * substitutes (AR, US, JP), multi-day and partial days (DE-BY, IL, BR-SP, CL), a rule that refers to another
 * (CH-GL: Näfelser Fahrt moves a week when it falls on Maundy Thursday), 1989-2100.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import Holidays from 'date-holidays';
import { describe, expect, it } from 'vitest';
import { datedRows, englishOf, expandRow, ingestTarget, listTargets, type RawRow } from '../pipeline/stages/ingest-holidays.js';

const SAMPLE = ['CN', 'KR', 'VN', 'HK', 'SA', 'MY-01', 'AR', 'US', 'JP', 'DE-BY', 'IL', 'BR-SP', 'CL', 'CH-GL'];
const YEARS = Array.from({ length: 112 }, (_, i) => 1989 + i);
const targets = listTargets().filter((t) => SAMPLE.includes(t.location));

/**
 * What the ingest takes from a row: local date text, name, type, substitute flag, and the days and
 * hours it closes (expandRow; a holiday on a DST change lasts 23 or 25 hours in its zone, 24 in
 * wall-clock time, and closes the same working hours).
 */
const essence = (rows: RawRow[]) =>
  rows.map((r) => [r.date, r.name, r.type, r.substitute === true, closes(r)].join('|'));
/** The days a row closes, and the hours where it closes part of a day (all the ingest publishes of its length). */
const closes = (r: RawRow) => expandRow(r.date, r.end.getTime() - r.start.getTime()).map((p) => (p.partial ? `${p.day} ${p.from}-${p.to}` : `${p.day}`)).join(',');

function plainRows(args: string[], year: number, lang: string): RawRow[] {
  const inst = new Holidays(args[0], args[1], args[2]);
  return (inst.getHolidays(year, lang) as RawRow[]).filter((r) => r.type === 'public' || r.type === 'bank');
}

describe('ingest shortcuts', () => {
  it('covers every target of the sample', () => expect(targets.map((t) => t.location).sort()).toEqual([...SAMPLE].sort()));

  it.each(targets.map((t) => [t.location, t] as const))('%s: the same rows as date-holidays used plainly, 1989-2100', (_, target) => {
    let compared = 0;
    for (const { year, enRows, localRows } of datedRows(target, YEARS)) {
      expect(essence(enRows), `${target.location} ${year} en`).toEqual(essence(plainRows(target.args, year, englishOf(target))));
      expect(essence(localRows), `${target.location} ${year} ${target.localLanguage}`).toEqual(essence(plainRows(target.args, year, target.localLanguage)));
      compared += enRows.length;
    }
    expect(compared).toBeGreaterThan(YEARS.length * 3);
  }, 120_000);

  it('gives the same rows whatever the process time zone', async () => {
    // Locations whose own zones change clocks at midnight (BR, CL) or did (KR 1987-88), and the US.
    const sample = ['BR-SP', 'CL', 'KR', 'US'];
    const script = join(import.meta.dirname, 'ingest-holidays.sample.ts');
    // Awaited, one after the other: a worker blocked on a child for long misses vitest's RPC deadline (60 s).
    const digests: string[] = [];
    for (const TZ of ['UTC', 'Pacific/Chatham', 'America/Santiago']) {
      digests.push((await promisify(execFile)(process.execPath, ['--import', 'tsx', script, sample.join(',')], { env: { ...process.env, TZ }, encoding: 'utf8' })).stdout.trim());
    }
    const here = createHash('sha256').update(JSON.stringify(targets.filter((t) => sample.includes(t.location)).map((t) => ingestTarget(t, YEARS)))).digest('hex');
    expect(digests).toEqual([here, here, here]);
  }, 300_000);
});
