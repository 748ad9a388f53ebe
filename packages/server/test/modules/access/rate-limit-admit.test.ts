import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/connect.js';
import { createTestDatabase } from '../../support/database.js';

const SOURCE = new URL('../../../src/modules/access/rate-limit-admit.sql', import.meta.url);

/** A function's definition as PostgreSQL renders it, without the schema that qualifies its name. */
async function definitionIn(database: Database, schema: string): Promise<string> {
  const [row] = await database.sql<{ definition: string }[]>`
    SELECT pg_get_functiondef(p.oid) AS definition
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE p.proname = 'rate_limit_admit' AND n.nspname = ${schema}
  `;
  if (!row) throw new Error(`no rate_limit_admit in schema ${schema}`);
  return row.definition.replace(`${schema}.rate_limit_admit`, 'rate_limit_admit');
}

describe('rate_limit_admit', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database?.close());

  it("the migrated database's live definition is the one in rate-limit-admit.sql", async () => {
    const source = readFileSync(SOURCE, 'utf8');
    expect(source).toMatch(/^CREATE OR REPLACE FUNCTION rate_limit_admit\(/m);
    // The file's text, created in a scratch schema, rendered by the same server as the migrated function.
    await database.sql.begin(async (tx) => {
      await tx`CREATE SCHEMA from_source`;
      await tx`SET LOCAL search_path TO from_source, public`;
      await tx.unsafe(source);
    });
    try {
      const live = await definitionIn(database, 'public');
      const fromFile = await definitionIn(database, 'from_source');
      expect(live).toContain('v_size');
      expect(fromFile).toBe(live);
    } finally {
      await database.sql`DROP SCHEMA from_source CASCADE`;
    }
  });
});
