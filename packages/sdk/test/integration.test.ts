import { randomUUID } from 'node:crypto';
import { ERRORS, ITEM_STATUSES, RATE_LIMIT, TEST_MODE } from '@coinventory/contract/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  Coinventory,
  ConflictError,
  type Item,
  NOT_MODIFIED,
  NotFoundError,
  PermissionDeniedError,
} from '../src/index.js';
import { createKey, type RunningServer, startServer, stopServer, thrown } from './support/server.js';

// The SDK against the real server binary on loopback, on a fresh embedded database with the demo organization.
// Every SDK method is called; the suite stays well under the key's rate limit (120 requests a minute).
let server: RunningServer | undefined;
let client: Coinventory;
let readOnly: Coinventory;

beforeAll(async () => {
  server = await startServer();
  client = new Coinventory({ apiKey: server.apiKey, baseUrl: server.baseUrl, maxRetries: 0 });
  readOnly = new Coinventory({
    apiKey: await createKey(server, 'sdk read-only', 'read'),
    baseUrl: server.baseUrl,
    maxRetries: 0,
  });
});

afterAll(async () => {
  await stopServer(server);
});

describe('me()', () => {
  it('names the demo organization, the key and the rate limit', async () => {
    const me = await client.me();
    expect(me.organization.slug).toBe('liberty-coin');
    expect(me.apiKey.scopes).toEqual(['read', 'write']);
    expect(me.rateLimit).toEqual(RATE_LIMIT);
    expect((await readOnly.me()).apiKey.scopes).toEqual(['read']);
  });
});

describe('items', () => {
  it('list() gives the first page, 20 by default', async () => {
    const page = await client.items.list();
    expect(page).toMatchObject({ page: 1, limit: 20, hasMore: true });
    expect(page.items).toHaveLength(20);
  });

  it('iterating walks every page: the same items as one large page, none twice', async () => {
    const all = await client.items.list({ limit: 100, sort: 'sku' });
    expect(all.hasMore).toBe(false);
    const walked: Item[] = [];
    for await (const item of client.items.list({ limit: 15, sort: 'sku' })) walked.push(item);
    expect(walked.map((i) => i.id)).toEqual(all.items.map((i) => i.id));
    expect(new Set(walked.map((i) => i.id)).size).toBe(walked.length);
    const skus = walked.map((i) => i.sku);
    expect(skus).toEqual([...skus].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1)));
  });

  it('filters by status; the statuses partition the items', async () => {
    let total = 0;
    for (const status of ITEM_STATUSES) {
      const { items, truncated } = await client.items.list({ status, limit: 100 }).collectAll({ max: 500 });
      expect(truncated).toBe(false);
      for (const item of items) {
        if (status === 'at_auction') expect(item.isAtAuction).toBe(true);
        if (status === 'in_stock') expect(item.quantity.available > 0 && !item.isAtAuction).toBe(true);
      }
      total += items.length;
    }
    const all = await client.items.list({ limit: 100 }).collectAll({ max: 500 });
    expect(total).toBe(all.items.length);
  });

  it('collectAll({ max }) stops at max and reports truncation', async () => {
    const { items, truncated } = await client.items.list({ limit: 7 }).collectAll({ max: 10 });
    expect(items).toHaveLength(10);
    expect(truncated).toBe(true);
  });

  const sku = `SDK-${randomUUID()}`;
  let created: Item;

  it('create() adds an item; get() reads it back', async () => {
    created = await client.items.create({
      sku,
      title: '1921 Morgan Dollar',
      quantity: 2,
      valueInCents: 4_500,
      gradingService: 'PCGS',
      grade: 'MS63',
      attributes: { year: 1921, toned: false },
    });
    expect(created).toMatchObject({
      sku,
      title: '1921 Morgan Dollar',
      quantity: { available: 2, sold: 0, reserved: 0 },
      valueInCents: 4_500,
      grading: { service: 'PCGS', grade: 'MS63' },
      attributes: { year: 1921, toned: false },
      updatedAt: null,
    });
    expect(await client.items.get(created.id)).toEqual(created);
    const bySku = await client.items.list({ sku });
    expect(bySku.items.map((i) => i.id)).toEqual([created.id]);
  });

  it('create() with a SKU in use throws ConflictError (409)', async () => {
    const error = await thrown(client.items.create({ sku, title: 'Duplicate' }));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ status: 409, code: 'CONFLICT', requestId: expect.stringMatching(/\S/) });
  });

  it('update() changes only the fields sent; null clears', async () => {
    const updated = await client.items.update(created.id, { quantity: 5, grade: null });
    expect(updated).toMatchObject({ id: created.id, quantity: { available: 5 }, grading: { grade: null } });
    expect(updated.title).toBe(created.title);
    expect(updated.updatedAt).not.toBeNull();
  });

  it('valuations() gives { items }: none for a new item, newest first with comps for a demo item', async () => {
    expect(await client.items.valuations(created.id)).toEqual({ items: [] });
    let found = false;
    for await (const item of client.items.list({ limit: 50 })) {
      const { items } = await client.items.valuations(item.id, { limit: 50 });
      if (items.length === 0) continue;
      expect(items.every((v) => v.itemId === item.id && Array.isArray(v.comps))).toBe(true);
      const created = items.map((v) => v.createdAt);
      expect(created).toEqual([...created].sort().reverse());
      found = true;
      break;
    }
    expect(found).toBe(true);
  });

  it('bad input throws BadRequestError with the issues', async () => {
    const error = await thrown(client.items.create({ sku: `${sku}-2`, title: '' }));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'BAD_REQUEST', apiMessage: ERRORS.BAD_REQUEST.message });
    expect((error as BadRequestError).issues?.[0]?.message).toMatch(/title/);
    const notUuid = await thrown(client.items.get('not-a-uuid'));
    expect(notUuid).toBeInstanceOf(BadRequestError);
    expect((notUuid as BadRequestError).issues).toEqual([{ message: expect.stringMatching(/^path\.id/) }]);
  });

  it('an unknown id throws NotFoundError carrying the request id', async () => {
    const error = await thrown(client.items.get(randomUUID(), { headers: { 'X-Request-Id': 'sdk-it-404' } }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', requestId: 'sdk-it-404' });
  });

  it('a read-only key throws PermissionDeniedError (403) on writes', async () => {
    const error = await thrown(readOnly.items.update(created.id, { quantity: 1 }));
    expect(error).toBeInstanceOf(PermissionDeniedError);
    expect(error).toMatchObject({ status: 403, code: 'FORBIDDEN', apiMessage: ERRORS.FORBIDDEN.message });
    expect((error as PermissionDeniedError).message).toMatch(
      /^Insufficient access\. This request needs the "write" scope/,
    );
  });

  it('getBySku() finds the item with exactly this SKU; another case or a part is not found', async () => {
    const sku = `BySku-${randomUUID().slice(0, 8)}`;
    const item = await client.items.create({ sku, title: 'Found by SKU' });
    await client.items.create({ sku: `${sku}-2`, title: 'Starts with the same SKU' });
    expect(await client.items.getBySku(sku)).toEqual(await client.items.get(item.id));
    for (const other of [sku.toUpperCase(), sku.toLowerCase(), sku.slice(0, -1)]) {
      const error = await thrown(client.items.getBySku(other, { headers: { 'X-Request-Id': 'sdk-it-sku' } }));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error).toMatchObject({
        status: 404,
        code: 'NOT_FOUND',
        apiMessage: ERRORS.NOT_FOUND.message,
        requestId: 'sdk-it-sku',
        missing: `item with SKU ${JSON.stringify(other)}`,
        hint: 'SKUs match exactly, case included.',
        message: `Not found: item with SKU ${JSON.stringify(other)}. SKUs match exactly, case included.`,
      });
    }
  });

  it('delete() removes the item; after it, get and delete throw NotFoundError', async () => {
    expect(await client.items.delete(created.id)).toEqual({ id: created.id, deleted: true });
    expect(await thrown(client.items.get(created.id))).toBeInstanceOf(NotFoundError);
    expect(await thrown(client.items.delete(created.id))).toBeInstanceOf(NotFoundError);
  });
});

describe('consignments', () => {
  it('list(), iteration and get()', async () => {
    const page = await client.consignments.list({ limit: 3 });
    expect(page.items.length).toBeGreaterThan(0);
    const all = [];
    for await (const consignment of client.consignments.list({ limit: 3 })) all.push(consignment);
    expect(all.length).toBeGreaterThan(page.items.length);
    const first = all[0] ?? expect.fail('no consignments');
    expect(await client.consignments.get(first.id)).toEqual(first);
    const settled = await client.consignments.list({ status: 'settled' });
    expect(settled.items.every((c) => c.status === 'settled')).toBe(true);
    expect(await thrown(client.consignments.get(randomUUID()))).toBeInstanceOf(NotFoundError);
  });
});

describe('invoices', () => {
  it('list(), iteration, sort and get()', async () => {
    const newest = await client.invoices.list({ limit: 100 });
    const oldest = await client.invoices.list({ limit: 100, sort: 'oldest' });
    expect(oldest.items.map((i) => i.id)).toEqual(newest.items.map((i) => i.id).reverse());
    const walked = [];
    for await (const invoice of client.invoices.list({ limit: 5 })) walked.push(invoice.id);
    expect(walked).toEqual(newest.items.map((i) => i.id));
    const first = newest.items[0] ?? expect.fail('no invoices');
    expect(await client.invoices.get(first.id)).toEqual(first);
    expect(await thrown(client.invoices.get(randomUUID()))).toBeInstanceOf(NotFoundError);
  });
});

describe('authentication', () => {
  it('an unknown key throws AuthenticationError (401)', async () => {
    const stranger = new Coinventory({ apiKey: 'cvk_live_notARealKey', baseUrl: server?.baseUrl });
    const error = await thrown(stranger.me());
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED', apiMessage: ERRORS.UNAUTHORIZED.message });
    expect((error as AuthenticationError).message).toMatch(/^Authorization not provided\. The API refused the key /);
  });
});

describe('test mode', () => {
  it("a test key's client says test, reaches the sandbox, and each answer says so; a live key's says neither", async () => {
    const test = new Coinventory({
      apiKey: await createKey(server ?? expect.fail('no server'), 'sdk test mode', 'read,write', 'test'),
      baseUrl: server?.baseUrl,
      maxRetries: 0,
    });
    expect([test.mode, client.mode]).toEqual(['test', 'live']);
    const [inTest, inLive] = await Promise.all([test.me().withResponse(), client.me().withResponse()]);
    expect(inTest.response.headers.get(TEST_MODE.header)).toBe(TEST_MODE.value);
    expect(inLive.response.headers.get(TEST_MODE.header)).toBeNull();
    // The sandbox is an organization of its own, named as its workspace.
    expect(inTest.data.organization).toMatchObject({ slug: inLive.data.organization.slug });
    expect(inTest.data.organization.id).not.toBe(inLive.data.organization.id);
    // A new sandbox is empty but for its default warehouse; the live items are not reachable from it.
    const [live] = (await client.items.list({ limit: 1 })).items;
    expect((await test.items.list()).items).toEqual([]);
    expect(await thrown(test.items.get(live?.id ?? expect.fail('no live item')))).toBeInstanceOf(NotFoundError);
  });
});

describe('rawRequest()', () => {
  it('answers what the typed methods answer, with the status and headers', async () => {
    const { data, response, etag } = await client
      .rawRequest('get', '/items', { query: { status: 'in_stock', sort: 'sku', limit: 3 } })
      .withResponse();
    expect(response.status).toBe(200);
    const page = await client.items.list({ status: 'in_stock', sort: 'sku', limit: 3 });
    expect(data).toEqual({ items: page.items, page: 1, limit: 3, hasMore: page.hasMore });
    expect(await client.rawRequest('GET', '/items?status=in_stock', { query: { sort: 'sku', limit: 3 } })).toEqual(
      data,
    );
    expect(etag).toBeDefined();
    expect(
      await client.rawRequest('GET', '/items', {
        query: { status: 'in_stock', sort: 'sku', limit: 3 },
        ifNoneMatch: etag,
      }),
    ).toBe(NOT_MODIFIED);
  });

  it('writes with a JSON body, once per idempotency key', async () => {
    const sku = `RAW-${randomUUID().slice(0, 8)}`;
    const body = { sku, title: 'Raw request', quantity: 1, valueInCents: 1200 };
    const created = (await client.rawRequest('POST', '/items', { body, idempotencyKey: sku })) as Item;
    expect(created).toMatchObject({ sku, title: 'Raw request', valueInCents: 1200 });
    expect(await client.rawRequest('POST', '/items', { body, idempotencyKey: sku })).toEqual(created);
    expect(await client.items.get(created.id)).toEqual(created);
    await client.rawRequest('DELETE', `/items/${created.id}`);
    expect(await thrown(client.rawRequest('GET', `/items/${created.id}`))).toBeInstanceOf(NotFoundError);
  });

  it('gives a body that is not JSON as its text, and refuses paths that are not relative', async () => {
    const csv = await client.rawRequest('GET', '/exports/items', {
      query: { status: 'at_auction' },
      headers: { Accept: 'text/csv' },
    });
    expect(typeof csv).toBe('string');
    expect(String(csv).split('\r\n')[0]).toMatch(/^id,sku,title,/);
    expect(await thrown(client.rawRequest('POST', '/items', { body: { sku: '' } }))).toBeInstanceOf(BadRequestError);
    await expect(client.rawRequest('GET', 'https://elsewhere.example/v1/items')).rejects.toThrowError(
      /relative to the base URL/,
    );
    await expect(client.rawRequest('G T', '/items')).rejects.toThrowError(/Invalid HTTP method/);
  });
});
