/** Serves dist-data on PORT (default 8080) with @hono/node-server. */
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { DatasetStore } from './store.js';

export function startServer(port = Number(process.env.PORT ?? 8080), dataDir = process.env.DATA_DIR ?? join(import.meta.dirname, '..', 'dist-data')) {
  const store = new DatasetStore(dataDir);
  const app = createApp({ store });
  const server = serve({ fetch: app.fetch, port, hostname: process.env.HOST ?? '0.0.0.0' }, (info) => {
    console.log(`refdata ${store.manifest.version} listening on http://localhost:${info.port}/v1`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) startServer();
