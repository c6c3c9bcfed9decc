/**
 * Artifact checks on the built dataset: every file validates against its
 * schema, the manifest matches the files byte for byte, no duplicates, no
 * leftovers; a second build gives identical bytes; bad sources fail closed.
 */
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { build } from '../pipeline/run.js';
import { createAjv, schemaFor, validateFiles } from '../pipeline/stages/validate.js';
import { sha256 } from '../pipeline/stages/emit-manifest.js';
import { DATA_DIR } from './helpers.js';
import { lockSources } from '../scripts/lock-sources.js';

const ROOT = join(import.meta.dirname, '..');
const V1 = join(DATA_DIR, 'v1');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}


const files = walk(V1).map((p) => relative(V1, p).split('\\').join('/')).sort();
const manifest = JSON.parse(readFileSync(join(V1, 'manifest.json'), 'utf8'));

describe('dist-data artifacts', () => {
  it('every file but the README, the bulk tables and the calendar feeds is JSON with a schema and validates against it', () => {
    const ajv = createAjv();
    // bulk/ (CSV, gzip, SQLite and the Data Package descriptor) is checked against its Table Schemas in test/bulk.test.ts.
    const other = (f: string) => f === 'README.md' || f.startsWith('bulk/') || /^business-days\/[A-Z0-9-]+\/\d{4}\.ics$/.test(f);
    const json = files.filter((f) => !other(f));
    expect(json.every((f) => f.endsWith('.json'))).toBe(true);
    const docs: [string, unknown][] = json.map((f) => [f, JSON.parse(readFileSync(join(V1, f), 'utf8'))]);
    for (const [f] of docs) expect(schemaFor(f), f).toBeDefined();
    expect(validateFiles(docs, ajv)).toBe(json.length);
  }, 180_000); // 80,000 documents: 15-40 s on a loaded machine

  it('the dataset README has every placeholder filled and states the manifest counts', () => {
    const readme = readFileSync(join(V1, 'README.md'), 'utf8');
    expect(readme).not.toMatch(/\{\{|\}\}/);
    expect(readme).toContain(`${manifest.counts.locations} business-day locations`);
    expect(readme).toContain(`${manifest.counts.timezones} IANA time zones (tzdata ${manifest.sources.tzdata.version})`);
  });

  it('the dataset README states how many files the dataset has, and their size', () => {
    // The one place these figures are kept: the project's docs only quote them with the date they were measured.
    const readme = readFileSync(join(V1, 'README.md'), 'utf8').replace(/\s+/g, ' ');
    const data = files.filter((f) => f !== 'README.md' && f !== 'manifest.json');
    const mb = (list: string[]) => (list.reduce((n, f) => n + manifest.files[f].bytes, 0) / 1e6).toFixed(1);
    const bulk = data.filter((f) => f.startsWith('bulk/'));
    const ics = data.filter((f) => !f.startsWith('bulk/') && f.endsWith('.ics'));
    const json = data.filter((f) => !f.startsWith('bulk/') && !f.endsWith('.ics'));
    expect(readme).toContain(`Files: ${files.length} in all; ${mb(data)} MB without this README and \`manifest.json\`: `
      + `${json.length} JSON files (${mb(json)} MB), ${ics.length} iCalendar files (${mb(ics)} MB) and ${bulk.length} files in \`bulk/\` (${mb(bulk)} MB).`);
  });

  it('the manifest lists exactly the other files, with their sha256 and size', async () => {
    const listed = Object.keys(manifest.files).sort();
    expect(listed).toEqual(files.filter((f) => f !== 'manifest.json'));
    // Mismatches are collected and compared once: 320,000 expect() calls were half of this test's time.
    const wrong: string[] = [];
    for (const [i, f] of listed.entries()) {
      if (i % 2000 === 0) await yieldToLoop(); // inside long loops over 160,000 files, so the worker keeps answering vitest's RPC (60 s deadline)
      const bytes = readFileSync(join(V1, f)); // bytes: the gzipped tables and the SQLite file are not text
      if (manifest.files[f].sha256 !== sha256(bytes) || manifest.files[f].bytes !== bytes.length) wrong.push(f);
    }
    expect(wrong).toEqual([]);
    const version = sha256(listed.map((f) => `${manifest.files[f].sha256}  ${f}\n`).join('')).slice(0, 16);
    expect(manifest.version).toBe(version);
  }, 300_000); // async (it yields), so the 30 s default applies: hashing 160,000 files takes 30-60 s under load

  it('counts match the files, and every ISO country has holiday data or no population of its own', () => {
    const list = JSON.parse(readFileSync(join(V1, 'business-days', 'index.json'), 'utf8'));
    const kinds = (k: string) => list.locations.filter((l: { kind: string }) => l.kind === k).length;
    expect(manifest.counts).toMatchObject({ countries: kinds('country'), states: kinds('state'), regions: kinds('region'), first_year: 1990, last_year: 2099 });
    expect(list.locations.length).toBe(manifest.counts.locations);
    expect(list.no_holiday_data.length).toBe(manifest.counts.no_holiday_data);
    const years = manifest.counts.last_year - manifest.counts.first_year + 1;
    expect(files.filter((f) => /^business-days\/[^/]+\/\d{4}\.json$/.test(f)).length).toBe(manifest.counts.locations * years);
    // Countries date-holidays does not know come from python-holidays (Qatar, Kuwait, Nepal …).
    const known = new Set(list.locations.map((l: { location: string }) => l.location));
    for (const c of ['AF', 'IQ', 'JO', 'KW', 'QA', 'NP', 'MN', 'WS']) expect(known.has(c), c).toBe(true);
    // What stays without data is exactly sources/holidays/no-population.csv, and no ISO country is missing from both lists.
    const noPopulation = readFileSync(join(ROOT, 'sources', 'holidays', 'no-population.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.slice(0, 2));
    expect(list.no_holiday_data.map((l: { location: string }) => l.location).sort()).toEqual(noPopulation.sort());
    const countries = JSON.parse(readFileSync(join(V1, 'countries', 'index.json'), 'utf8')).countries.map((c: { code: string }) => c.code);
    for (const c of countries) expect(known.has(c) || noPopulation.includes(c), c).toBe(true);
  });

  it('year files hold their own year, sorted, with no duplicate rows', async () => {
    const problems: string[] = [];
    for (const [i, f] of files.filter((x) => /\/\d{4}\.json$/.test(x)).entries()) {
      if (i % 2000 === 0) await yieldToLoop();
      const doc = JSON.parse(readFileSync(join(V1, f), 'utf8'));
      const keys = doc.holidays.map((h: any) => `${h.date}|${h.type}|${h.name}`);
      const dates: string[] = doc.holidays.map((h: any) => h.date);
      if (new Set(keys).size !== keys.length) problems.push(`${f}: duplicate rows`);
      if (!dates.every((d) => d.startsWith(`${doc.year}-`))) problems.push(`${f}: a row of another year`);
      if (dates.some((d, j) => j > 0 && dates[j - 1] > d)) problems.push(`${f}: not sorted by date`);
    }
    expect(problems).toEqual([]);
  }, 300_000);

  it('bulk/ holds a CSV per table of datapackage.json, a gzipped copy of those over 64 KiB, and refdata.sqlite (and gzipped)', () => {
    const pkg = JSON.parse(readFileSync(join(V1, 'bulk', 'datapackage.json'), 'utf8')) as { resources: { name: string; path: string; bytes: number; schema?: unknown }[] };
    const expected = ['bulk/datapackage.json', 'bulk/refdata.sqlite', 'bulk/refdata.sqlite.gz'];
    for (const r of pkg.resources.filter((x) => x.schema)) {
      expected.push(`bulk/${r.path}`);
      if (r.bytes > 64 * 1024) expected.push(`bulk/${r.path}.gz`);
    }
    expect(files.filter((f) => f.startsWith('bulk/'))).toEqual(expected.sort());
    expect(readFileSync(join(V1, 'bulk', 'refdata.sqlite')).subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    expect(gunzipSync(readFileSync(join(V1, 'bulk', 'refdata.sqlite.gz'))).equals(readFileSync(join(V1, 'bulk', 'refdata.sqlite')))).toBe(true);
  });

  it('leaves no staging or previous folders behind', () => {
    // A replaced dataset (.trash-*) may still be being removed in the background; .inputs records what the
    // dataset was built from (pipeline/inputs.ts).
    expect(readdirSync(DATA_DIR).filter((n) => n.startsWith('.') && !n.startsWith('.trash-') && n !== '.inputs')).toEqual([]);
  });

  it('the attribution file names every source with its license', () => {
    const attribution = JSON.parse(readFileSync(join(V1, 'attribution.json'), 'utf8'));
    const names = attribution.sources.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(['date-holidays', 'cldr-core', 'REST Countries']));
    for (const s of attribution.sources) expect(s.license.length).toBeGreaterThan(2);
  });

  it('lib/schema-types.ts is generated from the current schemas', () => {
    execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts', 'gen-types.ts'), '--check'], { cwd: ROOT, stdio: 'pipe' });
  });
});

describe('the build', () => {
  it('fails closed on a bad source row and leaves the published data untouched', async () => {
    const sources = mkdtempSync(join(tmpdir(), 'refdata-sources-'));
    const out = mkdtempSync(join(tmpdir(), 'refdata-out-'));
    try {
      cpSync(join(ROOT, 'sources'), sources, { recursive: true });
      writeFileSync(join(out, 'sentinel'), 'published');
      const csv = join(sources, 'holidays', 'AE', 'workweeks.csv');
      const cited = readFileSync(join(sources, 'holidays', 'AE', 'citations.csv'), 'utf8').split('\n')[1].split(',')[0];
      writeFileSync(csv, `${readFileSync(csv, 'utf8')}AE,2020-01-01,2019-01-01,monday,${cited},until before from\n`);
      lockSources(sources); // pin the bad row on purpose: the row check, not the lock, must refuse it
      await expect(build({ outDir: out, sourcesDir: sources })).rejects.toThrow(/until before from/);
      expect(readdirSync(out)).toEqual(['sentinel']);
    } finally {
      rmSync(sources, { recursive: true, force: true });
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('the validation gate rejects a document that breaks its schema', () => {
    expect(() => validateFiles([['business-days/US/2026.json', { location: 'US', year: 2026, holidays: [{ date: '2026-13-01' }] }]])).toThrow(/validation failed/);
    expect(() => validateFiles([['business-days/../../etc.json', {}]])).toThrow(/no schema/);
  });
});

it('dist-data exists', () => expect(existsSync(V1)).toBe(true));
