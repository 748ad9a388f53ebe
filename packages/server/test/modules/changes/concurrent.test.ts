import type { Change, Item } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import type { Sql, TransactionSql } from '../../../src/db/types.js';
import { createItem as createItemRow, updateItem as updateItemRow } from '../../../src/modules/items/index.js';
import { applyChanges, feedCursor, readAllItems, readToEnd } from '../../support/changes.js';
import { type Api, createItem, freshApi } from '../../support/items.js';
import { uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `work` in a transaction that waits `ms` after it, before its COMMIT: a writer that has recorded its change and
 * is slow to commit, while others write and commit around it. With positions handed out by a plain sequence, a reader
 * would see the later writers' changes first, move its cursor past this one, and never see it.
 */
function slowToCommit(sql: Sql, ms: number) {
  return async <T>(work: (tx: TransactionSql) => Promise<T>): Promise<T> =>
    (await sql.begin(async (tx) => {
      const result = await work(tx);
      await sleep(ms);
      return result;
    })) as T;
}

/** A client's random writes: create, change or delete, on items it has seen. */
async function randomWrites(api: Api, known: string[], count: number, label: string): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    const roll = Math.random();
    const id = known[Math.floor(Math.random() * known.length)];
    if (roll < 0.35 || id === undefined) {
      known.push((await createItem(api, { sku: uniqueSku(label), title: `${label} ${i}`, quantity: i })).id);
    } else if (roll < 0.85) {
      // Another writer may have deleted it meanwhile: 404 is part of the game.
      const response = await api.patch(`/items/${id}`, { body: { valueInCents: i * 100, title: `${label} ${i}` } });
      expect([200, 404]).toContain(response.status);
    } else {
      const response = await api.delete(`/items/${id}`);
      expect([200, 404]).toContain(response.status);
      known.splice(known.indexOf(id), 1);
    }
  }
}

describe('the changes feed under concurrent writers, with transactions slow to commit', () => {
  it('a consumer following it sees every change exactly once, in commit order, and ends equal to the table', async () => {
    const { server, organization } = ctx;
    const sql = server.database.sql;
    const consumer = await freshApi(server, organization, 'consumer');
    const writers = await Promise.all([1, 2, 3, 4].map((n) => freshApi(server, organization, `writer ${n}`)));
    const known: string[] = [];
    for (let i = 0; i < 12; i += 1)
      known.push((await createItem(writers[0] as Api, { sku: uniqueSku('SEED'), title: `Seed ${i}` })).id);

    // The consumer: a cursor, then a full read, then it follows the feed while the writers run.
    const start = await feedCursor(consumer);
    const copy = await readAllItems(consumer);
    const seen: Change[] = [];
    let cursor = start;
    let writing = true;
    const following = (async () => {
      while (writing) {
        const page = await readToEnd(consumer, cursor, { limit: 5 });
        seen.push(...page.changes);
        cursor = page.cursor;
        await sleep(5);
      }
    })();

    const slow = slowToCommit(sql, 300);
    const slowWrites = (async () => {
      for (let round = 0; round < 4; round += 1) {
        await sleep(40);
        const created = await slow((tx) =>
          createItemRow(tx, organization.organizationId, { sku: uniqueSku('SLOW'), title: `Slow ${round}` }),
        );
        known.push(created.id);
        const target = known[round];
        if (target) {
          await slow((tx) =>
            updateItemRow(tx, organization.organizationId, target, { title: `Slow update ${round}` }),
          ).catch((error: unknown) => {
            // Deleted by a writer meanwhile.
            if ((error as { status?: number }).status !== 404) throw error;
          });
        }
      }
    })();
    await Promise.all([...writers.map((api, n) => randomWrites(api, known, 30, `W${n}`)), slowWrites]);
    writing = false;
    await following;
    const last = await readToEnd(consumer, cursor);
    seen.push(...last.changes);

    // Exactly once, and in the feed's order, which is the order the changes' transactions committed in.
    // Everything after the twelve seeded creations, which came before the consumer's cursor.
    const recorded = await sql<{ id: string }[]>`
      SELECT id FROM changes WHERE organization_id = ${organization.organizationId} ORDER BY position OFFSET 12
    `;
    expect(seen.map((change) => change.id)).toEqual(recorded.map((row) => row.id));
    expect(new Set(seen.map((change) => change.id)).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThan(100);

    applyChanges(copy, seen);
    const table = await readAllItems(consumer);
    expect([...copy.keys()].sort()).toEqual([...table.keys()].sort());
    for (const [id, item] of table) expect(copy.get(id) satisfies Item | undefined).toEqual(item);
  }, 120_000);
});
