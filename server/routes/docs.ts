/**
 * GET /v1/openapi.json (the description), GET /docs (the description rendered
 * by Redoc) and the Redoc bundle itself, served from the installed package so
 * the page loads nothing from any other host. Outside the gate's areas: free
 * and not counted.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import { answer, utf8 } from '../answer-headers.js';
import { openApiBytes, type DatasetInfo } from '../openapi.js';

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
 * @example app.route('/', docsRoutes({ version: store.manifest.version, range: store.list.range }))
 */
export function docsRoutes(data: DatasetInfo) {
  const spec = openApiBytes(data);
  let redoc: Uint8Array<ArrayBuffer> | undefined; // 1.1 MB: read on first request, then kept
  const app = new Hono();
  app.get('/v1/openapi.json', (c) => answer(c, spec));
  app.get('/docs', (c) =>
    answer(c, PAGE, 200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': DOCS_CSP, 'x-content-type-options': 'nosniff' }),
  );
  app.get(REDOC_PATH, (c) => {
    redoc ??= utf8.encode(readFileSync(REDOC_FILE, 'utf8').replace(OFFSITE_LOGO, 'data:,'));
    return answer(c, redoc, 200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'public, max-age=31536000, immutable',
      'x-content-type-options': 'nosniff',
    });
  });
  return app;
}
