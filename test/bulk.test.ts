/**
 * The bulk tables (dist-data/v1/bulk/): loaded by independent readers (DuckDB, Python's csv module, Debian's
 * sqlite3 CLI), their counts and a dozen facts checked against the JSON files; the SQLite view answers the
 * business-day questions as the API does; the tables are a rendering of the JSON files (rebuilt from them they
 * give the published bytes, the SQLite file included); a CSV that breaks its Table Schema fails the build.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { readdirSync, readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTables, toCsv, validateCsv, type BulkTable } from '../pipeline/stages/emit-bulk.js';
import { emitSqlite } from '../pipeline/stages/emit-sqlite.js';
import { bulkInWorker } from '../pipeline/bulk-run.js';
import { sha256 } from '../pipeline/stages/emit-manifest.js';
import type { BusinessDaysLocations, BusinessDaysYear, TimezoneZone } from '../lib/schema-types.js';
import { appAt, DATA_DIR, FULL, getJson, requirePackage, runs } from './helpers.js';

const V1 = join(DATA_DIR, 'v1');
const BULK = join(V1, 'bulk');
const read = <T>(p: string) => JSON.parse(readFileSync(join(V1, p), 'utf8')) as T;
const manifest = read<{ counts: Record<string, number>; files: Record<string, { sha256: string; bytes: number }> }>('manifest.json');
const pkg = read<{ resources: { name: string; path: string; bytes: number; hash: string; rows?: number; schema?: { fields: { name: string; type: string }[] } }[] }>('bulk/datapackage.json');
const tables = pkg.resources.filter((r) => r.schema);
const rowsOf = (name: string) => tables.find((t) => t.name === name)!.rows!;
const counts = manifest.counts;

/** Rows the JSON files hold, counted from the files themselves. */
function jsonCounts() {
  const list = read<BusinessDaysLocations>('business-days/index.json');
  let holidays = 0;
  let working = 0;
  let years = 0;
  for (const { location } of list.locations) {
    for (const y of read<{ years: number[] }>(`business-days/${location}/index.json`).years) {
      const doc = read<BusinessDaysYear>(`business-days/${location}/${y}.json`);
      holidays += doc.holidays.length;
      working += doc.working_days.length;
      years++;
    }
  }
  return { locations: list.locations.length, holidays, working, years };
}

describe('bulk files', () => {
  it('datapackage.json lists every table with its bytes and sha256; big tables have a gzipped copy of the same bytes', () => {
    expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(['locations', 'holidays', 'working_days', 'workweeks', 'day_type_rules', 'location_years',
      'timezones', 'timezone_aliases', 'zone_transitions', 'countries', 'subdivisions', 'subdivision_seats', 'travel', 'climate_normals', 'astronomy_places']));
    for (const r of pkg.resources) {
      const bytes = readFileSync(join(BULK, r.path));
      expect(bytes.length, r.path).toBe(r.bytes);
      expect(`sha256:${sha256(bytes)}`, r.path).toBe(r.hash);
      if (!r.schema) continue;
      const text = bytes.toString('utf8');
      expect(text.slice(0, text.indexOf('\r\n')), r.path).toBe(r.schema.fields.map((f) => f.name).join(','));
      const gz = join(BULK, `${r.name}.csv.gz`);
      if (r.bytes > 64 * 1024) {
        const zipped = readFileSync(gz);
        expect([...zipped.subarray(4, 8)], `${gz}: no timestamp`).toEqual([0, 0, 0, 0]);
        expect(zipped[3] & 0x08, `${gz}: no file name`).toBe(0);
        expect(gunzipSync(zipped).equals(bytes), gz).toBe(true);
      } else expect(manifest.files[`bulk/${r.name}.csv.gz`], gz).toBeUndefined();
    }
  });
});

describe('DuckDB reads the CSVs with the types datapackage.json declares', () => {
  let instance: DuckDBInstance;
  let con: DuckDBConnection;
  const DUCK_TYPES: Record<string, string> = { string: 'VARCHAR', list: 'VARCHAR', integer: 'BIGINT', number: 'DOUBLE', boolean: 'BOOLEAN', date: 'DATE', datetime: 'TIMESTAMP' };
  const q = async (sql: string) => (await con.runAndReadAll(sql)).getRowObjectsJson();

  beforeAll(async () => {
    instance = await DuckDBInstance.create(':memory:');
    con = await instance.connect();
    for (const t of tables) {
      // auto_detect off: the declared types, not DuckDB's guesses, must hold for every row.
      const columns = `{${t.schema!.fields.map((f) => `'${f.name}': '${DUCK_TYPES[f.type]}'`).join(', ')}}`;
      await con.run(`CREATE TABLE ${t.name} AS SELECT * FROM read_csv('${join(BULK, t.path)}', header = true, auto_detect = false, delim = ',', quote = '"', escape = '"', columns = ${columns})`);
    }
  }, 60_000);
  afterAll(() => {
    con?.closeSync();
    instance?.closeSync();
  });

  it('row counts match the JSON files and the manifest', async () => {
    const json = jsonCounts();
    const n = async (table: string) => Number((await q(`SELECT count(*)::INTEGER AS n FROM ${table}`))[0].n);
    expect(await n('locations')).toBe(json.locations);
    expect(await n('holidays')).toBe(json.holidays);
    expect(json.holidays).toBe(counts.holiday_rows);
    expect(await n('working_days')).toBe(json.working);
    expect(json.working).toBe(counts.working_days);
    expect(await n('location_years')).toBe(json.years);
    expect(Number((await q(`SELECT count(*)::INTEGER AS n FROM location_years WHERE basis = 'official'`))[0].n)).toBe(counts.official_location_years);
    expect(await n('timezones')).toBe(counts.timezones);
    expect(await n('timezone_aliases')).toBe(counts.timezone_aliases);
    expect(await n('countries')).toBe(counts.iso_countries);
    expect(await n('subdivisions')).toBe(counts.subdivisions);
    expect(await n('travel')).toBe(counts.travel_destinations + counts.travel_regions);
    expect(await n('climate_normals')).toBe(12 * (await n('climate_stations')));
    // Countries' places only: a region's is its seat, in subdivision_seats (one row per ISO 3166-2 code).
    expect(await n('astronomy_places')).toBe(Object.keys(read<{ places: object }>('astronomy/places.json').places).filter((k) => k.length === 2).length);
    expect(await n('subdivision_seats')).toBe(counts.subdivisions);
    for (const t of tables) expect(await n(t.name), t.name).toBe(t.rows);
    const gz = await q(`SELECT count(*)::INTEGER AS n FROM read_csv('${join(BULK, 'holidays.csv.gz')}', header = true)`);
    expect(Number(gz[0].n)).toBe(json.holidays);
  }, 60_000);

  it('facts agree with the JSON files', async () => {
    // US: Martin Luther King Jr. Day 2026 closes businesses (a rule, not a published schedule, that python-holidays agrees with).
    expect(await q(`SELECT name, type, closes, basis, substitute FROM holidays WHERE location = 'US' AND date = DATE '2026-01-19'`))
      .toEqual([{ name: 'Martin Luther King Jr. Day', type: 'public', closes: 'business,banking,government', basis: 'corroborated', substitute: false }]);
    // US 2026-07-03: the substitute for Independence Day on a Saturday, observed_for the 4th.
    const sub = read<BusinessDaysYear>('business-days/US/2026.json').holidays.find((h) => h.date === '2026-07-03')!;
    expect(await q(`SELECT closes, substitute, strftime(observed_for, '%Y-%m-%d') AS observed_for FROM holidays WHERE location = 'US' AND date = DATE '2026-07-03'`))
      .toEqual([{ closes: sub.closes.join(','), substitute: true, observed_for: '2026-07-04' }]);
    // JP 2026: as many holidays as the year file.
    expect(Number((await q(`SELECT count(*)::INTEGER AS n FROM holidays WHERE location = 'JP' AND year(date) = 2026`))[0].n))
      .toBe(read<BusinessDaysYear>('business-days/JP/2026.json').holidays.length);
    // CN 2025-01-26: a make-up working day for the Spring Festival; 2025 is official.
    expect(await q(`SELECT name, local_name, for_holiday, for_date, applies_to FROM working_days WHERE location = 'CN' AND date = DATE '2025-01-26'`))
      .toEqual([{ name: 'Working day (Spring Festival)', local_name: '春节调休上班', for_holiday: 'Spring Festival', for_date: null, applies_to: 'business,banking,government' }]);
    expect(await q(`SELECT basis FROM location_years WHERE location = 'CN' AND year = 2025`)).toEqual([{ basis: 'official' }]);
    // RU 2025-05-02: a day off transferred from Saturday 2025-01-04, with its decree among the year's sources.
    expect(await q(`SELECT transferred, strftime(transferred_from, '%Y-%m-%d') AS f FROM holidays WHERE location = 'RU' AND date = DATE '2025-05-02'`)).toEqual([{ transferred: true, f: '2025-01-04' }]);
    const ruSources = read<BusinessDaysYear>('business-days/RU/2025.json').sources;
    expect(await q(`SELECT url, id, issuer, archive_url FROM location_year_sources WHERE location = 'RU' AND year = 2025 ORDER BY seq`))
      .toEqual(ruSources.map((s) => ({ url: s.url, id: s.id, issuer: s.issuer, archive_url: s.archive_url })));
    // Seats: Bavaria's is Munich (GeoNames 2867714) in Europe/Berlin; a code without one says why.
    expect(await q(`SELECT seat, geonames_id::INTEGER AS id, timezone, missing_reason FROM subdivision_seats WHERE code = 'DE-BY'`))
      .toEqual([{ seat: 'Munich', id: 2867714, timezone: 'Europe/Berlin', missing_reason: null }]);
    expect(Number((await q(`SELECT count(*)::INTEGER AS n FROM subdivision_seats WHERE (seat IS NULL) = (missing_reason IS NULL)`))[0].n)).toBe(0);
    // DE 2026-12-24: Christmas Eve from 14:00, partial, closes nothing.
    expect(await q(`SELECT partial, start_time, closes FROM holidays WHERE location = 'DE' AND date = DATE '2026-12-24'`)).toEqual([{ partial: true, start_time: '14:00', closes: null }]);
    // AE: the weekend moved on 2006-09-01 and on 2022-01-01: three workweek periods.
    expect(await q(`SELECT period::INTEGER AS period, strftime("from", '%Y-%m-%d') AS f, strftime(until, '%Y-%m-%d') AS u, workweek FROM workweeks WHERE location = 'AE' ORDER BY period`))
      .toEqual(read<{ workweeks: { from: string | null; until: string | null; workweek: string[] }[] }>('business-days/AE/index.json').workweeks
        .map((w, i) => ({ period: i + 1, f: w.from, u: w.until, workweek: w.workweek.join(',') })));
    // Europe/Paris: every transition of the zone file, e.g. CEST from 2026-03-29T01:00Z.
    const paris = read<TimezoneZone>('timezones/zones/Europe/Paris.json');
    expect(Number((await q(`SELECT count(*)::INTEGER AS n FROM zone_transitions WHERE zone = 'Europe/Paris'`))[0].n)).toBe(paris.transitions.length);
    expect(await q(`SELECT abbreviation, offset_minutes::INTEGER AS m, is_dst FROM zone_transitions WHERE zone = 'Europe/Paris' AND "at" = TIMESTAMP '2026-03-29 01:00:00'`))
      .toEqual([{ abbreviation: 'CEST', m: 120, is_dst: true }]);
    expect(await q(`SELECT zone FROM timezone_aliases WHERE alias = 'Asia/Calcutta'`)).toEqual([{ zone: 'Asia/Kolkata' }]);
    // Countries: DE's neighbours and currency, a subdivision, travel and climate.
    const de = read<{ neighbors: string[]; capital: { name: string } }>('countries/DE.json');
    expect(await q(`SELECT neighbors, capital, primary_currency FROM countries WHERE code = 'DE'`)).toEqual([{ neighbors: de.neighbors.join(','), capital: de.capital.name, primary_currency: 'EUR' }]);
    expect(await q(`SELECT country, name, local_name FROM subdivisions WHERE code = 'DE-BY'`)).toEqual([{ country: 'DE', name: 'Bavaria', local_name: 'Bayern' }]);
    expect(await q(`SELECT voltage::INTEGER AS v, frequency::INTEGER AS f, plugs, emergency_police FROM travel WHERE destination = 'DE'`)).toEqual([{ v: 230, f: 50, plugs: 'C,F', emergency_police: '110' }]);
    const climate = read<{ months: { temp_high_c: number | null }[] }>('travel/climate/DE.json');
    expect(await q(`SELECT temp_high_c FROM climate_normals WHERE destination = 'DE' AND month = 1`)).toEqual([{ temp_high_c: climate.months[0].temp_high_c }]);
    expect(await q(`SELECT timezone FROM astronomy_places WHERE code = 'US'`)).toEqual([{ timezone: 'America/New_York' }]);
  });

  it('every citation of a holiday or working day is among its location-year\'s sources; ids are unique there', async () => {
    for (const table of ['holidays', 'working_days']) {
      const cited = `SELECT location, date, unnest(string_split(citations, ',')) AS id FROM ${table} WHERE citations IS NOT NULL`;
      const orphans = await q(`SELECT c.location, strftime(c.date, '%Y-%m-%d') AS date, c.id FROM (${cited}) c
        LEFT JOIN location_year_sources s ON s.location = c.location AND s.year = year(c.date) AND s.id = c.id WHERE s.id IS NULL LIMIT 5`);
      expect(orphans, table).toEqual([]);
    }
    expect(await q(`SELECT location, year, id FROM location_year_sources GROUP BY location, year, id HAVING count(*) > 1 LIMIT 5`)).toEqual([]);
    // CN 2025-01-26 cites what the year file says (a make-up working day comes from a published notice).
    const cn = read<BusinessDaysYear>('business-days/CN/2025.json').working_days.find((w) => w.date === '2025-01-26')!;
    expect(await q(`SELECT citations FROM working_days WHERE location = 'CN' AND date = DATE '2025-01-26'`)).toEqual([{ citations: cn.citations.join(',') || null }]);
  });

  it('a row from a published schedule names what it rests on', async () => {
    // holiday.schema.json: citations is empty only for a row projected by a source's rules; a working day without a
    // citation is python-holidays' (a decreed transfer it transcribes) and only in a year that is not official.
    expect(await q(`SELECT location, strftime(date, '%Y-%m-%d') AS date, name FROM holidays WHERE basis = 'official' AND citations IS NULL LIMIT 5`)).toEqual([]);
    expect(await q(`SELECT w.location, strftime(w.date, '%Y-%m-%d') AS date FROM working_days w JOIN location_years y ON y.location = w.location AND y.year = year(w.date) WHERE w.citations IS NULL AND y.basis = 'official' LIMIT 5`)).toEqual([]);
  });
});

describe('Python\'s csv module reads every table', () => {
  beforeAll(() => requirePackage('python3', runs('/usr/bin/python3', ['--version'])));
  it('every row has the header\'s width; counts and facts match', async () => {
    const script = `
import csv, json, os, sys
out = {}
for name in sorted(os.listdir(sys.argv[1])):
    if not name.endswith('.csv'): continue
    with open(os.path.join(sys.argv[1], name), newline='', encoding='utf-8') as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    assert all(len(r) == len(header) for r in body), name
    out[name[:-4]] = {'rows': len(body), 'header': header}
    if name == 'holidays.csv':
        out['mlk'] = [dict(zip(header, r)) for r in body if r[0] == 'US' and r[1] == '2026-01-19']
        out['il_2025'] = sum(1 for r in body if r[0] == 'IL' and r[1].startswith('2025-'))
    if name == 'working_days.csv':
        out['cn'] = [dict(zip(header, r)) for r in body if r[0] == 'CN' and r[1] == '2025-01-26']
print(json.dumps(out))
`;
    // Awaited, not execFileSync: parsing every table takes long enough to miss vitest's RPC deadline under load.
    const out = JSON.parse((await promisify(execFile)('/usr/bin/python3', ['-c', script, BULK], { encoding: 'utf8', maxBuffer: 1 << 26 })).stdout);
    const citationsOn = (location: string, date: string, kind: 'holidays' | 'working_days') =>
      (read<BusinessDaysYear>(`business-days/${location}/${date.slice(0, 4)}.json`)[kind] as { date: string; citations: string[] }[]).find((x) => x.date === date)!.citations.join(',');
    for (const t of tables) {
      expect(out[t.name].rows, t.name).toBe(t.rows);
      expect(out[t.name].header, t.name).toEqual(t.schema!.fields.map((f) => f.name));
    }
    expect(out.holidays.rows).toBe(counts.holiday_rows);
    expect(out.mlk).toEqual([{ location: 'US', date: '2026-01-19', type: 'public', name: 'Martin Luther King Jr. Day', local_name: 'Martin Luther King Jr. Day',
      closes: 'business,banking,government', substitute: 'false', observed_for: '', transferred: 'false', transferred_from: '', partial: 'false', start_time: '', end_time: '', basis: 'corroborated',
      citations: citationsOn('US', '2026-01-19', 'holidays') }]);
    expect(out.il_2025).toBe(read<BusinessDaysYear>('business-days/IL/2025.json').holidays.length);
    expect(out.cn).toEqual([{ location: 'CN', date: '2025-01-26', name: 'Working day (Spring Festival)', local_name: '春节调休上班', for_holiday: 'Spring Festival', for_date: '', applies_to: 'business,banking,government',
      citations: citationsOn('CN', '2025-01-26', 'working_days') }]);
  }, 180_000); // Python reads 1.2 million rows: 15-30 s on a loaded machine
});

describe('refdata.sqlite through Debian\'s sqlite3', () => {
  beforeAll(() => requirePackage('sqlite3', runs('sqlite3', ['-version'])));
  const DB = join(BULK, 'refdata.sqlite');
  const sql = (query: string) => execFileSync('sqlite3', ['-readonly', '-separator', '|', DB, query], { encoding: 'utf8' }).trim();
  const check = (location: string, date: string, type: string) =>
    sql(`SELECT is_business_day, coalesce(reason, ''), coalesce(holiday, ''), coalesce(working_day, '') FROM business_day_check WHERE location='${location}' AND date='${date}' AND type='${type}'`);

  it('is sound and holds every table with the CSV\'s row count', () => {
    expect(sql('PRAGMA integrity_check')).toBe('ok');
    expect(sql('PRAGMA foreign_key_check')).toBe('');
    for (const t of tables) expect(Number(sql(`SELECT count(*) FROM "${t.name}"`)), t.name).toBe(t.rows);
  });

  it('answers the business-day questions through the view business_day_check', () => {
    expect(check('US', '2026-01-19', 'business')).toBe('0|holiday|Martin Luther King Jr. Day|'); // MLK Day 2026: closed
    expect(check('CN', '2025-01-26', 'business')).toBe('1|working_day||Working day (Spring Festival)'); // a Sunday worked before Spring Festival
    expect(check('CN', '2025-01-28', 'business')).toBe('0|holiday|Spring Festival|');
    expect(check('US', '2026-07-03', 'government')).toBe('0|holiday|Independence Day (substitute day)|'); // 5 U.S.C. 6103(b)
    expect(check('US', '2026-07-03', 'banking')).toBe('1|||'); // Federal Reserve Banks stay open
    expect(check('AE', '2021-06-06', 'business')).toBe('1|||'); // a Sunday, before the weekend moved
    expect(check('AE', '2022-06-05', 'business')).toBe('0|weekend||'); // a Sunday after
    expect(check('DE', '2026-12-24', 'business')).toBe('1|||'); // partial day: not closed
    expect(sql(`SELECT count(*) FROM business_day_check WHERE location='US' AND date='1900-01-01'`)).toBe('0'); // outside the range: no row
  });

  it('counts business days as the API does', async () => {
    const app = appAt();
    for (const [loc, start, end, type] of [['US', '2026-01-01', '2026-12-31', 'business'], ['CN', '2025-01-01', '2025-12-31', 'business'], ['RU', '2025-11-01', '2025-11-09', 'business'],
      ['IL', '2025-09-21', '2025-09-27', 'business'], ['JP', '2026-01-01', '2026-12-31', 'banking'], ['US', '2026-01-01', '2026-12-31', 'government']]) {
      const api = await getJson(app, `/v1/business-days/${loc}/count?start=${start}&end=${end}&type=${type}`);
      expect(api.status).toBe(200);
      const n = sql(`SELECT sum(is_business_day) FROM business_day_check WHERE location='${loc}' AND type='${type}' AND date BETWEEN '${start}' AND '${end}'`);
      expect(Number(n), `${loc} ${start}..${end} ${type}`).toBe(api.body.business_days);
    }
  });
});

// Reads every one of the ~70,000 JSON files and renders the tables again (~30 s): `npm run test:full`, which CI runs
// after `npm test`. `npm run test:rebuild` checks the same bytes from a whole second build.
describe.runIf(FULL)('the tables are the JSON files, rendered (npm run test:full)', () => {
  it('rebuilt from the published JSON files, the CSVs, the SQLite file and datapackage.json have the published bytes', async () => {
    // Read asynchronously and rendered in the build's own worker thread (pipeline/bulk-run.ts): done on this
    // thread, a minute of synchronous SQLite work kept it from answering the runner (vitest's 60 s RPC deadline).
    const walk = async (dir: string): Promise<string[]> => (await Promise.all((await readdir(dir, { withFileTypes: true })).map((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])))).flat();
    const files = new Map<string, unknown>();
    for (const p of (await walk(V1)).sort()) {
      const rel = relative(V1, p);
      if (rel.endsWith('.json') && !rel.startsWith('bulk/')) files.set(rel, JSON.parse(await readFile(p, 'utf8')));
    }
    const bulk = await bulkInWorker(files);
    expect(bulk.files.has('bulk/refdata.sqlite') && bulk.files.has('bulk/datapackage.json')).toBe(true);
    for (const [path, data] of bulk.files) expect(sha256(data), path).toBe(manifest.files[path].sha256);
  }, 300_000);
});

describe('the Table Schema gate fails closed', () => {
  const table = (): BulkTable => ({
    name: 'holidays_demo', title: 't', description: 'd', primaryKey: ['location', 'date'], foreignKeys: [],
    fields: [
      { name: 'location', type: 'string', description: '', required: true },
      { name: 'date', type: 'date', description: '', required: true },
      { name: 'closes', type: 'list', description: '', itemEnum: ['business', 'banking', 'government'] },
      { name: 'partial', type: 'boolean', description: '', required: true },
    ],
    rows: [['US', '2026-01-19', ['business'], false]],
  });
  const gate = (csv: string) => () => validateCsv(table(), csv, new Map());

  it('accepts the table as written, refuses each kind of break by line and column', () => {
    expect(validateCsv(table(), toCsv(table()), new Map())).toBe(1);
    expect(gate('location,date,closes,partial\r\nUS,2026-02-30,business,false\r\n')).toThrow(/line 2: date "2026-02-30" is not a date/);
    expect(gate('location,date,closes,partial\r\nUS,2026-01-19,business\r\n')).toThrow(/line 2: 3 columns, expected 4/);
    expect(gate('location,date,closes,partial\r\n,2026-01-19,business,false\r\n')).toThrow(/location is required/);
    expect(gate('location,date,closes,partial\r\nUS,2026-01-19,holiday,false\r\n')).toThrow(/closes "holiday" is not one of/);
    expect(gate('location,date,closes,partial\r\nUS,2026-01-19,business,yes\r\n')).toThrow(/partial "yes" is not a boolean/);
    expect(gate('location,date,partial,closes\r\nUS,2026-01-19,false,business\r\n')).toThrow(/header is/);
    const dup = table();
    dup.rows.push(['US', '2026-01-19', null, true]);
    expect(() => validateCsv(dup, toCsv(dup), new Map())).toThrow(/duplicate primary key/);
  });

  it('the same tables give the same SQLite bytes', async () => {
    const small = buildTables(new Map<string, unknown>([
      ['business-days/index.json', { locations: [] }], ['timezones/index.json', { zones: [], aliases: {} }], ['countries/index.json', { countries: [] }],
      ['travel/index.json', { destinations: [] }], ['astronomy/places.json', { places: {} }],
    ]));
    const [a, b] = [await emitSqlite(small), await emitSqlite(small)];
    expect(a.equals(b)).toBe(true);
  });
});
