/**
 * The bulk tables from a small hand-made build (no dataset needed): the columns take their type, description,
 * enum and pattern from schemas/; the citation columns; the ajv gate on each kind of break. test/bulk.test.ts
 * checks the tables of the real build.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mirrorField } from '../pipeline/stages/bulk-fields.js';
import { dataPackage, emitBulk, toCsv, validateCsv, type BulkTable } from '../pipeline/stages/emit-bulk.js';

const schema = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, '..', 'schemas', name), 'utf8'));
const defs = schema('defs.schema.json').$defs;
const holiday = schema('holiday.schema.json').properties;

const DECREE = 'RU/decree-1335-2024';
const NOTICE = 'RU/mintrud-2024-10-07';
const ALL = ['business', 'banking', 'government'];

/** One location (RU) with one year, every other area empty. The facts are shaped like the 2025 decree's, not checked. */
function smallBuild(): Map<string, unknown> {
  const day = (date: string, name: string, extra: object) => ({
    date, name, local_name: name, type: 'public', closes: ALL, substitute: false, observed_for: null, transferred: false, transferred_from: null,
    partial: false, basis: 'official', citations: [DECREE], ...extra,
  });
  return new Map<string, unknown>([
    ['business-days/index.json', { locations: [{ location: 'RU' }] }],
    ['business-days/RU/index.json', {
      location: 'RU', name: 'Russia', kind: 'country', country: 'RU', parent: null, timezone: 'Europe/Moscow', local_language: 'ru',
      range: { start: '2025-01-01', end: '2025-12-31' },
      workweeks: [{ from: null, until: null, workweek: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday'], source: 'https://example.org/workweek' }],
      day_types: { business: { data: 'own', basis: 'b' }, banking: { data: 'fallback', basis: 'b' }, government: { data: 'fallback', basis: 'b' } },
      years: [2025],
    }],
    ['business-days/RU/2025.json', {
      location: 'RU', year: 2025, basis: 'official',
      sources: [
        { id: DECREE, title: 'On the transfer of days off in 2025', number: '1335', issuer: 'Government of the Russian Federation', date: '2024-10-04', url: 'https://example.org/decree', archive_url: 'https://web.archive.org/web/2024/https://example.org/decree' },
        { id: NOTICE, title: 'Production calendar 2025', number: null, issuer: null, date: null, url: 'https://example.org/calendar', archive_url: null },
      ],
      holidays: [
        day('2025-05-02', 'Day off (transferred)', { transferred: true, transferred_from: '2025-01-04', citations: [DECREE, NOTICE] }),
        day('2025-01-01', 'New Year', { basis: 'rules', citations: [] }),
      ],
      working_days: [{ date: '2025-11-01', name: 'Working Saturday', local_name: 'Рабочая суббота', for_holiday: 'Unity Day', for_date: '2025-11-03', applies_to: ALL, citations: [DECREE] }],
    }],
    ['timezones/index.json', { zones: [], aliases: {} }],
    ['countries/index.json', { countries: [] }],
    ['travel/index.json', { destinations: [] }],
    ['astronomy/places.json', { places: {} }],
  ]);
}

const lines = (csv: string) => csv.split('\r\n').slice(0, -1);

describe('citations in the bulk tables', () => {
  const bulk = emitBulk(smallBuild());

  it('holidays and working days end with their citation ids, comma-separated (quoted when several)', () => {
    expect(lines(bulk.csv.get('holidays')!)).toEqual([
      'location,date,type,name,local_name,closes,substitute,observed_for,transferred,transferred_from,partial,start_time,end_time,basis,citations',
      'RU,2025-01-01,public,New Year,New Year,"business,banking,government",false,,false,,false,,,rules,',
      `RU,2025-05-02,public,Day off (transferred),Day off (transferred),"business,banking,government",false,,true,2025-01-04,false,,,official,"${DECREE},${NOTICE}"`,
    ]);
    expect(lines(bulk.csv.get('working_days')!)).toEqual([
      'location,date,name,local_name,for_holiday,for_date,applies_to,citations',
      `RU,2025-11-01,Working Saturday,Рабочая суббота,Unity Day,2025-11-03,"business,banking,government",${DECREE}`,
    ]);
  });

  it('location_year_sources gives each source its id, issuer and archive URL after the columns it had', () => {
    expect(lines(bulk.csv.get('location_year_sources')!)).toEqual([
      'location,year,seq,title,number,date,url,id,issuer,archive_url',
      `RU,2025,1,On the transfer of days off in 2025,1335,2024-10-04,https://example.org/decree,${DECREE},Government of the Russian Federation,https://web.archive.org/web/2024/https://example.org/decree`,
      `RU,2025,2,Production calendar 2025,,,https://example.org/calendar,${NOTICE},,`,
    ]);
  });

  it('every citation id of a row is among its location-year\'s sources', () => {
    const t = new Map(bulk.tables.map((x) => [x.name, x]));
    const col = (table: string, name: string) => t.get(table)!.fields.findIndex((f) => f.name === name);
    const ids = new Set(t.get('location_year_sources')!.rows.map((r) => `${r[0]} ${r[1]} ${r[col('location_year_sources', 'id')]}`));
    for (const table of ['holidays', 'working_days']) {
      for (const r of t.get(table)!.rows) {
        for (const id of (r[col(table, 'citations')] as string[] | null) ?? []) expect(ids.has(`${r[0]} ${String(r[1]).slice(0, 4)} ${id}`), `${table} ${r[1]} ${id}`).toBe(true);
      }
    }
  });
});

describe('columns take their type, description, enum and pattern from schemas/', () => {
  const bulk = emitBulk(smallBuild());
  const pkg = dataPackage(bulk.tables, bulk.csv, { dataset_license: 'test', sources: [] } as never);
  type Field = { name: string; type: string; description: string; constraints?: Record<string, unknown> };
  const resources = pkg.resources as { name: string; schema?: { fields: Field[] } }[];
  const field = (table: string, name: string) => resources.find((r) => r.name === table)!.schema!.fields.find((f) => f.name === name)!;

  it('a property\'s own description and enum, a shared definition\'s pattern', () => {
    expect(field('holidays', 'type')).toMatchObject({ type: 'string', description: holiday.type.description, constraints: { required: true, enum: holiday.type.enum } });
    expect(field('holidays', 'location')).toMatchObject({ description: defs.LocationCode.description, constraints: { required: true, pattern: defs.LocationCode.pattern } });
    expect(field('location_year_sources', 'id')).toMatchObject({ description: defs.CitationId.description, constraints: { required: true, pattern: defs.CitationId.pattern } });
    expect(field('location_year_sources', 'archive_url')).toMatchObject({ description: defs.Citation.properties.archive_url.description, constraints: { pattern: '^https?://' } });
  });

  it('a list is delimited; a nullable or empty-able value is not required; a date has its type, not a pattern', () => {
    expect(field('holidays', 'citations')).toEqual({ name: 'citations', type: 'list', description: holiday.citations.description, delimiter: ',', itemType: 'string' });
    expect(field('holidays', 'closes')).toEqual({ name: 'closes', type: 'list', description: holiday.closes.description, delimiter: ',', itemType: 'string' });
    expect(field('working_days', 'applies_to').constraints).toEqual({ required: true }); // minItems 1
    expect(field('holidays', 'observed_for')).toEqual({ name: 'observed_for', type: 'date', description: holiday.observed_for.description });
    expect(field('location_year_sources', 'issuer').constraints).toBeUndefined();
  });

  it('Table Schema constraints are ones the field\'s type takes: a pattern only on strings', () => {
    for (const r of resources) {
      for (const f of r.schema?.fields ?? []) {
        expect(Object.keys(f.constraints ?? {}).every((k) => ['required', 'enum', 'pattern'].includes(k)), `${r.name}.${f.name}`).toBe(true);
        if (f.constraints?.pattern) expect(f.type, `${r.name}.${f.name}`).toBe('string');
        expect(f.description, `${r.name}.${f.name}`).not.toBe('');
      }
    }
  });
});

describe('mirrorField', () => {
  it('reads types through $refs, nullable wrappers and optional ancestors', () => {
    expect(mirrorField('timezone-zone.schema.json', 'at', 'transitions[].at', { description: 'd' })).toMatchObject({ type: 'datetime', required: true });
    expect(mirrorField('climate.schema.json', 'temp', 'months[].temp_high_c')).toEqual({ name: 'temp', type: 'number', description: 'Mean daily maximum, Celsius.' });
    expect(mirrorField('climate.schema.json', 'period', 'station.period', { description: 'd' })).toEqual({ name: 'period', type: 'string', description: 'd', enum: ['1991-2020'], required: true });
    expect(mirrorField('travel.schema.json', 'frequency', 'power.frequency', { description: 'd' })).toMatchObject({ type: 'integer', enum: [50, 60] });
    // A seat's name is required in a seat, but the seat may be null.
    expect(mirrorField('country.schema.json', 'seat', 'subdivisions[].seat.name').required).toBeUndefined();
    expect(mirrorField('country.schema.json', 'workweek', 'workweek')).toMatchObject({ type: 'list', itemEnum: defs.Weekday.enum });
  });

  it('refuses a repeated description, a redundant required, a column without description and a path to nothing', () => {
    expect(() => mirrorField('holiday.schema.json', 'type', 'type', { description: 'again' })).toThrow(/described in the schema/);
    expect(() => mirrorField('holiday.schema.json', 'name', 'name', { required: true })).toThrow(/required by the schema already/);
    expect(() => mirrorField('business-days-location.schema.json', 'name', 'name')).toThrow(/has no description/);
    expect(() => mirrorField('holiday.schema.json', 'x', 'nothing')).toThrow(/has nothing at nothing/);
    expect(() => mirrorField('holiday.schema.json', 'x', 'date', { description: 'd' })).not.toThrow();
  });
});

describe('the ajv gate names the table, line and column', () => {
  const table = (): BulkTable => ({
    name: 'demo', title: 't', description: 'd', primaryKey: ['location', 'date'], foreignKeys: [],
    fields: [
      mirrorField('business-days-year.schema.json', 'location', 'location'),
      mirrorField('holiday.schema.json', 'date', 'date', { description: 'd' }),
      mirrorField('timezone-zone.schema.json', 'at', 'window.start', { description: 'd' }),
      mirrorField('business-days-year.schema.json', 'year', 'year', { description: 'd' }),
      mirrorField('holiday.schema.json', 'citations', 'citations'),
    ],
    rows: [['RU', '2025-05-02', '2025-01-01T00:00:00Z', 2025, [DECREE]]],
  });
  const header = 'location,date,at,year,citations\r\n';
  const gate = (row: string) => () => validateCsv(table(), `${header}${row}\r\n`, new Map());

  it('accepts the table as written', () => {
    expect(validateCsv(table(), toCsv(table()), new Map())).toBe(1);
  });

  it('refuses each kind of break', () => {
    expect(gate(`ru,2025-05-02,2025-01-01T00:00:00Z,2025,${DECREE}`)).toThrow(/^bulk\/demo\.csv does not match its Table Schema:\n {2}line 2: location "ru" does not match/);
    expect(gate(`RU,2025-02-29,2025-01-01T00:00:00Z,2025,${DECREE}`)).toThrow(/line 2: date "2025-02-29" is not a date/);
    expect(gate(`RU,2025-05-02,2025-01-01 00:00:00,2025,${DECREE}`)).toThrow(/line 2: at "2025-01-01 00:00:00" is not a datetime/);
    expect(gate(`RU,2025-05-02,2025-01-01T00:00:00Z,2025.0,${DECREE}`)).toThrow(/line 2: year "2025.0" is not an integer/);
    expect(gate('RU,2025-05-02,2025-01-01T00:00:00Z,2025,"RU/ok,ru/Bad"')).toThrow(/line 2: citations "ru\/Bad" does not match/);
    expect(gate('RU,2025-05-02,2025-01-01T00:00:00Z,2025,"RU/ok,"')).toThrow(/line 2: citations "RU\/ok," has an empty item/);
    expect(gate(`RU,,2025-01-01T00:00:00Z,2025,${DECREE}`)).toThrow(/line 2: date is required/);
  });
});
