/**
 * Runs pipeline/bulk-worker.ts on the validated documents in two worker threads (the tables and their CSV files
 * in one, the SQLite database in the other, joined by a message channel); the answer is the bulk files by path
 * (the CSVs and their gzipped copies, refdata.sqlite and its gzipped copy, datapackage.json). The build runs it
 * beside the iCalendar stage; test/bulk.test.ts runs it to render the tables again from the published JSON files,
 * so that minutes of SQLite work never block the test runner's own thread.
 */
import { MessageChannel, Worker, type TransferListItem } from 'node:worker_threads';
import type { BulkJob, BulkResult, BulkStatus, DocumentBatch } from './bulk-worker.js';

/** Documents per batch handed to the tables job. */
const BATCH = 10_000;

function runJob(job: BulkJob, transfer: TransferListItem[], onStatus: (text: string) => void): { worker: Worker; done: Promise<BulkResult> } {
  const worker = new Worker(new URL('./bulk-worker.mjs', import.meta.url), { workerData: job, transferList: transfer });
  const done = new Promise<BulkResult>((resolve, reject) => {
    let result: BulkResult | undefined;
    worker.on('message', (m: BulkResult | BulkStatus) => ('status' in m ? onStatus(m.status) : (result = m)));
    worker.on('error', reject);
    worker.on('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`bulk worker (${job.job}) exited with ${code}`))));
  });
  return { worker, done };
}

/** What each job last said it was doing: the build prints it while it waits (pipeline/run.ts). */
export interface BulkProgress {
  tables: string;
  sqlite: string;
}

/**
 * `onHandoff` hears how many documents have been handed over. They go in batches, each copied (structured
 * clone) as it is posted: handed over at once, as the job's workerData, they held this thread for 5 s without
 * a word.
 */
export async function bulkInWorker(files: Map<string, unknown>, progress: BulkProgress = { tables: 'starting', sqlite: 'starting' }, onHandoff: (sent: number, total: number) => void = () => {}): Promise<BulkResult> {
  const { port1, port2 } = new MessageChannel();
  const tables = runJob({ job: 'tables', documents: files.size, port: port1 }, [port1], (text) => (progress.tables = text));
  const sqlite = runJob({ job: 'sqlite', port: port2 }, [port2], (text) => (progress.sqlite = text));
  try {
    let batch: DocumentBatch['documents'] = [];
    let sent = 0;
    for (const entry of files) {
      batch.push(entry);
      if (batch.length === BATCH || sent + batch.length === files.size) {
        tables.worker.postMessage({ documents: batch } satisfies DocumentBatch);
        sent += batch.length;
        batch = [];
        onHandoff(sent, files.size);
      }
    }
    const [a, b] = await Promise.all([tables.done, sqlite.done]);
    return { tables: a.tables, files: new Map([...a.files, ...b.files]) };
  } catch (err) {
    // The other job may wait for a message that will never come: end it too.
    await Promise.all([tables.worker.terminate(), sqlite.worker.terminate()]);
    throw err;
  }
}
