/** `npm start`: builds the dataset when it is missing or was built from other inputs (pipeline/inputs.ts), then serves it. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from '../pipeline/run.js';
import { inputsDigest, readInputsStamp } from '../pipeline/inputs.js';
import { listenMessage, startServer } from '../server/main.js';
import { exitOnStartupError } from '../server/errors.js';

const dataDir = process.env.DATA_DIR ?? join(import.meta.dirname, '..', 'dist-data');
if (!existsSync(join(dataDir, 'v1', 'manifest.json'))) {
  console.log(`No dataset in ${dataDir}: building it first (4 to 5 minutes on 2 cores, measured 2026-11-28; progress below).`);
  await build({ outDir: dataDir });
} else {
  // A dataset this checkout built from other code or sources (a pull, an edit) is built again; one
  // with no record (copied or downloaded into DATA_DIR) is served as it is.
  const stamp = readInputsStamp(dataDir);
  if (stamp !== undefined && stamp !== inputsDigest()) {
    console.log(`The dataset in ${dataDir} was built from other code or sources: building it again (4 to 5 minutes on 2 cores).`);
    await build({ outDir: dataDir });
  }
}
let started: Awaited<ReturnType<typeof startServer>>;
try {
  started = await startServer({ dataDir });
} catch (err) {
  exitOnStartupError(err); // one line, exit 1: an invalid keys file, a bad setting
}
const { port, store, close } = started;
console.log(listenMessage(port, store));
const stop = () => void close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
