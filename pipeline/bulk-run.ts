/**
 * Runs pipeline/bulk-worker.ts on the validated documents in a worker thread; its answer is the bulk files by path
 * (the CSVs and their gzipped copies, refdata.sqlite and its gzipped copy, datapackage.json). The build runs it beside
 * the iCalendar stage; test/bulk.test.ts runs it to render the tables again from the published JSON files, so that
 * minutes of SQLite work never block the test runner's own thread.
 */
import { Worker } from 'node:worker_threads';
import type { BulkResult } from './bulk-worker.js';

export function bulkInWorker(files: Map<string, unknown>): Promise<BulkResult> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL('./bulk-worker.mjs', import.meta.url), { workerData: { files } });
    let result: BulkResult | undefined;
    w.on('message', (m: BulkResult) => (result = m));
    w.on('error', reject);
    w.on('exit', (code) => (code === 0 && result ? resolve(result) : reject(new Error(`bulk worker exited with ${code}`))));
  });
}
