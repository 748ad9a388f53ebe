import {
  type Actor,
  type BatchItemsResult,
  BatchItemsResultSchema,
  type Change,
  MovementListSchema,
} from '@coinventory/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { pruneChanges } from '../../../src/modules/changes/index.js';
import { feedCursor, readToEnd } from '../../support/changes.js';
import { ERROR_BODY, expectBadRequest } from '../../support/errors.js';
import { client, expectStatus } from '../../support/http.js';
import { importFiles, operatorCommands } from '../../support/imports.js';
import { adjusted, expectInvariants, keyedApi, movementsOf, reserve } from '../../support/inventory.js';
import { type Api, createItem, getItem, randomId } from '../../support/items.js';
import { createTestOrganization } from '../../support/organization.js';
import { uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';

/**
 * GET /items/{id}/movements (issue 37): every write that moves an item's quantities leaves one movement, newest first,
 * naming who made it, and every change of the feed names who made it too: the API key (its id and name), or the
 * operator for imports. Real HTTP on a real database.
 */

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
const OPERATOR: Actor = { type: 'operator', id: null, name: null };

let api: Api;
let actor: Actor;

beforeAll(async () => {
  ({ api, actor } = await keyedApi(ctx.server.database.sql, ctx.server.baseUrl, ctx.organization, 'shop counter'));
});

const { run, json } = operatorCommands(() => ctx.server.database.sql);
const { file } = importFiles('movements');

const summary = (m: { kind: string; delta: object; after: object; actor: Actor }) => [
  m.kind,
  m.delta,
  m.after,
  m.actor,
];

describe('the ledger of every write path', () => {
  it('POST, PATCH of quantity, batch and adjustments each leave a movement; other writes leave none', async () => {
    const sku = uniqueSku('LEDGER');
    const item = await createItem(api, { sku, title: 'Ledger coin', quantity: 3 });
    // A PATCH of anything but quantity, or of the same quantity, moves nothing.
    expectStatus(await api.patch(`/items/${item.id}`, { body: { title: 'Renamed' } }), 200);
    expectStatus(await api.patch(`/items/${item.id}`, { body: { quantity: 3 } }), 200);
    expectStatus(await api.patch(`/items/${item.id}`, { body: { quantity: 7 } }), 200);
    const batch = await api.post<BatchItemsResult>('/items/batch', {
      body: { mode: 'upsert', items: [{ sku, quantity: 5 }] },
    });
    expectStatus(batch, 200);
    expect(BatchItemsResultSchema.parse(batch.body).results[0]?.action).toBe('updated');
    await adjusted(api, item.id, { available: -2, sold: 2, reason: 'sale', reference: 'TILL-4' });

    const movements = await movementsOf(api, item.id);
    expect(movements.map(summary)).toEqual([
      ['adjustment', { available: -2, sold: 2, reserved: 0 }, { available: 3, sold: 2, reserved: 0 }, actor],
      ['batch', { available: -2, sold: 0, reserved: 0 }, { available: 5, sold: 0, reserved: 0 }, actor],
      ['set', { available: 4, sold: 0, reserved: 0 }, { available: 7, sold: 0, reserved: 0 }, actor],
      ['create', { available: 3, sold: 0, reserved: 0 }, { available: 3, sold: 0, reserved: 0 }, actor],
    ]);
    expect(new Set(movements.map((m) => m.id)).size).toBe(4);
    for (const movement of movements) expect(movement.itemId).toBe(item.id);
    // Newest first, and never out of time order.
    const times = movements.map((m) => Date.parse(m.occurredAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    await expectInvariants(api, item.id);
  });

  it('an item created by a batch starts with a batch movement', async () => {
    const response = await api.post<BatchItemsResult>('/items/batch', {
      body: { mode: 'create', items: [{ sku: uniqueSku('BATCHED'), title: 'Batched', quantity: 4 }] },
    });
    expectStatus(response, 200);
    const created = BatchItemsResultSchema.parse(response.body).results[0]?.item;
    if (!created) throw new Error('not created');
    expect((await movementsOf(api, created.id)).map(summary)).toEqual([
      ['batch', { available: 4, sold: 0, reserved: 0 }, { available: 4, sold: 0, reserved: 0 }, actor],
    ]);
  });

  it('a dry run leaves no movement', async () => {
    const item = await createItem(api, { sku: uniqueSku('DRY'), title: 'Dry', quantity: 2 });
    expectStatus(await api.patch(`/items/${item.id}?dryRun=true`, { body: { quantity: 9 } }), 200);
    expectStatus(
      await api.post(`/items/${item.id}/adjustments?dryRun=true`, { body: { available: 1, reason: 'received' } }),
      200,
    );
    expectStatus(await api.post(`/items/${item.id}/reservations?dryRun=true`, { body: { quantity: 1 } }), 200);
    expect((await movementsOf(api, item.id)).map((m) => m.kind)).toEqual(['create']);
  });
});

describe('who made each change', () => {
  it('every change a key makes names the key: created, updated, deleted', async () => {
    const cursor = await feedCursor(api);
    const item = await createItem(api, { sku: uniqueSku('WHO'), title: 'Who', quantity: 1 });
    expectStatus(await api.patch(`/items/${item.id}`, { body: { quantity: 2 } }), 200);
    await adjusted(api, item.id, { available: -1, sold: 1, reason: 'sale' });
    await reserve(api, item.id, { quantity: 1 });
    expectStatus(await api.delete(`/items/${item.id}`), 200);
    const { changes } = await readToEnd(api, cursor);
    const mine = changes.filter((change) => change.objectId === item.id || change.type.startsWith('reservation.'));
    expect(mine.map((change) => change.type)).toEqual(
      expect.arrayContaining(['item.created', 'item.updated', 'item.deleted', 'reservation.created']),
    );
    for (const change of mine) expect(change.actor, change.type).toEqual(actor);
    // Never a secret: no field of the actor holds the key's value.
    expect(JSON.stringify(mine)).not.toMatch(/cvk_live_/);
    // Its movements went with it.
    const gone = await api.get(`/items/${item.id}/movements`);
    expectStatus(gone, 404);
  });

  it('the changes an operator import makes name the operator', async () => {
    const organization = await createTestOrganization(ctx.server.database.sql);
    const { api: theirs } = await keyedApi(ctx.server.database.sql, ctx.server.baseUrl, organization, 'importer');
    const sku = uniqueSku('IMG');
    const item = await createItem(theirs, { sku, title: 'Pictured', quantity: 1 });
    const cursor = await feedCursor(theirs);
    const images = file(`${sku}.csv`, ['sku,url,width,height', `${sku},https://img.example/${sku}.jpg,800,800`]);
    expect(await json('import', 'images', images, '--org', organization.slug)).toMatchObject({ created: 1 });
    const { changes } = await readToEnd(theirs, cursor);
    const updated: Change[] = changes.filter((change) => change.objectId === item.id);
    expect(updated.map((change) => [change.type, change.actor])).toEqual([['item.updated', OPERATOR]]);
    // Images move no quantity: the ledger has only the creation.
    expect((await movementsOf(theirs, item.id)).map((m) => m.kind)).toEqual(['create']);
    expect((await run('check', '--org', organization.slug)).exitCode).toBe(0);
  });
});

describe('GET /items/:id/movements', () => {
  it('keeps an item’s movements when the feed prunes its changes', async () => {
    const organization = await createTestOrganization(ctx.server.database.sql);
    const { api: theirs } = await keyedApi(ctx.server.database.sql, ctx.server.baseUrl, organization, 'old stock');
    const item = await createItem(theirs, { sku: uniqueSku('OLD'), title: 'Old stock', quantity: 4 });
    await adjusted(theirs, item.id, { available: -1, sold: 1, reason: 'sale' });
    const before = await movementsOf(theirs, item.id);
    const sql = ctx.server.database.sql;
    // A year ago, as far as the feed and the ledger know.
    await sql`
      UPDATE changes SET occurred_at = now() - interval '365 days'
      WHERE organization_id = ${organization.organizationId} AND object_id = ${item.id}
    `;
    await sql`
      UPDATE item_movements SET occurred_at = now() - interval '365 days'
      WHERE organization_id = ${organization.organizationId} AND item_id = ${item.id}
    `;
    const cutoff = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    expect(await pruneChanges(sql, cutoff)).toBeGreaterThanOrEqual(2);
    const after = await movementsOf(theirs, item.id);
    expect(after.map(({ occurredAt: _, ...rest }) => rest)).toEqual(before.map(({ occurredAt: _, ...rest }) => rest));
    await expectInvariants(theirs, item.id);
  });

  it('pages newest first with the list envelope; a read-only key may read', async () => {
    const item = await createItem(api, { sku: uniqueSku('PAGED'), title: 'Paged', quantity: 0 });
    for (let i = 1; i <= 4; i += 1)
      await adjusted(api, item.id, { available: i, reason: 'received', reference: `PO-${i}` });
    const reader = client(ctx.server.baseUrl, ctx.organization.readKey);
    const pages = [];
    for (let page = 1; page <= 3; page += 1) {
      const response = await reader.get(`/items/${item.id}/movements?limit=2&page=${page}`);
      expectStatus(response, 200);
      pages.push(MovementListSchema.parse(response.body));
    }
    expect(pages.map(({ page, limit, hasMore, items }) => [page, limit, hasMore, items.length])).toEqual([
      [1, 2, true, 2],
      [2, 2, true, 2],
      [3, 2, false, 1],
    ]);
    expect(pages.flatMap((page) => page.items.map((m) => m.reference))).toEqual(['PO-4', 'PO-3', 'PO-2', 'PO-1', null]);
    expect(pages.flatMap((page) => page.items)).toEqual(await movementsOf(api, item.id));
    const first = await reader.get(`/items/${item.id}/movements`);
    expect(MovementListSchema.parse(first.body)).toMatchObject({ page: 1, limit: 20, hasMore: false });
  });

  it("answers 404 for an unknown item and another organization's, and 400 for a bad page", async () => {
    const other = await createTestOrganization(ctx.server.database.sql);
    const theirs = await createItem(client(ctx.server.baseUrl, other.key), {
      sku: uniqueSku('OTHER'),
      title: 'Theirs',
      quantity: 1,
    });
    for (const id of [randomId(), theirs.id]) {
      const response = await api.get(`/items/${id}/movements`);
      expectStatus(response, 404);
      expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    }
    const item = await createItem(api, { sku: uniqueSku('BAD'), title: 'Bad', quantity: 1 });
    expectBadRequest(await api.get(`/items/${item.id}/movements?limit=0`), ['query.limit']);
    expectBadRequest(await api.get(`/items/${item.id}/movements?limit=101`), ['query.limit']);
    expectBadRequest(await api.get(`/items/${item.id}/movements?page=0`), ['query.page']);
    expectBadRequest(await api.get(`/items/${item.id}/movements?kind=set`), ['query'], ["'kind'"]);
    expectBadRequest(await api.get('/items/nope/movements'), ['path.id']);
    expect((await getItem(api, item.id)).quantity.available).toBe(1);
  });
});
