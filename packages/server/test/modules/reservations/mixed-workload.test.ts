import {
  type BatchItemsResult,
  BatchItemsResultSchema,
  type ErrorCode,
  ReservationSchema,
} from '@coinventory/contract';
import pino from 'pino';
import { describe, expect, inject, it } from 'vitest';
import { Random } from '../../../src/demo/random.js';
import { startReservationExpiry } from '../../../src/modules/reservations/index.js';
import { EXIT, executeOperatorCommand } from '../../../src/operator/index.js';
import { quietNotifier } from '../../../src/request/pipeline.js';
import { runToEnd } from '../../support/binary.js';
import { ERROR_BODY } from '../../support/errors.js';
import type { ApiResponse } from '../../support/http.js';
import { adjust, expectInvariants, keyedApi, reserveRequest, step } from '../../support/inventory.js';
import type { Api } from '../../support/items.js';
import { eventually, secondPool, startAppServer } from '../../support/sync.js';
import { syncFixture } from '../../support/sync-fixture.js';

/**
 * Issue 37's randomized mixed workload: two app servers, each on its own pool of the one database as two server
 * processes are (on the embedded database, its one connection), each with its own marketplace sync worker and
 * reservation expiry worker, take PATCHes of quantity, adjustments, holds, commits, releases, expiries, batch upserts
 * and deletes from clients at once. Afterwards every invariant holds, through the API and by the operator's
 * `check`, and every linked marketplace listing shows its item's final `available`.
 */

const fx = syncFixture();

/** Each run's seed is printed with any failure, and SEED replays one. */
const SEED = Number(process.env.SEED ?? Date.now() % 1_000_000);
const LANES = 8;
const OPS_PER_LANE = 30;
const MAX_DELETES = 3;

interface Tracked {
  id: string;
  sku: string;
  /** The marketplace listing it is linked to, if any. */
  listingId: string | null;
  deletable: boolean;
}

const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

/** The statuses each kind of write may answer in this workload; anything else (a 500, a 400) is a failure. */
const ALLOWED: Record<string, readonly number[]> = {
  patch: [200, 404],
  sale: [200, 404, 409],
  restock: [200, 404],
  return: [200, 404, 409],
  reserve: [200, 404, 409],
  commit: [200, 404, 409],
  release: [200, 404, 409],
  batch: [200],
  delete: [200, 404],
};

/** A 409's body must be the conflict the route names. */
const CONFLICT_OF: Record<string, ErrorCode> = {
  sale: 'INSUFFICIENT_QUANTITY',
  return: 'INSUFFICIENT_QUANTITY',
  reserve: 'INSUFFICIENT_QUANTITY',
  commit: 'RESERVATION_NOT_HELD',
  release: 'RESERVATION_NOT_HELD',
};

describe('a randomized mixed workload through two servers on one database', () => {
  it(`keeps every invariant, and each listing ends at its item's available (seed ${SEED})`, async () => {
    const random = new Random(SEED);
    const sql = fx.sql();
    const other = await secondPool(fx.database);
    const workerB = fx.worker(other.sql);
    fx.inProcessWorker(sql);
    const appB = await startAppServer(other.sql, () => workerB.kick());
    const expiries = [sql, other.sql].map((pool) =>
      startReservationExpiry({ sql: pool, logger, pollMs: 50, notify: quietNotifier }),
    );
    try {
      const items: Tracked[] = [];
      for (let i = 0; i < 6; i += 1) {
        const linked = await fx.linkedItem(random.int(2, 8), 'MIX');
        items.push({ id: linked.itemId, sku: '', listingId: linked.listingId, deletable: i === 5 });
      }
      const seeded = await fx.api.post<BatchItemsResult>('/items/batch', {
        body: {
          mode: 'create',
          items: [0, 1, 2].map((i) => ({
            sku: `MIX-BATCH-${SEED}-${i}`,
            title: `Batch ${i}`,
            quantity: random.int(0, 6),
          })),
        },
      });
      const created = BatchItemsResultSchema.parse(seeded.body);
      for (const result of created.results) {
        if (!result.item) throw new Error(`batch entry refused: ${JSON.stringify(result)}`);
        items.push({ id: result.item.id, sku: result.item.sku, listingId: null, deletable: true });
      }
      // The linked items' SKUs are the fixture's: read them back rather than guess.
      for (const item of items.filter((tracked) => tracked.listingId !== null)) {
        const response = await fx.api.get<{ sku: string }>(`/items/${item.id}`);
        item.sku = response.body.sku;
      }

      const reservations: string[] = [];
      let deletes = 0;
      const unexpected: string[] = [];
      const record = (what: string, response: ApiResponse) => {
        const allowed = ALLOWED[what] ?? [];
        if (!allowed.includes(response.status)) unexpected.push(`${what}: ${response.status} ${response.text}`);
        const conflict = CONFLICT_OF[what];
        if (
          response.status === 409 &&
          conflict &&
          JSON.stringify(response.body) !== JSON.stringify(ERROR_BODY[conflict])
        ) {
          unexpected.push(`${what}: 409 ${response.text}`);
        }
      };

      /** One client: its own key, on server A or B, making random writes one after another. */
      const lane = async (index: number) => {
        const baseUrl = index % 2 === 0 ? fx.app.baseUrl : appB.baseUrl;
        const { api } = await keyedApi(sql, baseUrl, fx.ws, `lane ${index}`);
        for (let op = 0; op < OPS_PER_LANE; op += 1) await write(api);
      };

      const write = async (api: Api) => {
        const item = random.pick(items);
        const kind = random.weighted<string>([
          ['patch', 2],
          ['sale', 4],
          ['restock', 2],
          ['return', 1],
          ['reserve', 4],
          ['commit', 2],
          ['release', 2],
          ['due', 1],
          ['batch', 1],
          ['delete', 0.3],
        ]);
        switch (kind) {
          case 'patch':
            return record(kind, await api.patch(`/items/${item.id}`, { body: { quantity: random.int(0, 8) } }));
          case 'sale':
            return record(kind, await adjust(api, item.id, { available: -1, sold: 1, reason: 'sale' }));
          case 'restock':
            return record(kind, await adjust(api, item.id, { available: random.int(1, 3), reason: 'restock' }));
          case 'return':
            return record(kind, await adjust(api, item.id, { available: 1, sold: -1, reason: 'return' }));
          case 'reserve': {
            const response = await reserveRequest(api, item.id, {
              quantity: random.int(1, 2),
              expiresInSeconds: 600,
              reference: `CART-${reservations.length}`,
            });
            record(kind, response);
            if (response.status === 200) reservations.push(ReservationSchema.parse(response.body).id);
            return;
          }
          case 'commit':
          case 'release': {
            if (reservations.length === 0) return;
            return record(kind, await step(api, random.pick(reservations), kind));
          }
          case 'due': {
            // Time passes for one hold: the expiry workers of both servers race to give it back.
            if (reservations.length === 0) return;
            await sql`UPDATE reservations SET expires_at = now() WHERE id = ${random.pick(reservations)} AND status = 'held'`;
            return;
          }
          case 'batch': {
            // Two items in one transaction, in either order.
            const first = random.pick(items);
            const chosen = [first, random.pick(items.filter((entry) => entry !== first))];
            const response = await api.post('/items/batch', {
              body: {
                mode: 'upsert',
                items: chosen.map((entry) => ({
                  sku: entry.sku,
                  title: `Upserted ${entry.sku}`,
                  quantity: random.int(0, 8),
                })),
              },
            });
            record(kind, response);
            if (response.status !== 200) return;
            // An entry whose item was deleted creates it again, under a new id.
            for (const result of BatchItemsResultSchema.parse(response.body).results) {
              // Another lane may create or delete the same SKU at once: a conflict or a vanished item, not a failure.
              if (![200, 404, 409].includes(result.status)) unexpected.push(`batch entry: ${JSON.stringify(result)}`);
              if (result.action === 'created' && result.item && !items.some((t) => t.id === result.item?.id)) {
                items.push({ id: result.item.id, sku: result.item.sku, listingId: null, deletable: true });
              }
            }
            return;
          }
          case 'delete': {
            if (!item.deletable || deletes >= MAX_DELETES) return;
            deletes += 1;
            return record(kind, await api.delete(`/items/${item.id}`));
          }
        }
      };

      const started = Date.now();
      await Promise.all(Array.from({ length: LANES }, (_, index) => lane(index)));
      const workloadMs = Date.now() - started;
      // Soft: what the workload left is checked even when some of its writes failed.
      expect.soft(unexpected, `seed ${SEED}: writes answered otherwise than allowed`).toEqual([]);

      // Every due hold given back, and every sync job delivered, by one worker or the other.
      await eventually(
        async () => {
          const [row] = await sql<{ due: number; pending: number; leased: number }[]>`
            SELECT
              (SELECT count(*)::int FROM reservations
                WHERE organization_id = ${fx.ws.organizationId} AND status = 'held' AND expires_at <= now()) AS due,
              (SELECT count(*)::int FROM marketplace_sync_jobs
                WHERE organization_id = ${fx.ws.organizationId} AND state = 'pending') AS pending,
              (SELECT count(*)::int FROM marketplace_listings
                WHERE organization_id = ${fx.ws.organizationId} AND lease_owner IS NOT NULL) AS leased
          `;
          return row;
        },
        (row) => row?.due === 0 && row.pending === 0 && row.leased === 0,
        { timeoutMs: 20_000, what: `the workload to settle (seed ${SEED})` },
      );

      const { api: reader } = await keyedApi(sql, fx.app.baseUrl, fx.ws, 'checker');
      const survivors: Tracked[] = [];
      for (const item of items) {
        const response = await reader.get(`/items/${item.id}`);
        if (response.status === 404) continue;
        survivors.push(item);
      }
      // Reads on a second key too: the checker's budget is 120 requests a minute.
      const { api: reader2 } = await keyedApi(sql, fx.app.baseUrl, fx.ws, 'checker 2');
      let kinds = new Set<string>();
      for (const [index, item] of survivors.entries()) {
        const { item: final, movements } = await expectInvariants(index % 2 === 0 ? reader : reader2, item.id);
        kinds = new Set([...kinds, ...movements.map((movement) => movement.kind)]);
        if (item.listingId === null) continue;
        const listing = await fx.listing(item.listingId);
        expect(listing, `${item.sku} (seed ${SEED})`).toMatchObject({
          itemId: item.id,
          status: 'active',
          lastSyncedQuantity: final.quantity.available,
        });
        expect(listing?.deliveredSequence).toBe(listing?.syncSequence);
        const puts = fx.marketplace.callsFor(item.listingId).filter((call) => call.method === 'PUT');
        const newest = puts
          .map((call) => call.body as { quantity: number; sequence: number })
          .sort((a, b) => b.sequence - a.sequence)[0];
        if (newest)
          expect(newest.quantity, `${item.sku}: the marketplace's quantity (seed ${SEED})`).toBe(
            final.quantity.available,
          );
      }
      // The workload moved quantities every way it can (a batch, a hold, its commit or release, an expiry).
      for (const kind of ['create', 'set', 'adjustment', 'reserve', 'batch']) expect([...kinds]).toContain(kind);
      // A deleted linked item's listing was removed from the marketplace.
      for (const item of items.filter((t) => t.listingId !== null && !survivors.includes(t))) {
        expect((await fx.listing(item.listingId ?? ''))?.status).toBe('removed');
        expect(fx.marketplace.callsFor(item.listingId ?? '').at(-1)?.method).toBe('DELETE');
      }

      // The operator’s check agrees: run in-process, as the operator socket runs it.
      const checked = await executeOperatorCommand(['check', '--org', fx.ws.slug], sql);
      expect(checked, `seed ${SEED}`).toEqual({
        exitCode: EXIT.ok,
        stdout: `All ${survivors.length} items of ${fx.ws.slug} keep the inventory invariants.\n`,
        stderr: '',
      });
      // A reserved count no held reservation accounts for, and a movement gone: check names both items, and exits 5.
      const [broken, unledgered] = survivors;
      if (!broken || !unledgered) throw new Error('too few items survived');
      await sql`UPDATE items SET quantity_reserved = quantity_reserved + 1 WHERE id = ${broken.id}`;
      await sql`
        DELETE FROM item_movements WHERE item_id = ${unledgered.id}
          AND position = (SELECT min(position) FROM item_movements WHERE item_id = ${unledgered.id})
      `;
      const refused = await executeOperatorCommand(['check', '--org', fx.ws.slug], sql);
      expect(refused.exitCode, refused.stderr).toBe(EXIT.refused);
      expect(refused.stdout).toBe('');
      for (const item of [broken, unledgered]) {
        expect(refused.stderr).toContain(item.id);
        expect(refused.stderr).toContain(item.sku);
      }
      for (const item of survivors.slice(2)) expect(refused.stderr).not.toContain(item.id);
      // And so does the real binary, on PostgreSQL (the embedded one is a server's own, reached through its socket).
      const clusterUrl = inject('postgresUrl');
      if (clusterUrl) {
        const [row] = await sql<{ name: string }[]>`SELECT current_database() AS name`;
        const url = new URL(clusterUrl);
        url.pathname = `/${row?.name}`;
        const binary = await runToEnd(['check', '--org', fx.ws.slug], { DATABASE_URL: url.toString() });
        expect(binary.code, binary.stderr).toBe(EXIT.refused);
        expect(binary.stderr).toContain(broken.id);
        expect(binary.stderr).toContain(unledgered.id);
      }
      expect(workloadMs, `the workload's ${LANES * OPS_PER_LANE} writes took ${workloadMs} ms`).toBeLessThan(60_000);
    } finally {
      await Promise.all(expiries.map((expiry) => expiry.stop()));
      await fx.stopWorkers();
      await appB.close();
      await other.end();
    }
  }, 120_000);
});
