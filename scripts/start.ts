/** `npm start`: builds the dataset when it is missing, then serves it. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from '../pipeline/run.js';
import { listenMessage, startServer } from '../server/main.js';

const dataDir = process.env.DATA_DIR ?? join(import.meta.dirname, '..', 'dist-data');
if (!existsSync(join(dataDir, 'v1', 'manifest.json'))) {
  console.log('No dataset in dist-data/: building it first (about 45 s on 2 cores).');
  await build({ outDir: dataDir });
}
const { port, store, close } = await startServer({ dataDir });
console.log(listenMessage(port, store));
const stop = () => void close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
