/** Serves dist-data on PORT (default 8080) with @hono/node-server. */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import { DatasetStore } from './store.js';
import { TimezoneStore } from './timezone-store.js';

export interface StartOptions {
  port?: number;
  hostname?: string;
  dataDir?: string;
}

/** Starts the server; resolves once it listens (port 0 picks a free port). */
export function startServer({
  port = Number(process.env.PORT ?? 8080),
  hostname = process.env.HOST ?? '0.0.0.0',
  dataDir = process.env.DATA_DIR ?? join(import.meta.dirname, '..', 'dist-data'),
}: StartOptions = {}): Promise<{ server: ServerType; port: number; store: DatasetStore }> {
  const store = new DatasetStore(dataDir);
  const app = createApp({ store, timezones: new TimezoneStore(dataDir) });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port, hostname }, (info: AddressInfo) => {
      resolve({ server, port: info.port, store });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { server, port, store } = await startServer();
  console.log(`refdata dataset ${store.manifest.version} listening on http://localhost:${port}/v1`);
  const stop = () => server.close(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
