import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The tarball `npm pack` makes, installed with npm alone into an empty project outside the monorepo, used from
// `import`, from `require`, and type-checked by a TypeScript consumer, with no @coinventory/contract anywhere.
const root = fileURLToPath(new URL('..', import.meta.url));
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin/tsc');
const KEY = 'cvk_live_packedTestKeypackedTestKeypacked00';

let project: string;
let api: Server;
let baseUrl: string;

/** Stands in for the API: GET /v1/me with the right key answers; anything else is the API's 404. */
function startApi(): Promise<Server> {
  const server = createServer((request, response) => {
    const ok =
      request.method === 'GET' && request.url === '/v1/me' && request.headers.authorization === `Bearer ${KEY}`;
    response.writeHead(ok ? 200 : 404, { 'Content-Type': 'application/json', 'X-Request-Id': 'req_packed' });
    response.end(
      JSON.stringify(
        ok
          ? {
              organization: { id: 'o', name: 'Liberty Coin', slug: 'liberty-coin' },
              apiKey: { id: 'k', name: null, expiresAt: null, scopes: ['read'] },
              rateLimit: { maxRequests: 120, windowSeconds: 60 },
            }
          : { code: 'NOT_FOUND', message: 'Not found' },
      ),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/index.js'))) throw new Error('dist/ is missing: run `pnpm run build` first');
  api = await startApi();
  baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;
  project = mkdtempSync(join(tmpdir(), 'coinventory-sdk-consumer-'));
  const npmEnv = { ...process.env, npm_config_cache: join(project, '.npm-cache'), npm_config_update_notifier: 'false' };
  const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', project], { cwd: root, env: npmEnv });
  const [{ filename }] = JSON.parse(stdout) as [{ filename: string }];
  await run(npm, ['init', '-y'], { cwd: project, env: npmEnv });
  // No dependencies, so nothing to download: --offline proves it.
  await run(npm, ['install', join(project, filename), '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: project,
    env: npmEnv,
  });
});

afterAll(async () => {
  await new Promise((resolve) => api?.close(resolve));
  if (project) rmSync(project, { recursive: true, force: true });
});

/** Runs `node file` in the consumer project, configured through the environment only. */
async function node(file: string, source: string): Promise<unknown> {
  writeFileSync(join(project, file), source);
  const { stdout } = await run(process.execPath, [file], {
    cwd: project,
    env: { PATH: process.env.PATH ?? '', COINVENTORY_API_KEY: KEY, COINVENTORY_BASE_URL: baseUrl },
  });
  return JSON.parse(stdout);
}

describe('the packed package, installed with npm into an empty project', () => {
  it('installs alone: no contract, no zod, nothing else', () => {
    expect(readdirSync(join(project, 'node_modules')).filter((d) => !d.startsWith('.'))).toEqual(['@coinventory']);
    expect(readdirSync(join(project, 'node_modules/@coinventory'))).toEqual(['sdk']);
    expect(readdirSync(join(project, 'node_modules/@coinventory/sdk')).sort()).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'dist',
      'package.json',
    ]);
  });

  it('works from import (ESM)', async () => {
    const result = await node(
      'index.mjs',
      `import Coinventory, { Coinventory as Named, NotFoundError, APIError } from '@coinventory/sdk';
const client = new Coinventory();
const me = await client.me();
const error = await client.items.get('00000000-0000-4000-8000-000000000000').catch((e) => e);
console.log(JSON.stringify({
  slug: me.organization.slug,
  sameClass: Coinventory === Named,
  notFound: error instanceof NotFoundError && error instanceof APIError,
  status: error.status,
  requestId: error.requestId,
}));
`,
    );
    expect(result).toEqual({
      slug: 'liberty-coin',
      sameClass: true,
      notFound: true,
      status: 404,
      requestId: 'req_packed',
    });
  });

  it('works from require (CJS)', async () => {
    const result = await node(
      'index.cjs',
      `const sdk = require('@coinventory/sdk');
const { Coinventory, NotFoundError } = sdk;
const client = new Coinventory({ maxRetries: 0 });
(async () => {
  const me = await client.me();
  const error = await client.invoices.get('nope').catch((e) => e);
  console.log(JSON.stringify({
    slug: me.organization.slug,
    defaultIsClass: sdk.default === Coinventory,
    notFound: error instanceof NotFoundError,
    name: error.name,
  }));
})();
`,
    );
    expect(result).toEqual({ slug: 'liberty-coin', defaultIsClass: true, notFound: true, name: 'NotFoundError' });
  });

  it('type-checks a TypeScript consumer (ESM and CJS), refusing invalid calls', async () => {
    const body = (importLine: string) => `${importLine}

async function main(): Promise<void> {
  const client = new Coinventory({ apiKey: 'cvk_live_x', baseUrl: 'https://api.example/v1', maxRetries: 1 });
  const me: Me = await client.me();
  const scopes: ('read' | 'write')[] = me.apiKey.scopes;
  const status: ItemStatus = 'in_stock';
  for await (const item of client.items.list({ status, sort: 'value_desc', limit: 100 })) {
    const item2: Item = item;
    const available: number = item2.quantity.available;
    const grade: string | null = item.grading.grade;
    void available; void grade;
  }
  const page = await client.invoices.list({ status: 'overdue', sort: 'oldest' });
  if (page.hasNextPage()) await page.nextPage();
  const { items, truncated } = await client.consignments.list({ status: 'settled' }).collectAll({ max: 500 });
  const created = await client.items.create({ sku: 'S-1', title: 'Coin', attributes: { year: 1921 } });
  await client.items.update(created.id, { quantity: 0, description: null }, { timeoutMs: 5_000 });
  await client.items.valuations(created.id, { limit: 5 });
  await client.items.delete(created.id, { signal: AbortSignal.timeout(1_000) });
  const fetched: Item = await client.request('items.get', { params: { id: created.id } });
  const { data: read, etag } = await client.items.get(created.id).withResponse();
  const again = await client.items.get(read.id, { ifNoneMatch: etag });
  if (again !== NOT_MODIFIED) void again.sku;
  await client.items.update(read.id, { quantity: 1 }, { ifMatch: etag, idempotencyKey: 'k-1' });
  const feed = client.changes.all({ after: (await client.changes.cursor()).cursor, types: ['item.deleted'] });
  for await (const change of feed) {
    if (change.type === 'item.created' || change.type === 'item.updated') void change.data.sku;
    else if (change.type === 'valuation.created') void change.data.itemId;
    // @ts-expect-error: not every change that is not a deletion is an item's (a valuation, a consignment, an invoice)
    else if (change.type !== 'item.deleted') void change.data.sku;
  }
  const cursor: string | undefined = feed.cursor;
  // @ts-expect-error: without ifNoneMatch the result is never NOT_MODIFIED, so it is an Item
  const notAnItem: typeof NOT_MODIFIED = await client.items.get(read.id);
  // @ts-expect-error: items.get answers an item, not the caller
  const notMe: Me = await client.request('items.get', { params: { id: created.id } });
  try {
    await client.items.get('x');
  } catch (error) {
    if (error instanceof RateLimitError) console.log(error.retryAfter);
    else if (error instanceof APIError) console.log(error.status, error.code, error.issues, error.requestId);
  }
  // @ts-expect-error: not an item status
  client.items.list({ status: 'lost' });
  // @ts-expect-error: invoices cannot be sorted by value
  client.invoices.list({ sort: 'value_desc' });
  // @ts-expect-error: title is required
  client.items.create({ sku: 'S-2' });
  // @ts-expect-error: not an item field
  client.items.update('id', { colour: 'red' });
  void scopes; void items; void truncated; void fetched; void notMe; void cursor; void notAnItem;
}
void main;
`;
    writeFileSync(
      join(project, 'consumer.mts'),
      body(
        "import Coinventory, { APIError, NOT_MODIFIED, RateLimitError, type Item, type ItemStatus, type Me } from '@coinventory/sdk';",
      ),
    );
    writeFileSync(
      join(project, 'consumer.cts'),
      body(
        "import { Coinventory, APIError, NOT_MODIFIED, RateLimitError, type Item, type ItemStatus, type Me } from '@coinventory/sdk';",
      ),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          lib: ['ES2023', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
          // The SDK's own declarations are checked too.
          skipLibCheck: false,
        },
        files: ['consumer.mts', 'consumer.cts'],
      }),
    );
    const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project }).catch(
      (error: { stdout: string; stderr: string }) => error,
    );
    expect(`${result.stdout}${result.stderr}`).toBe('');
  });
});
