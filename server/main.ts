/** Serves dist-data on PORT (default 8080) with @hono/node-server, behind the access gate. */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import { defaultKeysFile, KeyRing } from './access/keys.js';
import { Limiter } from './access/limiter.js';
import { planLimits } from './access/plans.js';
import { DatasetStore } from './store.js';
import { TimezoneStore } from './timezone-store.js';

export interface StartOptions {
  port?: number;
  hostname?: string;
  dataDir?: string;
  keysFile?: string;
  redisUrl?: string;
  /** Plan limits; default DEFAULT_LIMITS with PLAN_LIMITS overrides. */
  limits?: ReturnType<typeof planLimits>;
}

/** Requests whose header block exceeds this many bytes get a 431. */
const MAX_HEADER_BYTES = 8 * 1024;

/** Starts the server; resolves once it listens (port 0 picks a free port). */
export function startServer({
  port = Number(process.env.PORT ?? 8080),
  hostname = process.env.HOST ?? '0.0.0.0',
  dataDir = process.env.DATA_DIR ?? join(import.meta.dirname, '..', 'dist-data'),
  keysFile = defaultKeysFile(),
  redisUrl = process.env.REDIS_URL || undefined,
  limits = planLimits(),
}: StartOptions = {}): Promise<{ server: ServerType; port: number; store: DatasetStore; close: () => Promise<void> }> {
  const store = new DatasetStore(dataDir);
  const keys = new KeyRing(keysFile);
  const limiter = new Limiter(limits, redisUrl);
  // ACCESS_CONTROL=off serves every area uncounted: for a deployment whose own gateway
  // authenticates, and for the benchmark's measure of what the gate costs.
  const access = process.env.ACCESS_CONTROL === 'off' ? undefined : { keys, limiter, trustProxy: process.env.TRUST_PROXY === '1' };
  const app = createApp({ store, timezones: new TimezoneStore(dataDir), access });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port, hostname, serverOptions: { maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: 10_000, headersTimeout: 5_000 } }, (info: AddressInfo) => {
      const close = () =>
        new Promise<void>((done) => {
          keys.close();
          void limiter.close();
          server.close(() => done());
          (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
        });
      resolve({ server, port: info.port, store, close });
    });
    // Malformed or oversized requests never reach the app: answer them in JSON too.
    server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
      if (!socket.writable) return socket.destroy();
      const [status, text, code] = err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large', 'headers_too_large'] : [400, 'Bad Request', 'bad_request'];
      const body = JSON.stringify({ error: { status, code, message: status === 431 ? `The request's headers exceed ${MAX_HEADER_BYTES} bytes` : 'Malformed HTTP request' } });
      socket.end(`HTTP/1.1 ${status} ${text}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
    });
  });
}

export function listenMessage(port: number, store: DatasetStore): string {
  return `refdata dataset ${store.manifest.version} listening on http://localhost:${port}/v1 (rate-limit store: ${process.env.REDIS_URL ? 'redis' : 'memory'})`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { port, store, close } = await startServer();
  console.log(listenMessage(port, store));
  const stop = () => void close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
