/** Worker: ingests a slice of the holiday targets (the build uses both cores). */
import { parentPort, workerData } from 'node:worker_threads';
import { ingestTarget, type Target } from './stages/ingest-holidays.js';

const { targets, years } = workerData as { targets: Target[]; years: number[] };
for (const t of targets) parentPort!.postMessage(ingestTarget(t, years));
