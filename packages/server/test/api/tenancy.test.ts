import { randomUUID } from 'node:crypto';
import { type Consignment, contractRoutes, type Invoice, type Item } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../src/db/types.js';
import { issueApiKey } from '../../src/modules/access/index.js';
import { ERROR_BODY } from '../support/errors.js';
import { client } from '../support/http.js';
import { createTestOrganization, createTestSandbox, type TestOrganization } from '../support/organization.js';
import {
  readRoutes,
  requestFor,
  routesTakingId,
  rowCounts,
  type SeededResources,
  seedResources,
  send,
} from '../support/routes.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface List<T> {
  items: T[];
}

/**
 * The pairs of organizations this suite keeps apart: A's key must never reach B's rows. Test mode's sandbox is an
 * organization of its own, so a workspace's live and test keys are held to the same guarantees as two workspaces.
 */
const PAIRINGS: ReadonlyArray<{
  name: string;
  make: (sql: Sql) => Promise<{ a: TestOrganization; b: TestOrganization }>;
}> = [
  {
    name: 'two workspaces',
    make: async (sql) => ({ a: await createTestOrganization(sql), b: await createTestOrganization(sql) }),
  },
  {
    name: "a workspace's live key and its sandbox",
    make: async (sql) => {
      const a = await createTestOrganization(sql);
      return { a, b: await createTestSandbox(sql, a) };
    },
  },
  {
    name: "a workspace's test key and its live data",
    make: async (sql) => {
      const b = await createTestOrganization(sql);
      return { a: await createTestSandbox(sql, b), b };
    },
  },
];

describe.each(PAIRINGS)('tenancy: $name', (pairing) => {
  let server: TestServer;
  let a: TestOrganization;
  let b: TestOrganization;
  let aData: SeededResources;
  let bData: SeededResources;

  /** What B sees through every GET route, and the rows B holds. */
  async function snapshotOfB() {
    const responses: Record<string, { status: number; body: unknown }> = {};
    for (const entry of readRoutes) {
      const response = await send(server.baseUrl, requestFor(entry, bData), { key: b.key });
      responses[entry.key] = { status: response.status, body: response.body };
    }
    return { responses, counts: await rowCounts(server.database.sql, b.organizationId) };
  }

  let bBefore: Awaited<ReturnType<typeof snapshotOfB>>;

  beforeAll(async () => {
    // Not about the rate limit: each key here calls every route several times, more than 120 a minute.
    server = await startTestServer({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
    ({ a, b } = await pairing.make(server.database.sql));
    aData = await seedResources(server.database.sql, server.baseUrl, a, 'ALPHA');
    bData = await seedResources(server.database.sql, server.baseUrl, b, 'BRAVO');
    bBefore = await snapshotOfB();
  });
  afterAll(() => server.close());

  describe('the routes that take an id', () => {
    it('are exactly the ones this file was written for (a new one must be reviewed here)', () => {
      expect(routesTakingId.map((r) => `${r.route.method} ${r.route.path}`).sort()).toEqual(
        [
          'DELETE /items/:id',
          'GET /categories/:id',
          'GET /warehouses/:id',
          'GET /consignments/:id',
          'GET /invoices/:id',
          'GET /items/:id',
          'GET /items/:id/valuations',
          'PATCH /items/:id',
          'POST /items/:id/adjustments',
          'GET /items/:id/movements',
          'POST /items/:id/reservations',
          'GET /reservations/:id',
          'POST /reservations/:id/commit',
          'POST /reservations/:id/release',
          'GET /webhook-endpoints/:id',
          'PATCH /webhook-endpoints/:id',
          'DELETE /webhook-endpoints/:id',
          'POST /webhook-endpoints/:id/rotate-secret',
          'GET /webhook-endpoints/:id/deliveries',
          'POST /webhook-endpoints/:id/replay',
          'POST /webhook-endpoints/:id/test',
        ].sort(),
      );
    });

    it("B's snapshot is a real one: every GET route answers B with 200 and B's data", () => {
      for (const entry of readRoutes) expect(bBefore.responses[entry.key]?.status, entry.key).toBe(200);
      expect(bBefore.responses['items.get']?.body).toMatchObject({ id: bData.itemId, sku: bData.sku });
      expect(bBefore.responses['items.valuations']?.body).toMatchObject({ items: [{ id: bData.valuationId }] });
      expect(bBefore.responses['consignments.get']?.body).toMatchObject({ id: bData.consignmentId, numItems: 1 });
      expect(bBefore.responses['invoices.get']?.body).toMatchObject({ id: bData.invoiceId, paidInCents: 5_000 });
      expect(bBefore.counts).toMatchObject({ items: 1, valuations: 1, consignments: 1, invoices: 1 });
    });
  });

  describe("A's key on B's ids", () => {
    it.each(routesTakingId.map((entry) => [entry.key, entry] as const))(
      '%s answers 404 Not found',
      async (_key, entry) => {
        const response = await send(server.baseUrl, requestFor(entry, bData), { key: a.key });
        expect(response.status).toBe(404);
        expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
      },
    );

    it('PATCH with every kind of field, including a quantity and a SKU, is 404 and changes nothing', async () => {
      const response = await client(server.baseUrl, a.key).patch(`/items/${bData.itemId}`, {
        body: {
          sku: 'HIJACKED',
          title: 'Hijacked',
          quantity: 0,
          valueInCents: 1,
          description: null,
          attributes: {},
          locationDetails: 'elsewhere',
        },
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    });

    it('PATCH moving B\u2019s item into A\u2019s warehouse is 404 (never a 400 that reveals the item)', async () => {
      const response = await client(server.baseUrl, a.key).patch(`/items/${bData.itemId}`, {
        body: { warehouseId: a.defaultWarehouseId, zoneId: a.defaultZoneId },
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    });

    it('DELETE twice is 404 both times', async () => {
      for (let attempt = 0; attempt < 2; attempt++) {
        const response = await client(server.baseUrl, a.key).delete(`/items/${bData.itemId}`);
        expect(response.status).toBe(404);
        expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
      }
    });

    it('answers byte-for-byte like an id that exists nowhere', async () => {
      for (const entry of routesTakingId) {
        const foreign = await send(server.baseUrl, requestFor(entry, bData), { key: a.key });
        const unknown = await send(server.baseUrl, requestFor(entry, randomUUID()), { key: a.key });
        expect(foreign.text, entry.key).toBe(unknown.text);
        expect(foreign.status, entry.key).toBe(unknown.status);
      }
    });

    it("leaves B's data unchanged: every GET body and every row count", async () => {
      const after = await snapshotOfB();
      expect(after).toEqual(bBefore);
    });
  });

  describe("A's key cannot point its own writes at B's rows", () => {
    const expectFieldError = (body: unknown, field: string) =>
      expect(body).toEqual({
        ...ERROR_BODY.BAD_REQUEST,
        issues: [{ message: expect.stringMatching(new RegExp(`^body\\.${field}: `)) }],
      });

    it.each([
      ['categoryId', () => ({ categoryId: bData.categoryId })],
      ['warehouseId', () => ({ warehouseId: b.defaultWarehouseId })],
      ['zoneId', () => ({ zoneId: b.defaultZoneId })],
    ] as const)("POST /items with B's %s is 400 and creates nothing", async (field, fields) => {
      const before = await rowCounts(server.database.sql, a.organizationId);
      const response = await client(server.baseUrl, a.key).post('/items', {
        body: { sku: `CROSS-${field}`, title: 'Cross-organization reference', ...fields() },
      });
      expect(response.status).toBe(400);
      expectFieldError(response.body, field);
      expect(await rowCounts(server.database.sql, a.organizationId)).toEqual(before);
      expect(await rowCounts(server.database.sql, b.organizationId)).toEqual(bBefore.counts);
    });

    it.each([
      ['categoryId', () => ({ categoryId: bData.categoryId })],
      ['warehouseId', () => ({ warehouseId: b.defaultWarehouseId })],
      ['zoneId', () => ({ zoneId: b.defaultZoneId })],
    ] as const)("PATCH of A's item with B's %s is 400 and leaves the item unchanged", async (field, fields) => {
      const api = client(server.baseUrl, a.key);
      const before = await api.get(`/items/${aData.itemId}`);
      const response = await api.patch(`/items/${aData.itemId}`, { body: fields() });
      expect(response.status).toBe(400);
      expectFieldError(response.body, field);
      expect((await api.get(`/items/${aData.itemId}`)).body).toEqual(before.body);
    });

    it("POST /items with B's SKU succeeds in A: SKUs are unique per organization only", async () => {
      const response = await client(server.baseUrl, a.key).post<Item>('/items', {
        body: { sku: bData.sku, title: 'Same SKU, other organization' },
      });
      expect(response.status).toBe(200);
      expect(response.body.sku).toBe(bData.sku);
      const deleted = await client(server.baseUrl, a.key).delete(`/items/${response.body.id}`);
      expect(deleted.status).toBe(200);
      expect(await rowCounts(server.database.sql, b.organizationId)).toEqual(bBefore.counts);
    });
  });

  describe("A's lists never contain B's rows", () => {
    const ids = <T extends { id: string }>(list: List<T>) => list.items.map((entry) => entry.id);

    it('GET /items lists only A\u2019s item', async () => {
      const response = await client(server.baseUrl, a.key).get<List<Item>>('/items?limit=100');
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual([aData.itemId]);
    });

    it('GET /consignments lists only A\u2019s consignment', async () => {
      const response = await client(server.baseUrl, a.key).get<List<Consignment>>('/consignments?limit=100');
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual([aData.consignmentId]);
    });

    it('GET /invoices lists only A\u2019s invoice', async () => {
      const response = await client(server.baseUrl, a.key).get<List<Invoice>>('/invoices?limit=100');
      expect(response.status).toBe(200);
      expect(ids(response.body)).toEqual([aData.invoiceId]);
    });

    it.each([
      ['/items', 'q = B’s SKU', (): string => `q=${encodeURIComponent(bData.sku)}`],
      ['/items', 'q = B’s label', (): string => 'q=BRAVO'],
      ['/items', 'q = B’s certificate number', (): string => 'q=BRAVO-CERT'],
      ['/items', 'sku = B’s SKU', (): string => `sku=${encodeURIComponent(bData.sku)}`],
      ['/items', 'categoryId = B’s category', (): string => `categoryId=${bData.categoryId}`],
      ['/consignments', 'q = B’s consignment name', (): string => `q=${encodeURIComponent(bData.consignmentName)}`],
      ['/consignments', 'q = B’s consignor email', (): string => 'q=bravo%40consignor.test'],
      ['/consignments', 'consignorId = B’s consignor', (): string => `consignorId=${bData.consignorId}`],
      ['/invoices', 'q = B’s customer name', (): string => `q=${encodeURIComponent(bData.customerName)}`],
      ['/invoices', 'q = B’s invoice number', (): string => `q=${bData.invoiceNumber}`],
    ] as const)('GET %s with %s is an empty page', async (path, _what, query) => {
      const response = await client(server.baseUrl, a.key).get(`${path}?${query()}`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ items: [], page: 1, limit: 20, hasMore: false });
    });

    it('the same searches with B’s key do find B’s rows (the searches above are meaningful)', async () => {
      const api = client(server.baseUrl, b.key);
      const items = await api.get<List<Item>>(`/items?q=${encodeURIComponent(bData.sku)}`);
      expect(ids(items.body)).toEqual([bData.itemId]);
      const consignments = await api.get<List<Consignment>>(`/consignments?consignorId=${bData.consignorId}`);
      expect(ids(consignments.body)).toEqual([bData.consignmentId]);
      const invoices = await api.get<List<Invoice>>(`/invoices?q=${bData.invoiceNumber}`);
      expect(ids(invoices.body)).toEqual([bData.invoiceId]);
    });
  });

  describe('unknown ids', () => {
    it.each(routesTakingId.map((entry) => [entry.key, entry] as const))(
      '%s with a random uuid answers 404 Not found',
      async (_key, entry) => {
        const response = await send(server.baseUrl, requestFor(entry, randomUUID()), { key: a.key });
        expect(response.status).toBe(404);
        expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
      },
    );

    it("mixing ids across collections is 404 (A's consignment id used as an item id, and so on)", async () => {
      const api = client(server.baseUrl, a.key);
      for (const path of [
        `/items/${aData.consignmentId}`,
        `/items/${aData.invoiceId}/valuations`,
        `/consignments/${aData.itemId}`,
        `/invoices/${aData.consignmentId}`,
      ]) {
        const response = await api.get(path);
        expect(response.status, path).toBe(404);
        expect(response.body, path).toEqual(ERROR_BODY.NOT_FOUND);
      }
    });

    it("A's own data is still intact and every contract route still works for A", async () => {
      // A key of its own: A's first key has spent most of its rate-limit window on the tests above.
      const { key } = await issueApiKey(server.database.sql, {
        organizationId: a.workspaceId,
        createdBy: a.ownerId,
        name: 'tenancy check',
        scopes: ['read', 'write'],
        mode: a.mode,
      });
      for (const entry of contractRoutes) {
        if (entry.route.method === 'DELETE') continue;
        const response = await send(server.baseUrl, requestFor(entry, aData), { key });
        expect(response.status, entry.key).toBe(200);
      }
    });
  });
});
