import { DeletedItemSchema, ItemSchema } from '@coinventory/contract';
import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { linkListing, listListings, retryJob } from '../../../src/modules/marketplace/operator.js';
import { expectStatus } from '../../support/http.js';
import { createItem } from '../../support/items.js';
import { MARKETPLACE_TOKEN, ok, secondPool, settled, wait } from '../../support/sync.js';
import { syncFixture } from '../../support/sync-fixture.js';

const fx = syncFixture();

describe('a quantity change', () => {
  it('sends exactly one PUT with the new quantity, sequence, idempotency key and token, after the response', async () => {
    const { itemId, listingId, listingRowId } = await fx.linkedItem(5);
    fx.inProcessWorker(fx.sql());
    fx.marketplace.behaviour = async () => {
      await wait(800);
      return ok();
    };

    const started = Date.now();
    await fx.patchQuantity(itemId, 3);
    const answeredIn = Date.now() - started;
    // The API answered while the marketplace was still busy (or not yet called): it did not wait for it.
    expect(answeredIn).toBeLessThan(800);
    expect(fx.marketplace.calls.filter((call) => call.answeredAt !== null)).toEqual([]);
    const queued = fx.onlyJob(await fx.jobs(listingId));
    expect(queued).toMatchObject({ kind: 'set_quantity', quantity: 3, sequence: 1, state: 'pending', attempts: 0 });

    const [job] = await settled(fx.sql(), fx.ws.organizationId, listingId);
    expect(job).toMatchObject({
      id: queued.id,
      listingId: listingRowId,
      kind: 'set_quantity',
      quantity: 3,
      sequence: 1,
      state: 'done',
      attempts: 1,
      lastError: null,
    });
    expect(job?.completedAt).toBeInstanceOf(Date);

    expect(fx.marketplace.calls).toHaveLength(1);
    const [call] = fx.marketplace.calls;
    expect(call?.method).toBe('PUT');
    expect(call?.path).toBe(`/api/listings/${listingId}/quantity`);
    expect(call?.body).toEqual({ quantity: 3, sequence: 1 });
    expect(call?.headers['idempotency-key']).toBe(queued.id);
    expect(call?.headers['x-coinventory-sequence']).toBe('1');
    expect(call?.headers.authorization).toBe(`Bearer ${MARKETPLACE_TOKEN}`);
    expect(call?.headers['content-type']).toBe('application/json');

    expect(await fx.listing(listingId)).toMatchObject({
      itemId,
      status: 'active',
      lastSyncedQuantity: 3,
      syncSequence: 1,
      deliveredSequence: 1,
      leaseOwner: null,
    });
    expect((await fx.listing(listingId))?.lastSyncedAt).toBeInstanceOf(Date);
  });

  it('sends each later change with the next sequence and a new idempotency key', async () => {
    const { itemId, listingId } = await fx.linkedItem(10);
    fx.inProcessWorker(fx.sql());
    await fx.patchQuantity(itemId, 9);
    fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    await fx.patchQuantity(itemId, 0);
    const rows = await settled(fx.sql(), fx.ws.organizationId, listingId);
    expect(rows.map((job) => [job.quantity, job.sequence, job.state])).toEqual([
      [9, 1, 'done'],
      [0, 2, 'done'],
    ]);
    expect(fx.marketplace.calls.map((call) => [call.body, call.headers['idempotency-key']])).toEqual([
      [{ quantity: 9, sequence: 1 }, rows[0]?.id],
      [{ quantity: 0, sequence: 2 }, rows[1]?.id],
    ]);
    expect((await fx.listing(listingId))?.lastSyncedQuantity).toBe(0);
  });

  it('sends no Authorization header when no token is configured', async () => {
    const { itemId, listingId } = await fx.linkedItem(2);
    fx.inProcessWorker(fx.sql(), {}, { token: null });
    await fx.patchQuantity(itemId, 1);
    await settled(fx.sql(), fx.ws.organizationId, listingId);
    expect(fx.marketplace.calls).toHaveLength(1);
    expect(fx.marketplace.calls[0]?.headers.authorization).toBeUndefined();
  });

  it('updates every active listing of the item, each on its own sequence', async () => {
    const { itemId, listingId } = await fx.linkedItem(4);
    const second = `${listingId}-b`;
    await linkListing(fx.sql(), { org: fx.ws.slug, item: itemId, listingId: second, url: null });
    fx.inProcessWorker(fx.sql());
    await fx.patchQuantity(itemId, 2);
    fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, second));
    expect(
      fx.marketplace.calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body)}`).sort(),
    ).toEqual([
      `PUT /api/listings/${listingId}-b/quantity {"quantity":2,"sequence":1}`,
      `PUT /api/listings/${listingId}/quantity {"quantity":2,"sequence":1}`,
    ]);
  });

  it('queues nothing and calls nothing when the quantity does not change', async () => {
    const { itemId, listingId } = await fx.linkedItem(7);
    const w = fx.inProcessWorker(fx.sql());

    const other = await fx.api.patch(`/items/${itemId}`, { body: { title: 'Renamed', valueInCents: 12_500 } });
    expectStatus(other, 200);
    expect(ItemSchema.parse(other.body).title).toBe('Renamed');
    const same = await fx.api.patch(`/items/${itemId}`, { body: { quantity: 7 } });
    expectStatus(same, 200);
    const sameWithOthers = await fx.api.patch(`/items/${itemId}`, { body: { quantity: 7, description: 'Toned' } });
    expectStatus(sameWithOthers, 200);

    expect(await w.drain()).toBe(0);
    expect(await fx.jobs(listingId)).toEqual([]);
    expect(fx.marketplace.calls).toEqual([]);
    expect(await fx.listing(listingId)).toMatchObject({ syncSequence: 0, deliveredSequence: 0, lastSyncedQuantity: 7 });

    // And a real change right after is sent: the silence above was not a dead worker.
    await fx.patchQuantity(itemId, 6);
    fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(fx.marketplace.calls.map((call) => call.body)).toEqual([{ quantity: 6, sequence: 1 }]);
  });

  it('queues nothing for an item without an active listing', async () => {
    const w = fx.inProcessWorker(fx.sql());
    const lonely = await createItem(fx.api, { sku: 'SYNC-LONELY', title: 'Unlisted', quantity: 3 });
    await fx.patchQuantity(lonely.id, 1);
    const { itemId, listingId } = await fx.linkedItem(3);
    await fx.sql()`UPDATE marketplace_listings SET status = 'removed' WHERE marketplace_listing_id = ${listingId}`;
    await fx.patchQuantity(itemId, 2);
    expect(await w.drain()).toBe(0);
    const [count] = await fx.sql()<{ n: number }[]>`
      SELECT count(*)::int AS n FROM marketplace_sync_jobs j
      JOIN marketplace_listings l ON l.organization_id = j.organization_id AND l.id = j.listing_id
      WHERE l.marketplace_listing_id = ${listingId}
    `;
    expect(count?.n).toBe(0);
    expect(fx.marketplace.calls).toEqual([]);
  });

  it('rolls back with its job: a refused PATCH queues nothing', async () => {
    const { itemId, listingId } = await fx.linkedItem(3);
    const w = fx.inProcessWorker(fx.sql());
    const taken = await createItem(fx.api, { sku: 'SYNC-TAKEN', title: 'Taken SKU', quantity: 1 });
    // The quantity is valid, the SKU is not: the whole update, and its sync job, are rolled back.
    const response = await fx.api.patch(`/items/${itemId}`, { body: { quantity: 1, sku: taken.sku } });
    expectStatus(response, 409);
    expect(await w.drain()).toBe(0);
    expect(await fx.jobs(listingId)).toEqual([]);
    expect(fx.marketplace.calls).toEqual([]);
  });
});

describe('a deletion', () => {
  it('sends exactly one DELETE; the listing row stays, unlinked and removed', async () => {
    const { itemId, listingId, listingRowId } = await fx.linkedItem(2);
    fx.inProcessWorker(fx.sql());
    const response = await fx.api.delete(`/items/${itemId}`);
    expectStatus(response, 200);
    expect(DeletedItemSchema.parse(response.body)).toEqual({ id: itemId, deleted: true });

    const job = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(job).toMatchObject({
      listingId: listingRowId,
      kind: 'delete_listing',
      quantity: null,
      sequence: 1,
      state: 'done',
      attempts: 1,
      lastError: null,
    });
    expect(fx.marketplace.calls).toHaveLength(1);
    const [call] = fx.marketplace.calls;
    expect(call?.method).toBe('DELETE');
    expect(call?.path).toBe(`/api/listings/${listingId}`);
    expect(call?.body).toBeNull();
    expect(call?.headers['idempotency-key']).toBe(job.id);
    expect(call?.headers['x-coinventory-sequence']).toBe('1');
    expect(call?.headers.authorization).toBe(`Bearer ${MARKETPLACE_TOKEN}`);

    expect(await fx.listing(listingId)).toMatchObject({
      id: listingRowId,
      itemId: null,
      status: 'removed',
      deliveredSequence: 1,
      leaseOwner: null,
    });
    expectStatus(await fx.api.get(`/items/${itemId}`), 404);
    const listed = (await listListings(fx.sql(), { org: fx.ws.slug })).find(
      (l) => l.marketplaceListingId === listingId,
    );
    expect(listed).toMatchObject({ itemId: null, sku: null, status: 'removed' });
  });

  it('counts a 404 from the marketplace as done: the listing was already gone', async () => {
    const { itemId, listingId } = await fx.linkedItem(2);
    fx.inProcessWorker(fx.sql());
    fx.marketplace.behaviour = () => HttpResponse.json({ error: 'not found' }, { status: 404 });
    expectStatus(await fx.api.delete(`/items/${itemId}`), 200);
    const job = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(job).toMatchObject({ kind: 'delete_listing', state: 'done', attempts: 1, lastError: null });
    expect(fx.marketplace.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `DELETE /api/listings/${listingId}`,
    ]);
    expect(await fx.listing(listingId)).toMatchObject({ itemId: null, status: 'removed' });
  });

  it('supersedes a quantity change still pending: only the DELETE is sent', async () => {
    const { itemId, listingId } = await fx.linkedItem(5);
    await fx.patchQuantity(itemId, 4);
    expectStatus(await fx.api.delete(`/items/${itemId}`), 200);
    const w = fx.worker(fx.sql());
    const rows = await settled(fx.sql(), fx.ws.organizationId, listingId);
    expect(rows.map((job) => [job.kind, job.sequence, job.state])).toEqual([
      ['set_quantity', 1, 'superseded'],
      ['delete_listing', 2, 'done'],
    ]);
    expect(fx.marketplace.calls.map((call) => `${call.method} ${call.headers['x-coinventory-sequence']}`)).toEqual([
      'DELETE 2',
    ]);
    expect(await w.drain()).toBe(0);
    expect(await fx.listing(listingId)).toMatchObject({ status: 'removed', lastSyncedQuantity: 5 });
  });
});

describe('rapid changes to one listing', () => {
  it('send only the newest when they pile up: older pending jobs are superseded', async () => {
    const { itemId, listingId } = await fx.linkedItem(10);
    const values = [9, 8, 7, 6, 5];
    for (const value of values) await fx.patchQuantity(itemId, value);
    fx.worker(fx.sql());
    const rows = await settled(fx.sql(), fx.ws.organizationId, listingId);
    expect(rows.map((job) => [job.sequence, job.quantity, job.state, job.attempts])).toEqual([
      [1, 9, 'superseded', 0],
      [2, 8, 'superseded', 0],
      [3, 7, 'superseded', 0],
      [4, 6, 'superseded', 0],
      [5, 5, 'done', 1],
    ]);
    expect(fx.marketplace.calls.map((call) => call.body)).toEqual([{ quantity: 5, sequence: 5 }]);
    expect(await fx.listing(listingId)).toMatchObject({ lastSyncedQuantity: 5, deliveredSequence: 5, syncSequence: 5 });
  });

  it('never reach the marketplace out of order, even with two live workers', async () => {
    const { itemId, listingId } = await fx.linkedItem(10);
    const other = await secondPool(fx.database);
    try {
      const a = fx.worker(fx.sql());
      const b = fx.worker(other.sql);
      fx.onSyncQueued(() => {
        a.kick();
        b.kick();
      });
      fx.marketplace.behaviour = async () => {
        await wait(30);
        return ok();
      };
      const values = [4, 3, 2, 1, 0];
      for (const value of values) await fx.patchQuantity(itemId, value);
      const rows = await settled(fx.sql(), fx.ws.organizationId, listingId);
      const last = rows.at(-1);
      expect(last).toMatchObject({ sequence: 5, quantity: 0, state: 'done' });
      expect(rows.every((job) => job.state === 'done' || job.state === 'superseded')).toBe(true);

      const sent = fx.marketplace.calls.map((call) => (call.body as { sequence: number }).sequence);
      // Strictly increasing: no older sequence after a newer one, and none twice.
      expect(sent).toEqual([...sent].sort((x, y) => x - y));
      expect(new Set(sent).size).toBe(sent.length);
      expect(sent.at(-1)).toBe(5);
      // Exactly the done jobs were sent; the superseded ones never were.
      expect(sent).toEqual(rows.filter((job) => job.state === 'done').map((job) => job.sequence));
      expect(fx.marketplace.calls.at(-1)?.body).toEqual({ quantity: 0, sequence: 5 });
      expect(await fx.listing(listingId)).toMatchObject({ lastSyncedQuantity: 0, deliveredSequence: 5 });
    } finally {
      await fx.stopWorkers();
      await other.end();
    }
  });

  it('never send an older job revived after a newer one was delivered', async () => {
    const { itemId, listingId } = await fx.linkedItem(10);
    const w = fx.inProcessWorker(fx.sql());
    fx.marketplace.behaviour = () => HttpResponse.text('bad quantity', { status: 400 });
    await fx.patchQuantity(itemId, 9);
    const dead = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(dead).toMatchObject({ state: 'dead', sequence: 1 });

    fx.marketplace.behaviour = () => ok();
    await fx.patchQuantity(itemId, 8);
    expect((await settled(fx.sql(), fx.ws.organizationId, listingId)).map((job) => job.state)).toEqual([
      'dead',
      'done',
    ]);
    expect(await retryJob(fx.sql(), { org: fx.ws.slug, job: dead.id })).toMatchObject({ state: 'pending' });
    w.kick();
    await settled(fx.sql(), fx.ws.organizationId, listingId);
    expect(await w.drain()).toBe(0);
    expect((await fx.jobs(listingId)).map((job) => [job.sequence, job.state])).toEqual([
      [1, 'superseded'],
      [2, 'done'],
    ]);
    expect(fx.marketplace.calls.map((call) => call.body)).toEqual([
      { quantity: 9, sequence: 1 },
      { quantity: 8, sequence: 2 },
    ]);
    expect((await fx.listing(listingId))?.lastSyncedQuantity).toBe(8);
  });
});
