/**
 * The data changelog (lib/data-diff/, scripts/diff-data.ts) on two small
 * datasets written by hand here, with known differences, and on the real
 * dataset against itself. Every expected finding is typed out, not produced
 * by the code under test.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkManifest,
  compareManifests,
  diffDatasets,
  diffHolidays,
  filesToLoad,
  firstOffsetDifference,
  firstWorkweekDifference,
  renderManifestProblems,
  renderMarkdown,
  type FileFacts,
  type Snapshot,
} from '../lib/data-diff/index.js';
import type { Holiday, Manifest, TimezoneZone, ZoneTransition } from '../lib/schema-types.js';
import { DATA_DIR } from './helpers.js';

const ROOT = join(import.meta.dirname, '..');
const TODAY = '2026-06-01';

// ------------------------------------------------------------ builders

function holiday(date: string, name: string, extra: Partial<Holiday> = {}): Holiday {
  return { citations: [], closes: ['business', 'banking', 'government'], date, local_name: name, name, observed_for: null, transferred: false, transferred_from: null, basis: 'rules', partial: false, substitute: false, type: 'public', ...extra };
}

const substitute = (date: string, name: string, observedFor: string) => holiday(date, name, { substitute: true, observed_for: observedFor });

function tr(at: string, offset_minutes: number, abbreviation: string, is_dst: boolean): ZoneTransition {
  const sign = offset_minutes < 0 ? '-' : '+';
  const m = Math.abs(offset_minutes);
  const offset = `${sign}${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return { abbreviation, at, is_dst, offset, offset_minutes };
}

function zone(id: string, std: number, initial: ZoneTransition, transitions: ZoneTransition[], tzdata = '2026f'): TimezoneZone {
  const { at: _at, ...state } = initial;
  return {
    aliases: [],
    comment: '',
    country: 'XX',
    id,
    initial: state,
    name: `${id} Time`,
    standard_offset: initial.offset,
    standard_offset_minutes: std,
    transitions,
    tzdata_version: tzdata,
    window: { start: '2024-01-01T00:00:00Z', end: '2028-01-01T00:00:00Z' },
  };
}

/** Paraguay-like: -03 in summer, -04 in winter (southern hemisphere). */
const ASUNCION_OLD = [
  tr('2024-03-24T03:00:00Z', -240, '-04', false),
  tr('2024-10-06T04:00:00Z', -180, '-03', true),
  tr('2025-03-23T03:00:00Z', -240, '-04', false),
  tr('2025-10-05T04:00:00Z', -180, '-03', true),
  tr('2026-03-22T03:00:00Z', -240, '-04', false),
  tr('2026-10-04T04:00:00Z', -180, '-03', true),
  tr('2027-03-28T03:00:00Z', -240, '-04', false),
  tr('2027-10-03T04:00:00Z', -180, '-03', true),
];
/** New data: permanent -03 from 2026-10-04, so the 2027 changes go. */
const ASUNCION_NEW = [...ASUNCION_OLD.slice(0, 5), tr('2026-10-04T04:00:00Z', -180, '-03', false)];

/** Gaza-like: the 2025 spring change corrected from 04-12 to 04-19 (a past instant). */
const gaza = (spring2025: string, tzdata: string) =>
  zone(
    'Asia/Gaza',
    120,
    tr('', 120, 'EET', false),
    [tr('2024-04-20T00:00:00Z', 180, 'EEST', true), tr('2024-10-25T23:00:00Z', 120, 'EET', false), tr(spring2025, 180, 'EEST', true), tr('2025-10-24T23:00:00Z', 120, 'EET', false)],
    tzdata,
  );

const GB_OLD: Holiday[] = [
  holiday('2026-01-01', "New Year's Day"),
  holiday('2026-05-04', 'Early May bank holiday'),
  holiday('2026-08-31', 'Summer bank holiday'),
  holiday('2026-12-25', 'Christmas Day'),
  holiday('2026-12-26', 'Boxing Day'),
  substitute('2026-12-28', 'Boxing Day (substitute day)', '2026-12-26'),
];
const GB_NEW: Holiday[] = [
  holiday('2026-01-01', "New Year's Day"),
  holiday('2026-05-04', 'Early May bank holiday (VE Day)'), // renamed, before TODAY
  holiday('2026-06-08', 'Special Bank Holiday'), // added
  // Summer bank holiday removed
  holiday('2026-12-25', 'Christmas Day'),
  holiday('2026-12-26', 'Boxing Day'),
  substitute('2026-12-29', 'Boxing Day (substitute day)', '2026-12-26'), // moved
];

const travel = (code: string, voltage: number, ambulance: string) => ({
  climate: null,
  country: code,
  destination: code,
  driving_side: 'right',
  emergency: { ambulance, fire: '112', police: '112' },
  phone_code: '+00',
  power: { frequency: 50, plugs: ['C', 'F'], voltage },
  power_compatibility: null,
  sources: { climate: null, driving_side: 'test', emergency: 'test', phone_code: 'test', power: 'test' },
});

const workweek = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'];
const location = (loc: string) => ({
  country: loc.slice(0, 2),
  day_types: { banking: { basis: 'x', data: 'own' }, business: { basis: 'x', data: 'own' }, government: { basis: 'x', data: 'fallback' } },
  kind: 'state',
  local_language: 'en',
  location: loc,
  name: loc,
  parent: loc.slice(0, 2),
  range: { end: '2026-12-31', start: '2026-01-01' },
  timezone: 'Europe/London',
  workweeks: [{ from: null, source: 'test', until: null, workweek }],
  years: [2026],
});

type Files = Record<string, unknown>;

function dataset(side: 'old' | 'new'): { files: Files; sources: Manifest['sources'] } {
  const isNew = side === 'new';
  const tz = isNew ? '2026g' : '2026f';
  const zones: Files = {
    'timezones/zones/America/Asuncion.json': zone('America/Asuncion', -240, tr('', -180, '-03', true), isNew ? ASUNCION_NEW : ASUNCION_OLD, tz),
    'timezones/zones/Asia/Gaza.json': gaza(isNew ? '2025-04-19T00:00:00Z' : '2025-04-12T00:00:00Z', tz),
  };
  if (isNew) zones['timezones/zones/America/Ciudad_Juarez.json'] = zone('America/Ciudad_Juarez', -420, tr('', -420, 'MST', false), [], tz);
  return {
    sources: { 'date-holidays': { license: 'ISC', version: isNew ? '3.38.0' : '3.37.0' }, tzdata: { license: 'public domain', version: tz } },
    files: {
      'attribution.json': { tzdata: tz },
      'business-days/index.json': { locations: [{ kind: 'state', location: 'DE-BY', name: 'Bayern', timezone: 'Europe/Berlin' }, { kind: 'state', location: 'GB-ENG', name: 'England', timezone: 'Europe/London' }] },
      'business-days/DE-BY/index.json': location('DE-BY'),
      'business-days/DE-BY/2026.json': { holidays: [holiday('2026-05-01', 'Labour Day')], location: 'DE-BY', year: 2026 },
      'business-days/GB-ENG/index.json': location('GB-ENG'),
      'business-days/GB-ENG/2026.json': { holidays: isNew ? GB_NEW : GB_OLD, location: 'GB-ENG', year: 2026 },
      'timezones/index.json': { aliases: isNew ? { 'America/Asuncion_Alias': 'America/Asuncion' } : {}, tzdata_version: tz, zones: [] },
      ...zones,
      'travel/DE.json': travel('DE', 230, '112'),
      'travel/MX.json': travel('MX', isNew ? 120 : 127, '911'),
      'travel/LK.json': travel('LK', 230, isNew ? '1990' : '110'),
      'countries/TR.json': { code: 'TR', name: isNew ? 'Türkiye' : 'Turkey', phone_code: '+90' },
    },
  };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Writes files and a manifest carrying each file's sha256, as the build does. */
function writeDataset(dir: string, side: 'old' | 'new'): Manifest {
  const { files, sources } = dataset(side);
  const entries: Manifest['files'] = {};
  for (const [path, value] of Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))) {
    const text = `${JSON.stringify(value, null, 2)}\n`;
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
    entries[path] = { bytes: Buffer.byteLength(text), sha256: sha256(text) };
  }
  const version = sha256(Object.entries(entries).map(([p, f]) => `${f.sha256}  ${p}\n`).join('')).slice(0, 16);
  const manifest: Manifest = { counts: {}, dataset: 'refdata', files: entries, sources, version };
  writeFileSync(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return manifest;
}

function snapshot(dir: string, manifest: Manifest, paths: string[]): Snapshot {
  return { manifest, files: new Map(paths.map((p) => [p, JSON.parse(readFileSync(join(dir, p), 'utf8'))])) };
}

function cli(...args: string[]) {
  // `npm run diff-data --` is tsx on the script; node --import tsx is the same without npm's own start-up.
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/diff-data.ts', ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr, lines: r.stdout.split('\n') };
}

const base = mkdtempSync(join(tmpdir(), 'refdata-diff-'));
const OLD = join(base, 'old', 'v1'); // a v1 folder given directly
const NEW = join(base, 'new'); // a dist-data-like folder holding v1/
const oldManifest = writeDataset(OLD, 'old');
const newManifest = writeDataset(join(NEW, 'v1'), 'new');
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A copy of the old dataset under `name`, to damage by hand; its manifest stays as written. */
function copyOld(name: string): string {
  const dir = join(base, name);
  cpSync(OLD, dir, { recursive: true });
  return dir;
}

/** Replaces text in a file of a dataset, as a hand edit would. */
function edit(dir: string, path: string, from: string, to: string): void {
  const text = readFileSync(join(dir, path), 'utf8');
  if (!text.includes(from)) throw new Error(`${path} has no ${from}`);
  writeFileSync(join(dir, path), text.replace(from, to));
}

// ------------------------------------------------------------ pure functions

describe('diffHolidays', () => {
  it('finds the added, removed, moved and renamed holidays of one location-year', () => {
    expect(diffHolidays('GB-ENG', 2026, GB_OLD, GB_NEW, TODAY)).toEqual([
      {
        location: 'GB-ENG',
        year: 2026,
        kind: 'changed',
        name: 'Early May bank holiday',
        date: '2026-05-04',
        fields: [
          { field: 'local_name', old: 'Early May bank holiday', new: 'Early May bank holiday (VE Day)' },
          { field: 'name', old: 'Early May bank holiday', new: 'Early May bank holiday (VE Day)' },
        ],
        past: true,
      },
      { location: 'GB-ENG', year: 2026, kind: 'added', name: 'Special Bank Holiday', date: '2026-06-08', fields: [], past: false },
      { location: 'GB-ENG', year: 2026, kind: 'removed', name: 'Summer bank holiday', date: '2026-08-31', fields: [], past: false },
      { location: 'GB-ENG', year: 2026, kind: 'moved', name: 'Boxing Day (substitute day)', date: '2026-12-29', old_date: '2026-12-28', fields: [], past: false },
    ]);
  });

  it('matches a substitute day that moved and was renamed by the date it replaces', () => {
    const a = [substitute('2027-12-28', 'Boxing Day (substitute day)', '2027-12-26')];
    const b = [substitute('2027-12-29', 'Boxing Day (observed)', '2027-12-26')];
    const [c] = diffHolidays('GB', 2027, a, b, TODAY);
    expect(c).toMatchObject({ kind: 'moved', date: '2027-12-29', old_date: '2027-12-28', name: 'Boxing Day (substitute day)' });
    expect(c.fields.map((f) => f.field)).toEqual(['local_name', 'name']);
  });

  it('pairs repeated names (a two-day festival) by the nearest date', () => {
    const a = [holiday('2030-02-04', 'Eid al-Fitr'), holiday('2030-02-05', 'Eid al-Fitr')];
    const b = [holiday('2030-02-05', 'Eid al-Fitr'), holiday('2030-02-06', 'Eid al-Fitr')];
    expect(diffHolidays('XX', 2030, a, b, TODAY).map((c) => [c.kind, c.old_date, c.date])).toEqual([['moved', '2030-02-04', '2030-02-06']]);
  });

  it('reports a type or closes change on the same date, and nothing for equal lists', () => {
    const a = [holiday('2026-12-24', 'Christmas Eve')];
    const b = [holiday('2026-12-24', 'Christmas Eve', { type: 'bank', closes: ['banking'] })];
    expect(diffHolidays('DE', 2026, a, b, TODAY)[0].fields).toEqual([
      { field: 'closes', old: ['business', 'banking', 'government'], new: ['banking'] },
      { field: 'type', old: 'public', new: 'bank' },
    ]);
    expect(diffHolidays('DE', 2026, a, a, TODAY)).toEqual([]);
  });
});

describe('firstOffsetDifference and firstWorkweekDifference', () => {
  it('gives the first instant the offset in force differs', () => {
    const a = zone('America/Asuncion', -240, tr('', -180, '-03', true), ASUNCION_OLD);
    const b = zone('America/Asuncion', -180, tr('', -180, '-03', true), ASUNCION_NEW);
    expect(firstOffsetDifference(a, b)).toEqual({ at: '2027-03-28T03:00:00Z', old_offset_minutes: -240, new_offset_minutes: -180 });
    expect(firstOffsetDifference(a, a)).toBeUndefined();
  });

  it('gives the first date whose workweek differs', () => {
    const mk = (from: string) => [
      { from: null, until: `${Number(from.slice(0, 4)) - 1}-12-31`, workweek: ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday'] as never, source: 's' },
      { from, until: null, workweek: workweek as never, source: 's' },
    ];
    expect(firstWorkweekDifference(mk('2022-01-01'), mk('2023-01-01'))).toBe('2022-01-01');
    expect(firstWorkweekDifference(mk('2022-01-01'), mk('2022-01-01'))).toBeUndefined();
  });
});

describe('diffDatasets on two crafted datasets', () => {
  const changes = compareManifests(oldManifest, newManifest);
  const load = filesToLoad(changes);
  const diff = diffDatasets(snapshot(OLD, oldManifest, load.old), snapshot(join(NEW, 'v1'), newManifest, load.new), TODAY);

  it('parses only files whose sha256 differs or that exist on one side', () => {
    expect(changes.added).toEqual(['timezones/zones/America/Ciudad_Juarez.json']);
    expect(changes.removed).toEqual([]);
    expect(changes.changed).toEqual([
      'attribution.json',
      'business-days/GB-ENG/2026.json',
      'countries/TR.json',
      'timezones/index.json',
      'timezones/zones/America/Asuncion.json',
      'timezones/zones/Asia/Gaza.json',
      'travel/LK.json',
      'travel/MX.json',
    ]);
    expect(changes.unchanged).toBe(5); // business-days index, DE-BY (2 files), GB-ENG index, travel/DE
    expect(load.old).not.toContain('attribution.json');
    expect(load.old).not.toContain('travel/DE.json');
  });

  it('reports the header, the holidays, the zones, the travel facts and the countries', () => {
    expect(diff.sources).toEqual([
      { name: 'date-holidays', old: '3.37.0', new: '3.38.0' },
      { name: 'tzdata', old: '2026f', new: '2026g' },
    ]);
    expect(diff.holidays.map((h) => `${h.location} ${h.kind} ${h.name} ${h.old_date ?? ''}${h.date}`)).toEqual([
      'GB-ENG changed Early May bank holiday 2026-05-04',
      'GB-ENG added Special Bank Holiday 2026-06-08',
      'GB-ENG removed Summer bank holiday 2026-08-31',
      'GB-ENG moved Boxing Day (substitute day) 2026-12-282026-12-29',
    ]);
    expect(diff.zones.added).toEqual(['America/Ciudad_Juarez']);
    expect(diff.zones.changed).toEqual([
      {
        zone: 'America/Asuncion',
        offset: { at: '2027-03-28T03:00:00Z', old_offset_minutes: -240, new_offset_minutes: -180 },
        transitions_added: { count: 1, first: '2026-10-04T04:00:00Z', last: '2026-10-04T04:00:00Z' },
        transitions_removed: { count: 3, first: '2026-10-04T04:00:00Z', last: '2027-10-03T04:00:00Z' },
        fields: [],
      },
      {
        zone: 'Asia/Gaza',
        offset: { at: '2025-04-12T00:00:00Z', old_offset_minutes: 180, new_offset_minutes: 120 },
        transitions_added: { count: 1, first: '2025-04-19T00:00:00Z', last: '2025-04-19T00:00:00Z' },
        transitions_removed: { count: 1, first: '2025-04-12T00:00:00Z', last: '2025-04-12T00:00:00Z' },
        fields: [],
      },
    ]);
    expect(diff.zones.aliases.added).toEqual([{ alias: 'America/Asuncion_Alias', target: 'America/Asuncion' }]);
    expect(diff.zones.metadata).toEqual([{ field: 'tzdata_version', old: '2026f', new: '2026g', zones: 2 }]);
    expect(diff.travel.changed).toEqual([
      { code: 'LK', fields: [{ field: 'emergency.ambulance', old: '110', new: '1990' }] },
      { code: 'MX', fields: [{ field: 'power.voltage', old: 127, new: 120 }] },
    ]);
    expect(diff.countries.changed).toEqual([{ code: 'TR', fields: [{ field: 'name', old: 'Turkey', new: 'Türkiye' }] }]);
    expect(diff.other_files).toEqual(['attribution.json']);
  });

  it('warns about every change before today, and only those', () => {
    expect(diff.warnings).toEqual([
      { subject: 'Asia/Gaza', date: '2025-04-12T00:00:00Z', change: 'offset changed (+03:00 → +02:00)', when: 'from 2025-04-12T00:00:00Z' },
      {
        subject: 'GB-ENG',
        date: '2026-05-04',
        change: 'holiday changed: Early May bank holiday (local_name "Early May bank holiday" → "Early May bank holiday (VE Day)"; name "Early May bank holiday" → "Early May bank holiday (VE Day)")',
        when: '2026-05-04',
      },
    ]);
  });

  it('renders the warnings before everything else', () => {
    const md = renderMarkdown(diff);
    expect(md.indexOf('### ⚠️ Warnings: 2 changes to dates before 2026-06-01')).toBeGreaterThan(0);
    expect(md.indexOf('### ⚠️ Warnings')).toBeLessThan(md.indexOf('### Holidays'));
  });
});

describe('diffDatasets on locations, workweeks and year files (in memory)', () => {
  /** A snapshot whose manifest hashes are the files' JSON: equal content, equal hash. */
  function memory(version: string, files: Files): Snapshot {
    const entries = Object.fromEntries(Object.entries(files).map(([p, v]) => [p, { bytes: 0, sha256: sha256(JSON.stringify(v)) }]));
    return { manifest: { counts: {}, dataset: 'refdata', files: entries, sources: {}, version }, files: new Map(Object.entries(files)) };
  }
  const index = (locs: string[]) => ({ locations: locs.map((l) => ({ kind: 'country', location: l, name: `Name of ${l}`, timezone: 'Asia/Dubai' })) });
  const uaeOld = { ...location('AE'), workweeks: [{ from: null, source: 's', until: null, workweek: ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday'] }] };
  const uaeNew = {
    ...location('AE'),
    workweeks: [
      { from: null, source: 's', until: '2021-12-31', workweek: ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday'] },
      { from: '2022-01-01', source: 's', until: null, workweek },
    ],
  };
  const year = (loc: string, y: number) => ({ holidays: [holiday(`${y}-12-02`, 'National Day')], location: loc, year: y });
  const a = memory('a', {
    'business-days/index.json': index(['AE', 'OM']),
    'business-days/AE/index.json': uaeOld,
    'business-days/AE/2000.json': year('AE', 2000),
    'business-days/AE/2026.json': year('AE', 2026),
    'business-days/OM/index.json': location('OM'),
    'business-days/OM/2026.json': year('OM', 2026),
  });
  const b = memory('b', {
    'business-days/index.json': index(['AE', 'QA']),
    'business-days/AE/index.json': uaeNew,
    'business-days/AE/2026.json': year('AE', 2026),
    'business-days/AE/2027.json': year('AE', 2027),
    'business-days/QA/index.json': location('QA'),
    'business-days/QA/2026.json': year('QA', 2026),
  });
  const diff = diffDatasets(a, b, TODAY);

  it('lists locations added and removed once, not their year files', () => {
    expect(diff.locations.added).toEqual([{ location: 'QA', name: 'Name of QA' }]);
    expect(diff.locations.removed).toEqual([{ location: 'OM', name: 'Name of OM' }]);
    expect(diff.years).toEqual([
      { location: 'AE', year: 2000, kind: 'removed', holidays: 1, past_holidays: 1 },
      { location: 'AE', year: 2027, kind: 'added', holidays: 1, past_holidays: 0 },
    ]);
  });

  it('reports a workweek change from the first date it differs, with a warning when that is past', () => {
    expect(diff.locations.changed).toMatchObject([{ location: 'AE', workweek_from: '2022-01-01', fields: [] }]);
    expect(diff.warnings).toEqual([
      { subject: 'AE', date: '2000-01-01', change: 'year file removed, with past holidays', when: '2000' },
      { subject: 'AE', date: '2022-01-01', change: 'workweek changed', when: 'from 2022-01-01' },
    ]);
    const md = renderMarkdown(diff);
    expect(md).toContain('- `AE`: workweek differs from 2022-01-01: Sun Mon Tue Wed Thu → Sun Mon Tue Wed Thu (… to 2021-12-31); Mon Tue Wed Thu Fri (2022-01-01 to …)');
    expect(md).toContain('- Added (1): `QA` Name of QA');
    expect(md).toContain('- year files removed: 2000 ⚠️');
  });
});

describe('checkManifest', () => {
  const facts = (text: string): FileFacts => ({ bytes: Buffer.byteLength(text), sha256: sha256(text) });
  const manifest = (files: Record<string, string>): Manifest => {
    const entries = Object.fromEntries(Object.entries(files).map(([p, t]) => [p, facts(t)]));
    return { counts: {}, dataset: 'refdata', files: entries, sources: {}, version: '0123456789abcdef' };
  };
  const m = manifest({ 'a.json': '{"a":1}\n', 'b.json': '{"b":2}\n', 'c/d.json': '{"d":3}\n' });

  it('finds nothing when the files are the ones listed', () => {
    const disk = new Map(Object.entries({ 'a.json': facts('{"a":1}\n'), 'b.json': facts('{"b":2}\n'), 'c/d.json': facts('{"d":3}\n') }));
    expect(checkManifest(m, disk)).toEqual([]);
    expect(checkManifest(m, disk, '0123456789abcdef')).toEqual([]);
  });

  it('names each missing, unlisted and changed file, in path order, and a version that is not its list hash', () => {
    const disk = new Map(Object.entries({ 'a.json': facts('{"a":9}\n'), 'c/d.json': facts('{"d":33}\n'), 'c/e.json': facts('x') }));
    const problems = checkManifest(m, disk, 'fedcba9876543210');
    expect(problems.map((p) => `${p.kind} ${p.path}`)).toEqual([
      'changed a.json',
      'missing b.json',
      'changed c/d.json',
      'unlisted c/e.json',
      'version manifest.json',
    ]);
    const text = renderManifestProblems('NEW /x', problems).split('\n');
    expect(text[0]).toBe('NEW /x does not match its manifest.json (5 differences):');
    // Same size, other bytes: only the hash differs.
    expect(text[1]).toBe(`  changed: a.json (manifest → file: sha256 ${sha256('{"a":1}\n').slice(0, 12)}… → ${sha256('{"a":9}\n').slice(0, 12)}…)`);
    expect(text[2]).toBe(`  missing: b.json (listed with 8 bytes, sha256 ${sha256('{"b":2}\n').slice(0, 12)}…)`);
    expect(text[3]).toMatch(/^ {2}changed: c\/d\.json \(manifest → file: bytes 8 → 9, sha256 [0-9a-f]{12}… → [0-9a-f]{12}…\)$/);
    expect(text[4]).toBe('  not in the manifest: c/e.json (1 bytes)');
    expect(text[5]).toBe('  manifest.json: version 0123456789abcdef is not the hash of its file list (fedcba9876543210)');
  });

  it('lists at most 20 problems, then a count', () => {
    const disk = new Map(Array.from({ length: 28 }, (_, i) => [`extra/${String(i).padStart(2, '0')}.json`, facts('{}')] as const));
    const problems = checkManifest(manifest({}), disk);
    const lines = renderManifestProblems('OLD /y', problems).split('\n');
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines[20]).toBe('  not in the manifest: extra/19.json (2 bytes)');
    expect(lines[21]).toBe('  … and 8 more');
  });
});

// ------------------------------------------------------------ the command line

describe('npm run diff-data', () => {
  it('prints the Markdown changelog and exits 0', () => {
    const r = cli(OLD, NEW, '--today', TODAY);
    expect(r.stderr).not.toMatch(/diff-data:/);
    expect(r.status).toBe(0);
    const expected = [
      '## Data changes',
      `- Dataset version: \`${oldManifest.version}\` → \`${newManifest.version}\``,
      '- Sources: date-holidays 3.37.0 → 3.38.0, tzdata 2026f → 2026g',
      '- Files: 8 changed, 1 added, 0 removed, 5 unchanged',
      '### ⚠️ Warnings: 2 changes to dates before 2026-06-01',
      '- `Asia/Gaza`: offset changed (+03:00 → +02:00) — from 2025-04-12T00:00:00Z',
      '- `GB-ENG`: holiday changed: Early May bank holiday (local_name "Early May bank holiday" → "Early May bank holiday (VE Day)"; name "Early May bank holiday" → "Early May bank holiday (VE Day)") — 2026-05-04',
      '#### `GB-ENG`',
      '- added **Special Bank Holiday**: 2026-06-08',
      '- removed **Summer bank holiday**: 2026-08-31',
      '- moved **Boxing Day (substitute day)**: 2026-12-28 → 2026-12-29',
      '- `Asia/Gaza`: offset changed (+03:00 → +02:00) from 2025-04-12T00:00:00Z ⚠️; 1 transition added (2025-04-19T00:00:00Z); 1 transition removed (2025-04-12T00:00:00Z)',
      '- `America/Asuncion`: offset changed (-04:00 → -03:00) from 2027-03-28T03:00:00Z; 1 transition added (2026-10-04T04:00:00Z); 3 transitions removed (2026-10-04T04:00:00Z … 2027-10-03T04:00:00Z)',
      '- Zones added: `America/Ciudad_Juarez`',
      '- Aliases: +`America/Asuncion_Alias` → `America/Asuncion`',
      '- tzdata_version 2026f → 2026g in 2 zone documents',
      '- `LK`: emergency.ambulance 110 → 1990',
      '- `MX`: power.voltage 127 → 120',
      '- `TR`: name Turkey → Türkiye',
      '- `attribution.json`',
    ];
    for (const line of expected) expect(r.lines).toContain(line);
    expect(r.stdout).toMatch(/- changed \*\*Early May bank holiday\*\* \(.*\): 2026-05-04 ⚠️/);
    expect(r.stdout).not.toContain('DE-BY'); // unchanged files are not mentioned
    expect(r.stdout).not.toContain('`DE`');
  });

  it('prints JSON with --json', () => {
    const r = cli(OLD, NEW, '--today', TODAY, '--json');
    expect(r.status).toBe(0);
    const diff = JSON.parse(r.stdout);
    expect(diff.warnings).toHaveLength(2);
    expect(diff.new_version).toBe(newManifest.version);
  });

  it('says "No data changes." for a dataset against itself', () => {
    const r = cli(OLD, join(base, 'old'), '--today', TODAY);
    expect(r.status).toBe(0);
    expect(r.lines[0]).toBe('No data changes.');
  });

  it('refuses a hand-edited file under a stale manifest, naming it, instead of "No data changes."', () => {
    const edited = copyOld('edited');
    // Same length, other bytes: only the hash can tell.
    edit(edited, 'countries/TR.json', '"Turkey"', '"Turkei"');
    for (const r of [cli(OLD, edited, '--today', TODAY), cli(edited, edited, '--today', TODAY)]) {
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('diff-data: refusing to diff');
      expect(r.stderr).toContain(`${edited} does not match its manifest.json (1 difference):`);
      expect(r.stderr).toMatch(/^ {2}changed: countries\/TR\.json \(manifest → file: sha256 [0-9a-f]{12}… → [0-9a-f]{12}…\)$/m);
    }
  });

  it('refuses a missing file, an unlisted file and a resized file, on either side, each by name', () => {
    const damaged = copyOld('damaged');
    unlinkSync(join(damaged, 'travel/DE.json'));
    writeFileSync(join(damaged, 'business-days/notes.txt'), 'scratch\n');
    edit(damaged, 'business-days/GB-ENG/2026.json', 'Summer bank holiday', 'Summer Bank Holiday (late)');
    const r = cli(damaged, NEW, '--today', TODAY);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`OLD ${damaged} does not match its manifest.json (3 differences):`);
    expect(r.stderr).toMatch(/^ {2}changed: business-days\/GB-ENG\/2026\.json \(manifest → file: bytes (\d+) → (\d+), sha256 /m);
    expect(r.stderr).toContain('  not in the manifest: business-days/notes.txt (8 bytes)');
    expect(r.stderr).toMatch(/^ {2}missing: travel\/DE\.json \(listed with \d+ bytes/m);
    expect(r.stderr).not.toContain('NEW '); // the intact side is not reported
  });

  it('exits 2 on a missing folder or a bad argument', () => {
    const missing = cli(OLD, join(base, 'nope'));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('no manifest.json');
    expect(cli(OLD).status).toBe(2);
    expect(cli(OLD, NEW, '--today', '2026-02-30').status).toBe(2);
  });
});

describe('the real dataset', () => {
  it('has no data changes against itself, found from the manifests alone', () => {
    const dir = join(DATA_DIR, 'v1');
    const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as Manifest;
    // "From the manifests alone": no file is loaded (its speed is a benchmark's business, not a timed test's).
    const load = filesToLoad(compareManifests(manifest, manifest));
    const diff = diffDatasets(snapshot(dir, manifest, load.old), snapshot(dir, manifest, load.new), TODAY);
    expect(load).toEqual({ old: [], new: [] });
    expect(renderMarkdown(diff).split('\n')[0]).toBe('No data changes.');

    const r = cli(DATA_DIR, dir);
    expect(r.status).toBe(0);
    expect(r.lines[0]).toBe('No data changes.');
    // The command hashes every file against the manifest first (1.2 GB: 15 s alone, over 30 s beside the other files).
  }, 120_000);
});
