// The built site and the server's /docs page in headless Chromium: every page reachable from the navigation, no
// console error, no failed request, nothing fetched from outside localhost, every operation in the reference.
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { contractRoutes } from '@coinventory/contract';
import openApiDocument from '@coinventory/contract/openapi';
import { type RunningServer, startServer, stopServer } from '@coinventory/test-server';
import { type Browser, type BrowserContext, chromium, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN, helpReader } from '../scripts/help.mjs';
import { subcommands } from '../scripts/render.mjs';
import { type PageWidths, pageWidths, type ReferencePageWidths, referencePageWidths } from './support/page-widths.js';
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

/** The window every page is seen in: the width the API reference must fit without scrolling sideways. */
const VIEWPORT = { width: 1280, height: 900 };

interface OperationPage {
  widths: PageWidths;
  problems: string[];
}

const operationPath = (operation: { operationId: string }) => `/reference/api/${operation.operationId}.html`;

/** What each operation page measured, by operation id: filled as the crawl passes the page. */
const operationPages = new Map<string, OperationPage>();
/** The CLI's and the operator's reference pages, measured as the crawl opens them. */
const referencePages = new Map<string, ReferencePageWidths>();
const isReferencePage = (path: string) => path.startsWith('/reference/cli') || path === '/reference/operator.html';

/**
 * An open operation page, checked at the window's width: its title and path, no table scrolling sideways, and its
 * three request samples (curl, the SDK, the CLI) shown at once, each fully in its pane.
 */
async function measureOperationPage(page: Page, operation: (typeof operations)[number]): Promise<OperationPage> {
  const { operationId } = operation;
  const problems: string[] = [];
  const title = (await page.locator('h1').textContent()) ?? '';
  if (!title.includes(operation.summary)) problems.push(`${operationId}: the title "${title}" lacks its summary`);
  const line = (await page.locator('.operation-line').textContent()) ?? '';
  if (!line.includes(operation.path)) problems.push(`${operationId}: "${line}" does not show ${operation.path}`);
  const widths = await pageWidths(page);
  if (widths.document > VIEWPORT.width)
    problems.push(`${operationId}: the page is ${widths.document} px wide, wider than the window`);
  for (const table of widths.tables)
    if (table.scrollWidth > table.clientWidth)
      problems.push(
        `${operationId}: a table under "${table.heading}" scrolls (${table.scrollWidth} > ${table.clientWidth} px)`,
      );
  const labels = widths.samples.map((sample) => sample.label);
  if (labels.join('|') !== 'curl|SDK (TypeScript)|CLI')
    problems.push(`${operationId}: the request samples are ${JSON.stringify(labels)}, not curl, SDK, CLI`);
  for (const [i, sample] of widths.samples.entries()) {
    if (!(await page.locator('.request-samples .request-sample').nth(i).isVisible()) || sample.height < 40)
      problems.push(`${operationId}: the ${sample.label} sample is not visible`);
    if (sample.codeScrollWidth > sample.codeClientWidth)
      problems.push(
        `${operationId}: the ${sample.label} sample scrolls (${sample.codeScrollWidth} > ${sample.codeClientWidth} px)`,
      );
  }
  return { widths, problems };
}

let browser: Browser;
let context: BrowserContext;
let site: { origin: string; server: Server };
let api: RunningServer;

/** What went wrong while pages loaded (console errors, failed requests, requests that left localhost), by path. */
interface Watch {
  problems: string[];
  requests: string[];
}

/**
 * One tab that visits pages one after another: each is loaded until its `load` event, not until the network has
 * been idle for half a second (Playwright's `networkidle`, which costs that half second on every page), and the
 * tab keeps watching while it moves on, so a request a page makes late is still seen, under that page's path.
 * `settle()` waits for the network to go idle once, after the last page; `close()` closes the tab, cutting short
 * what the last page was still fetching (its links, prefetched when idle).
 */
async function tab(): Promise<{
  page: Page;
  seen: Watch;
  visit: (path: string) => Promise<void>;
  settle: () => Promise<void>;
  close: () => Promise<void>;
}> {
  const page = await context.newPage();
  const seen: Watch = { problems: [], requests: [] };
  let at = '';
  const startedAt = new Map<Request, string>();
  const problem = (text: string, path = at) => seen.problems.push(`${path}: ${text}`);
  page.on('console', (message) => {
    if (message.type() === 'error') problem(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problem(`page error: ${error.message}`));
  page.on('request', (request) => {
    startedAt.set(request, at);
    seen.requests.push(request.url());
    const url = new URL(request.url());
    const local = ['127.0.0.1', 'localhost'].includes(url.hostname) || ['data:', 'blob:'].includes(url.protocol);
    if (!local) problem(`request leaving localhost: ${request.url()}`);
  });
  page.on('requestfailed', (request) => {
    const path = startedAt.get(request) ?? at;
    const errorText = request.failure()?.errorText ?? '';
    // Cut short, not failed: the tab moved on or closed, or Chromium dropped a prefetch of a linked page's chunk
    // (which the page starts when idle). A file that is missing answers 404, and a request that leaves localhost is
    // caught as it starts, so neither hides here.
    if (errorText === 'net::ERR_ABORTED') return;
    problem(`failed request: ${request.url()} (${errorText})`, path);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) problem(`HTTP ${response.status()}: ${response.url()}`);
  });
  return {
    page,
    seen,
    visit: async (path) => {
      at = path;
      await page.goto(new URL(path, site.origin).href, { waitUntil: 'load' });
      // Widths are measured in the site's own font, which may still be arriving at `load`.
      await page.evaluate('document.fonts.ready.then(() => undefined)');
    },
    settle: () => page.waitForLoadState('networkidle'),
    close: async () => {
      at = '(closed)';
      await page.close();
    },
  };
}

/** Opens one page in a tab of its own and waits until it has settled (no network for 500 ms). */
async function open(path: string): Promise<{ page: Page; seen: Watch; close: () => Promise<void> }> {
  const { page, seen, visit, settle, close } = await tab();
  await visit(path);
  await settle();
  return { page, seen, close };
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
    context = await browser.newContext({ viewport: VIEWPORT });
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
    const { page, seen, visit, settle, close } = await tab();
    while (queue.length > 0) {
      const path = queue.shift() ?? '/';
      await visit(path);
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
      // An operation page is measured while it is open (the next test checks it): one load of each page.
      const operation = operations.find((candidate) => operationPath(candidate) === path);
      if (operation) operationPages.set(operation.operationId, await measureOperationPage(page, operation));
      if (isReferencePage(path)) referencePages.set(path, await referencePageWidths(page, path, VIEWPORT.width));
    }
    await settle();
    await close();
    expect([...problems, ...seen.problems]).toEqual([]);
    expect(all.filter((page) => !reached.has(page))).toEqual([]);
    expect(all.length).toBeGreaterThan(25);
  }, 300_000); // every page of the site, one after another: under a second each alone, over 90 pages

  it('lists every operation of the contract in the API reference, each with its own page', async () => {
    const { page, seen, close } = await open('/reference/api/');
    for (const operation of operations) {
      const link = page.locator(`.vp-doc a[href*="/reference/api/${operation.operationId}"]`);
      await expect.poll(() => link.count(), { message: operation.operationId }).toBeGreaterThan(0);
      const sidebar = page.locator(`.VPSidebar a[href*="/reference/api/${operation.operationId}"]`);
      expect(await sidebar.count(), `sidebar: ${operation.operationId}`).toBeGreaterThan(0);
    }
    await close();
    expect(seen.problems).toEqual([]);
  });

  it('fits every operation page in a 1280-pixel window: its three request samples in view, no table scrolling sideways', async () => {
    // Measured as the crawl above passed each page; an operation page it did not reach (this test run alone) is
    // loaded here.
    const missing = operations.filter((operation) => !operationPages.has(operation.operationId));
    const problems: string[] = [];
    if (missing.length > 0) {
      const { page, seen, visit, settle, close } = await tab();
      for (const operation of missing) {
        await visit(operationPath(operation));
        operationPages.set(operation.operationId, await measureOperationPage(page, operation));
      }
      await settle();
      await close();
      problems.push(...seen.problems);
    }
    const measured = operations.map((operation) => operationPages.get(operation.operationId) as OperationPage);
    problems.push(...measured.flatMap((page) => page.problems));
    const tables = measured.flatMap((page) => page.widths.tables);
    const samples = measured.flatMap((page) => page.widths.samples);
    console.info(
      `At ${VIEWPORT.width} px, over ${measured.length} operation pages: pages ${Math.max(...measured.map((page) => page.widths.document))} px wide at most; ` +
        `${tables.length} tables, ${Math.min(...tables.map((t) => t.clientWidth))}–${Math.max(...tables.map((t) => t.clientWidth))} px wide, widest content ${Math.max(...tables.map((t) => t.scrollWidth))} px; ` +
        `${samples.length} samples in code boxes ${Math.min(...samples.map((p) => p.codeClientWidth))} px wide, the widest line ${Math.ceil(Math.max(...samples.map((p) => p.lineWidth)))} px.`,
    );
    expect(problems).toEqual([]);
  }, 180_000);

  it('fits the CLI reference (its index and a page per command) and the operator reference in a 1280-pixel window', async () => {
    const cliPages = [
      '/reference/cli.html',
      ...subcommands(helpReader(CLI_BIN)([])).map((name) => `/reference/cli/${name}.html`),
    ];
    expect(builtPages().filter((path) => path.startsWith('/reference/cli'))).toEqual(cliPages.sort());
    const paths = [...cliPages, '/reference/operator.html'];
    const problems: string[] = [];
    // Measured while the crawl above had each open (one load of each page); any it did not reach, now.
    const { page, seen, visit, settle, close } = await tab();
    for (const path of paths.filter((path) => !referencePages.has(path))) {
      await visit(path);
      referencePages.set(path, await referencePageWidths(page, path, VIEWPORT.width));
    }
    const measured = paths.map((path) => referencePages.get(path) as ReferencePageWidths);
    problems.push(...measured.flatMap((widths) => widths.problems));
    await settle();
    await close();
    console.info(
      `At ${VIEWPORT.width} px, over ${measured.length} CLI and operator reference pages: pages ${Math.max(...measured.map((m) => m.document))} px wide at most; ` +
        `${measured.reduce((sum, m) => sum + m.boxes, 0)} code blocks, the widest needing ${Math.max(...measured.map((m) => m.widest))} px of at least ${Math.min(...measured.map((m) => m.room))} px.`,
    );
    expect([...problems, ...seen.problems]).toEqual([]);
  }, 120_000);

  it("searches the site locally, a concept's own guide first", async () => {
    const { page, seen, close } = await open('/');
    await page.locator('.VPNavBarSearch button').click();
    await page.locator('.VPLocalSearchBox input').fill('Retry-After');
    const results = page.locator('.VPLocalSearchBox .result');
    // The index loads on the first search: it has grown with the reference pages, so it may take a few seconds.
    await expect.poll(() => results.count(), { timeout: 10_000 }).toBeGreaterThan(0);
    await page.locator('.VPLocalSearchBox input').fill('idempotency key');
    await expect
      .poll(() => results.first().getAttribute('href'), { timeout: 10_000 })
      .toMatch(/^\/guide\/idempotency\.html#/);
    expect(seen.problems).toEqual([]);
    await close();
  });

  it('saves screenshots of the home page, the quickstart and an operation', async () => {
    for (const [name, path] of [
      ['home', '/'],
      ['quickstart', '/guide/quickstart.html'],
    ] as const) {
      const { page, seen, close } = await open(path);
      await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
      expect(seen.problems).toEqual([]);
      await close();
    }
    // An operation as a reader first sees it, at 1280 px: from the title down to the end of the query parameters,
    // so the picture holds the three request samples and the whole parameter table.
    const { page, seen, close } = await open('/reference/api/listItems.html');
    const table = page.locator('h3:has-text("Query parameters") + .api-fields table');
    const box = await table.boundingBox(); // the page is at its top: the same as page coordinates
    expect(box).not.toBeNull();
    const clip = { x: 0, y: 0, width: VIEWPORT.width, height: Math.ceil((box?.y ?? 0) + (box?.height ?? 0)) + 24 };
    for (const pane of await page.locator('.request-samples .request-sample').all()) {
      const box = await pane.boundingBox();
      expect(box && box.y >= 0 && box.y + box.height <= clip.height, 'a sample outside the screenshot').toBe(true);
    }
    // A window as tall as the picture, so that the sidebar runs down it too; as wide, so the layout is the measured one.
    await page.setViewportSize({ width: VIEWPORT.width, height: clip.height });
    await page.screenshot({ path: join(ARTIFACTS, 'operation-listItems.png'), clip });
    console.info(`operation-listItems.png: ${clip.width}x${clip.height} px, the samples and the query parameters`);
    expect(seen.problems).toEqual([]);
    await close();
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
