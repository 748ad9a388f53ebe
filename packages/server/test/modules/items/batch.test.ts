import { BATCH, type BatchItemsResult, ERRORS, type Item, ItemSchema } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { linkListing } from '../../../src/modules/marketplace/operator.js';
import { feedCursor, readToEnd } from '../../support/changes.js';
import { expectStatus } from '../../support/http.js';
import { type Api, createItem, freshApi } from '../../support/items.js';
import { createTestOrganization } from '../../support/organization.js';
import { rowCounts, uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

async function batch(api: Api, body: unknown, query = '', headers: Record<string, string> = {}) {
  return api.post<BatchItemsResult>(`/items/batch${query}`, { body: body as Record<string, unknown>, headers });
}

async function syncJobsOf(itemSku: string): Promise<Array<{ kind: string; quantity: number | null }>> {
  return ctx.server.database.sql<{ kind: string; quantity: number | null }[]>`
    SELECT j.kind, j.quantity FROM marketplace_sync_jobs j
    JOIN marketplace_listings l ON l.organization_id = j.organization_id AND l.id = j.listing_id
    JOIN items i ON i.organization_id = l.organization_id AND i.id = l.item_id
    WHERE i.organization_id = ${ctx.organization.organizationId} AND i.sku = ${itemSku}
    ORDER BY j.sequence
  `;
}

describe('POST /items/batch', () => {
  it('answers every entry at its position, and writes exactly the valid ones with their change events', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const taken = await createItem(api, { sku: uniqueSku('TAKEN'), title: 'Already here' });
    const [a, b] = [uniqueSku('A'), uniqueSku('B')];
    const start = await feedCursor(api);
    const response = await batch(api, {
      mode: 'create',
      items: [
        { sku: a, title: 'First', quantity: 2, valueInCents: 1_500 },
        { sku: uniqueSku('BAD'), title: '' },
        { sku: taken.sku, title: 'Taken SKU' },
        { sku: b, title: 'Second', unknownField: 1 },
        { sku: b, title: 'Second, fixed' },
        { sku: b, title: 'Second again' },
        { sku: uniqueSku('FOREIGN'), title: 'Bad zone', zoneId: '00000000-0000-4000-8000-000000000000' },
      ],
    });
    expectStatus(response, 200);
    const { results, ...totals } = response.body;
    expect(totals).toEqual({ mode: 'create', dryRun: false, created: 2, updated: 0, failed: 5 });
    expect(results.map((r) => [r.index, r.status, r.action])).toEqual([
      [0, 200, 'created'],
      [1, 400, null],
      [2, 409, null],
      [3, 400, null],
      [4, 200, 'created'],
      [5, 409, null],
      [6, 400, null],
    ]);
    // The same error bodies the single-item route gives, with the entry's position in each issue.
    expect(results[1]?.error?.code).toBe('BAD_REQUEST');
    expect(results[1]?.error?.issues?.[0]?.message).toMatch(/^body\.items\.1\.title: /);
    expect(results[2]?.error).toEqual({ code: 'CONFLICT', message: ERRORS.CONFLICT.message });
    expect(results[3]?.error?.issues?.[0]?.message).toMatch(/^body\.items\.3: Unrecognized key/);
    expect(results[5]?.error).toEqual({ code: 'CONFLICT', message: ERRORS.CONFLICT.message });
    expect(results[6]?.error?.issues).toEqual([
      { message: 'body.items.6.zoneId: no zone with this id in the organization' },
    ]);

    const created = [results[0]?.item, results[4]?.item] as Item[];
    for (const item of created) {
      ItemSchema.parse(item);
      const stored = await api.get<Item>(`/items/${item.id}`);
      expect(stored.body).toEqual(item);
    }
    expect(created.map((item) => [item.sku, item.title])).toEqual([
      [a, 'First'],
      [b, 'Second, fixed'],
    ]);
    const { changes } = await readToEnd(api, start);
    expect(changes.map((change) => [change.type, change.objectId])).toEqual(
      created.map((item) => ['item.created', item.id]),
    );
  });

  it('upserts by SKU: PATCH semantics for an existing item (its sync job included), creation for a new one', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const existing = await createItem(api, {
      sku: uniqueSku('UPS'),
      title: 'Listed coin',
      description: 'Kept',
      quantity: 3,
    });
    await linkListing(ctx.server.database.sql, {
      org: ctx.organization.slug,
      item: existing.id,
      listingId: uniqueSku('mkt'),
      url: null,
    });
    const fresh = uniqueSku('NEW');
    const start = await feedCursor(api);
    const response = await batch(api, {
      mode: 'upsert',
      items: [
        { sku: existing.sku, quantity: 1, valueInCents: 9_900 },
        { sku: fresh, title: 'New in upsert' },
        { sku: uniqueSku('NEW'), quantity: 1 },
        { sku: existing.sku, quantity: -1 },
      ],
    });
    expectStatus(response, 200);
    const { results } = response.body;
    expect(results.map((r) => [r.status, r.action])).toEqual([
      [200, 'updated'],
      [200, 'created'],
      [400, null],
      [400, null],
    ]);
    expect(results[0]?.item).toMatchObject({
      id: existing.id,
      title: 'Listed coin',
      description: 'Kept',
      valueInCents: 9_900,
      quantity: { available: 1 },
    });
    expect(results[2]?.error?.issues?.[0]?.message).toMatch(/^body\.items\.2\.title: /);
    expect(results[3]?.error?.issues?.[0]?.message).toMatch(/^body\.items\.3\.quantity: /);
    expect(await syncJobsOf(existing.sku)).toEqual([{ kind: 'set_quantity', quantity: 1 }]);
    const { changes } = await readToEnd(api, start);
    expect(changes.map((change) => change.type)).toEqual(['item.updated', 'item.created']);
  });

  it('writes nothing on a dry run, and answers what the real run then does', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const existing = await createItem(api, { sku: uniqueSku('DRY'), title: 'Dry', quantity: 4 });
    await linkListing(ctx.server.database.sql, {
      org: ctx.organization.slug,
      item: existing.id,
      listingId: uniqueSku('mkt'),
      url: null,
    });
    const body = {
      mode: 'upsert',
      items: [
        { sku: existing.sku, quantity: 0 },
        { sku: uniqueSku('DRYNEW'), title: 'Would be new' },
        { sku: uniqueSku('DRYBAD'), title: '' },
      ],
    };
    const before = await rowCounts(ctx.server.database.sql, ctx.organization.organizationId);
    const dry = await batch(api, body, '?dryRun=true', { 'Idempotency-Key': `dry-${uniqueSku()}` });
    expectStatus(dry, 200);
    expect(dry.body.dryRun).toBe(true);
    expect(await rowCounts(ctx.server.database.sql, ctx.organization.organizationId)).toEqual(before);
    expect(await syncJobsOf(existing.sku)).toEqual([]);
    expect((await api.get<Item>(`/items/${existing.id}`)).body.quantity.available).toBe(4);

    const real = await batch(api, body);
    expect(real.body.dryRun).toBe(false);
    const strip = (result: BatchItemsResult) =>
      result.results.map((r) => [r.status, r.action, r.item?.sku ?? null, r.item?.quantity ?? null, r.error]);
    expect(strip(dry.body)).toEqual(strip(real.body));
    expect(await syncJobsOf(existing.sku)).toEqual([{ kind: 'set_quantity', quantity: 0 }]);
  });

  it('replays its answer for a retry with the same Idempotency-Key, and applies it once', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const sku = uniqueSku('IDEM');
    const key = `batch-${sku}`;
    const body = { mode: 'create', items: [{ sku, title: 'Once' }] };
    const first = await batch(api, body, '', { 'Idempotency-Key': key });
    const second = await batch(api, body, '', { 'Idempotency-Key': key });
    expectStatus(second, 200);
    expect(second.headers.get('Idempotent-Replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect((await api.get<{ items: Item[] }>(`/items?sku=${sku}`)).body.items).toHaveLength(1);
  });

  it('refuses a request that is not a batch with 400, writing nothing', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const before = await rowCounts(ctx.server.database.sql, ctx.organization.organizationId);
    const tooMany = Array.from({ length: BATCH.maxItems + 1 }, (_, i) => ({ sku: `X-${i}`, title: 'x' }));
    for (const body of [
      { mode: 'create', items: [] },
      { mode: 'create', items: tooMany },
      { mode: 'merge', items: [{ sku: 'x', title: 'x' }] },
      { mode: 'create', items: ['not an object'] },
      { items: [{ sku: 'x', title: 'x' }] },
    ]) {
      const response = await batch(api, body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect((await batch(api, { mode: 'create', items: [{ sku: 'x', title: 'x' }] }, '?dryRun=yes')).status).toBe(400);
    expect(await rowCounts(ctx.server.database.sql, ctx.organization.organizationId)).toEqual(before);
  });

  it('keeps to its organization: an upsert never matches another organization’s SKU', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const other = await createTestOrganization(ctx.server.database.sql);
    const theirs = await createItem(await freshApi(ctx.server, other), { sku: uniqueSku('THEIRS'), title: 'Theirs' });
    const response = await batch(api, { mode: 'upsert', items: [{ sku: theirs.sku, title: 'Mine' }] });
    expect(response.body.results[0]).toMatchObject({ status: 200, action: 'created' });
    expect(response.body.results[0]?.item?.id).not.toBe(theirs.id);
  });
});
