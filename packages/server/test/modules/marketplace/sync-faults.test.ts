import { HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../src/modules/access/index.js';
import { httpMarketplaceAdapter } from '../../../src/modules/marketplace/adapters/http.js';
import { linkListing, listJobs, retryJob } from '../../../src/modules/marketplace/operator.js';
import { takeNewestJob } from '../../../src/modules/marketplace/store.js';
import { EXIT, executeOperatorCommand } from '../../../src/operator/index.js';
import { client } from '../../support/http.js';
import { insertItems } from '../../support/items.js';
import {
  crashingBefore,
  eventually,
  FAST_WORKER,
  type JobRow,
  leaseAsDeadWorker,
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
import { syncFixture } from '../../support/sync-fixture.js';

/** Marketplace sync when things fail: the marketplace down, a crash, a worker dying mid-job, two workers, a dead job. */

const fx = syncFixture();

describe('a marketplace that is down for a while', () => {
  it('is retried with growing backoff until it answers; nothing is lost', async () => {
    const { itemId, listingId } = await fx.linkedItem(8);
    const seen: JobRow[] = [];
    fx.marketplace.behaviour = async (_call, n) => {
      if (n > 1) seen.push(await fx.jobDuringCall(listingId));
      return n <= 3 ? HttpResponse.text('down for maintenance', { status: 503 }) : ok();
    };
    // No jitter (random = 1): the delays are exactly 40, 80 and 160 ms.
    fx.inProcessWorker(fx.sql(), { baseDelayMs: 40, maxDelayMs: 1000, random: () => 1 });
    await fx.patchQuantity(itemId, 6);

    const job = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(job).toMatchObject({ state: 'done', attempts: 4, lastError: null, quantity: 6 });
    expect(fx.marketplace.calls).toHaveLength(4);
    expect(new Set(fx.marketplace.calls.map((call) => call.headers['idempotency-key']))).toEqual(new Set([job.id]));
    expect(fx.marketplace.calls.every((call) => JSON.stringify(call.body) === '{"quantity":6,"sequence":1}')).toBe(
      true,
    );

    // While it failed, the job stayed pending with its attempts counted and the last error kept.
    const error = `PUT /listings/${listingId}/quantity: HTTP 503 down for maintenance`;
    expect(seen.map((row) => [row.state, row.attempts, row.lastError])).toEqual([
      ['pending', 1, error],
      ['pending', 2, error],
      ['pending', 3, error],
    ]);
    expect(seen.map((row) => row.nextAttemptAt.getTime() - row.updatedAt.getTime())).toEqual([40, 80, 160]);
    const gaps = fx.marketplace.calls
      .slice(1)
      .map((call, i) => call.receivedAt - (fx.marketplace.calls[i]?.receivedAt ?? 0));
    expect(gaps[0]).toBeGreaterThanOrEqual(40);
    expect(gaps[1]).toBeGreaterThanOrEqual(80);
    expect(gaps[2]).toBeGreaterThanOrEqual(160);
    expect((await fx.listing(listingId))?.lastSyncedQuantity).toBe(6);
  });

  it('retries network errors the same way', async () => {
    const { itemId, listingId } = await fx.linkedItem(8);
    const seen: JobRow[] = [];
    fx.marketplace.behaviour = async (_call, n) => {
      if (n > 1) seen.push(await fx.jobDuringCall(listingId));
      return n <= 2 ? HttpResponse.error() : ok();
    };
    fx.inProcessWorker(fx.sql());
    await fx.patchQuantity(itemId, 1);
    const job = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(job).toMatchObject({ state: 'done', attempts: 3, lastError: null });
    expect(fx.marketplace.calls).toHaveLength(3);
    expect(seen.map((row) => [row.state, row.attempts])).toEqual([
      ['pending', 1],
      ['pending', 2],
    ]);
    for (const row of seen) expect(row.lastError).toMatch(/^network error: /);
    expect((await fx.listing(listingId))?.lastSyncedQuantity).toBe(1);
  });

  it('waits at least Retry-After after a 429', async () => {
    const { itemId, listingId } = await fx.linkedItem(8);
    const seen: JobRow[] = [];
    fx.marketplace.behaviour = async (_call, n) => {
      if (n > 1) seen.push(await fx.jobDuringCall(listingId));
      return n === 1
        ? HttpResponse.text('slow down', { status: 429, headers: { 'Retry-After': '1' } })
        : new HttpResponse(null, { status: 204 });
    };
    fx.inProcessWorker(fx.sql());
    await fx.patchQuantity(itemId, 2);
    const job = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(job).toMatchObject({ state: 'done', attempts: 2, lastError: null });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.lastError).toBe(`PUT /listings/${listingId}/quantity: HTTP 429 slow down`);
    // The backoff (at most 100 ms here) is overruled by the marketplace's one second.
    expect((seen[0]?.nextAttemptAt.getTime() ?? 0) - (seen[0]?.updatedAt.getTime() ?? 0)).toBe(1000);
    const [first, second] = fx.marketplace.calls;
    expect(first?.answeredAt).not.toBeNull();
    expect((second?.receivedAt ?? 0) - (first?.answeredAt ?? 0)).toBeGreaterThanOrEqual(1000);
  });
});

describe('a crash', () => {
  it('between commit and delivery: the job is delivered once a worker runs again', async () => {
    const { itemId, listingId } = await fx.linkedItem(9);
    // A server process without a worker, that stops right after the commit.
    const doomed = await startAppServer(fx.sql(), () => {});
    await fx.patchQuantity(itemId, 4, client(doomed.baseUrl, (await issueApiKey(fx.sql(), fx.keyFor('doomed'))).key));
    await doomed.close();
    const pending = fx.onlyJob(await fx.jobs(listingId));
    expect(pending).toMatchObject({ state: 'pending', attempts: 0, quantity: 4 });
    await wait(100);
    expect(fx.marketplace.calls).toEqual([]);

    // The restarted process: a new pool on the same database, and its worker.
    const restarted = await secondPool(fx.database);
    try {
      fx.worker(restarted.sql);
      const job = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
      expect(job).toMatchObject({ id: pending.id, state: 'done', attempts: 1 });
      expect(fx.marketplace.calls.map((call) => [call.body, call.headers['idempotency-key']])).toEqual([
        [{ quantity: 4, sequence: 1 }, pending.id],
      ]);
      expect((await fx.listing(listingId))?.lastSyncedQuantity).toBe(4);
    } finally {
      await fx.stopWorkers();
      await restarted.end();
    }
  });

  it('of a worker holding a lease: another delivers the job once the lease lapses', async () => {
    const { itemId, listingId, listingRowId } = await fx.linkedItem(9);
    await fx.patchQuantity(itemId, 5);
    const leasedAt = Date.now();
    const claimed = await leaseAsDeadWorker(fx.sql(), 300);
    expect(claimed?.listingId).toBe(listingRowId);
    expect((await fx.listing(listingId))?.leaseOwner).toBe('dead-worker');

    const live = fx.worker(fx.sql());
    const job = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(job).toMatchObject({ state: 'done', attempts: 1, quantity: 5 });
    expect(fx.marketplace.calls).toHaveLength(1);
    expect((fx.marketplace.calls[0]?.receivedAt ?? 0) - leasedAt).toBeGreaterThanOrEqual(300);
    expect(await fx.listing(listingId)).toMatchObject({
      leaseOwner: null,
      lastSyncedQuantity: 5,
      deliveredSequence: 1,
    });
    expect(await live.drain()).toBe(0);
  });

  it('during delivery: the request is sent again with the same idempotency key (at least once)', async () => {
    const { itemId, listingId } = await fx.linkedItem(9);
    await fx.patchQuantity(itemId, 2);
    // A worker that claims, sends the request, and dies before recording it.
    const claimed = await leaseAsDeadWorker(fx.sql(), 300);
    if (!claimed) throw new Error('nothing to claim');
    const job = await takeNewestJob(fx.sql(), claimed);
    if (!job) throw new Error('no job taken');
    await httpMarketplaceAdapter({ baseUrl: MARKETPLACE_BASE, token: MARKETPLACE_TOKEN, timeoutMs: 2000 }).setQuantity({
      organizationId: job.organizationId,
      marketplaceListingId: job.marketplaceListingId,
      idempotencyKey: job.id,
      sequence: job.sequence,
      quantity: job.quantity ?? -1,
    });
    expect(fx.onlyJob(await fx.jobs(listingId))).toMatchObject({ state: 'pending', attempts: 0 });

    fx.worker(fx.sql());
    const done = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(done).toMatchObject({ id: job.id, state: 'done', attempts: 1 });
    expect(fx.marketplace.calls.map((call) => [call.body, call.headers['idempotency-key']])).toEqual([
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
    const { itemId, listingId } = await fx.linkedItem(10);
    fx.marketplace.behaviour = () => HttpResponse.text('bad quantity', { status: 400 });
    await fx.patchQuantity(itemId, 9);
    expect(await fx.worker(fx.sql(), {}, { autostart: false }).drain()).toBe(1);
    const [dead] = await fx.jobs(listingId);
    expect(dead).toMatchObject({ sequence: 1, state: 'dead' });

    fx.marketplace.behaviour = () => ok();
    await fx.patchQuantity(itemId, 8);
    // This worker's process dies right after the marketplace accepted sequence 2, before it could record that.
    const dying = crashingBefore(fx.sql(), "SET state = 'done'");
    void startWorker(dying.sql, { leaseMs: 300 }, { autostart: false }).drain();
    await eventually(
      async () => fx.marketplace.calls.length,
      (count) => count === 2 && dying.crashed(),
      { what: 'sequence 2 to reach the marketplace' },
    );
    expect((await fx.jobs(listingId))[1]).toMatchObject({ sequence: 2, state: 'pending' });

    // The operator revives the old dead job; a live worker picks the listing up once the dead lease lapses.
    if (!dead) throw new Error('no dead job');
    await retryJob(fx.sql(), { org: fx.ws.slug, job: dead.id });
    fx.worker(fx.sql());
    await settled(fx.sql(), fx.ws.organizationId, listingId);
    expect(fx.marketplace.calls.map((call) => call.body)).toEqual([
      { quantity: 9, sequence: 1 },
      { quantity: 8, sequence: 2 },
      { quantity: 8, sequence: 2 },
    ]);
    const [, first, again] = fx.marketplace.calls;
    expect(again?.headers['idempotency-key']).toBe(first?.headers['idempotency-key']);
    expect((await fx.jobs(listingId)).map((job) => [job.sequence, job.state])).toEqual([
      [1, 'superseded'],
      [2, 'done'],
    ]);
    expect(await fx.listing(listingId)).toMatchObject({ lastSyncedQuantity: 8, deliveredSequence: 2 });
  });
});

describe('two workers on one database', () => {
  it('deliver each job exactly once', async () => {
    const count = 20;
    const skus = Array.from({ length: count }, (_, i) => `SYNC-PAIR-${i}`);
    const ids = await insertItems(
      fx.sql(),
      fx.ws,
      skus.map((sku) => ({ sku, title: sku, available: 10 })),
    );
    const listingIds = skus.map((sku) => `P-${sku}`);
    for (const [i, itemId] of ids.entries()) {
      await linkListing(fx.sql(), { org: fx.ws.slug, item: itemId, listingId: listingIds[i] ?? '', url: null });
    }
    // New quantities 100…119: each differs from the 10 the items hold.
    for (const [i, itemId] of ids.entries()) await fx.patchQuantity(itemId, 100 + i);

    // The first deliveries wait until more are under way than one worker's lanes can make, so both workers are
    // delivering at once however the machine schedules them (a worker whose pool connects late would otherwise find
    // nothing left). Leases and the adapter's timeout outlast that wait, so no listing is claimed or sent twice for it.
    const together = FAST_WORKER.concurrency + 1;
    let started = 0;
    let allStarted: () => void = () => {};
    const overlap = new Promise<void>((resolve) => {
      allStarted = resolve;
    });
    fx.marketplace.behaviour = async () => {
      started += 1;
      if (started === together) allStarted();
      if (started <= together) await Promise.race([overlap, wait(20_000)]);
      await wait(15);
      return ok();
    };
    const other = await secondPool(fx.database);
    try {
      const leases = { leaseMs: 60_000 };
      const a = fx.worker(fx.sql(), leases, { autostart: false, timeoutMs: 60_000 });
      const b = fx.worker(other.sql, leases, { autostart: false, timeoutMs: 60_000 });
      const [handledA, handledB] = await Promise.all([a.drain(), b.drain()]);
      expect(handledA + handledB).toBe(count);
      expect(handledA).toBeGreaterThan(0);
      expect(handledB).toBeGreaterThan(0);
    } finally {
      await other.end();
    }

    expect(fx.marketplace.calls).toHaveLength(count);
    expect(fx.marketplace.calls.map((call) => call.listingId).sort()).toEqual([...listingIds].sort());
    expect(new Set(fx.marketplace.calls.map((call) => call.headers['idempotency-key'])).size).toBe(count);
    for (const call of fx.marketplace.calls) {
      const i = listingIds.indexOf(call.listingId);
      expect(call.body).toEqual({ quantity: 100 + i, sequence: 1 });
    }
    const [states] = await fx.sql()<{ done: number; other: number }[]>`
      SELECT count(*) FILTER (WHERE state = 'done' AND attempts = 1)::int AS done,
             count(*) FILTER (WHERE NOT (state = 'done' AND attempts = 1))::int AS other
      FROM marketplace_sync_jobs WHERE marketplace_listing_id LIKE 'P-SYNC-PAIR-%'
    `;
    expect(states).toEqual({ done: count, other: 0 });
  });
});

describe('a permanently failing listing', () => {
  it('is dead once the give-up period has passed, its error kept, shown by sync list, delivered after sync retry', async () => {
    const { itemId, listingId } = await fx.linkedItem(3);
    // A give-up period of 400 ms: retried (every 10 to 100 ms, then by the circuit's probes) until it has passed.
    const w = fx.inProcessWorker(fx.sql(), { giveUpMs: 400 });
    fx.marketplace.behaviour = () => HttpResponse.text('internal trouble', { status: 500 });
    const changedAt = Date.now();
    await fx.patchQuantity(itemId, 1);
    const dead = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    const error = `PUT /listings/${listingId}/quantity: HTTP 500 internal trouble`;
    expect(dead).toMatchObject({ state: 'dead', lastError: error });
    expect(dead.attempts).toBeGreaterThanOrEqual(3);
    expect(dead.completedAt).toBeInstanceOf(Date);
    expect((dead.completedAt?.getTime() ?? 0) - changedAt).toBeGreaterThanOrEqual(400);
    expect(fx.marketplace.calls).toHaveLength(dead.attempts);

    // Visible to the operator.
    const listed = await listJobs(fx.sql(), { org: fx.ws.slug, state: 'dead', limit: 50 });
    expect(listed.filter((job) => job.id === dead.id)).toMatchObject([
      { state: 'dead', attempts: dead.attempts, lastError: error, marketplaceListingId: listingId },
    ]);
    const json = await executeOperatorCommand(
      ['sync', 'list', '--org', fx.ws.slug, '--state', 'dead', '--json'],
      fx.sql(),
    );
    expect(json.exitCode).toBe(EXIT.ok);
    const parsed = JSON.parse(json.stdout) as { id: string; state: string; attempts: number; lastError: string }[];
    expect(parsed.find((job) => job.id === dead.id)).toMatchObject({
      state: 'dead',
      attempts: dead.attempts,
      lastError: error,
    });
    const text = await executeOperatorCommand(['sync', 'list', '--org', fx.ws.slug, '--state', 'dead'], fx.sql());
    expect(text.stdout).toContain(dead.id);
    expect(text.stdout).toContain(error);

    // `sync status` counts it and names the listing it left stale, with the reason.
    const statusOf = async () => {
      const answer = await executeOperatorCommand(['sync', 'status', '--org', fx.ws.slug, '--json'], fx.sql());
      expect(answer.exitCode).toBe(EXIT.ok);
      return JSON.parse(answer.stdout) as {
        counts: Record<string, number>;
        oldestPending: { id: string } | null;
        stale: { id: string; marketplaceListingId: string; state: string; lastError: string }[];
      };
    };
    const everyJob = await listJobs(fx.sql(), { org: fx.ws.slug, limit: 1000 });
    const status = await statusOf();
    for (const state of ['pending', 'done', 'dead', 'superseded']) {
      expect(status.counts[state], state).toBe(everyJob.filter((job) => job.state === state).length);
    }
    expect(status.stale.find((job) => job.marketplaceListingId === listingId)).toMatchObject({
      id: dead.id,
      state: 'dead',
      lastError: error,
    });
    const summary = await executeOperatorCommand(['sync', 'status', '--org', fx.ws.slug], fx.sql());
    expect(summary.stdout).toMatch(/^Sync jobs in \S+: \d+ pending, \d+ done, [1-9]\d* dead, \d+ superseded\.\n/);
    expect(summary.stdout).toContain("Fix the cause, then run 'sync retry' for each job.");
    expect(summary.stdout).toMatch(
      new RegExp(`^${listingId} +${dead.id} +set_quantity +1 .*${error.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'm'),
    );

    // Dead stays dead, even once the marketplace is back.
    fx.marketplace.behaviour = () => ok();
    expect(await w.drain()).toBe(0);
    expect(fx.marketplace.calls).toHaveLength(dead.attempts);

    const retried = await executeOperatorCommand(['sync', 'retry', '--org', fx.ws.slug, '--job', dead.id], fx.sql());
    expect(retried).toEqual({
      exitCode: EXIT.ok,
      stdout: `Sync job ${dead.id} is pending again; the worker will deliver it shortly.\n`,
      stderr: '',
    });
    w.kick();
    const done = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(done).toMatchObject({ id: dead.id, state: 'done', attempts: 1, lastError: null });
    expect(fx.marketplace.calls).toHaveLength(dead.attempts + 1);
    expect(fx.marketplace.calls[dead.attempts]?.body).toEqual({ quantity: 1, sequence: 1 });
    expect(fx.marketplace.calls[dead.attempts]?.headers['idempotency-key']).toBe(dead.id);
    expect((await fx.listing(listingId))?.lastSyncedQuantity).toBe(1);
    expect((await statusOf()).stale.map((job) => job.marketplaceListingId)).not.toContain(listingId);

    // Only dead jobs are retried.
    const again = await executeOperatorCommand(['sync', 'retry', '--org', fx.ws.slug, '--job', dead.id], fx.sql());
    expect(again).toEqual({
      exitCode: EXIT.refused,
      stdout: '',
      stderr: `Sync job ${dead.id} is done, not dead; only dead jobs are retried.\n`,
    });
  });

  it('is dead at once on a refusal that is not retried (400), and retryJob brings it back', async () => {
    const { itemId, listingId } = await fx.linkedItem(3);
    const w = fx.inProcessWorker(fx.sql());
    fx.marketplace.behaviour = () => HttpResponse.text('quantity exceeds listing cap', { status: 400 });
    await fx.patchQuantity(itemId, 2);
    const dead = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(dead).toMatchObject({
      state: 'dead',
      attempts: 1,
      lastError: `PUT /listings/${listingId}/quantity: HTTP 400 quantity exceeds listing cap`,
    });
    expect(fx.marketplace.calls).toHaveLength(1);
    expect((await fx.listing(listingId))?.lastSyncedQuantity).toBe(3);

    fx.marketplace.behaviour = () => ok();
    const retried = await retryJob(fx.sql(), { org: fx.ws.slug, job: dead.id });
    expect(retried).toMatchObject({ id: dead.id, state: 'pending', attempts: 0 });
    w.kick();
    const done = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(done).toMatchObject({ state: 'done', attempts: 1, lastError: null });
    expect(fx.marketplace.calls.map((call: MarketplaceCall) => call.body)).toEqual([
      { quantity: 2, sequence: 1 },
      { quantity: 2, sequence: 1 },
    ]);
    expect((await fx.listing(listingId))?.lastSyncedQuantity).toBe(2);
  });

  it('is dead at once when the marketplace has no such listing (404 on PUT)', async () => {
    const { itemId, listingId } = await fx.linkedItem(3);
    fx.inProcessWorker(fx.sql());
    fx.marketplace.behaviour = () => new HttpResponse(null, { status: 404 });
    await fx.patchQuantity(itemId, 2);
    const dead = fx.onlyJob(await settled(fx.sql(), fx.ws.organizationId, listingId));
    expect(dead).toMatchObject({
      state: 'dead',
      attempts: 1,
      lastError: `PUT /listings/${listingId}/quantity: HTTP 404`,
    });
    expect(fx.marketplace.calls).toHaveLength(1);
  });
});
