import {
  type Actor,
  ADJUSTMENT_REASONS,
  type AdjustItemInput,
  type Change,
  ErrorBodySchema,
  IDEMPOTENCY,
  type Item,
  ItemSchema,
} from '@coinventory/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { linkListing } from '../../../src/modules/marketplace/operator.js';
import { feedCursor, readToEnd } from '../../support/changes.js';
import { ERROR_BODY, expectBadRequest } from '../../support/errors.js';
import { client, expectStatus } from '../../support/http.js';
import { adjust, adjusted, expectInvariants, keyedApi, movementsOf } from '../../support/inventory.js';
import { type Api, createItem, getItem, randomId } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { rowCounts, uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';
import { jobsOf } from '../../support/sync.js';

/**
 * POST /items/{id}/adjustments (issue 37): signed deltas of `available` and `sold` under the item's lock, refused
 * with 409 INSUFFICIENT_QUANTITY below 0, and followed by the ledger, the changes feed and a linked listing as a
 * PATCH of `quantity` is. Real HTTP on a real database.
 */

// The suite's own requests are not what it tests: the per-key limit is raised.
const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

let api: Api;
let actor: Actor;
let other: TestOrganization;

beforeAll(async () => {
  ({ api, actor } = await keyedApi(ctx.server.database.sql, ctx.server.baseUrl, ctx.organization, 'till 1'));
  other = await createTestOrganization(ctx.server.database.sql);
});

const newItem = (quantity: number, prefix = 'ADJ') =>
  createItem(api, { sku: uniqueSku(prefix), title: `Adjusted ${prefix}`, quantity });

/** The changes made after `cursor` to this item, in feed order. */
async function changesOf(cursor: string, itemId: string): Promise<Change[]> {
  const { changes } = await readToEnd(api, cursor);
  return changes.filter((change) => change.objectId === itemId);
}

/** Everything a refused adjustment must leave as it was: the item, its ledger, the feed. */
async function expectUntouched(item: Item, movementCount: number, cursor: string): Promise<void> {
  expect(await getItem(api, item.id)).toEqual(item);
  expect(await movementsOf(api, item.id)).toHaveLength(movementCount);
  expect(await changesOf(cursor, item.id)).toEqual([]);
}

/** Links a new marketplace listing to the item; returns the listing's marketplace id. */
async function link(itemId: string): Promise<string> {
  const listingId = uniqueSku('mkt');
  await linkListing(ctx.server.database.sql, { org: ctx.organization.slug, item: itemId, listingId, url: null });
  return listingId;
}

const jobs = (listingId: string) => jobsOf(ctx.server.database.sql, ctx.organization.organizationId, listingId);

describe('POST /items/:id/adjustments', () => {
  it('sells one: answers the item, records an adjustment movement and an item.updated change naming the key', async () => {
    const item = await newItem(5);
    const cursor = await feedCursor(api);
    const response = await adjust(api, item.id, { available: -1, sold: 1, reason: 'sale', reference: 'ORD-1' });
    expectStatus(response, 200);
    const answered = ItemSchema.parse(response.body);
    expect(answered).toEqual({
      ...item,
      quantity: { available: 4, sold: 1, reserved: 0 },
      updatedAt: expect.any(String),
    });
    expect(answered.updatedAt).not.toBe(item.updatedAt);
    expect(await getItem(api, item.id)).toEqual(answered);

    const [sale, creation, ...rest] = await movementsOf(api, item.id);
    expect(rest).toEqual([]);
    expect(sale).toEqual({
      id: expect.any(String),
      itemId: item.id,
      kind: 'adjustment',
      reason: 'sale',
      reference: 'ORD-1',
      delta: { available: -1, sold: 1, reserved: 0 },
      after: { available: 4, sold: 1, reserved: 0 },
      actor,
      occurredAt: answered.updatedAt,
    });
    expect(creation).toEqual({
      id: expect.any(String),
      itemId: item.id,
      kind: 'create',
      reason: null,
      reference: null,
      delta: { available: 5, sold: 0, reserved: 0 },
      after: { available: 5, sold: 0, reserved: 0 },
      actor,
      occurredAt: item.createdAt,
    });

    const changes = await changesOf(cursor, item.id);
    expect(changes).toEqual([
      {
        id: expect.any(String),
        type: 'item.updated',
        objectId: item.id,
        occurredAt: answered.updatedAt,
        actor,
        data: answered,
      },
    ]);
    await expectInvariants(api, item.id);
  });

  it('takes every reason, a reference or none, and either number alone', async () => {
    const item = await newItem(0);
    for (const reason of ADJUSTMENT_REASONS) await adjusted(api, item.id, { available: 2, reason });
    await adjusted(api, item.id, { sold: 3, reason: 'correction', reference: 'STOCKTAKE-7' });
    const returned = await adjusted(api, item.id, { available: 1, sold: -1, reason: 'return', reference: 'RMA-2' });
    expect(returned.quantity).toEqual({ available: 2 * ADJUSTMENT_REASONS.length + 1, sold: 2, reserved: 0 });

    const movements = await movementsOf(api, item.id);
    expect(movements.map((m) => [m.kind, m.reason, m.reference])).toEqual([
      ['adjustment', 'return', 'RMA-2'],
      ['adjustment', 'correction', 'STOCKTAKE-7'],
      ...[...ADJUSTMENT_REASONS].reverse().map((reason) => ['adjustment', reason, null]),
      ['create', null, null],
    ]);
    expect(movements[0]?.delta).toEqual({ available: 1, sold: -1, reserved: 0 });
    expect(movements[1]?.delta).toEqual({ available: 0, sold: 3, reserved: 0 });
    await expectInvariants(api, item.id);
  });

  it('refuses bad bodies and ids with 400 naming each field, and writes nothing', async () => {
    const item = await newItem(3);
    const cursor = await feedCursor(api);
    const cases: [unknown, string[], string[]][] = [
      [{ reason: 'sale' }, ['body.available'], []],
      [{ available: 0, sold: 0, reason: 'sale' }, ['body.available'], []],
      [{ available: 1 }, ['body.reason'], []],
      [{ available: 1, reason: 'stolen' }, ['body.reason'], []],
      [{ available: 1.5, reason: 'sale' }, ['body.available'], []],
      [{ sold: '1', reason: 'sale' }, ['body.sold'], []],
      [{ available: 1, reason: 'sale', reference: 'x'.repeat(201) }, ['body.reference'], []],
      [{ available: 1, reason: 'sale', reference: '' }, ['body.reference'], []],
      [{ available: 1, reason: 'sale', quantity: 4 }, ['body'], ["'quantity'"]],
    ];
    for (const [body, locations, mentions] of cases) {
      const response = await api.post(`/items/${item.id}/adjustments`, { body });
      expectBadRequest(response, locations, mentions);
    }
    // 200 characters is the most a reference may have.
    const longest = await adjusted(api, item.id, { available: 1, reason: 'other', reference: 'r'.repeat(200) });
    expect((await movementsOf(api, item.id))[0]?.reference).toBe('r'.repeat(200));
    expectBadRequest(await api.post('/items/not-a-uuid/adjustments', { body: { available: 1, reason: 'sale' } }), [
      'path.id',
    ]);
    // Only the one valid adjustment was written.
    expect((await changesOf(cursor, item.id)).map((change) => change.data)).toEqual([longest]);
  });

  it("answers 404 for an unknown id and another organization's item, which it leaves as it was", async () => {
    const unknown = await adjust(api, randomId(), { available: 1, reason: 'received' });
    expectStatus(unknown, 404);
    expect(unknown.body).toEqual(ERROR_BODY.NOT_FOUND);
    const theirApi = client(ctx.server.baseUrl, other.key);
    const theirs = await createItem(theirApi, { sku: uniqueSku('THEIRS'), title: 'Not yours', quantity: 2 });
    const refused = await adjust(api, theirs.id, { available: -1, sold: 1, reason: 'sale' });
    expectStatus(refused, 404);
    expect(refused.body).toEqual(ERROR_BODY.NOT_FOUND);
    expect(await getItem(theirApi, theirs.id)).toEqual(theirs);
    expect(await movementsOf(theirApi, theirs.id)).toHaveLength(1);
  });

  it('needs the write scope: a read-only key is refused with 403, and nothing moves', async () => {
    const item = await newItem(2);
    const cursor = await feedCursor(api);
    const reader = client(ctx.server.baseUrl, ctx.organization.readKey);
    const refused = await adjust(reader, item.id, { available: -1, sold: 1, reason: 'sale' });
    expectStatus(refused, 403);
    expect(refused.body).toEqual(ERROR_BODY.FORBIDDEN);
    await expectUntouched(item, 1, cursor);
  });

  it('refuses with 409 INSUFFICIENT_QUANTITY what would take either number below 0, and writes nothing', async () => {
    const item = await newItem(2);
    const sold = await adjusted(api, item.id, { available: -1, sold: 1, reason: 'sale' });
    const listingId = await link(item.id);
    const cursor = await feedCursor(api);
    const refusals: AdjustItemInput[] = [
      { available: -2, sold: 2, reason: 'sale' },
      { available: -2, reason: 'lost' },
      { sold: -2, reason: 'correction' },
      { available: 1, sold: -2, reason: 'return' },
      { available: -1_000_000, reason: 'damaged' },
    ];
    for (const body of refusals) {
      const response = await adjust(api, item.id, body);
      expectStatus(response, 409);
      expect(ErrorBodySchema.parse(response.body)).toEqual(ERROR_BODY.INSUFFICIENT_QUANTITY);
    }
    await expectUntouched(sold, 2, cursor);
    expect(await jobs(listingId)).toEqual([]);
    // Down to exactly 0 is allowed.
    const last = await adjusted(api, item.id, { available: -1, sold: -1, reason: 'correction' });
    expect(last.quantity).toEqual({ available: 0, sold: 0, reserved: 0 });
  });

  it('takes If-Match: a stale ETag is refused with 412 and writes nothing; the current one writes', async () => {
    const item = await newItem(4);
    const etag = (await api.get(`/items/${item.id}`)).headers.get('etag') ?? '';
    const first = await adjust(api, item.id, { available: -1, sold: 1, reason: 'sale' }, { 'if-match': etag });
    expectStatus(first, 200);
    const after = ItemSchema.parse(first.body);
    const cursor = await feedCursor(api);
    // A second seller still holding the first ETag has not seen that sale.
    const stale = await adjust(api, item.id, { available: -1, sold: 1, reason: 'sale' }, { 'if-match': etag });
    expectStatus(stale, 412);
    expect(stale.body).toEqual(ERROR_BODY.PRECONDITION_FAILED);
    await expectUntouched(after, 2, cursor);
    const current = first.headers.get('etag') ?? '';
    expect(current).not.toBe(etag);
    const second = await adjust(api, item.id, { available: -1, sold: 1, reason: 'sale' }, { 'if-match': current });
    expectStatus(second, 200);
    expect(ItemSchema.parse(second.body).quantity).toEqual({ available: 2, sold: 2, reserved: 0 });
    const missing = await adjust(api, randomId(), { available: 1, reason: 'sale' }, { 'if-match': '*' });
    expectStatus(missing, 404);
  });

  it('?dryRun=true answers the item as it would be and writes nothing: no movement, change, sync job or kept answer', async () => {
    const item = await newItem(3);
    const listingId = await link(item.id);
    const cursor = await feedCursor(api);
    const counts = () => rowCounts(ctx.server.database.sql, ctx.organization.organizationId);
    const before = await counts();
    const idempotencyKey = randomId();
    const body: AdjustItemInput = { available: -2, sold: 2, reason: 'sale', reference: 'DRY-1' };
    const dry = await api.post<Item>(`/items/${item.id}/adjustments?dryRun=true`, {
      body,
      headers: { [IDEMPOTENCY.header]: idempotencyKey },
    });
    expectStatus(dry, 200);
    expect(ItemSchema.parse(dry.body).quantity).toEqual({ available: 1, sold: 2, reserved: 0 });
    const tooMany = await api.post(`/items/${item.id}/adjustments?dryRun=true`, {
      body: { available: -4, reason: 'lost' },
    });
    expectStatus(tooMany, 409);
    expect(tooMany.body).toEqual(ERROR_BODY.INSUFFICIENT_QUANTITY);
    expect(await counts()).toEqual(before);
    await expectUntouched(item, 1, cursor);
    expect(await jobs(listingId)).toEqual([]);
    // The same Idempotency-Key then makes the real adjustment: the dry run kept no answer under it.
    const real = await api.post<Item>(`/items/${item.id}/adjustments`, {
      body,
      headers: { [IDEMPOTENCY.header]: idempotencyKey },
    });
    expectStatus(real, 200);
    expect(real.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();
    expect(ItemSchema.parse(real.body).quantity).toEqual({ available: 1, sold: 2, reserved: 0 });
  });

  it('with an Idempotency-Key, adjusts once: retries replay the first answer', async () => {
    const item = await newItem(5);
    const cursor = await feedCursor(api);
    const key = randomId();
    const send = () =>
      adjust(
        api,
        item.id,
        { available: -1, sold: 1, reason: 'sale', reference: 'ORD-RETRY' },
        { [IDEMPOTENCY.header]: key },
      );
    const first = await send();
    expectStatus(first, 200);
    expect(first.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();
    for (let retry = 0; retry < 3; retry += 1) {
      const again = await send();
      expect([again.status, again.text]).toEqual([200, first.text]);
      expect(again.headers.get(IDEMPOTENCY.replayedHeader)).toBe('true');
    }
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 4, sold: 1, reserved: 0 });
    expect((await movementsOf(api, item.id)).map((m) => m.kind)).toEqual(['adjustment', 'create']);
    expect(await changesOf(cursor, item.id)).toHaveLength(1);
  });

  it('queues a sync job for a linked listing when `available` changes, as a PATCH of quantity does; not when only `sold` does', async () => {
    const item = await newItem(6);
    const listingId = await link(item.id);
    await adjusted(api, item.id, { available: -2, sold: 2, reason: 'sale' });
    expect(await jobs(listingId)).toMatchObject([{ kind: 'set_quantity', quantity: 4, sequence: 1, state: 'pending' }]);
    await adjusted(api, item.id, { sold: 1, reason: 'correction' });
    expect(await jobs(listingId)).toHaveLength(1);
    await adjusted(api, item.id, { available: 3, reason: 'restock' });
    expect(await jobs(listingId)).toMatchObject([
      { kind: 'set_quantity', quantity: 4, sequence: 1 },
      { kind: 'set_quantity', quantity: 7, sequence: 2 },
    ]);
    // The same as a PATCH of quantity queues.
    expectStatus(await api.patch(`/items/${item.id}`, { body: { quantity: 5 } }), 200);
    expect((await jobs(listingId)).at(-1)).toMatchObject({ kind: 'set_quantity', quantity: 5, sequence: 3 });
  });
});

describe('50 concurrent sellers of 10 units', () => {
  it('give exactly 10 × 200 and 40 × 409; the item, its movements and the feed agree', async () => {
    const sellers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        keyedApi(ctx.server.database.sql, ctx.server.baseUrl, ctx.organization, `seller ${i}`),
      ),
    );
    const item = await newItem(10, 'HOT');
    const cursor = await feedCursor(api);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        adjust(sellers[i % sellers.length]?.api ?? api, item.id, {
          available: -1,
          sold: 1,
          reason: 'sale',
          reference: `ORD-${i}`,
        }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    const wins = responses.filter((response) => response.status === 200);
    const refusals = responses.filter((response) => response.status === 409);
    expect(
      [wins.length, refusals.length],
      responses.map((response) => `${response.status} ${response.text}`).join('\n'),
    ).toEqual([10, 40]);
    expect(statuses.filter((status) => status !== 200 && status !== 409)).toEqual([]);
    for (const refusal of refusals) expect(refusal.body).toEqual(ERROR_BODY.INSUFFICIENT_QUANTITY);
    // Each winner saw its own unit go: 9, 8, …, 0, each once.
    const answered = wins.map((win) => ItemSchema.parse(win.body).quantity.available).sort((a, b) => a - b);
    expect(answered).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);

    const { item: final, movements } = await expectInvariants(api, item.id);
    expect(final.quantity).toEqual({ available: 0, sold: 10, reserved: 0 });
    const sales = movements.filter((movement) => movement.kind === 'adjustment');
    expect(sales).toHaveLength(10);
    expect(movements).toHaveLength(11);
    // Newest first: the ledger counts down from 0 back to 9, a unit each.
    expect(sales.map((sale) => sale.after)).toEqual(
      [0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((available) => ({ available, sold: 10 - available, reserved: 0 })),
    );
    for (const sale of sales) expect(sale.delta).toEqual({ available: -1, sold: 1, reserved: 0 });
    // Each names the seller whose request won, and the winners' references are the sales' references.
    const winners = responses.flatMap((response, i) => (response.status === 200 ? [i] : []));
    expect(sales.map((sale) => sale.reference).sort()).toEqual(winners.map((i) => `ORD-${i}`).sort());
    for (const sale of sales) {
      const index = Number(sale.reference?.slice('ORD-'.length));
      expect(sale.actor).toEqual(sellers[index % sellers.length]?.actor);
    }

    // The feed, in commit order: 10 item.updated changes, counting down 9 to 0, each by the seller of that sale.
    const changes = await changesOf(cursor, item.id);
    expect(changes.map((change) => change.type)).toEqual(Array(10).fill('item.updated'));
    const feedAvailable = changes.map((change) =>
      change.type === 'item.updated' ? change.data.quantity.available : -1,
    );
    expect(feedAvailable).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    const saleActors = new Map(sales.map((sale) => [sale.after.available, sale.actor]));
    for (const [i, change] of changes.entries()) expect(change.actor).toEqual(saleActors.get(feedAvailable[i] ?? -1));
  });
});
