import { ItemSchema } from '@coinventory/contract';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import type { Database } from '../../src/db/connect.js';
import { issueApiKey } from '../../src/modules/access/index.js';
import { linkListing } from '../../src/modules/marketplace/operator.js';
import type { SyncWorker } from '../../src/modules/marketplace/worker.js';
import { client, expectStatus } from './http.js';
import { type Api, createItem } from './items.js';
import { createTestOrganization, type TestOrganization } from './organization.js';
import {
  type AppServer,
  createTestDatabase,
  FakeMarketplace,
  type JobRow,
  jobsOf,
  listingOf,
  startAppServer,
  startWorker,
} from './sync.js';

/**
 * For the calling file of marketplace sync tests: a fake marketplace, a database with an organization, the app on it,
 * a fresh key per test, and workers a test starts (stopped after it). After each test no job may be left pending,
 * or it would be delivered in the next one.
 */
export function syncFixture() {
  const marketplace = new FakeMarketplace();
  let started: { database: Database; app: AppServer; ws: TestOrganization } | undefined;
  let api: Api | undefined;
  /** What the app's sync notification does: kick the test's worker, when it has one. */
  let onSyncQueued: (() => void) | undefined;
  const workers: SyncWorker[] = [];
  let listingCounter = 0;

  const current = () => {
    if (!started) throw new Error('the sync fixture starts in beforeAll');
    return started;
  };
  const sql = () => current().database.sql;
  const currentApi = () => {
    if (!api) throw new Error('the sync fixture issues its key in beforeEach');
    return api;
  };

  beforeAll(async () => {
    marketplace.listen();
    const database = await createTestDatabase();
    const ws = await createTestOrganization(database.sql);
    started = { database, ws, app: await startAppServer(database.sql, () => onSyncQueued?.()) };
  });
  afterAll(async () => {
    await started?.app.close();
    await started?.database.close();
    marketplace.close();
  });
  beforeEach(async () => {
    // A key per test: each has its own rate-limit budget.
    const { ws, app } = current();
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
    const [left] = await sql()<{ n: number }[]>`
      SELECT count(*)::int AS n FROM marketplace_sync_jobs WHERE state = 'pending'
    `;
    expect(left?.n, 'pending jobs left behind by the test').toBe(0);
    // A pause or an open circuit is the marketplace's, not the test's: the next test starts with it closed.
    await sql()`DELETE FROM marketplace_gates`;
  });

  const worker = (...args: Parameters<typeof startWorker>): SyncWorker => {
    const one = startWorker(...args);
    workers.push(one);
    return one;
  };
  const keyFor = (name: string) => ({
    organizationId: current().ws.organizationId,
    createdBy: current().ws.ownerId,
    name,
    scopes: ['read', 'write'] as ('read' | 'write')[],
  });
  const jobs = (listingId: string) => jobsOf(sql(), current().ws.organizationId, listingId);
  const onlyJob = (rows: JobRow[]): JobRow => {
    expect(rows).toHaveLength(1);
    const [job] = rows;
    if (!job) throw new Error('no job');
    return job;
  };

  return {
    marketplace,
    get database() {
      return current().database;
    },
    get app() {
      return current().app;
    },
    get ws() {
      return current().ws;
    },
    /** A client on this test's key. */
    get api() {
      return currentApi();
    },
    sql,
    /** A worker on `sql`, stopped after the test. */
    worker,
    /** A worker that the app kicks after each committed change, as in a server process. */
    inProcessWorker: (...args: Parameters<typeof startWorker>): SyncWorker => {
      const one = worker(...args);
      onSyncQueued = () => one.kick();
      return one;
    },
    /** What the app does after each committed change, instead of kicking the in-process worker. */
    onSyncQueued: (then: () => void) => {
      onSyncQueued = then;
    },
    /** Stops the test's workers now (the test goes on without them). */
    stopWorkers: async () => {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
    },
    /** An item created through the API and linked to a new marketplace listing. */
    linkedItem: async (quantity: number, prefix = 'L') => {
      listingCounter += 1;
      const listingId = `${prefix}-${listingCounter}`;
      const item = await createItem(currentApi(), {
        sku: `SYNC-${listingCounter}`,
        title: `Morgan dollar ${listingCounter}`,
        quantity,
      });
      const linked = await linkListing(sql(), {
        org: current().ws.slug,
        item: item.id,
        listingId,
        url: `https://marketplace.test/l/${listingId}`,
      });
      expect(linked.itemId).toBe(item.id);
      return { itemId: item.id, listingId, listingRowId: linked.id };
    },
    patchQuantity: async (itemId: string, quantity: number, target: Api = currentApi()) => {
      const response = await target.patch(`/items/${itemId}`, { body: { quantity } });
      expectStatus(response, 200);
      expect(ItemSchema.parse(response.body).quantity.available).toBe(quantity);
      return response;
    },
    jobs,
    listing: (listingId: string) => listingOf(sql(), current().ws.organizationId, listingId),
    onlyJob,
    /** The one job of a listing as the database has it now, while a marketplace handler runs. */
    jobDuringCall: async (listingId: string): Promise<JobRow> => onlyJob(await jobs(listingId)),
    /** A client on a new read/write key of the organization: more rate-limit budget for a busy test. */
    client: async (name: string): Promise<Api> =>
      client(current().app.baseUrl, (await issueApiKey(sql(), keyFor(name))).key),
    /** What issueApiKey takes for a read/write key of the organization. */
    keyFor,
  };
}
