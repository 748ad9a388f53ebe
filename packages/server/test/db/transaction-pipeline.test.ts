import { expect, inject, it } from 'vitest';
import { createSql } from '../../src/db/connect.js';
import type { Sql } from '../../src/db/types.js';
import { createTestDatabase } from '../support/database.js';

/**
 * patches/postgres@3.4.9.patch: a transaction whose BEGIN is the query that fills a connection's pipeline (100
 * statements in flight) never learned its connection, so begin() failed ("Cannot set properties of undefined") and
 * an unhandled rejection followed, which ends a Node process. Under load the embedded database's one connection
 * always has a deep pipeline, so this is every PATCH's risk there, and a busy pool's on PostgreSQL.
 */
it('a transaction begun behind a full pipeline runs and commits (BEGIN at every position around the limit)', async () => {
  const database = await createTestDatabase();
  // One connection, so every statement shares its pipeline (the embedded database has just one anyway).
  const [row] = await database.sql<{ name: string }[]>`SELECT current_database() AS name`;
  const clusterUrl = inject('postgresUrl');
  let sql: Sql = database.sql;
  if (clusterUrl && row) {
    const url = new URL(clusterUrl);
    url.pathname = `/${row.name}`;
    sql = createSql(url.toString(), { max: 1, statementTimeoutMs: 0 });
  }
  try {
    await sql`CREATE TABLE pipeline_probe (n integer)`;
    for (let before = 95; before <= 105; before += 1) {
      // Sent at once (execute), not when awaited, so they are in the pipeline ahead of the BEGIN.
      const ahead = Array.from({ length: before }, () => sql`SELECT 1`.execute());
      const transaction = sql.begin(async (tx) => {
        await tx`INSERT INTO pipeline_probe VALUES (${before})`;
        return before;
      });
      const behind = Array.from({ length: 20 }, () => sql`SELECT 2`.execute());
      await Promise.all([...ahead, ...behind]);
      expect(await transaction, `BEGIN after ${before} statements`).toBe(before);
    }
    const stored = await sql<{ n: number }[]>`SELECT n FROM pipeline_probe ORDER BY n`;
    expect(stored.map((r) => r.n)).toEqual(Array.from({ length: 11 }, (_, i) => 95 + i));
  } finally {
    if (sql !== database.sql) await sql.end({ timeout: 5 });
    await database.close();
  }
}, 60_000);
