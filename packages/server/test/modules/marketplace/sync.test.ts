import { DeletedItemSchema, ItemSchema } from '@coinventory/contract';
import { HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/connect.js';
import { issueApiKey } from '../../../src/modules/access/index.js';
import { httpMarketplaceAdapter } from '../../../src/modules/marketplace/adapters/http.js';
import { linkListing, listJobs, listListings, retryJob } from '../../../src/modules/marketplace/operator.js';
import { takeNewestJob } from '../../../src/modules/marketplace/store.js';
import type { SyncWorker } from '../../../src/modules/marketplace/worker.js';
import { EXIT, executeAdminCommand } from '../../../src/operator/index.js';
import { client, expectStatus } from '../../support/http.js';
import { type Api, createItem, insertItems } from '../../support/items.js';
import {
  type AppServer,
  crashingBefore,
  createTestDatabase,
  eventually,
  FakeMarketplace,
  type JobRow,
  jobsOf,
  leaseAsDeadWorker,
  listingOf,
  MARKETPLACE_BASE,
  MARKETPLACE_TOKEN,
  type MarketplaceCall,
  ok,
  secondPool,
  settled,
  startAppServer,
  startWorker,
  wait,
} from '../../support/sync.js';
import { createWorkspace, type TestWorkspace } from '../../support/workspace.js';

const marketplace = new FakeMarketplace();
let database: Database;
let app: AppServer;
let ws: TestWorkspace;
let api: Api;
/** What the app's sync notification does: kick the test's worker, when it has one. */
let onSyncQueued: (() => void) | undefined;
/** Workers a test started; stopped after it. */
const workers: SyncWorker[] = [];
let listingCounter = 0;

const sql = () => database.sql;

function worker(...args: Parameters<typeof startWorker>): SyncWorker {
  const started = startWorker(...args);
  workers.push(started);
  return started;
}

/** A worker that the app kicks after each committed change, as in a server process. */
function inProcessWorker(...args: Parameters<typeof startWorker>): SyncWorker {
  const started = worker(...args);
  onSyncQueued = () => started.kick();
  return started;
}

/** An item created through the API and linked to a new marketplace listing. */
async function linkedItem(quantity: number, prefix = 'L') {
  listingCounter += 1;
  const listingId = `${prefix}-${listingCounter}`;
  const item = await createItem(api, {
    sku: `SYNC-${listingCounter}`,
    title: `Morgan dollar ${listingCounter}`,
    quantity,
  });
  const linked = await linkListing(sql(), {
    org: ws.slug,
    item: item.id,
    listingId,
    url: `https://marketplace.test/l/${listingId}`,
  });
  expect(linked.itemId).toBe(item.id);
  return { itemId: item.id, listingId, listingRowId: linked.id };
}

async function patchQuantity(itemId: string, quantity: number, target: Api = api) {
  const response = await target.patch(`/items/${itemId}`, { body: { quantity } });
  expectStatus(response, 200);
  expect(ItemSchema.parse(response.body).quantity.available).toBe(quantity);
  return response;
}

const jobs = (listingId: string) => jobsOf(sql(), ws.organizationId, listingId);
const listing = (listingId: string) => listingOf(sql(), ws.organizationId, listingId);
const onlyJob = (rows: JobRow[]): JobRow => {
  expect(rows).toHaveLength(1);
  const [job] = rows;
  if (!job) throw new Error('no job');
  return job;
};

/** The one job of a listing as the database has it now, while a marketplace handler runs. */
async function jobDuringCall(listingId: string): Promise<JobRow> {
  return onlyJob(await jobs(listingId));
}

beforeAll(async () => {
  marketplace.listen();
  database = await createTestDatabase();
  ws = await createWorkspace(database.sql);
  app = await startAppServer(database.sql, () => onSyncQueued?.());
});
afterAll(async () => {
  await app?.close();
  await database?.close();
  marketplace.close();
});
beforeEach(async () => {
  // A key per test: each has its own rate-limit budget.
  const issued = await issueApiKey(sql(), {
    organizationId: ws.organizationId,
    createdBy: ws.ownerId,
    name: 'sync test',
    scopes: ['read', 'write'],
  });
  api = client(app.baseUrl, issued.key);
});
afterEach(async () => {
  onSyncQueued = undefined;
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  marketplace.reset();
  // Nothing may be left due for the next test: it would be delivered there.
  const [left] = await sql()<{ n: number }[]>`
    SELECT count(*)::int AS n FROM marketplace_sync_jobs WHERE state = 'pending'
  `;
  expect(left?.n, 'pending jobs left behind by the test').toBe(0);
});

describe('a quantity change', () => {
  it('sends exactly one PUT with the new quantity, sequence, idempotency key and token, after the response', async () => {
    const { itemId, listingId, listingRowId } = await linkedItem(5);
    inProcessWorker(sql());
    marketplace.behaviour = async () => {
      await wait(800);
      return ok();
    };

    const started = Date.now();
    await patchQuantity(itemId, 3);
    const answeredIn = Date.now() - started;
    // The API answered while the marketplace was still busy (or not yet called): it did not wait for it.
    expect(answeredIn).toBeLessThan(800);
    expect(marketplace.calls.filter((call) => call.answeredAt !== null)).toEqual([]);
    const queued = onlyJob(await jobs(listingId));
    expect(queued).toMatchObject({ kind: 'set_quantity', quantity: 3, sequence: 1, state: 'pending', attempts: 0 });

    const [job] = await settled(sql(), ws.organizationId, listingId);
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

    expect(marketplace.calls).toHaveLength(1);
    const [call] = marketplace.calls;
    expect(call?.method).toBe('PUT');
    expect(call?.path).toBe(`/api/listings/${listingId}/quantity`);
    expect(call?.body).toEqual({ quantity: 3, sequence: 1 });
    expect(call?.headers['idempotency-key']).toBe(queued.id);
    expect(call?.headers['x-coinventory-sequence']).toBe('1');
    expect(call?.headers.authorization).toBe(`Bearer ${MARKETPLACE_TOKEN}`);
    expect(call?.headers['content-type']).toBe('application/json');

    expect(await listing(listingId)).toMatchObject({
      itemId,
      status: 'active',
      lastSyncedQuantity: 3,
      syncSequence: 1,
      deliveredSequence: 1,
      leaseOwner: null,
    });
    expect((await listing(listingId))?.lastSyncedAt).toBeInstanceOf(Date);
  });

  it('sends each later change with the next sequence and a new idempotency key', async () => {
    const { itemId, listingId } = await linkedItem(10);
    inProcessWorker(sql());
    await patchQuantity(itemId, 9);
    onlyJob(await settled(sql(), ws.organizationId, listingId));
    await patchQuantity(itemId, 0);
    const rows = await settled(sql(), ws.organizationId, listingId);
    expect(rows.map((job) => [job.quantity, job.sequence, job.state])).toEqual([
      [9, 1, 'done'],
      [0, 2, 'done'],
    ]);
    expect(marketplace.calls.map((call) => [call.body, call.headers['idempotency-key']])).toEqual([
      [{ quantity: 9, sequence: 1 }, rows[0]?.id],
      [{ quantity: 0, sequence: 2 }, rows[1]?.id],
    ]);
    expect((await listing(listingId))?.lastSyncedQuantity).toBe(0);
  });

  it('sends no Authorization header when no token is configured', async () => {
    const { itemId, listingId } = await linkedItem(2);
    inProcessWorker(sql(), {}, { token: null });
    await patchQuantity(itemId, 1);
    await settled(sql(), ws.organizationId, listingId);
    expect(marketplace.calls).toHaveLength(1);
    expect(marketplace.calls[0]?.headers.authorization).toBeUndefined();
  });

  it('updates every active listing of the item, each on its own sequence', async () => {
    const { itemId, listingId } = await linkedItem(4);
    const second = `${listingId}-b`;
    await linkListing(sql(), { org: ws.slug, item: itemId, listingId: second, url: null });
    inProcessWorker(sql());
    await patchQuantity(itemId, 2);
    onlyJob(await settled(sql(), ws.organizationId, listingId));
    onlyJob(await settled(sql(), ws.organizationId, second));
    expect(marketplace.calls.map((call) => `${call.method} ${call.path} ${JSON.stringify(call.body)}`).sort()).toEqual([
      `PUT /api/listings/${listingId}-b/quantity {"quantity":2,"sequence":1}`,
      `PUT /api/listings/${listingId}/quantity {"quantity":2,"sequence":1}`,
    ]);
  });

  it('queues nothing and calls nothing when the quantity does not change', async () => {
    const { itemId, listingId } = await linkedItem(7);
    const w = inProcessWorker(sql());

    const other = await api.patch(`/items/${itemId}`, { body: { title: 'Renamed', valueInCents: 12_500 } });
    expectStatus(other, 200);
    expect(ItemSchema.parse(other.body).title).toBe('Renamed');
    const same = await api.patch(`/items/${itemId}`, { body: { quantity: 7 } });
    expectStatus(same, 200);
    const sameWithOthers = await api.patch(`/items/${itemId}`, { body: { quantity: 7, description: 'Toned' } });
    expectStatus(sameWithOthers, 200);

    expect(await w.drain()).toBe(0);
    expect(await jobs(listingId)).toEqual([]);
    expect(marketplace.calls).toEqual([]);
    expect(await listing(listingId)).toMatchObject({ syncSequence: 0, deliveredSequence: 0, lastSyncedQuantity: 7 });

    // And a real change right after is sent: the silence above was not a dead worker.
    await patchQuantity(itemId, 6);
    onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(marketplace.calls.map((call) => call.body)).toEqual([{ quantity: 6, sequence: 1 }]);
  });

  it('queues nothing for an item without an active listing', async () => {
    const w = inProcessWorker(sql());
    const lonely = await createItem(api, { sku: 'SYNC-LONELY', title: 'Unlisted', quantity: 3 });
    await patchQuantity(lonely.id, 1);
    const { itemId, listingId } = await linkedItem(3);
    await sql()`UPDATE marketplace_listings SET status = 'removed' WHERE marketplace_listing_id = ${listingId}`;
    await patchQuantity(itemId, 2);
    expect(await w.drain()).toBe(0);
    const [count] = await sql()<{ n: number }[]>`
      SELECT count(*)::int AS n FROM marketplace_sync_jobs j
      JOIN marketplace_listings l ON l.organization_id = j.organization_id AND l.id = j.listing_id
      WHERE l.marketplace_listing_id = ${listingId}
    `;
    expect(count?.n).toBe(0);
    expect(marketplace.calls).toEqual([]);
  });

  it('rolls back with its job: a refused PATCH queues nothing', async () => {
    const { itemId, listingId } = await linkedItem(3);
    const w = inProcessWorker(sql());
    const taken = await createItem(api, { sku: 'SYNC-TAKEN', title: 'Taken SKU', quantity: 1 });
    // The quantity is valid, the SKU is not: the whole update, and its sync job, are rolled back.
    const response = await api.patch(`/items/${itemId}`, { body: { quantity: 1, sku: taken.sku } });
    expectStatus(response, 409);
    expect(await w.drain()).toBe(0);
    expect(await jobs(listingId)).toEqual([]);
    expect(marketplace.calls).toEqual([]);
  });
});

describe('a deletion', () => {
  it('sends exactly one DELETE; the listing row stays, unlinked and removed', async () => {
    const { itemId, listingId, listingRowId } = await linkedItem(2);
    inProcessWorker(sql());
    const response = await api.delete(`/items/${itemId}`);
    expectStatus(response, 200);
    expect(DeletedItemSchema.parse(response.body)).toEqual({ id: itemId, deleted: true });

    const job = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(job).toMatchObject({
      listingId: listingRowId,
      kind: 'delete_listing',
      quantity: null,
      sequence: 1,
      state: 'done',
      attempts: 1,
      lastError: null,
    });
    expect(marketplace.calls).toHaveLength(1);
    const [call] = marketplace.calls;
    expect(call?.method).toBe('DELETE');
    expect(call?.path).toBe(`/api/listings/${listingId}`);
    expect(call?.body).toBeNull();
    expect(call?.headers['idempotency-key']).toBe(job.id);
    expect(call?.headers['x-coinventory-sequence']).toBe('1');
    expect(call?.headers.authorization).toBe(`Bearer ${MARKETPLACE_TOKEN}`);

    expect(await listing(listingId)).toMatchObject({
      id: listingRowId,
      itemId: null,
      status: 'removed',
      deliveredSequence: 1,
      leaseOwner: null,
    });
    expectStatus(await api.get(`/items/${itemId}`), 404);
    const listed = (await listListings(sql(), { org: ws.slug })).find((l) => l.marketplaceListingId === listingId);
    expect(listed).toMatchObject({ itemId: null, sku: null, status: 'removed' });
  });

  it('counts a 404 from the marketplace as done: the listing was already gone', async () => {
    const { itemId, listingId } = await linkedItem(2);
    inProcessWorker(sql());
    marketplace.behaviour = () => HttpResponse.json({ error: 'not found' }, { status: 404 });
    expectStatus(await api.delete(`/items/${itemId}`), 200);
    const job = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(job).toMatchObject({ kind: 'delete_listing', state: 'done', attempts: 1, lastError: null });
    expect(marketplace.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      `DELETE /api/listings/${listingId}`,
    ]);
    expect(await listing(listingId)).toMatchObject({ itemId: null, status: 'removed' });
  });

  it('supersedes a quantity change still pending: only the DELETE is sent', async () => {
    const { itemId, listingId } = await linkedItem(5);
    await patchQuantity(itemId, 4);
    expectStatus(await api.delete(`/items/${itemId}`), 200);
    const w = worker(sql());
    const rows = await settled(sql(), ws.organizationId, listingId);
    expect(rows.map((job) => [job.kind, job.sequence, job.state])).toEqual([
      ['set_quantity', 1, 'superseded'],
      ['delete_listing', 2, 'done'],
    ]);
    expect(marketplace.calls.map((call) => `${call.method} ${call.headers['x-coinventory-sequence']}`)).toEqual([
      'DELETE 2',
    ]);
    expect(await w.drain()).toBe(0);
    expect(await listing(listingId)).toMatchObject({ status: 'removed', lastSyncedQuantity: 5 });
  });
});

describe('a marketplace that is down for a while', () => {
  it('is retried with growing backoff until it answers; nothing is lost', async () => {
    const { itemId, listingId } = await linkedItem(8);
    const seen: JobRow[] = [];
    marketplace.behaviour = async (_call, n) => {
      if (n > 1) seen.push(await jobDuringCall(listingId));
      return n <= 3 ? HttpResponse.text('down for maintenance', { status: 503 }) : ok();
    };
    // No jitter (random = 1): the delays are exactly 40, 80 and 160 ms.
    inProcessWorker(sql(), { baseDelayMs: 40, maxDelayMs: 1000, random: () => 1 });
    await patchQuantity(itemId, 6);

    const job = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(job).toMatchObject({ state: 'done', attempts: 4, lastError: null, quantity: 6 });
    expect(marketplace.calls).toHaveLength(4);
    expect(new Set(marketplace.calls.map((call) => call.headers['idempotency-key']))).toEqual(new Set([job.id]));
    expect(marketplace.calls.every((call) => JSON.stringify(call.body) === '{"quantity":6,"sequence":1}')).toBe(true);

    // While it failed, the job stayed pending with its attempts counted and the last error kept.
    const error = `PUT /listings/${listingId}/quantity: HTTP 503 down for maintenance`;
    expect(seen.map((row) => [row.state, row.attempts, row.lastError])).toEqual([
      ['pending', 1, error],
      ['pending', 2, error],
      ['pending', 3, error],
    ]);
    expect(seen.map((row) => row.nextAttemptAt.getTime() - row.updatedAt.getTime())).toEqual([40, 80, 160]);
    const gaps = marketplace.calls.slice(1).map((call, i) => call.receivedAt - (marketplace.calls[i]?.receivedAt ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(40);
    expect(gaps[1]).toBeGreaterThanOrEqual(80);
    expect(gaps[2]).toBeGreaterThanOrEqual(160);
    expect((await listing(listingId))?.lastSyncedQuantity).toBe(6);
  });

  it('retries network errors the same way', async () => {
    const { itemId, listingId } = await linkedItem(8);
    const seen: JobRow[] = [];
    marketplace.behaviour = async (_call, n) => {
      if (n > 1) seen.push(await jobDuringCall(listingId));
      return n <= 2 ? HttpResponse.error() : ok();
    };
    inProcessWorker(sql());
    await patchQuantity(itemId, 1);
    const job = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(job).toMatchObject({ state: 'done', attempts: 3, lastError: null });
    expect(marketplace.calls).toHaveLength(3);
    expect(seen.map((row) => [row.state, row.attempts])).toEqual([
      ['pending', 1],
      ['pending', 2],
    ]);
    for (const row of seen) expect(row.lastError).toMatch(/^network error: /);
    expect((await listing(listingId))?.lastSyncedQuantity).toBe(1);
  });

  it('waits at least Retry-After after a 429', async () => {
    const { itemId, listingId } = await linkedItem(8);
    const seen: JobRow[] = [];
    marketplace.behaviour = async (_call, n) => {
      if (n > 1) seen.push(await jobDuringCall(listingId));
      return n === 1
        ? HttpResponse.text('slow down', { status: 429, headers: { 'Retry-After': '1' } })
        : new HttpResponse(null, { status: 204 });
    };
    inProcessWorker(sql());
    await patchQuantity(itemId, 2);
    const job = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(job).toMatchObject({ state: 'done', attempts: 2, lastError: null });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.lastError).toBe(`PUT /listings/${listingId}/quantity: HTTP 429 slow down`);
    // The backoff (at most 100 ms here) is overruled by the marketplace's one second.
    expect((seen[0]?.nextAttemptAt.getTime() ?? 0) - (seen[0]?.updatedAt.getTime() ?? 0)).toBe(1000);
    const [first, second] = marketplace.calls;
    expect(first?.answeredAt).not.toBeNull();
    expect((second?.receivedAt ?? 0) - (first?.answeredAt ?? 0)).toBeGreaterThanOrEqual(1000);
  });
});

describe('a crash', () => {
  it('between commit and delivery: the job is delivered once a worker runs again', async () => {
    const { itemId, listingId } = await linkedItem(9);
    // A server process without a worker, that stops right after the commit.
    const doomed = await startAppServer(sql(), () => {});
    await patchQuantity(itemId, 4, client(doomed.baseUrl, (await issueApiKey(sql(), keyFor('doomed'))).key));
    await doomed.close();
    const pending = onlyJob(await jobs(listingId));
    expect(pending).toMatchObject({ state: 'pending', attempts: 0, quantity: 4 });
    await wait(100);
    expect(marketplace.calls).toEqual([]);

    // The restarted process: a new pool on the same database, and its worker.
    const restarted = await secondPool(database);
    try {
      worker(restarted.sql);
      const job = onlyJob(await settled(sql(), ws.organizationId, listingId));
      expect(job).toMatchObject({ id: pending.id, state: 'done', attempts: 1 });
      expect(marketplace.calls.map((call) => [call.body, call.headers['idempotency-key']])).toEqual([
        [{ quantity: 4, sequence: 1 }, pending.id],
      ]);
      expect((await listing(listingId))?.lastSyncedQuantity).toBe(4);
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      await restarted.end();
    }
  });

  it('of a worker holding a lease: another delivers the job once the lease lapses', async () => {
    const { itemId, listingId, listingRowId } = await linkedItem(9);
    await patchQuantity(itemId, 5);
    const leasedAt = Date.now();
    const claimed = await leaseAsDeadWorker(sql(), 300);
    expect(claimed?.listingId).toBe(listingRowId);
    expect((await listing(listingId))?.leaseOwner).toBe('dead-worker');

    const live = worker(sql());
    const job = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(job).toMatchObject({ state: 'done', attempts: 1, quantity: 5 });
    expect(marketplace.calls).toHaveLength(1);
    expect((marketplace.calls[0]?.receivedAt ?? 0) - leasedAt).toBeGreaterThanOrEqual(300);
    expect(await listing(listingId)).toMatchObject({ leaseOwner: null, lastSyncedQuantity: 5, deliveredSequence: 1 });
    expect(await live.drain()).toBe(0);
  });

  it('during delivery: the request is sent again with the same idempotency key (at least once)', async () => {
    const { itemId, listingId } = await linkedItem(9);
    await patchQuantity(itemId, 2);
    // A worker that claims, sends the request, and dies before recording it.
    const claimed = await leaseAsDeadWorker(sql(), 300);
    if (!claimed) throw new Error('nothing to claim');
    const job = await takeNewestJob(sql(), claimed);
    if (!job) throw new Error('no job taken');
    await httpMarketplaceAdapter({ baseUrl: MARKETPLACE_BASE, token: MARKETPLACE_TOKEN, timeoutMs: 2000 }).setQuantity({
      organizationId: job.organizationId,
      marketplaceListingId: job.marketplaceListingId,
      idempotencyKey: job.id,
      sequence: job.sequence,
      quantity: job.quantity ?? -1,
    });
    expect(onlyJob(await jobs(listingId))).toMatchObject({ state: 'pending', attempts: 0 });

    worker(sql());
    const done = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(done).toMatchObject({ id: job.id, state: 'done', attempts: 1 });
    expect(marketplace.calls.map((call) => [call.body, call.headers['idempotency-key']])).toEqual([
      [{ quantity: 2, sequence: 1 }, job.id],
      [{ quantity: 2, sequence: 1 }, job.id],
    ]);
  });
});

describe('a worker that dies after the marketplace accepted a job, before recording it', () => {
  /*
   * completeJob records the job as done and moves its listing forward in one statement, so the only crash left is
   * before that statement: the job stays pending under the dead worker's lease and is delivered again once the lease
   * lapses (at-least-once, with the same Idempotency-Key). An older job revived meanwhile must still not be sent.
   */
  it('redelivers the newer job with the same idempotency key, and never sends an older one after it', async () => {
    const { itemId, listingId } = await linkedItem(10);
    marketplace.behaviour = () => HttpResponse.text('bad quantity', { status: 400 });
    await patchQuantity(itemId, 9);
    expect(await worker(sql(), {}, { autostart: false }).drain()).toBe(1);
    const [dead] = await jobs(listingId);
    expect(dead).toMatchObject({ sequence: 1, state: 'dead' });

    marketplace.behaviour = () => ok();
    await patchQuantity(itemId, 8);
    // This worker's process dies right after the marketplace accepted sequence 2, before it could record that.
    const dying = crashingBefore(sql(), "SET state = 'done'");
    void startWorker(dying.sql, { leaseMs: 300 }, { autostart: false }).drain();
    await eventually(
      async () => marketplace.calls.length,
      (count) => count === 2 && dying.crashed(),
      { what: 'sequence 2 to reach the marketplace' },
    );
    expect((await jobs(listingId))[1]).toMatchObject({ sequence: 2, state: 'pending' });

    // The operator revives the old dead job; a live worker picks the listing up once the dead lease lapses.
    if (!dead) throw new Error('no dead job');
    await retryJob(sql(), { org: ws.slug, job: dead.id });
    worker(sql());
    await settled(sql(), ws.organizationId, listingId);
    expect(marketplace.calls.map((call) => call.body)).toEqual([
      { quantity: 9, sequence: 1 },
      { quantity: 8, sequence: 2 },
      { quantity: 8, sequence: 2 },
    ]);
    const [, first, again] = marketplace.calls;
    expect(again?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect((await jobs(listingId)).map((job) => [job.sequence, job.state])).toEqual([
      [1, 'superseded'],
      [2, 'done'],
    ]);
    expect(await listing(listingId)).toMatchObject({ lastSyncedQuantity: 8, deliveredSequence: 2 });
  });
});

describe('two workers on one database', () => {
  it('deliver each job exactly once', async () => {
    const count = 20;
    const skus = Array.from({ length: count }, (_, i) => `SYNC-PAIR-${i}`);
    const ids = await insertItems(
      sql(),
      ws,
      skus.map((sku) => ({ sku, title: sku, available: 10 })),
    );
    const listingIds = skus.map((sku) => `P-${sku}`);
    for (const [i, itemId] of ids.entries()) {
      await linkListing(sql(), { org: ws.slug, item: itemId, listingId: listingIds[i] ?? '', url: null });
    }
    // New quantities 100…119: each differs from the 10 the items hold.
    for (const [i, itemId] of ids.entries()) await patchQuantity(itemId, 100 + i);

    marketplace.behaviour = async () => {
      await wait(15);
      return ok();
    };
    const other = await secondPool(database);
    try {
      const a = worker(sql(), {}, { autostart: false });
      const b = worker(other.sql, {}, { autostart: false });
      const [handledA, handledB] = await Promise.all([a.drain(), b.drain()]);
      expect(handledA + handledB).toBe(count);
      expect(handledA).toBeGreaterThan(0);
      expect(handledB).toBeGreaterThan(0);
    } finally {
      await other.end();
    }

    expect(marketplace.calls).toHaveLength(count);
    expect(marketplace.calls.map((call) => call.listingId).sort()).toEqual([...listingIds].sort());
    expect(new Set(marketplace.calls.map((call) => call.headers['idempotency-key'])).size).toBe(count);
    for (const call of marketplace.calls) {
      const i = listingIds.indexOf(call.listingId);
      expect(call.body).toEqual({ quantity: 100 + i, sequence: 1 });
    }
    const [states] = await sql()<{ done: number; other: number }[]>`
      SELECT count(*) FILTER (WHERE state = 'done' AND attempts = 1)::int AS done,
             count(*) FILTER (WHERE NOT (state = 'done' AND attempts = 1))::int AS other
      FROM marketplace_sync_jobs WHERE marketplace_listing_id LIKE 'P-SYNC-PAIR-%'
    `;
    expect(states).toEqual({ done: count, other: 0 });
  });
});

describe('rapid changes to one listing', () => {
  it('send only the newest when they pile up: older pending jobs are superseded', async () => {
    const { itemId, listingId } = await linkedItem(10);
    const values = [9, 8, 7, 6, 5];
    for (const value of values) await patchQuantity(itemId, value);
    worker(sql());
    const rows = await settled(sql(), ws.organizationId, listingId);
    expect(rows.map((job) => [job.sequence, job.quantity, job.state, job.attempts])).toEqual([
      [1, 9, 'superseded', 0],
      [2, 8, 'superseded', 0],
      [3, 7, 'superseded', 0],
      [4, 6, 'superseded', 0],
      [5, 5, 'done', 1],
    ]);
    expect(marketplace.calls.map((call) => call.body)).toEqual([{ quantity: 5, sequence: 5 }]);
    expect(await listing(listingId)).toMatchObject({ lastSyncedQuantity: 5, deliveredSequence: 5, syncSequence: 5 });
  });

  it('never reach the marketplace out of order, even with two live workers', async () => {
    const { itemId, listingId } = await linkedItem(10);
    const other = await secondPool(database);
    try {
      const a = worker(sql());
      const b = worker(other.sql);
      onSyncQueued = () => {
        a.kick();
        b.kick();
      };
      marketplace.behaviour = async () => {
        await wait(30);
        return ok();
      };
      const values = [4, 3, 2, 1, 0];
      for (const value of values) await patchQuantity(itemId, value);
      const rows = await settled(sql(), ws.organizationId, listingId);
      const last = rows.at(-1);
      expect(last).toMatchObject({ sequence: 5, quantity: 0, state: 'done' });
      expect(rows.every((job) => job.state === 'done' || job.state === 'superseded')).toBe(true);

      const sent = marketplace.calls.map((call) => (call.body as { sequence: number }).sequence);
      // Strictly increasing: no older sequence after a newer one, and none twice.
      expect(sent).toEqual([...sent].sort((x, y) => x - y));
      expect(new Set(sent).size).toBe(sent.length);
      expect(sent.at(-1)).toBe(5);
      // Exactly the done jobs were sent; the superseded ones never were.
      expect(sent).toEqual(rows.filter((job) => job.state === 'done').map((job) => job.sequence));
      expect(marketplace.calls.at(-1)?.body).toEqual({ quantity: 0, sequence: 5 });
      expect(await listing(listingId)).toMatchObject({ lastSyncedQuantity: 0, deliveredSequence: 5 });
    } finally {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      await other.end();
    }
  });

  it('never send an older job revived after a newer one was delivered', async () => {
    const { itemId, listingId } = await linkedItem(10);
    const w = inProcessWorker(sql());
    marketplace.behaviour = () => HttpResponse.text('bad quantity', { status: 400 });
    await patchQuantity(itemId, 9);
    const dead = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(dead).toMatchObject({ state: 'dead', sequence: 1 });

    marketplace.behaviour = () => ok();
    await patchQuantity(itemId, 8);
    expect((await settled(sql(), ws.organizationId, listingId)).map((job) => job.state)).toEqual(['dead', 'done']);
    expect(await retryJob(sql(), { org: ws.slug, job: dead.id })).toMatchObject({ state: 'pending' });
    w.kick();
    await settled(sql(), ws.organizationId, listingId);
    expect(await w.drain()).toBe(0);
    expect((await jobs(listingId)).map((job) => [job.sequence, job.state])).toEqual([
      [1, 'superseded'],
      [2, 'done'],
    ]);
    expect(marketplace.calls.map((call) => call.body)).toEqual([
      { quantity: 9, sequence: 1 },
      { quantity: 8, sequence: 2 },
    ]);
    expect((await listing(listingId))?.lastSyncedQuantity).toBe(8);
  });
});

describe('a permanently failing listing', () => {
  it('is dead after maxAttempts with its error kept, shown by sync list, and delivered after sync retry', async () => {
    const { itemId, listingId } = await linkedItem(3);
    const w = inProcessWorker(sql());
    marketplace.behaviour = () => HttpResponse.text('internal trouble', { status: 500 });
    await patchQuantity(itemId, 1);
    const dead = onlyJob(await settled(sql(), ws.organizationId, listingId));
    const error = `PUT /listings/${listingId}/quantity: HTTP 500 internal trouble`;
    expect(dead).toMatchObject({ state: 'dead', attempts: 4, lastError: error });
    expect(dead.completedAt).toBeInstanceOf(Date);
    expect(marketplace.calls).toHaveLength(4);

    // Visible to the operator.
    const listed = await listJobs(sql(), { org: ws.slug, state: 'dead', limit: 50 });
    expect(listed.filter((job) => job.id === dead.id)).toMatchObject([
      { state: 'dead', attempts: 4, lastError: error, marketplaceListingId: listingId },
    ]);
    const json = await executeAdminCommand(['sync', 'list', '--org', ws.slug, '--state', 'dead', '--json'], sql());
    expect(json.exitCode).toBe(EXIT.ok);
    const parsed = JSON.parse(json.stdout) as { id: string; state: string; attempts: number; lastError: string }[];
    expect(parsed.find((job) => job.id === dead.id)).toMatchObject({ state: 'dead', attempts: 4, lastError: error });
    const text = await executeAdminCommand(['sync', 'list', '--org', ws.slug, '--state', 'dead'], sql());
    expect(text.stdout).toContain(dead.id);
    expect(text.stdout).toContain(error);

    // Dead stays dead, even once the marketplace is back.
    marketplace.behaviour = () => ok();
    expect(await w.drain()).toBe(0);
    expect(marketplace.calls).toHaveLength(4);

    const retried = await executeAdminCommand(['sync', 'retry', '--org', ws.slug, '--job', dead.id], sql());
    expect(retried).toEqual({
      exitCode: EXIT.ok,
      stdout: `Sync job ${dead.id} is pending again; the worker will deliver it shortly.\n`,
      stderr: '',
    });
    w.kick();
    const done = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(done).toMatchObject({ id: dead.id, state: 'done', attempts: 1, lastError: null });
    expect(marketplace.calls).toHaveLength(5);
    expect(marketplace.calls[4]?.body).toEqual({ quantity: 1, sequence: 1 });
    expect(marketplace.calls[4]?.headers['idempotency-key']).toBe(dead.id);
    expect((await listing(listingId))?.lastSyncedQuantity).toBe(1);

    // Only dead jobs are retried.
    const again = await executeAdminCommand(['sync', 'retry', '--org', ws.slug, '--job', dead.id], sql());
    expect(again).toEqual({
      exitCode: EXIT.refused,
      stdout: '',
      stderr: `Sync job ${dead.id} is done, not dead; only dead jobs are retried.\n`,
    });
  });

  it('is dead at once on a refusal that is not retried (400), and retryJob brings it back', async () => {
    const { itemId, listingId } = await linkedItem(3);
    const w = inProcessWorker(sql());
    marketplace.behaviour = () => HttpResponse.text('quantity exceeds listing cap', { status: 400 });
    await patchQuantity(itemId, 2);
    const dead = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(dead).toMatchObject({
      state: 'dead',
      attempts: 1,
      lastError: `PUT /listings/${listingId}/quantity: HTTP 400 quantity exceeds listing cap`,
    });
    expect(marketplace.calls).toHaveLength(1);
    expect((await listing(listingId))?.lastSyncedQuantity).toBe(3);

    marketplace.behaviour = () => ok();
    const retried = await retryJob(sql(), { org: ws.slug, job: dead.id });
    expect(retried).toMatchObject({ id: dead.id, state: 'pending', attempts: 0 });
    w.kick();
    const done = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(done).toMatchObject({ state: 'done', attempts: 1, lastError: null });
    expect(marketplace.calls.map((call: MarketplaceCall) => call.body)).toEqual([
      { quantity: 2, sequence: 1 },
      { quantity: 2, sequence: 1 },
    ]);
    expect((await listing(listingId))?.lastSyncedQuantity).toBe(2);
  });

  it('is dead at once when the marketplace has no such listing (404 on PUT)', async () => {
    const { itemId, listingId } = await linkedItem(3);
    inProcessWorker(sql());
    marketplace.behaviour = () => new HttpResponse(null, { status: 404 });
    await patchQuantity(itemId, 2);
    const dead = onlyJob(await settled(sql(), ws.organizationId, listingId));
    expect(dead).toMatchObject({
      state: 'dead',
      attempts: 1,
      lastError: `PUT /listings/${listingId}/quantity: HTTP 404`,
    });
    expect(marketplace.calls).toHaveLength(1);
  });
});

function keyFor(name: string) {
  return {
    organizationId: ws.organizationId,
    createdBy: ws.ownerId,
    name,
    scopes: ['read', 'write'] as ('read' | 'write')[],
  };
}
