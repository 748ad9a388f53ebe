import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createSql } from '../../src/db/connect.js';
import { MIGRATION_LOCK, migrate } from '../../src/db/migrate.js';
import { migrations } from '../../src/db/migrations/index.js';
import type { Sql } from '../../src/db/types.js';
import { runToEnd } from '../support/binary.js';

describe('migrate() started by several processes at once on an empty database', () => {
  let admin: Sql;
  const databases: string[] = [];
  const pools: Sql[] = [];
  const clusterUrl = inject('postgresUrl');

  const emptyDatabase = async () => {
    const name = `migrate_${randomBytes(6).toString('hex')}`;
    await admin`CREATE DATABASE ${admin(name)}`;
    databases.push(name);
    const url = new URL(clusterUrl);
    url.pathname = `/${name}`;
    return { name, url: url.toString() };
  };
  const pool = (url: string) => {
    const sql = createSql(url, { max: 1, statementTimeoutMs: 0 });
    pools.push(sql);
    return sql;
  };

  beforeAll(() => {
    admin = createSql(clusterUrl, { max: 1, statementTimeoutMs: 0 });
  });
  afterAll(async () => {
    await Promise.all(pools.map((sql) => sql.end({ timeout: 1 })));
    for (const name of databases) await admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`;
    await admin.end({ timeout: 5 });
  });

  it('waits for another migrate() that is creating schema_migrations, rather than failing when it commits', async () => {
    const { name, url } = await emptyDatabase();
    // Another process inside migrate()'s first step: lock taken, table created, not yet committed.
    const other = await pool(url).reserve();
    try {
      await other`BEGIN`;
      await other`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      await other`
        CREATE TABLE IF NOT EXISTS schema_migrations (
          version integer PRIMARY KEY,
          name text NOT NULL,
          applied_at timestamptz NOT NULL DEFAULT now()
        )
      `;
      const running = migrate(pool(url)).then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      );
      // Until this migrate() is blocked on the other's transaction (on the lock, or, before the fix, on the table).
      for (let waited = 0; ; waited += 20) {
        const [blocked] = await admin`
          SELECT 1 FROM pg_stat_activity WHERE datname = ${name} AND wait_event_type = 'Lock'
        `;
        if (blocked) break;
        if (waited > 10_000) throw new Error('migrate() never waited for the open transaction');
        await sleep(20);
      }
      await other`COMMIT`;
      const outcome = await running;
      expect('error' in outcome ? String(outcome.error) : 'no error').toBe('no error');
      expect('result' in outcome && outcome.result.current).toBe(migrations.length);
    } finally {
      other.release();
    }
  });

  it('four `coinventory-server migrate` processes on one empty database all succeed, applying each migration once', async () => {
    for (let round = 0; round < 3; round++) {
      const { url } = await emptyDatabase();
      const runs = await Promise.all(
        Array.from({ length: 4 }, () => runToEnd(['migrate', '--json'], { DATABASE_URL: url })),
      );
      for (const run of runs) expect(run.code, run.stderr).toBe(0);
      const applied = runs.flatMap((run) => (JSON.parse(run.stdout) as { applied: { version: number }[] }).applied);
      expect(applied.map((migration) => migration.version).sort((a, b) => a - b)).toEqual(
        migrations.map((migration) => migration.version),
      );
      const recorded = await pool(url)<{ version: number }[]>`SELECT version FROM schema_migrations ORDER BY version`;
      expect(recorded.map((row) => row.version)).toEqual(migrations.map((migration) => migration.version));
    }
  });
});
