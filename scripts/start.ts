/** `npm start`: builds the dataset when it is missing, then serves it. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build } from '../pipeline/run.js';
import { startServer } from '../server/main.js';

const dataDir = process.env.DATA_DIR ?? join(import.meta.dirname, '..', 'dist-data');
if (!existsSync(join(dataDir, 'v1', 'manifest.json'))) {
  console.log('No dataset in dist-data/: building it first (about a minute).');
  await build(dataDir);
}
startServer(Number(process.env.PORT ?? 8080), dataDir);
