/**
 * /docs in a real browser: Debian's Chromium (driven by playwright-core)
 * opens the page on the real server, Redoc renders the description, and
 * every request the page makes stays on this server (no CDN, no fonts).
 * Missing Chromium is a failure, never a skip: .ci/run installs it.
 */
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DOCS_CSP } from '../server/routes/docs.js';
import { startServer } from '../server/main.js';
import { DATA_DIR, sharedKeys, UNLIMITED } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** A copy of the screenshot kept where a person can find it. */
const SCREENSHOT_COPY = '/tmp/refdata-docs.png';

let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const started = await startServer({ port: 0, hostname: '127.0.0.1', dataDir: DATA_DIR, keysFile: sharedKeys().file, limits: UNLIMITED, redisUrl: '' });
  close = started.close;
  base = `http://127.0.0.1:${started.port}`;
});
afterAll(() => close());

it('Redoc renders /docs from this server alone', async () => {
  expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: install Debian's chromium (apt-get install chromium), as .ci/run does`).toBe(true);
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    const requests: string[] = [];
    const problems: string[] = [];
    page.on('request', (r) => requests.push(r.url()));
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));

    const res = await page.goto(`${base}/docs`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toBe(DOCS_CSP);
    // Rendered: the title, an operation summary, and a field of a schema that came from schemas/.
    const rendered = ['refdata API', 'Check whether a date is a business day', 'is_business_day', 'X-API-Key'];
    await page.waitForFunction((texts) => texts.every((t) => document.body.innerText.includes(t)), rendered, { timeout: 30_000 });
    await page.waitForLoadState('networkidle');

    const path = join(mkdtempSync(join(tmpdir(), 'refdata-docs-')), 'docs.png');
    await page.screenshot({ path, fullPage: true });
    copyFileSync(path, SCREENSHOT_COPY);
    console.log(`docs screenshot: ${path} (copy: ${SCREENSHOT_COPY})`);

    // blob: (Redoc's search worker) and data: URLs never leave the page; everything else must be this server.
    const offsite = requests.filter((u) => {
      const url = new URL(u);
      if (url.protocol === 'data:') return false;
      if (url.protocol === 'blob:') return new URL(url.pathname).origin !== base;
      return url.origin !== base;
    });
    expect(offsite).toEqual([]);
    expect(requests).toContain(`${base}/v1/openapi.json`);
    expect(requests.some((u) => u.startsWith(`${base}/docs/redoc.standalone.js`))).toBe(true);
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
}, 120_000);
