/** Serves dist-data on PORT (default 8080) with @hono/node-server, behind the access gate. */
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { getRequestListener, RequestError, type ServerType } from '@hono/node-server';
import { createApp } from './app.js';
import { answerCacheBytes } from './computed-answers.js';
import { KEEPER, maxAgeUntil, respond, type AnswerKeeper, type Kept } from './answer-headers.js';
import type { createGate, PairsDecision } from './access/gate.js';
import { defaultKeysFile, KeyRing } from './access/keys.js';
import { ApiError, errorAnswer, exitOnStartupError, StartupError } from './errors.js';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { Limiter } from './access/limiter.js';
import { planLimits } from './access/plans.js';
import { areaOf, gatedAreaOf, type Area } from './areas.js';
import { DatasetStore } from './store.js';
import { TimezoneStore } from './timezone-store.js';
import { ipv6PrefixOf } from '../lib/client-block.js';
import { MAX_URL_LENGTH } from './query.js';
import { geoCacheBytes, useGeoCache } from './geo.js';

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

/**
 * Answers the fast path sends again without their route, by request target. Bounded in entries
 * and bytes; the oldest go first (a hot answer evicted comes back on its next request). Only the
 * areas whose row in server/areas.ts says `fastPath`, by the path the app routed and gated. Keyed
 * by the raw target: @hono/node-server's normalisation of a target depends on nothing else (with a
 * Host it takes as it is).
 */
class AnswerCache implements AnswerKeeper {
  private readonly entries = new Map<string, KeptEntry & { bytes: number }>();
  private bytes = 0;

  constructor(
    private readonly maxEntries = 20_000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  keep(target: string, kept: Kept, until: number, maxAge: boolean, pathname: string): void {
    if (!areaOf(pathname)?.fastPath) return;
    const bytes = target.length + Number(kept.length);
    if (bytes > this.maxBytes / 64) return; // a few very large answers must not push out thousands of small ones
    this.delete(target);
    // A computed answer (a string) is kept as its UTF-8 bytes: res.end(string) encoded it again on
    // every request (a 13 kB timezone page ran at half the baseline's speed). Same bytes, same ETag
    // (the hash of a string is the hash of its UTF-8); not compressible, as when it was a string.
    if (typeof kept.body === 'string') kept = { ...kept, body: Buffer.from(kept.body, 'utf8') };
    // The gate judges a kept answer's requests by the path the app judged the first one by.
    this.entries.set(target, { kept, until, maxAge, pathname, area: gatedAreaOf(pathname), bytes });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.delete(oldest);
    }
  }

  get(target: string) {
    return this.entries.get(target);
  }

  delete(target: string): void {
    const entry = this.entries.get(target);
    if (entry === undefined) return;
    this.bytes -= entry.bytes;
    this.entries.delete(target);
  }
}

/** A Host that @hono/node-server takes as it is (its reValidHost); with another, the request takes the app (which may answer 400). */
const PLAIN_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;

const headerText = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : v);

function writeAnswer(res: ServerResponse, status: number, headers: Record<string, string>, body: string | Uint8Array | null, length: string | null): void {
  if (length !== null) headers['content-length'] = length;
  res.writeHead(status, headers);
  if (body === null) res.end();
  else res.end(body);
}

interface KeptEntry {
  kept: Kept;
  until: number;
  maxAge: boolean;
  /** The target's path and its access area, for the gate. */
  pathname: string;
  area: Area | undefined;
}

/**
 * The fast path's answer once the gate has decided: its refusal, or the kept answer as respond()
 * makes it for this request. Headers go to writeHead as a flat list, as the gate made them, with
 * the answer's appended: no record is built or copied (measured: the records cost a third of the gate).
 */
function sendKept(req: IncomingMessage, res: ServerResponse, entry: KeptEntry, now: number, d: PairsDecision): void {
  if ('answer' in d) {
    const { status, headers, body } = d.answer;
    return writeAnswer(res, status, headers, body, body === null ? null : String(Buffer.byteLength(body)));
  }
  const { kept, until, maxAge } = entry;
  const acceptEncoding = kept.compressible ? headerText(req.headers['accept-encoding']) : undefined;
  const ifNoneMatch = headerText(req.headers['if-none-match']);
  const sent = respond(kept, d.pairs, acceptEncoding, ifNoneMatch, maxAge ? maxAgeUntil(now, until) : undefined);
  res.writeHead(sent.status, d.pairs);
  if (sent.body === null) res.end();
  else res.end(sent.body);
}

function failFast(res: ServerResponse, version: string, err: unknown): void {
  console.error(`internal error on the fast path: ${err instanceof Error ? err.message : String(err)}`);
  if (res.headersSent) return void res.destroy();
  const { status, headers, body } = errorParts(version, 500, 'internal_error', 'Internal error');
  res.writeHead(status, headers).end(body);
}

/**
 * The hot path: a GET whose answer was kept (a pure function of its target and the
 * dataset, or one that holds until an instant; see answer-headers.ts) is answered here, from
 * Node's request, without a WHATWG Request, Hono or a promise: the same gate (in the same tick
 * when it can), then respond(), the function answer() uses, so the headers and bytes are the same.
 * Other requests (and a first one) take the app; answer() offers this path what it may keep.
 * Returns false when the request is not this path's to answer, 'sent' when its answer is written
 * (in this tick), 'later' when the gate's verdict is awaited (the counters are in Redis).
 */
function fastPath(gate: ReturnType<typeof createGate> | undefined, baseHeaders: Record<string, string>, version: string) {
  const cache = new AnswerCache();
  const basePairs = Object.entries(baseHeaders).flat();
  return (req: IncomingMessage, res: ServerResponse): FastOutcome => {
    // HEAD as GET: the same kept answer, its headers with Content-Length (Node sends no body for a HEAD).
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const host = req.headers.host;
    if (host === undefined || !PLAIN_HOST.test(host)) return false;
    const target = req.url!;
    const entry = cache.get(target);
    const now = entry === undefined ? 0 : Date.now();
    if (entry === undefined || now >= entry.until) {
      if (entry !== undefined) cache.delete(target);
      if (target.startsWith('/v1/')) (req as IncomingMessage & { [KEEPER]?: AnswerKeeper })[KEEPER] = cache;
      return false;
    }
    try {
      // The gate counts the request at the instant its answer was looked up at (one clock read).
      const decision = gate ? gate.decidePairs(req.method, entry.pathname, req, undefined, entry.area, now) : { pairs: basePairs.slice() };
      if (decision instanceof Promise) {
        decision.then((d) => sendKept(req, res, entry, now, d)).catch((err) => failFast(res, version, err));
        return 'later';
      }
      sendKept(req, res, entry, now, decision);
    } catch (err) {
      failFast(res, version, err);
    }
    return 'sent';
  };
}

type FastOutcome = false | 'sent' | 'later';

/** The server's own errors (outside the app): server/errors.ts's errorAnswer, with the dataset version. */
function errorParts(version: string, status: number, code: string, message: string, extra: Record<string, string> = {}) {
  return errorAnswer(new ApiError(status as ContentfulStatusCode, code, message), { 'content-type': 'application/json; charset=utf-8', 'x-dataset-version': version }, extra);
}

/** The same error written straight onto a socket, for requests Node's parser rejected before any response object exists. */
function rawError(version: string, status: number, code: string, message: string, extra: Record<string, string> = {}): string {
  const { headers, body } = errorParts(version, status, code, message, { ...extra, connection: 'close' });
  const lines = Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('');
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${lines}\r\n${body}`;
}

/**
 * Parser errors as status, code and message; never the request's bytes. Node's parser counts the request line
 * with the headers: a target too long for that limit is a 414, as a shorter long target is (server/app.ts), not
 * a 431. The request line is still unfinished when the bytes the parser stopped in hold no line break, or their
 * first line is longer than any target we accept.
 */
function clientErrorAnswer(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): [number, string, string] {
  if (err.code === 'HPE_HEADER_OVERFLOW') {
    const packet = err.rawPacket;
    const firstLine = packet ? (packet.indexOf('\r\n') === -1 ? packet.length : packet.indexOf('\r\n')) : 0;
    if (packet && (packet.indexOf('\n') === -1 || firstLine > MAX_URL_LENGTH)) return [414, 'uri_too_long', `The request target is longer than ${MAX_URL_LENGTH} characters`];
    return [431, 'headers_too_large', `The request's headers exceed ${MAX_HEADER_BYTES} bytes`];
  }
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'request_timeout', `The request did not arrive within ${HEADERS_TIMEOUT_MS / 1000} s`];
  return [400, 'bad_request', 'Malformed HTTP request'];
}

/**
 * Runs each connection's requests under CONNECTION_LIMITS: at most maxRunning
 * handlers at once and none while the connection has more than maxUnsentBytes
 * unsent; a connection over maxPending is closed. Returns the wrapped
 * listener and a stall check to run on a timer.
 */
function connectionGuard(
  listener: (req: IncomingMessage, res: ServerResponse, fastTried: boolean) => unknown,
  conns: Map<Socket, Conn>,
  quick: (req: IncomingMessage, res: ServerResponse) => FastOutcome,
) {
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

  /** Counts a request until its answer closes. */
  const hold = (socket: Socket, conn: Conn, res: ServerResponse) => {
    conn.pending++;
    // 'close' comes once: `on` spares the wrapper `once` makes for every request.
    res.on('close', () => {
      conn.pending--;
      conn.running.delete(res);
      pump(socket, conn);
    });
  };

  const guarded = (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    const conn = conns.get(socket);
    if (!conn || socket.destroyed) return; // requests parsed from a chunk after the connection was closed
    // On an idle connection (nothing running or waiting, this answer first in Node's queue: it
    // holds the socket) a kept answer is written in this tick, within the unsent-bytes bound:
    // counting it would be undone by its 'close' (a listener and a closure per request, measured
    // on the fast path). Requests pipelined behind it find it running (Node has not finished it)
    // and are counted as below.
    const idle = conn.running.size === 0 && conn.waiting.length === 0 && res.socket === socket && socket.writableLength <= CONNECTION_LIMITS.maxUnsentBytes;
    if (idle) {
      const outcome = quick(req, res);
      if (outcome === 'sent') return;
      if (outcome === 'later') {
        hold(socket, conn, res);
        conn.running.add(res);
        return;
      }
    }
    if (conn.pending + 1 > CONNECTION_LIMITS.maxPending) return void socket.destroy();
    hold(socket, conn, res);
    if (conn.waiting.length === 0 && canRun(socket, conn)) {
      conn.running.add(res);
      void listener(req, res, idle);
    } else {
      conn.waiting.push(() => {
        conn.running.add(res);
        void listener(req, res, idle);
      });
    }
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
  port = setting(() => portOf(process.env.PORT)),
  hostname = process.env.HOST ?? '0.0.0.0',
  dataDir = process.env.DATA_DIR ?? join(import.meta.dirname, '..', 'dist-data'),
  keysFile = defaultKeysFile(),
  redisUrl = process.env.REDIS_URL || undefined,
  limits = setting(() => planLimits()),
}: StartOptions = {}): Promise<{ server: ServerType; port: number; store: DatasetStore; close: () => Promise<void> }> {
  // Settings first: a bad value is one line for the operator (a StartupError), before any work.
  const ipv6Prefix = setting(() => ipv6PrefixOf(process.env.ANON_IPV6_PREFIX));
  useGeoCache(setting(() => geoCacheBytes()));
  const answerCache = setting(() => answerCacheBytes());
  const store = readDataset(dataDir, () => new DatasetStore(dataDir));
  // ACCESS_CONTROL=off serves every area uncounted: for a deployment whose own gateway
  // authenticates, and for the benchmark's measure of what the gate costs. Then no keys file is
  // read (nor its absence logged) and no counters store is reached.
  const gated = process.env.ACCESS_CONTROL !== 'off';
  const keys = gated ? new KeyRing(keysFile) : undefined;
  const limiter = gated ? setting(() => new Limiter(limits, redisUrl)) : undefined; // REDIS_COMMAND_TIMEOUT_MS
  const access = keys && limiter ? { keys, limiter, trustProxy: process.env.TRUST_PROXY === '1', ipv6Prefix } : undefined;
  const app = readDataset(dataDir, () => createApp({ store, timezones: new TimezoneStore(dataDir), access, answerCacheBytes: answerCache }));
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
  // The app's gate and headers: kept answers are counted and sent as the app's are.
  const fast = fastPath(app.gate, app.baseHeaders, version);
  const conns = new Map<Socket, Conn>();
  const guard = connectionGuard(
    (req, res, fastTried) => {
      // HTTP/1.1 requires Host (RFC 9112 3.2); Node's own check would answer an empty 400.
      if (req.headers.host === undefined && req.httpVersion === '1.1') {
        const { status, headers, body } = errorParts(version, 400, 'bad_request', REQUEST_ERRORS['Missing host header']!);
        res.writeHead(status, headers).end(body);
        return;
      }
      if (!fastTried && fast(req, res)) return;
      return listener(req, res);
    },
    conns,
    fast,
  );

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

  return new Promise((resolve, reject) => {
    const stopTimers = () => {
      clearInterval(stallTimer);
      keys?.close();
      void limiter?.close();
    };
    // A port in use was an unhandled 'error' event: a stack trace instead of the reason.
    server.once('error', (err: NodeJS.ErrnoException) => {
      stopTimers();
      reject(listenError(err, port, hostname));
    });
    server.listen(port, hostname, () => {
      const close = () =>
        new Promise<void>((done) => {
          stopTimers();
          server.close(() => done());
          server.closeAllConnections();
        });
      resolve({ server, port: (server.address() as AddressInfo).port, store, close });
    });
  });
}

/** PORT: a whole number from 0 to 65535 (0 picks a free port); 8080 when unset. */
export function portOf(env: string | undefined): number {
  if (env === undefined || env === '') return 8080;
  const port = Number(env);
  if (!/^\d+$/.test(env) || port > 65_535) throw new Error(`PORT must be a port number from 0 to 65535, not ${JSON.stringify(env.slice(0, 40))}`);
  return port;
}

/** An environment setting read by `read`, whose refusal (a bad value) becomes one line for the operator. */
function setting<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new StartupError((err as Error).message);
  }
}

/**
 * Runs `read`, turning a dataset that cannot be read (a missing or
 * unreadable file, a file that is not JSON) into one line for the operator;
 * anything else is a bug and keeps its stack.
 */
function readDataset<T>(dataDir: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    // System errors (ENOENT, EACCES, EISDIR …), not Node's ERR_* codes, which are bugs.
    if (!(err instanceof SyntaxError) && !(typeof code === 'string' && /^E[A-Z]+$/.test(code))) throw err;
    const reason = err instanceof SyntaxError ? `a file is not valid JSON (${err.message})` : (err as Error).message;
    throw new StartupError(`the dataset in ${join(dataDir, 'v1')} cannot be read: ${reason}. Build it with \`npm run build\`, or set DATA_DIR to the folder holding a built v1/.`);
  }
}

/** Why the server cannot listen, as one line; errors other than the usual three keep their stack. */
function listenError(err: NodeJS.ErrnoException, port: number, hostname: string): Error {
  if (err.code === 'EADDRINUSE') return new StartupError(`port ${port} is already in use on ${hostname}: stop the process that holds it, or set PORT to another port`);
  if (err.code === 'EACCES') return new StartupError(`port ${port} on ${hostname} needs privileges this process does not have: set PORT to a port above 1023`);
  if (err.code === 'EADDRNOTAVAIL') return new StartupError(`HOST ${hostname} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0 for all`);
  return err;
}

/** The start-up line: where the API, its documentation and its health check answer. */
export function listenMessage(port: number, store: DatasetStore, hostname = process.env.HOST ?? '0.0.0.0'): string {
  const host = hostname === '0.0.0.0' || hostname === '::' ? 'localhost' : hostname.includes(':') ? `[${hostname}]` : hostname;
  const base = `http://${host}:${port}`;
  const access = process.env.ACCESS_CONTROL === 'off' ? 'access control off: every area open and uncounted' : `rate-limit store: ${process.env.REDIS_URL ? 'redis' : 'memory'}`;
  return `refdata dataset ${store.manifest.version} listening on ${base}/v1 (docs: ${base}/docs, health: ${base}/healthz; ${access})`;
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
