import { ItemSchema } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkListing } from '../../src/modules/marketplace/store.js';
import { sharedTestDatabase } from '../support/database.js';
import { ERROR_BODY } from '../support/errors.js';
import { settledValue, skusIn } from '../support/faults.js';
import type { ApiResponse } from '../support/http.js';
import { expectStatus } from '../support/http.js';
import { type Api, createItem, freshApi } from '../support/items.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The fault suite: under overload and races, an answer of 5xx must mean the write did not happen, and a 2xx that it
 * did. Every test compares what the clients were told with what the database holds. Slow bodies and headers, answered
 * 408 before any statement runs, are in slow-requests.test.ts.
 */

const UNLIMITED = { maxRequests: 1_000_000, windowSeconds: 60 };

// One database for the file: its servers differ only in their deadlines and queues.
const database = sharedTestDatabase();

describe('an overload burst', () => {
  let server: TestServer;
  let organization: TestOrganization;

  beforeAll(async () => {
    // A short deadline and a small queue, so one burst crosses both.
    server = await startTestServer({ database, policy: UNLIMITED, requestTimeoutMs: 400, queueLimit: 20 });
    organization = await createTestOrganization(server.database.sql);
  });
  afterAll(() => server.close());

  it('sheds what it cannot hold at once (503 + Retry-After), and commits exactly the writes it answered 200', async () => {
    const api = await freshApi(server, organization, 'burst');
    const skus = Array.from({ length: 400 }, (_, i) => `BURST-${i}`);
    const responses = await Promise.all(
      skus.map((sku) => api.post('/items', { body: { sku, title: `Burst ${sku}` } })),
    );

    const byStatus = new Map<number, string[]>();
    responses.forEach((response, i) => {
      byStatus.set(response.status, [...(byStatus.get(response.status) ?? []), skus[i] ?? '']);
    });
    expect(
      [...byStatus.keys()].every((status) => [200, 500, 503].includes(status)),
      [...byStatus.keys()].join(),
    ).toBe(true);
    expect(byStatus.get(503)?.length ?? 0, 'some requests were shed').toBeGreaterThan(0);
    expect(byStatus.get(200)?.length ?? 0, 'some requests were served').toBeGreaterThan(0);
    for (const response of responses.filter((r) => r.status === 503)) {
      expect(response.headers.get('retry-after')).toBe('1');
      expect(response.body).toEqual(ERROR_BODY.SERVICE_UNAVAILABLE);
    }
    for (const response of responses.filter((r) => r.status === 500)) {
      expect(response.body).toEqual(ERROR_BODY.INTERNAL_SERVER_ERROR);
    }

    const stored = await settledValue(async () => [...(await skusIn(server, organization, 'BURST-'))].sort());
    expect(stored).toEqual([...(byStatus.get(200) ?? [])].sort());
  }, 60_000);
});

describe('concurrent PATCHes', () => {
  let server: TestServer;
  let organization: TestOrganization;

  beforeAll(async () => {
    server = await startTestServer({ database, policy: UNLIMITED, queueLimit: 1_000 });
    organization = await createTestOrganization(server.database.sql);
  });
  afterAll(() => server.close());

  it('each answer is the row its own transaction wrote (250 PATCHes of one item)', async () => {
    const api = await freshApi(server, organization);
    const item = await createItem(api, { sku: 'MANY-PATCHES', title: 'Start' });
    const titles = Array.from({ length: 250 }, (_, i) => `Title ${i}`);
    const responses = await Promise.all(titles.map((title) => api.patch(`/items/${item.id}`, { body: { title } })));
    responses.forEach((response, i) => {
      expectStatus(response, 200);
      expect(ItemSchema.parse(response.body).title).toBe(titles[i]);
    });
  }, 60_000);
});

interface JobCount {
  kind: string;
  quantity: number | null;
}

describe('PATCH and DELETE of a linked item, racing', () => {
  let server: TestServer;
  let organization: TestOrganization;
  let api: Api;

  beforeAll(async () => {
    server = await startTestServer({ database, policy: UNLIMITED, queueLimit: 1_000 });
    organization = await createTestOrganization(server.database.sql);
    api = await freshApi(server, organization, 'race');
  });
  afterAll(() => server.close());

  /** One round: an item with a listing, a DELETE and five quantity PATCHes sent at once. */
  async function round(n: number) {
    const item = await createItem(api, { sku: `LINKED-${n}`, title: 'Linked', quantity: 1 });
    await linkListing(server.database.sql, {
      organizationId: organization.organizationId,
      itemId: item.id,
      marketplaceListingId: `mp-race-${n}`,
      externalUrl: null,
      quantity: 1,
    });
    const quantities = [2, 3, 4, 5, 6];
    const [deleted, ...patches] = await Promise.all([
      api.delete(`/items/${item.id}`),
      ...quantities.map((quantity) => api.patch(`/items/${item.id}`, { body: { quantity } })),
    ]);
    const jobs = await server.database.sql<JobCount[]>`
      SELECT kind, quantity FROM marketplace_sync_jobs
      WHERE organization_id = ${organization.organizationId} AND marketplace_listing_id = ${`mp-race-${n}`}
    `;
    return { deleted: deleted as ApiResponse, patches, quantities, jobs };
  }

  it('never deadlocks or fails (60 rounds, 0 × 5xx), and each answer matches what was queued', async () => {
    const rounds = await Promise.all(Array.from({ length: 60 }, (_, n) => round(n)));
    const statuses = rounds.flatMap((r) => [r.deleted.status, ...r.patches.map((p) => p.status)]);
    expect(statuses.filter((status) => status >= 500).length, statuses.join()).toBe(0);
    for (const { deleted, patches, quantities, jobs } of rounds) {
      expectStatus(deleted, 200);
      expect(jobs.filter((job) => job.kind === 'delete_listing')).toHaveLength(1);
      // A PATCH answered 200 queued its quantity; one answered 404 queued nothing.
      const applied = quantities.filter((_, i) => patches[i]?.status === 200);
      for (const patch of patches) expect([200, 404]).toContain(patch.status);
      const queued = jobs.filter((job) => job.kind === 'set_quantity').map((job) => job.quantity);
      expect(queued.sort()).toEqual(applied.sort());
    }
  }, 120_000);
});
