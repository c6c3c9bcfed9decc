/** Prints the sha256 of the ingest of the given targets, 1989-2100 (test/ingest-holidays.test.ts runs it under several TZ). */
import { createHash } from 'node:crypto';
import { ingestTarget, listTargets } from '../pipeline/stages/ingest-holidays.js';

const wanted = new Set(process.argv[2].split(','));
const years = Array.from({ length: 112 }, (_, i) => 1989 + i);
const out = listTargets()
  .filter((t) => wanted.has(t.location))
  .map((t) => ingestTarget(t, years));
process.stdout.write(`${createHash('sha256').update(JSON.stringify(out)).digest('hex')}\n`);
