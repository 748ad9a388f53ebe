import { log } from '../util.mjs';

/**
 * The schema's side of a fast load: the big tables' indexes and constraints are set aside before the COPY and
 * rebuilt from their own definitions after it, and the catalog is compared before and after, so the benchmark
 * runs on exactly the schema the migrations made.
 */

/** The big tables whose indexes and constraints are rebuilt after the load. */
export const BULK_TABLES = ['items', 'item_images', 'valuations', 'valuation_comps'];

/**
 * The schema as the catalog describes it: columns, constraints (with whether they are validated) and indexes.
 * @param {import('postgres').Sql} sql
 * @returns {Promise<string[]>}
 */
export async function schemaFingerprint(sql) {
  const rows = await sql`
    SELECT format('column %s.%s %s null=%s default=%s generated=%s', table_name, column_name, data_type, is_nullable,
                  coalesce(column_default, '-'), coalesce(generation_expression, '-')) AS entry
    FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL
    SELECT format('constraint %s %s %s validated=%s', conrelid::regclass, conname, pg_get_constraintdef(oid), convalidated)
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace
    UNION ALL
    SELECT format('index %s valid=%s', pg_get_indexdef(i.indexrelid), i.indisvalid)
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relnamespace = 'public'::regnamespace
    UNION ALL
    SELECT format('function %s', pg_get_functiondef(p.oid)) FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace
  `;
  return rows.map((r) => String(r.entry)).sort();
}

/**
 * Sets the bulk tables' indexes and constraints aside; returns the statements that put them back, in order.
 * @param {import('postgres').Sql} sql
 * @returns {Promise<{ keys: string[], indexes: string[], foreignKeys: string[] }>}
 */
export async function setIndexesAside(sql) {
  const foreignKeys = await sql`
    SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE contype = 'f' AND (conrelid = ANY(${BULK_TABLES}::regclass[]) OR confrelid = ANY(${BULK_TABLES}::regclass[]))
  `;
  const keys = await sql`
    SELECT conrelid::regclass::text AS tbl, conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE contype IN ('p', 'u') AND conrelid = ANY(${BULK_TABLES}::regclass[])
  `;
  const indexes = await sql`
    SELECT indexrelid::regclass::text AS name, pg_get_indexdef(indexrelid) AS def,
           pg_get_indexdef(indexrelid) LIKE '%USING gin%' AS gin
    FROM pg_index i
    WHERE indrelid = ANY(${BULK_TABLES}::regclass[])
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid AND c.conrelid = i.indrelid
                      AND c.contype IN ('p', 'u'))
  `;
  for (const fk of foreignKeys) await sql.unsafe(`ALTER TABLE ${fk.tbl} DROP CONSTRAINT ${fk.conname}`);
  for (const index of indexes) await sql.unsafe(`DROP INDEX ${index.name}`);
  for (const key of keys) await sql.unsafe(`ALTER TABLE ${key.tbl} DROP CONSTRAINT ${key.conname}`);
  return {
    keys: keys.map((k) => `ALTER TABLE ${k.tbl} ADD CONSTRAINT ${k.conname} ${k.def}`),
    // The trigram index is the slowest build: start it first so the other builds fill the second core.
    indexes: [...indexes].sort((a, b) => Number(b.gin) - Number(a.gin)).map((i) => String(i.def)),
    foreignKeys: foreignKeys.map((k) => `ALTER TABLE ${k.tbl} ADD CONSTRAINT ${k.conname} ${k.def}`),
  };
}

/**
 * Runs statements on `concurrency` connections at once.
 * @param {import('postgres').Sql} sql
 * @param {string[]} statements
 * @param {number} concurrency
 */
async function runParallel(sql, statements, concurrency) {
  const queue = [...statements];
  const workers = Array.from({ length: concurrency }, async () => {
    const connection = await sql.reserve();
    try {
      await connection`SET maintenance_work_mem = '1GB'`;
      for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
        const t0 = performance.now();
        await connection.unsafe(next);
        if (process.env.BENCH_DEBUG) log(`${Math.round(performance.now() - t0)} ms: ${next.slice(0, 110)}`);
      }
    } finally {
      connection.release();
    }
  });
  await Promise.all(workers);
}

/**
 * Puts the indexes and constraints back (keys and indexes, then foreign keys, two at a time) and refreshes every
 * table's statistics; reports each step's time.
 * @param {import('postgres').Sql} sql
 * @param {{ keys: string[], indexes: string[], foreignKeys: string[] }} restore
 * @param {(phase: string, since: number) => void} mark
 */
export async function rebuildIndexes(sql, restore, mark) {
  let phase = performance.now();
  await runParallel(sql, [...restore.keys, ...restore.indexes], 2);
  mark('indexes', phase);
  phase = performance.now();
  await runParallel(sql, restore.foreignKeys, 2);
  mark('foreign keys', phase);
  phase = performance.now();
  const tables = await sql`SELECT relname FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace`;
  await runParallel(
    sql,
    tables.map((r) => `VACUUM (ANALYZE) ${String(r.relname)}`),
    2,
  );
  mark('vacuum analyze', phase);
}

/**
 * Throws unless the schema is the one fingerprinted before the load; returns the number of catalog entries.
 * @param {import('postgres').Sql} sql
 * @param {string[]} before
 */
export async function assertSchemaUnchanged(sql, before) {
  const after = await schemaFingerprint(sql);
  const missing = before.filter((entry) => !after.includes(entry));
  const extra = after.filter((entry) => !before.includes(entry));
  if (missing.length > 0 || extra.length > 0) {
    throw new Error(
      `the schema after seeding differs from the migrated one:\n  missing: ${missing.join('\n  ')}\n  extra: ${extra.join('\n  ')}`,
    );
  }
  return after.length;
}
