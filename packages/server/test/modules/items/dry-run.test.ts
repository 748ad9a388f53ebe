import { ERRORS, type Item, ItemSchema } from '@coinventory/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { linkListing } from '../../../src/modules/marketplace/operator.js';
import { type ApiResponse, expectStatus } from '../../support/http.js';
import { type Api, createItem, freshApi, getItem } from '../../support/items.js';
import { rowCounts, uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

let api: Api;
let listed: Item;
let other: Item;

beforeAll(async () => {
  api = await freshApi(ctx.server, ctx.organization);
  // A webhook endpoint and a marketplace listing: a real write would queue a delivery and a sync job.
  expectStatus(
    await api.post('/webhook-endpoints', { body: { url: 'https://hooks.example.com/dry', events: ['*'] } }),
    200,
  );
  listed = await createItem(api, { sku: uniqueSku('LISTED'), title: 'Listed coin', quantity: 4 });
  other = await createItem(api, { sku: uniqueSku('OTHER'), title: 'Another coin' });
  await linkListing(ctx.server.database.sql, {
    org: ctx.organization.slug,
    item: listed.id,
    listingId: uniqueSku('mkt'),
    url: null,
  });
});

/** Every table a write touches, counted for the organization: a dry run must leave them all as they were. */
const counts = () => rowCounts(ctx.server.database.sql, ctx.organization.organizationId);

/** Sends `request` as a dry run (with an Idempotency-Key) and checks it wrote nothing; returns its answer. */
async function dry<T>(request: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
  const before = await counts();
  const response = await request();
  expect(await counts()).toEqual(before);
  return response;
}

const key = () => ({ 'Idempotency-Key': uniqueSku('dry-key') });

describe('?dryRun=true on item writes', () => {
  it('POST answers the item it would create, and creates nothing (no event, delivery, or kept answer)', async () => {
    const sku = uniqueSku('NEW');
    const headers = key();
    const response = await dry(() =>
      api.post<Item>('/items?dryRun=true', { body: { sku, title: 'Would be new', quantity: 2 }, headers }),
    );
    expectStatus(response, 200);
    const wouldBe = ItemSchema.parse(response.body);
    expect(wouldBe).toMatchObject({ sku, title: 'Would be new', quantity: { available: 2, sold: 0, reserved: 0 } });
    expect((await api.get<{ items: Item[] }>(`/items?sku=${sku}`)).body.items).toEqual([]);
    // The same key then does the real write: the dry run kept no answer under it.
    const real = await api.post<Item>('/items', { body: { sku, title: 'Would be new', quantity: 2 }, headers });
    expectStatus(real, 200);
    expect(real.headers.get('idempotent-replayed')).toBeNull();
    expect({ ...real.body, id: wouldBe.id, createdAt: wouldBe.createdAt }).toEqual(wouldBe);
  });

  it('POST refuses in a dry run what it would refuse for real: a taken SKU (409), a foreign zone, a bad body', async () => {
    const taken = await dry(() => api.post('/items?dryRun=true', { body: { sku: listed.sku, title: 'Taken' } }));
    expectStatus(taken, 409);
    expect(taken.body).toEqual({ code: 'CONFLICT', message: ERRORS.CONFLICT.message });
    const zone = await dry(() =>
      api.post('/items?dryRun=true', {
        body: { sku: uniqueSku('Z'), title: 'Zone', zoneId: '00000000-0000-4000-8000-000000000000' },
      }),
    );
    expectStatus(zone, 400);
    expect(zone.body).toMatchObject({ issues: [{ message: 'body.zoneId: no zone with this id in the organization' }] });
    expectStatus(await dry(() => api.post('/items?dryRun=true', { body: { sku: uniqueSku('T'), title: '' } })), 400);
  });

  it('PATCH answers the item as it would be, and changes nothing (no sync job for the listing)', async () => {
    const response = await dry(() =>
      api.patch<Item>(`/items/${listed.id}?dryRun=true`, {
        body: { quantity: 1, title: 'Renamed' },
        headers: { ...key(), 'If-Match': `"${'x'.repeat(8)}"` },
      }),
    );
    // If-Match is checked in a dry run too.
    expectStatus(response, 412);
    const current = await api.get<Item>(`/items/${listed.id}`);
    const answer = await dry(() =>
      api.patch<Item>(`/items/${listed.id}?dryRun=true`, {
        body: { quantity: 1, title: 'Renamed' },
        headers: { 'If-Match': current.headers.get('etag') ?? '' },
      }),
    );
    expectStatus(answer, 200);
    expect(answer.body).toMatchObject({ id: listed.id, title: 'Renamed', quantity: { available: 1 } });
    expect(await getItem(api, listed.id)).toEqual(current.body);
    const taken = await dry(() => api.patch(`/items/${listed.id}?dryRun=true`, { body: { sku: other.sku } }));
    expectStatus(taken, 409);
  });

  it('DELETE answers as it would, and deletes nothing; an unknown id is 404 as for real', async () => {
    const response = await dry(() => api.delete(`/items/${listed.id}?dryRun=true`, { headers: key() }));
    expectStatus(response, 200);
    expect(response.body).toEqual({ id: listed.id, deleted: true });
    expect((await api.get(`/items/${listed.id}`)).status).toBe(200);
    const unknown = await dry(() => api.delete('/items/00000000-0000-4000-8000-000000000000?dryRun=true'));
    expectStatus(unknown, 404);
  });

  it('dryRun=false is a real write', async () => {
    const response = await api.post<Item>('/items?dryRun=false', { body: { sku: uniqueSku('REAL'), title: 'Real' } });
    expectStatus(response, 200);
    expect((await api.get(`/items/${response.body.id}`)).status).toBe(200);
  });
});
