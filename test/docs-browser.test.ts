/**
 * /docs and /docs/try in a real browser: Debian's Chromium (driven by
 * playwright-core) opens the pages on the real server, Redoc and Swagger UI
 * render the description with its real examples, the console sends a real
 * request, and every request the pages make stays on this server (no CDN,
 * no fonts, no validator badge). Missing Chromium is a failure, never a
 * skip: .ci/run installs it.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DOCS_CSP } from '../server/routes/docs.js';
import { startServer } from '../server/main.js';
import { DATA_DIR, requirePackage, sharedKeys, UNLIMITED } from './helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
/** Screenshots go to the run's scratch TMPDIR (removed after the run); REFDATA_SCREENSHOTS=<dir> keeps them there. */
const SCREENSHOTS = process.env.REFDATA_SCREENSHOTS;
const shot = (name: string) => join(SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'refdata-docs-')), name);

let base: string;
let close: () => Promise<void>;

beforeAll(async () => {
  const started = await startServer({ port: 0, hostname: '127.0.0.1', dataDir: DATA_DIR, keysFile: sharedKeys().file, limits: UNLIMITED, redisUrl: '' });
  close = started.close;
  base = `http://127.0.0.1:${started.port}`;
});
afterAll(() => close());

/** A page that records every request it makes and every error it logs. */
async function watchedPage(browser: Browser): Promise<{ page: Page; requests: string[]; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const requests: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => m.type() === 'error' && problems.push(`console: ${m.text()}`));
  return { page, requests, problems };
}

/** Requests that left this server; blob: (Redoc's search worker) and data: URLs never leave the page. */
function offsite(requests: string[]): string[] {
  return requests.filter((u) => {
    const url = new URL(u);
    if (url.protocol === 'data:') return false;
    if (url.protocol === 'blob:') return new URL(url.pathname).origin !== base;
    return url.origin !== base;
  });
}

function launch(): Promise<Browser> {
  requirePackage('chromium', existsSync(CHROMIUM), CHROMIUM);
  return chromium.launch({ executablePath: CHROMIUM, args: ARGS });
}

it('Redoc renders /docs, with real examples, from this server alone', async () => {
  const browser = await launch();
  try {
    const { page, requests, problems } = await watchedPage(browser);

    const res = await page.goto(`${base}/docs`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toBe(DOCS_CSP);
    // Rendered: the title, an operation summary, a field of a schema that came from schemas/, and
    // values of the examples answered by the server (the add example's result, the check example's
    // holiday, the lookup example's zone at Window Rock), where Redoc showed placeholders such as "2019-08-24".
    const rendered = ['refdata API', 'Check whether a date is a business day', 'is_business_day', 'X-API-Key', '"2026-01-30"', '"Independence Day (substitute day)"', '"America/Denver"'];
    await page.waitForFunction((texts) => texts.every((t) => document.body.innerText.includes(t)), rendered, { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const text = await page.evaluate(() => document.body.innerText);
    expect(text).not.toContain('2019-08-24');
    expect(text).not.toMatch(/"offset_minutes": -1440|"location": "string"/);

    // The first screen only: a full-page capture of the whole reference (tens of thousands of
    // pixels tall) took over 30 s on a loaded CI machine, and the assertions above already read
    // the whole rendered text.
    await page.screenshot({ path: shot('docs.png'), fullPage: false, timeout: 60_000 });

    expect(offsite(requests)).toEqual([]);
    expect(requests).toContain(`${base}/v1/openapi.json`);
    expect(requests.some((u) => u.startsWith(`${base}/docs/redoc.standalone.js`))).toBe(true);
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
}, 120_000);

it('the console at /docs/try (Swagger UI) sends a real request from this server alone', async () => {
  const browser = await launch();
  try {
    const { page, requests, problems } = await watchedPage(browser);
    const res = await page.goto(`${base}/docs/try#/Timezones/getTimezone`, { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toBe(DOCS_CSP);
    // The deep link opens the operation, its parameters filled with the example's values.
    const execute = page.locator('#operations-Timezones-getTimezone button.execute');
    await execute.waitFor({ timeout: 30_000 });
    expect(await page.locator('#operations-Timezones-getTimezone input[type=text]').first().inputValue()).toBe('America/New_York');
    const answered = page.waitForResponse((r) => r.url().startsWith(`${base}/v1/timezones/America%2FNew_York?`));
    await execute.click();
    const answer = await answered;
    expect(answer.status()).toBe(200);
    expect(((await answer.json()) as { id: string }).id).toBe('America/New_York');
    await page.locator('#operations-Timezones-getTimezone .live-responses-table').getByText('"EDT"').first().waitFor({ timeout: 10_000 });
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: shot('console.png'), fullPage: false });
    expect(offsite(requests)).toEqual([]);
    expect(requests).toContain(`${base}/v1/openapi.json`);
    expect(problems).toEqual([]);
  } finally {
    await browser.close();
  }
}, 120_000);
