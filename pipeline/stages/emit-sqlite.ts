/**
 * Stage: bulk/refdata.sqlite, the bulk tables as one SQLite database, written with sql.js (SQLite compiled to
 * WebAssembly: no native build step in `npm ci`). Deterministic: fixed page size, rows inserted in key order,
 * VACUUM at the end, no timestamps; the same tables give the same bytes (test/bulk.test.ts checks it).
 *
 * Besides the tables: `calendar_dates` (every date of the served range, one row each: 40,177 rows for
 * 1990-2099) and the view `business_day_check`, which answers "is this date a business day for this location and
 * day type" from workweeks + holidays + working_days, the way the API does (server/store.ts): a date is a business
 * day for a type when a working day on it applies to the type, else when no holiday on it lists the type in
 * `closes` and its weekday (strftime('%w')) is in the workweek of the period containing it.
 */
import initSqlJs, { type Database } from 'sql.js';
import type { BulkField, BulkTable, Cell } from './emit-bulk.js';

const PAGE_SIZE = 4096;
const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

function sqlType(field: BulkField): string {
  if (field.type === 'integer' || field.type === 'boolean') return 'INTEGER';
  if (field.type === 'number') return 'REAL';
  return 'TEXT';
}

function createTable(t: BulkTable): string {
  const cols = t.fields.map((x) => `  ${quote(x.name)} ${sqlType(x)}${x.required || t.primaryKey.includes(x.name) ? ' NOT NULL' : ''}`);
  cols.push(`  PRIMARY KEY (${t.primaryKey.map(quote).join(', ')})`);
  for (const fk of t.foreignKeys) cols.push(`  FOREIGN KEY (${fk.fields.map(quote).join(', ')}) REFERENCES ${quote(fk.reference.resource)} (${fk.reference.fields.map(quote).join(', ')})`);
  // The primary key is the table's own B-tree (WITHOUT ROWID): holidays by (location, date), working days by
  // (location, date) and transitions by (zone, at) are found through it, with no second index to store.
  return `CREATE TABLE ${quote(t.name)} (\n${cols.join(',\n')}\n) WITHOUT ROWID;`;
}

/** A cell as an SQL literal: NULL, 0/1 for booleans, a list comma-separated, text quoted. */
function sqlLiteral(c: Cell): string {
  if (c === null) return 'NULL';
  if (typeof c === 'boolean') return c ? '1' : '0';
  if (typeof c === 'number') {
    if (!Number.isFinite(c)) throw new Error(`refdata.sqlite: ${c} is not a finite number`);
    return String(c);
  }
  const text = Array.isArray(c) ? c.join(',') : String(c);
  return `'${text.replace(/'/g, "''")}'`;
}

/** Rows per INSERT: one statement carries many rows (crossing into WebAssembly per value was most of the stage). */
const ROWS_PER_INSERT = 500;

/** Secondary indexes for lookups the primary keys do not serve. */
const INDEXES = [
  'CREATE INDEX locations_by_country ON locations (country);',
  'CREATE INDEX subdivisions_by_country ON subdivisions (country);',
  'CREATE INDEX timezones_by_country ON timezones (country);',
];

/** strftime('%w') is 0 for Sunday: the weekday's name as the workweeks list it. */
const WEEKDAY_NAME = `CASE strftime('%w', d.date) WHEN '0' THEN 'sunday' WHEN '1' THEN 'monday' WHEN '2' THEN 'tuesday' WHEN '3' THEN 'wednesday' WHEN '4' THEN 'thursday' WHEN '5' THEN 'friday' ELSE 'saturday' END`;
const listHas = (list: string, item: string) => `instr(',' || ${list} || ',', ',' || ${item} || ',') > 0`;

export const VIEWS = [
  `CREATE TABLE calendar_dates (date TEXT NOT NULL PRIMARY KEY) WITHOUT ROWID;`,
  `CREATE VIEW business_day_check AS
SELECT location, date, type, weekday, workweek, holiday, working_day, basis,
  CASE WHEN working_day IS NOT NULL THEN 1 WHEN holiday IS NOT NULL THEN 0 WHEN ${listHas('workweek', 'weekday')} THEN 1 ELSE 0 END AS is_business_day,
  CASE WHEN working_day IS NOT NULL THEN 'working_day' WHEN holiday IS NOT NULL THEN 'holiday' WHEN ${listHas('workweek', 'weekday')} THEN NULL ELSE 'weekend' END AS reason
FROM (
  SELECT r.location AS location, d.date AS date, r.type AS type, ${WEEKDAY_NAME} AS weekday,
    (SELECT w.workweek FROM workweeks w WHERE w.location = r.location AND (w."from" IS NULL OR w."from" <= d.date) AND (w.until IS NULL OR w.until >= d.date)) AS workweek,
    (SELECT h.name FROM holidays h WHERE h.location = r.location AND h.date = d.date AND ${listHas('h.closes', 'r.type')} ORDER BY h.type, h.name LIMIT 1) AS holiday,
    (SELECT x.name FROM working_days x WHERE x.location = r.location AND x.date = d.date AND ${listHas('x.applies_to', 'r.type')}) AS working_day,
    (SELECT y.basis FROM location_years y WHERE y.location = r.location AND y.year = CAST(substr(d.date, 1, 4) AS INTEGER)) AS basis
  FROM day_type_rules r
  JOIN locations l ON l.location = r.location
  JOIN calendar_dates d ON d.date BETWEEN l.range_start AND l.range_end
);`,
];

let sqlJs: ReturnType<typeof initSqlJs> | undefined;

/** The database file's bytes. Throws when a foreign key does not hold. */
/** `onStep` hears each step as it starts (a table's rows, the indexes, VACUUM), for the build's progress lines. */
export async function emitSqlite(tables: BulkTable[], onStep: (what: string) => void = () => {}): Promise<Buffer> {
  const SQL = await (sqlJs ??= initSqlJs());
  const db: Database = new SQL.Database();
  try {
    db.run(`PRAGMA page_size = ${PAGE_SIZE}; PRAGMA journal_mode = OFF; PRAGMA user_version = 1;`);
    db.run('BEGIN');
    for (const t of tables) {
      onStep(`table ${t.name} (${t.rows.length} rows)`);
      db.run(createTable(t));
      for (let i = 0; i < t.rows.length; i += ROWS_PER_INSERT) {
        const values = t.rows.slice(i, i + ROWS_PER_INSERT).map((r) => `(${r.map(sqlLiteral).join(',')})`);
        db.run(`INSERT INTO ${quote(t.name)} VALUES ${values.join(',')};`);
      }
    }
    onStep('indexes, views and calendar_dates');
    for (const sql of INDEXES) db.run(sql);
    for (const sql of VIEWS) db.run(sql);
    db.run(`INSERT INTO calendar_dates (date)
      WITH RECURSIVE d(x) AS (SELECT (SELECT min(range_start) FROM locations) UNION ALL SELECT date(x, '+1 day') FROM d WHERE x < (SELECT max(range_end) FROM locations))
      SELECT x FROM d WHERE x IS NOT NULL;`);
    db.run('COMMIT');
    const broken = db.exec('PRAGMA foreign_key_check');
    if (broken.length) throw new Error(`refdata.sqlite: foreign keys do not hold: ${JSON.stringify(broken[0].values.slice(0, 5))}`);
    onStep('ANALYZE and VACUUM');
    db.run('ANALYZE; VACUUM;');
    return Buffer.from(db.export());
  } finally {
    db.close();
  }
}
