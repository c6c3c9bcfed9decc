/** Serves dist-data on PORT (default 8080) with @hono/node-server, behind the access gate. */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { getRequestListener, RequestError, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import { defaultKeysFile, KeyRing } from './access/keys.js';
import { exitOnStartupError } from './errors.js';
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
/** A request whose headers have not all arrived after this long gets a 408. */
export const HEADERS_TIMEOUT_MS = 5_000;
const REQUEST_TIMEOUT_MS = 10_000;
/**
 * How often Node checks the two timeouts above. Its default (30 s) let a
 * header timeout fire anywhere between 5 and 35 s; at 500 ms it fires by 5.5 s.
 */
const TIMEOUT_CHECK_MS = 500;

/**
 * Per-connection bounds, so that one client cannot hold the server's memory
 * or event loop at the others' expense (a client pipelining requests for the
 * 1.1 MB docs bundle and never reading once left 1.7 GB in send queues).
 */
export const CONNECTION_LIMITS = {
  /** Requests received on one connection and not yet answered. Past it the connection is closed: browsers and curl do not pipeline at all. */
  maxPending: 16,
  /** Requests of one connection whose handlers run at once; the others wait their turn (Node answers them in order anyway). */
  maxRunning: 4,
  /** Unsent answer bytes of one connection above which its next requests wait for it to drain. */
  maxUnsentBytes: 256 * 1024,
  /** A connection with unsent output or waiting requests that makes no progress for this long is closed. */
  stallMs: 10_000,
};

/** Constant texts of @hono/node-server's request errors; anything else (a cause holding the URL) is never echoed. */
const REQUEST_ERRORS: Record<string, string> = {
  'Backslash in request path': 'The request path contains a backslash',
  'Invalid host header': 'The Host header is not a valid host[:port]',
  'Invalid URL': 'The request target is not a path starting with /',
  'Invalid absolute URL': 'The absolute request target is not a valid URL',
  'Missing host header': 'The request has no Host header',
};

interface Conn {
  /** Requests received and not yet answered. */
  pending: number;
  /** Responses whose handler has run (or is running) and that are not finished. */
  running: Set<ServerResponse>;
  /** Handlers waiting for the connection to drain, in arrival order. */
  waiting: Array<() => void>;
  /** Bytes the kernel has taken, at the last stall check. */
  flushed: number;
  stalledMs: number;
}

/** The JSON error every answer shares (server/errors.ts), as status, headers and body. */
function errorParts(version: string, status: number, code: string, message: string, extra: Record<string, string> = {}) {
  const body = JSON.stringify({ error: { status, code, message } });
  const headers: Record<string, string> = {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'x-dataset-version': version,
    'cache-control': 'no-store',
    ...extra,
  };
  return { status, headers, body };
}

/** The same error written straight onto a socket, for requests Node's parser rejected before any response object exists. */
function rawError(version: string, status: number, code: string, message: string, extra: Record<string, string> = {}): string {
  const { headers, body } = errorParts(version, status, code, message, { ...extra, connection: 'close' });
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines}\r\n${body}`;
}

/** Parser errors as status, code and message; never the request's bytes. */
function clientErrorAnswer(err: NodeJS.ErrnoException): [number, string, string] {
  if (err.code === 'HPE_HEADER_OVERFLOW') return [431, 'headers_too_large', `The request's headers exceed ${MAX_HEADER_BYTES} bytes`];
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'request_timeout', `The request did not arrive within ${HEADERS_TIMEOUT_MS / 1000} s`];
  return [400, 'bad_request', 'Malformed HTTP request'];
}

/**
 * Runs each connection's requests under CONNECTION_LIMITS: at most maxRunning
 * handlers at once and none while the connection has more than maxUnsentBytes
 * unsent; a connection over maxPending is closed. Returns the wrapped
 * listener and a stall check to run on a timer.
 */
function connectionGuard(listener: (req: IncomingMessage, res: ServerResponse) => unknown, conns: Map<Socket, Conn>) {
  const unsent = (socket: Socket, conn: Conn) => {
    let bytes = socket.writableLength;
    // Answers queued behind an earlier one hold their bytes until it is sent.
    for (const res of conn.running) if (!res.socket) bytes += res.writableLength;
    return bytes;
  };
  const canRun = (socket: Socket, conn: Conn) =>
    conn.running.size === 0 || (conn.running.size < CONNECTION_LIMITS.maxRunning && unsent(socket, conn) <= CONNECTION_LIMITS.maxUnsentBytes);
  const pump = (socket: Socket, conn: Conn) => {
    while (conn.waiting.length > 0 && !socket.destroyed && canRun(socket, conn)) conn.waiting.shift()!();
  };

  const guarded = (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const conn = conns.get(socket);
    if (!conn || socket.destroyed) return; // requests parsed from a chunk after the connection was closed
    if (++conn.pending > CONNECTION_LIMITS.maxPending) return void socket.destroy();
    const run = () => {
      conn.running.add(res);
      void listener(req, res);
    };
    res.once('close', () => {
      conn.pending--;
      conn.running.delete(res);
      pump(socket, conn);
    });
    if (conn.waiting.length === 0 && canRun(socket, conn)) run();
    else conn.waiting.push(run);
  };

  const track = (socket: Socket) => {
    const conn: Conn = { pending: 0, running: new Set(), waiting: [], flushed: 0, stalledMs: 0 };
    conns.set(socket, conn);
    socket.on('drain', () => pump(socket, conn));
    socket.once('close', () => conns.delete(socket));
  };

  /** Closes connections that have had output to send or requests waiting, without progress, for stallMs. */
  const checkStalls = (intervalMs: number) => {
    for (const [socket, conn] of conns) {
      const flushed = socket.bytesWritten - socket.writableLength;
      const busy = socket.writableLength > 0 || conn.waiting.length > 0;
      conn.stalledMs = busy && flushed === conn.flushed ? conn.stalledMs + intervalMs : 0;
      conn.flushed = flushed;
      if (conn.stalledMs >= CONNECTION_LIMITS.stallMs) socket.destroy();
    }
  };
  return { guarded, track, checkStalls };
}

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
  const version = store.manifest.version;
  const jsonError = (status: number, code: string, message: string, extra?: Record<string, string>) => {
    const { headers, body } = errorParts(version, status, code, message, extra);
    return new Response(body, { status, headers });
  };

  // Requests Node parses but @hono/node-server cannot turn into a URL (a bad Host,
  // a backslash path, `OPTIONS *`, `GET http://[/`) and handlers that throw past
  // the app: JSON too, instead of the adapter's empty 400 or 500.
  const listener = getRequestListener(app.fetch, {
    hostname,
    errorHandler: (err) => {
      if (err instanceof RequestError) return jsonError(400, 'bad_request', REQUEST_ERRORS[err.message] ?? 'Malformed request');
      console.error(`internal error outside the app: ${err instanceof Error ? err.message : String(err)}`);
      return jsonError(500, 'internal_error', 'Internal error');
    },
  });
  const conns = new Map<Socket, Conn>();
  const guard = connectionGuard((req, res) => {
    // HTTP/1.1 requires Host (RFC 9112 3.2); Node's own check would answer an empty 400.
    if (req.headers.host === undefined && req.httpVersion === '1.1') {
      const { status, headers, body } = errorParts(version, 400, 'bad_request', REQUEST_ERRORS['Missing host header']!);
      res.writeHead(status, headers).end(body);
      return;
    }
    return listener(req, res);
  }, conns);

  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      requestTimeout: REQUEST_TIMEOUT_MS,
      headersTimeout: HEADERS_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS,
      requireHostHeader: false,
    },
    guard.guarded,
  );
  // A client may half-close its socket once the request is sent (socket.end()); by default Node's
  // http server then ends the socket at once, before an answer that awaits the store (Redis) is
  // written, so the client got an empty reply. Answer first; Node closes the socket after it.
  // (httpAllowHalfOpen is a property of Node's http.Server that @types/node does not declare.)
  (server as unknown as { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
  server.on('connection', guard.track);
  const stallTimer = setInterval(() => guard.checkStalls(1000), 1000).unref();

  // Malformed, oversized or too slow requests never reach the app: answer them in JSON too.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (!socket.writable || inFlight?.headersSent || err.code === 'ECONNRESET') return void socket.destroy();
    const [status, code, message] = clientErrorAnswer(err);
    socket.end(rawError(version, status, code, message));
  });
  // Without a listener Node drops a CONNECT without a word; this API is no proxy.
  server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    socket.end(rawError(version, 405, 'method_not_allowed', 'CONNECT is not allowed: this API is read-only (GET, HEAD, OPTIONS)', { allow: 'GET, HEAD, OPTIONS' }));
  });

  return new Promise((resolve) => {
    server.listen(port, hostname, () => {
      const close = () =>
        new Promise<void>((done) => {
          clearInterval(stallTimer);
          keys.close();
          void limiter.close();
          server.close(() => done());
          server.closeAllConnections();
        });
      resolve({ server, port: (server.address() as AddressInfo).port, store, close });
    });
  });
}

export function listenMessage(port: number, store: DatasetStore): string {
  return `refdata dataset ${store.manifest.version} listening on http://localhost:${port}/v1 (rate-limit store: ${process.env.REDIS_URL ? 'redis' : 'memory'})`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let started: Awaited<ReturnType<typeof startServer>>;
  try {
    started = await startServer();
  } catch (err) {
    exitOnStartupError(err); // a bad configuration (an invalid keys file) is one line, not a stack trace
  }
  const { port, store, close } = started;
  console.log(listenMessage(port, store));
  const stop = () => void close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
