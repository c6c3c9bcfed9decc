/**
 * Worker for the bulk files, in two jobs that run at once (pipeline/bulk-run.ts starts both):
 * - `tables`: builds the tables from the validated documents the main thread posts, sends them to the `sqlite`
 *   job over its port, then writes and validates the CSV files and, once the `sqlite` job sends the database's
 *   digest back, datapackage.json;
 * - `sqlite`: writes refdata.sqlite (and its gzipped copy) from the tables it is sent.
 * Writing the database (sql.js, tens of seconds) no longer waits for the CSV files and their validation: with the
 * main thread's JSON and iCalendar serialisation, three jobs share the build's two cores.
 */
import { once } from 'node:events';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { stableJson } from '../lib/stable-json.js';
import type { Attribution } from '../lib/schema-types.js';
import { buildTables, dataPackage, emitCsv, fileDigest, gzipDeterministic, type BulkTable, type FileDigest } from './stages/emit-bulk.js';
import { emitSqlite } from './stages/emit-sqlite.js';
import type { FileMap } from './stages/emit-business-days.js';

export interface BulkResult {
  tables: number;
  files: Map<string, string | Uint8Array>;
}

/** `documents`: how many documents the tables job receives, in batches of [path, document] pairs (bulk-run.ts). */
export type BulkJob = { job: 'tables'; documents: number; port: MessagePort } | { job: 'sqlite'; port: MessagePort };

/** A batch of the documents, posted to the tables job. */
export interface DocumentBatch {
  documents: [string, unknown][];
}

/** The documents, as their batches arrive. */
function receiveDocuments(count: number): Promise<FileMap> {
  const files: FileMap = new Map();
  return new Promise((resolve) => {
    if (count === 0) return resolve(files);
    const take = (m: DocumentBatch) => {
      for (const [path, doc] of m.documents) files.set(path, doc as never);
      if (files.size < count) return;
      parentPort!.off('message', take);
      resolve(files);
    };
    parentPort!.on('message', take);
  });
}

/** What a job is doing, posted as it changes (pipeline/bulk-run.ts prints it while the build waits). */
export interface BulkStatus {
  status: string;
}
const status = (text: string) => parentPort!.postMessage({ status: text } satisfies BulkStatus);

const job = workerData as BulkJob;
const out: BulkResult['files'] = new Map();
let tables = 0;
if (job.job === 'tables') {
  status('receiving the documents');
  const documents = await receiveDocuments(job.documents);
  status('building the tables from the documents');
  const built = buildTables(documents);
  tables = built.length;
  job.port.postMessage(built);
  const digest = once(job.port, 'message') as Promise<[FileDigest]>;
  let written = 0;
  const { csv, files } = emitCsv(built, (name) => status(`CSV ${++written}/${built.length}: ${name}`));
  status('CSV files written and checked; waiting for the SQLite digest');
  for (const [path, data] of files) out.set(path, data);
  const [sqlite] = await digest;
  out.set('bulk/datapackage.json', stableJson(dataPackage(built, csv, documents.get('attribution.json') as Attribution, sqlite)));
} else {
  status('waiting for the tables');
  const [built] = (await once(job.port, 'message')) as [BulkTable[]];
  tables = built.length;
  const sqlite = await emitSqlite(built, (what) => status(`SQLite: ${what}`));
  status('SQLite written; gzipping it');
  job.port.postMessage(fileDigest(sqlite));
  out.set('bulk/refdata.sqlite', sqlite);
  // 175 MB for 1990-2099, 10 MB gzipped (the holidays table repeats itself): the copy most people download.
  out.set('bulk/refdata.sqlite.gz', gzipDeterministic(sqlite));
}
job.port.close();
// The large byte arrays (the SQLite file, the gzipped copies) are moved, not copied: cloning 200 MB blocked the
// main thread for seconds. Only arrays that own their whole buffer (never a slice of Node's shared pool).
const transfer = [...out.values()].flatMap((v) => (typeof v !== 'string' && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength && v.byteLength > 65_536 ? [v.buffer as ArrayBuffer] : []));
parentPort!.postMessage({ tables, files: out } satisfies BulkResult, [...new Set(transfer)]);
