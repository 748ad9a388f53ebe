import { migrations as allMigrations, type Migration } from './migrations/index.js';
import type { Sql } from './types.js';
import { type DatabaseTarget, DatabaseUnavailableError, describeTarget } from './unavailable.js';

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

/** The schema version a database is at: the latest migration recorded, 0 when none is (or it has no ledger yet). */
export async function schemaVersion(sql: Sql): Promise<number> {
  const [ledger] = await sql<{ present: boolean }[]>`SELECT to_regclass('schema_migrations') IS NOT NULL AS present`;
  if (!ledger?.present) return 0;
  const [latest] = await sql<{ version: number | null }[]>`SELECT max(version) AS version FROM schema_migrations`;
  return latest?.version ?? 0;
}

/** The version this release's migrations bring a database to. */
export const LATEST_SCHEMA_VERSION = Math.max(0, ...allMigrations.map((migration) => migration.version));

/**
 * Refuses a database whose schema is behind this release's (migrations not applied): a command would fail on a
 * missing table or column, halfway, with PostgreSQL's words. A server applies them at start; `migrate` does too.
 */
export async function ensureMigrated(sql: Sql, target: DatabaseTarget): Promise<void> {
  const version = await schemaVersion(sql);
  if (version >= LATEST_SCHEMA_VERSION) return;
  const where = describeTarget(target);
  const state =
    version === 0 ? 'has no Coinventory tables' : `is at schema version ${version}, not ${LATEST_SCHEMA_VERSION}`;
  throw new DatabaseUnavailableError(
    `database "${where.database}" at ${where.address} ${state} (migrations not applied); run "coinventory-server migrate" with the same settings, or start the server once`,
  );
}
