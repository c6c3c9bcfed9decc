/**
 * Worker: the bulk tables, their CSV files, the SQLite database and the data
 * package, from the validated documents the main thread posts. The build runs
 * it beside the iCalendar and JSON serialisation (both cores; the two are
 * independent and each takes tens of seconds for 1990-2099).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { stableJson } from '../lib/stable-json.js';
import type { Attribution } from '../lib/schema-types.js';
import { dataPackage, emitBulk, gzipDeterministic } from './stages/emit-bulk.js';
import { emitSqlite } from './stages/emit-sqlite.js';
import type { FileMap } from './stages/emit-business-days.js';

export interface BulkResult {
  tables: number;
  files: Map<string, string | Uint8Array>;
}

const { files } = workerData as { files: FileMap };
const bulk = emitBulk(files);
const sqlite = await emitSqlite(bulk.tables);
const out: BulkResult['files'] = new Map(bulk.files);
out.set('bulk/refdata.sqlite', sqlite);
// 111 MB for 1990-2099, 7.5 MB gzipped (the holidays table repeats itself): the copy most people download.
out.set('bulk/refdata.sqlite.gz', gzipDeterministic(sqlite));
out.set('bulk/datapackage.json', stableJson(dataPackage(bulk.tables, bulk.csv, files.get('attribution.json') as Attribution, sqlite)));
const result: BulkResult = { tables: bulk.tables.length, files: out };
parentPort!.postMessage(result);
