import { migrations as allMigrations, type Migration } from './migrations/index.js';
import type { Sql } from './types.js';

// Any fixed number: every process that migrates takes the same lock, so two starting at once apply each
// migration exactly once.
export const MIGRATION_LOCK = 7_402_113;

export interface MigrationResult {
  applied: Array<{ version: number; name: string }>;
  current: number;
}

/** Applies every migration not yet recorded in schema_migrations, each in its own transaction. */
export async function migrate(sql: Sql, migrations: readonly Migration[] = allMigrations): Promise<MigrationResult> {
  // Under the lock too: two processes creating the table at once both pass IF NOT EXISTS, and the second fails on
  // the catalog's unique index (pg_type_typname_nsp_index) when the first commits.
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx`
      CREATE TABLE IF NOT EXISTS schema_migrations (
        version integer PRIMARY KEY,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now()
      )
    `;
  });
  const applied: MigrationResult['applied'] = [];
  for (const migration of migrations) {
    const done = await sql.begin(async (tx) => {
      await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
      const [row] = await tx`SELECT 1 FROM schema_migrations WHERE version = ${migration.version}`;
      if (row) return false;
      // A migration is trusted SQL shipped with the server, never input.
      await tx.unsafe(migration.up);
      await tx`INSERT INTO schema_migrations (version, name) VALUES (${migration.version}, ${migration.name})`;
      return true;
    });
    if (done) applied.push({ version: migration.version, name: migration.name });
  }
  const [latest] = await sql<{ version: number | null }[]>`SELECT max(version) AS version FROM schema_migrations`;
  return { applied, current: latest?.version ?? 0 };
}
