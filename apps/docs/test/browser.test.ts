// The built site and the server's /docs page in headless Chromium: every page reachable from the navigation, no
// console error, no failed request, nothing fetched from outside localhost, every operation in the reference.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractRoutes } from '@coinventory/contract';
import openApiDocument from '@coinventory/contract/openapi';
import { type RunningServer, startServer, stopServer } from '@coinventory/server/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from './support/static-server.js';

const DOCS = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(DOCS, 'site/.vitepress/dist');
const ARTIFACTS = join(DOCS, 'test-artifacts');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

// Under CI the browser is required (.ci/run installs Debian's chromium); elsewhere its absence skips this file.
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium && process.env.CI) throw new Error(`CI needs Chromium at ${CHROMIUM} (apt-get install chromium)`);
if (!hasChromium) console.warn(`Browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium).`);

const operations = contractRoutes.map(({ route }) => ({
  operationId: route.metadata.operationId,
  summary: route.summary ?? '',
  method: route.method,
  path: route.path.replace(/:(\w+)/g, '{$1}'),
}));

/** The operation ids of the OpenAPI document's `webhooks`: the requests the server sends, not ones it answers. */
const webhooks = Object.values(openApiDocument.webhooks ?? {}).flatMap((pathItem) =>
  Object.values(pathItem ?? {}).flatMap((operation) =>
    typeof operation === 'object' && operation !== null && 'operationId' in operation
      ? [String(operation.operationId)]
      : [],
  ),
);

let browser: Browser;
let context: BrowserContext;
let site: { origin: string; server: Server };
let api: RunningServer;

/** What went wrong while a page loaded: console errors, failed requests, requests that left localhost. */
interface Watch {
  problems: string[];
  requests: string[];
}

function watch(page: Page): Watch {
  const seen: Watch = { problems: [], requests: [] };
  page.on('console', (message) => {
    if (message.type() === 'error') seen.problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => seen.problems.push(`page error: ${error.message}`));
  page.on('request', (request) => {
    seen.requests.push(request.url());
    const url = new URL(request.url());
    const local = ['127.0.0.1', 'localhost'].includes(url.hostname) || ['data:', 'blob:'].includes(url.protocol);
    if (!local) seen.problems.push(`request leaving localhost: ${request.url()}`);
  });
  page.on('requestfailed', (request) =>
    seen.problems.push(`failed request: ${request.url()} (${request.failure()?.errorText})`),
  );
  page.on('response', (response) => {
    if (response.status() >= 400) seen.problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  return seen;
}

/** Opens a page and waits until it has settled (no network for 500 ms). */
async function open(path: string): Promise<{ page: Page; seen: Watch }> {
  const page = await context.newPage();
  const seen = watch(page);
  await page.goto(new URL(path, site.origin).href, { waitUntil: 'networkidle' });
  return { page, seen };
}

/** Pages of the built site, as paths (`/guide/quickstart.html`). */
function builtPages(): string[] {
  const pages: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'assets') visit(full);
      else if (entry.name.endsWith('.html') && entry.name !== '404.html') pages.push(`/${relative(DIST, full)}`);
    }
  };
  visit(DIST);
  return pages.map((page) => page.replace(/(^|\/)index\.html$/, '$1')).sort();
}

/** Where a link of the navigation points, normalised to a built page's path; undefined for other sites/anchors. */
function pagePath(href: string): string | undefined {
  const url = new URL(href, site.origin);
  if (url.origin !== site.origin) return undefined;
  return url.pathname.replace(/(^|\/)index\.html$/, '$1');
}

describe.skipIf(!hasChromium)('the documentation site in Chromium', () => {
  beforeAll(async () => {
    expect(existsSync(join(DIST, 'index.html')), 'build the site first (pnpm build)').toBe(true);
    mkdirSync(ARTIFACTS, { recursive: true });
    site = await serveStatic(DIST);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      // As root in a container, without a GPU, and with Chromium's own calls home turned off (this network is
      // closed; they would show up as failed requests).
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-domain-reliability',
      ],
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.server.close(resolve));
  });

  it('reaches every page of the site from the navigation, each without console errors or outside requests', async () => {
    const all = builtPages();
    const reached = new Set<string>(['/']);
    const queue = ['/'];
    const problems: string[] = [];
    while (queue.length > 0) {
      const path = queue.shift() ?? '/';
      const { page, seen } = await open(path);
      // The navigation: the top bar and the sidebar (not links inside a page's text).
      const hrefs = await page.$$eval('.VPNav a[href], .VPSidebar a[href], .VPHero a[href]', (links) =>
        links.map((link) => link.getAttribute('href') ?? ''),
      );
      for (const href of hrefs) {
        const target = pagePath(href);
        if (target !== undefined && !reached.has(target)) {
          reached.add(target);
          queue.push(target);
        }
      }
      const title = await page.title();
      if (/404/.test(title)) problems.push(`${path}: not found`);
      problems.push(...seen.problems.map((problem) => `${path}: ${problem}`));
      await page.close();
    }
    expect(problems).toEqual([]);
    expect(all.filter((page) => !reached.has(page))).toEqual([]);
    expect(all.length).toBeGreaterThan(25);
  }, 300_000); // every page of the site, each loaded until the network is idle: a second or two each, over 50 pages

  it('lists every operation of the contract in the API reference, each with its own page', async () => {
    const { page, seen } = await open('/reference/api/');
    for (const operation of operations) {
      const link = page.locator(`.vp-doc a[href*="/reference/api/${operation.operationId}"]`);
      await expect.poll(() => link.count(), { message: operation.operationId }).toBeGreaterThan(0);
      const sidebar = page.locator(`.VPSidebar a[href*="/reference/api/${operation.operationId}"]`);
      expect(await sidebar.count(), `sidebar: ${operation.operationId}`).toBeGreaterThan(0);
    }
    await page.close();
    for (const operation of operations) {
      const { page: opPage, seen: opSeen } = await open(`/reference/api/${operation.operationId}.html`);
      await expect(opPage.locator('h1').textContent()).resolves.toContain(operation.summary);
      await expect(opPage.locator('.operation-line').textContent()).resolves.toContain(operation.path);
      expect(opSeen.problems).toEqual([]);
      await opPage.close();
    }
    expect(seen.problems).toEqual([]);
  });

  it('searches the site locally', async () => {
    const { page, seen } = await open('/');
    await page.locator('.VPNavBarSearch button').click();
    await page.locator('.VPLocalSearchBox input').fill('Retry-After');
    const results = page.locator('.VPLocalSearchBox .result');
    await expect.poll(() => results.count()).toBeGreaterThan(0);
    expect(seen.problems).toEqual([]);
    await page.close();
  });

  it('saves screenshots of the home page, the quickstart and an operation', async () => {
    for (const [name, path] of [
      ['home', '/'],
      ['quickstart', '/guide/quickstart.html'],
      ['operation-listItems', '/reference/api/listItems.html'],
    ] as const) {
      const { page, seen } = await open(path);
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: name !== 'operation-listItems' });
      expect(seen.problems).toEqual([]);
      await page.close();
    }
    for (const name of ['home', 'quickstart', 'operation-listItems'])
      expect(existsSync(join(ARTIFACTS, `${name}.png`))).toBe(true);
  });
});

describe.skipIf(!hasChromium)("the server's interactive reference at /docs in Chromium", () => {
  let docsBrowser: Browser;
  beforeAll(async () => {
    api = await startServer();
    docsBrowser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await docsBrowser?.close();
    await stopServer(api);
  });

  it('renders every operation from /v1/openapi.json with bundled assets only', async () => {
    const page = await docsBrowser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    const origin = new URL(api.baseUrl).origin;
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      if (!request.url().startsWith(origin) && !request.url().startsWith('data:'))
        problems.push(`request leaving the server: ${request.url()}`);
    });
    page.on('requestfailed', (request) => problems.push(`failed request: ${request.url()}`));
    await page.goto(`${origin}/docs`, { waitUntil: 'networkidle' });
    const blocks = page.locator('.opblock');
    // Swagger UI shows the document's webhooks (what a delivery is) as operations too.
    await expect.poll(() => blocks.count(), { timeout: 20_000 }).toBe(operations.length + webhooks.length);
    const text = (await page.locator('#reference').textContent()) ?? '';
    for (const operation of operations) expect(text, operation.operationId).toContain(operation.operationId);
    for (const webhook of webhooks) expect(text, webhook).toContain(webhook);
    await page.screenshot({ path: join(ARTIFACTS, 'server-docs.png'), fullPage: false });
    expect(problems).toEqual([]);
    await page.close();
  });
});
