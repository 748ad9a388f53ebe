import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, inject } from 'vitest';
import { connectDatabase, createSql, type Database } from '../../src/db/connect.js';
import { migrate } from '../../src/db/migrate.js';

/** Which database this test run uses: the `postgres` project provides a cluster URL, `embedded` does not. */
export const databaseKind = (): 'postgres' | 'embedded' => (inject('postgresUrl') ? 'postgres' : 'embedded');

let image: Blob | undefined;
/** The migrated embedded database the `embedded` project's global setup made (test/support/global-embedded.ts). */
function migratedImage(): Blob | undefined {
  const file = inject('embeddedImage');
  if (!file) return undefined;
  image ??= new Blob([readFileSync(file)]);
  return image;
}

/**
 * A migrated, empty database for one test file: a fresh database on the test cluster, copied from the migrated
 * template the `postgres` project's global setup made (test/support/global-postgres.ts), or an in-memory embedded one
 * started from the migrated image. Closing it drops it.
 */
export async function createTestDatabase(options: { statementTimeoutMs?: number } = {}): Promise<Database> {
  const clusterUrl = inject('postgresUrl');
  if (!clusterUrl) {
    const database = await connectDatabase({
      dataDir: 'memory://',
      poolSize: 1,
      statementTimeoutMs: 0,
      embeddedImage: migratedImage(),
    });
    // Started from a migrated image, this only checks that it is current.
    await migrate(database.sql);
    return database;
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const admin = createSql(clusterUrl, { max: 1, statementTimeoutMs: 0 });
  await admin`CREATE DATABASE ${admin(name)} TEMPLATE ${admin(inject('postgresTemplate'))}`;
  const url = new URL(clusterUrl);
  url.pathname = `/${name}`;
  const database = await connectDatabase({
    url: url.toString(),
    dataDir: 'unused',
    poolSize: 10,
    statementTimeoutMs: options.statementTimeoutMs ?? 0,
  });
  // Copied from the migrated template, this only checks that it is current.
  await migrate(database.sql);
  return {
    ...database,
    close: async () => {
      await database.close();
      await admin`DROP DATABASE IF EXISTS ${admin(name)} WITH (FORCE)`;
      await admin.end();
    },
  };
}

/**
 * One test database for the calling file (or `describe`), opened before its tests and closed after them, for the
 * servers and apps of a file that differ only in their settings: each database costs seconds on the embedded one.
 * The function gives it from the suite's first hook on.
 */
export function sharedTestDatabase(): () => Database {
  let database: Database | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());
  return () => {
    if (!database) throw new Error('the shared test database opens in the suite’s beforeAll');
    return database;
  };
}
