import { describe, expect, it } from 'vitest';
import { RequestWork, WorkAbandonedError } from '../../src/db/request-work.js';
import type { Queryable } from '../../src/db/types.js';
import { databaseKind } from '../support/database.js';
import { serverWithOrganization } from '../support/server.js';

describe('RequestWork, on the real database', () => {
  const suite = serverWithOrganization();

  const cancels = databaseKind() === 'postgres';
  const countSku = async (sku: string) =>
    (
      await suite.server.database
        .sql`SELECT 1 FROM items WHERE organization_id = ${suite.organization.organizationId} AND sku = ${sku}`
    ).length;
  const insert = (sql: Queryable, sku: string) =>
    sql`
      INSERT INTO items (organization_id, sku, title, warehouse_id, zone_id)
      VALUES (${suite.organization.organizationId}, ${sku}, 'Work', ${suite.organization.defaultWarehouseId}, ${suite.organization.defaultZoneId})
    `;

  it('given up during its transaction, rolls it back and refuses every later statement', async () => {
    const work = new RequestWork(suite.server.database.sql, cancels);
    const outcome = work.transaction(async (tx) => {
      await insert(tx, 'WORK-ABANDONED');
      expect(work.abandon('test')).toBe(true);
      await tx`SELECT 1`;
    });
    await expect(outcome).rejects.toBeInstanceOf(WorkAbandonedError);
    expect(work.committed).toBe(false);
    expect(await countSku('WORK-ABANDONED')).toBe(0);
    expect(() => work.sql`SELECT 1`).toThrow(WorkAbandonedError);
  });

  it('given up after its work but before COMMIT, rolls back', async () => {
    const work = new RequestWork(suite.server.database.sql, cancels);
    const outcome = work.transaction(async (tx) => {
      await insert(tx, 'WORK-LATE');
      work.abandon('test');
      return 'done';
    });
    await expect(outcome).rejects.toBeInstanceOf(WorkAbandonedError);
    expect(await countSku('WORK-LATE')).toBe(0);
  });

  it('cannot be given up while its COMMIT is on the wire: it commits and says so', async () => {
    const work = new RequestWork(suite.server.database.sql, cancels);
    let abandoned: boolean | undefined;
    const result = await work.transaction(async (tx) => {
      await insert(tx, 'WORK-COMMITTING');
      // Runs once the callback has returned, while COMMIT is being sent and answered.
      setImmediate(() => {
        abandoned = work.abandon('test');
      });
      return 'done';
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(result).toBe('done');
    expect(abandoned).toBe(false);
    expect(work.committed).toBe(true);
    expect(work.abandon('later')).toBe(false);
    expect(await countSku('WORK-COMMITTING')).toBe(1);
  });

  it('runs a dry run to its answer and undoes its writes, without a thrown value and without committing them', async () => {
    const work = new RequestWork(suite.server.database.sql, cancels);
    const answer = await work.rolledBack(async (tx) => {
      await insert(tx, 'WORK-DRY');
      // Its own writes are visible inside it, as a real run's are.
      return (await tx`SELECT count(*)::int AS n FROM items WHERE sku = 'WORK-DRY'`)[0]?.n as number;
    });
    expect(answer).toBe(1);
    expect(await countSku('WORK-DRY')).toBe(0);
  });

  it("a dry run that fails leaves nothing either, and its error is the caller's", async () => {
    const work = new RequestWork(suite.server.database.sql, cancels);
    const outcome = work.rolledBack(async (tx) => {
      await insert(tx, 'WORK-DRY-FAILED');
      throw new Error('refused');
    });
    await expect(outcome).rejects.toThrow('refused');
    expect(await countSku('WORK-DRY-FAILED')).toBe(0);
  });
});
