/**
 * GET /v1/openapi.json (the description), GET /docs (the description rendered
 * by Redoc), GET /docs/try (the same in Swagger UI, with a console to try
 * requests) and their bundles, served from the installed packages so the
 * pages load nothing from any other host, and the Markdown guides of docs/
 * at /docs/guides/<name>.md (the description links to each). Outside the gate's areas: free
 * and not counted against any plan, but metered by a per-address byte budget
 * (DOCS_BUDGET): 16 sockets once pulled 44.5 GB of the bundle in 30 s.
 */
import { readFileSync } from 'node:fs';
import { formatInstant } from '../../lib/rfc3339.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Hono, type Context } from 'hono';
import { answer, answerError, precompress, representation, utf8 } from '../answer-headers.js';
import { ApiError } from '../errors.js';
import { DOCS_PATHS, GUIDES_PATH, openApiBytes, type DatasetInfo } from '../openapi.js';
import type { Examples } from '../openapi-examples.js';
import { queryOf } from '../query.js';
import { clientBlock, ipv6PrefixOf } from '../../lib/client-block.js';

const require = createRequire(import.meta.url);
const REDOC_FILE = require.resolve('redoc/bundles/redoc.standalone.js');
const REDOC_VERSION = (require('redoc/package.json') as { version: string }).version;
/** The page asks for it with ?v=<redoc version>, so browsers may keep it for a year. */
const REDOC_PATH = '/docs/redoc.standalone.js';
/**
 * Redoc 2 always shows Redocly's logo from their CDN (no option turns it off).
 * The page loads nothing from another host, so it gets an empty image, which
 * Redoc hides on its load error.
 */
const OFFSITE_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

/**
 * Redoc needs inline styles (styled-components) and a blob: worker (search);
 * everything else comes from this server. Redoc 2 loads no web fonts itself.
 */
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  'worker-src blob:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// No inline script: the standalone bundle initialises itself from the <redoc> element.
const PAGE = utf8.encode(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>refdata API</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; }</style>
</head>
<body>
<redoc spec-url="/v1/openapi.json" required-props-first="true" expand-responses="200" json-sample-expand-level="3"></redoc>
<script src="${REDOC_PATH}?v=${REDOC_VERSION}"></script>
</body>
</html>
`);

/**
 * The console: Swagger UI rather than Redoc, which has none. RapiDoc also has
 * one, but Swagger UI renders OpenAPI 3.1 fully and fills each parameter
 * with its example. Its validator badge would call validator.swagger.io:
 * `validatorUrl: null` turns it off.
 */
const SWAGGER_DIR = dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_VERSION = (require('swagger-ui-dist/package.json') as { version: string }).version;
const CONSOLE_PATH = DOCS_PATHS.console;
const CONSOLE_ASSETS = { js: `${CONSOLE_PATH}/swagger-ui-bundle.js`, css: `${CONSOLE_PATH}/swagger-ui.css`, init: `${CONSOLE_PATH}/init.js` };
const CONSOLE_PAGE = utf8.encode(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>refdata API: try it</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${CONSOLE_ASSETS.css}?v=${SWAGGER_VERSION}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${CONSOLE_ASSETS.js}?v=${SWAGGER_VERSION}"></script>
<script src="${CONSOLE_ASSETS.init}"></script>
</body>
</html>
`);
// A file, not an inline script, so the page keeps script-src 'self'. The key given to Authorize stays in the page's memory only.
const CONSOLE_INIT = utf8.encode(`window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  defaultModelsExpandDepth: -1,
  validatorUrl: null,
  persistAuthorization: false,
});
`);

/**
 * The guides in the repository's docs/ (the API reference, the dataset and its hosting contract,
 * operations, the data sources), served as Markdown at /docs/guides/<name>.md: what the rendered
 * description does not say (semantics, keys and limits, Redis, faults). Read once, at the first docsRoutes().
 */
export const GUIDES = ['api', 'dataset', 'operations', 'data-sources'] as const;
const GUIDES_DIR = join(import.meta.dirname, '..', '..', 'docs');
let guideFiles: Map<string, Uint8Array<ArrayBuffer>> | undefined;
function guides(): Map<string, Uint8Array<ArrayBuffer>> {
  if (guideFiles === undefined) {
    guideFiles = new Map(GUIDES.map((name) => [name, utf8.encode(readFileSync(join(GUIDES_DIR, `${name}.md`), 'utf8'))]));
    for (const bytes of guideFiles.values()) precompress(bytes, 9);
  }
  return guideFiles;
}

/** Swagger UI's files, read (without their source-map comment) and compressed on first use. */
const consoleFiles = new Map<string, Uint8Array<ArrayBuffer>>();
function consoleFile(name: string): Uint8Array<ArrayBuffer> {
  let bytes = consoleFiles.get(name);
  if (bytes === undefined) {
    bytes = utf8.encode(readFileSync(join(SWAGGER_DIR, name), 'utf8').replace(/\n?\/[/*]# sourceMappingURL=\S+( \*\/)?\s*$/, '\n'));
    precompress(bytes, 9);
    consoleFiles.set(name, bytes);
  }
  return bytes;
}

/**
 * What one client address may receive from these routes per window: 24 MiB per
 * 10 minutes is about 20 uncompressed bundles or 80 brotli ones, where a
 * browser needs one (then keeps it a year). Every answer costs its body bytes
 * and at least 1 KiB, so floods of 304s and HEADs are metered too (24,576 per
 * window). Over budget: 429 with Retry-After until the window ends.
 */
export const DOCS_BUDGET = { bytes: 24 * 1024 * 1024, windowMs: 10 * 60_000, minCost: 1024, maxAddresses: 10_000 };

/** The Redoc bundle and its compressed forms: read and compressed once per process, at the first docsRoutes(). */
let redocBundle: Uint8Array<ArrayBuffer> | undefined;
function redoc(): Uint8Array<ArrayBuffer> {
  if (redocBundle === undefined) {
    redocBundle = utf8.encode(readFileSync(REDOC_FILE, 'utf8').replace(OFFSITE_LOGO, 'data:,'));
    precompress(redocBundle, 9); // 150 ms once, at start; 11 would take 2.3 s for 8 % less
  }
  return redocBundle;
}

/**
 * Bytes sent per client address in fixed windows. Memory is bounded: the map
 * is emptied at each window, and when maxAddresses are counted within one it
 * is emptied early (failing open: a flood of addresses resets the counts, it
 * cannot exhaust memory or lock out the docs).
 */
export class ByteBudget {
  private readonly used = new Map<string, number>();
  private windowEnds = 0;

  constructor(private readonly limits = DOCS_BUDGET) {}

  /** Counts `bytes` for `address`; returns the seconds until the window ends when the budget is already spent. */
  take(address: string, bytes: number, now = Date.now()): number | undefined {
    if (now >= this.windowEnds) {
      this.used.clear();
      this.windowEnds = (Math.floor(now / this.limits.windowMs) + 1) * this.limits.windowMs;
    }
    const used = this.used.get(address) ?? 0;
    if (used >= this.limits.bytes) return Math.max(1, Math.ceil((this.windowEnds - now) / 1000));
    if (!this.used.has(address) && this.used.size >= this.limits.maxAddresses) this.used.clear();
    this.used.set(address, used + Math.max(bytes, this.limits.minCost));
    return undefined;
  }
}

interface NodeEnv {
  incoming?: { headers: Record<string, string | string[] | undefined>; socket?: { remoteAddress?: string } };
}

/**
 * The address a budget is kept for: the socket's (or, behind a proxy we run,
 * the last X-Forwarded-For entry, as the gate does), grouped as the gate
 * groups anonymous callers (lib/client-block.ts: IPv6 per /64 unless
 * ANON_IPV6_PREFIX says otherwise).
 */
export function budgetAddress(c: Context, trustProxy: boolean, ipv6Prefix: number): string {
  const incoming = (c.env as NodeEnv | undefined)?.incoming;
  const forwarded = trustProxy ? String(incoming?.headers['x-forwarded-for'] ?? '').split(',').pop()?.trim() : undefined;
  return clientBlock(forwarded || incoming?.socket?.remoteAddress || 'unknown', ipv6Prefix);
}

export interface DocsOptions {
  /** Trust the last X-Forwarded-For entry as the client address (TRUST_PROXY=1). */
  trustProxy?: boolean;
  /** IPv6 callers share a budget per block of this prefix length, as the gate counts them (ANON_IPV6_PREFIX). */
  ipv6Prefix?: number;
  budget?: ByteBudget;
  /** The answers to the description's example requests (server/openapi-examples.ts); the description waits for them. */
  examples?: Promise<Examples>;
}

/**
 * @example app.route('/', docsRoutes({ version: store.manifest.version, range: store.list.range, zones: { first_year: 1900, last_year: 2100 } }, { examples }))
 */
export function docsRoutes(data: DatasetInfo, { trustProxy = process.env.TRUST_PROXY === '1', ipv6Prefix = ipv6PrefixOf(process.env.ANON_IPV6_PREFIX), budget = new ByteBudget(), examples }: DocsOptions = {}) {
  let spec: Uint8Array<ArrayBuffer> | undefined;
  const specReady = (examples ?? Promise.resolve(undefined))
    .catch((err: unknown) => {
      console.error(`openapi: the example requests failed (${err instanceof Error ? err.message : String(err)}); the description has no example answers`);
      return undefined;
    })
    .then((answers) => {
      spec = openApiBytes(data, answers);
      precompress(spec, 9);
      return spec;
    });
  const bundle = redoc();
  // Counts the bytes this request would receive; a spent budget answers 429 instead.
  const metered = (c: Context, body: Uint8Array<ArrayBuffer>, extra: Record<string, string>) => {
    const res = answer(c, body, { headers: extra });
    const bytes = c.req.method === 'HEAD' || res.status === 304 ? 0 : representation(c, body).bytes.length;
    const retryAfter = budget.take(budgetAddress(c, trustProxy, ipv6Prefix), bytes);
    if (retryAfter === undefined) return res;
    const resetsAt = formatInstant(Date.now() + retryAfter * 1000);
    const err = new ApiError(429, 'rate_limited', `This address has used its ${DOCS_BUDGET.bytes / 1024 / 1024} MiB of documentation for this ${DOCS_BUDGET.windowMs / 60_000}-minute window; it resets in ${retryAfter} s (at ${resetsAt}).`);
    return answerError(c, err, { 'retry-after': String(retryAfter) });
  };
  const html = { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DOCS_CSP, 'x-content-type-options': 'nosniff' };
  const script = { 'content-type': 'text/javascript; charset=utf-8', 'x-content-type-options': 'nosniff' };
  const css = { 'content-type': 'text/css; charset=utf-8', 'x-content-type-options': 'nosniff' };
  // Bundles are asked for with ?v=<package version>: browsers may keep them for a year.
  const immutable = { 'cache-control': 'public, max-age=31536000, immutable' };
  /** A handler for a file: `accepted` query parameters (the bundles take `v`), then the metered answer. */
  const file = (accepted: string, body: () => Uint8Array<ArrayBuffer>, extra: Record<string, string>) => (c: Context) => {
    queryOf(c, accepted);
    return metered(c, body(), extra);
  };
  const app = new Hono();
  app.get('/v1/openapi.json', (c): Response | Promise<Response> => {
    queryOf(c, '');
    return spec ? metered(c, spec, {}) : specReady.then((bytes) => metered(c, bytes, {}));
  });
  app.get('/docs', file('', () => PAGE, html));
  app.get(REDOC_PATH, file('v', () => bundle, { ...script, ...immutable }));
  app.get(CONSOLE_PATH, file('', () => CONSOLE_PAGE, html));
  app.get(CONSOLE_ASSETS.js, file('v', () => consoleFile('swagger-ui-bundle.js'), { ...script, ...immutable }));
  app.get(CONSOLE_ASSETS.css, file('v', () => consoleFile('swagger-ui.css'), { ...css, ...immutable }));
  app.get(CONSOLE_ASSETS.init, file('', () => CONSOLE_INIT, script));
  const markdown = { 'content-type': 'text/markdown; charset=utf-8', 'x-content-type-options': 'nosniff' };
  for (const [name, bytes] of guides()) app.get(`${GUIDES_PATH}/${name}.md`, file('', () => bytes, markdown));
  return app;
}
