import { Random } from '@coinventory/server/demo-data';
import postgres from 'postgres';
import { seedSales } from './seed/sales.mjs';
import { assertSchemaUnchanged, rebuildIndexes, schemaFingerprint, setIndexesAside } from './seed/schema.mjs';
import { seedStock } from './seed/stock.mjs';
import { seedConsignmentsAndCustomers, seedPlaces } from './seed/workspaces.mjs';
import { log } from './util.mjs';

/**
 * Seeds the benchmark's data set by COPY, fast:
 *
 * - the four big tables (items, images, valuations, comparable sales) are loaded with their indexes and
 *   constraints set aside and `COPY … FREEZE` into the tables truncated in the same transaction (with
 *   wal_level=minimal that writes no WAL and leaves the rows frozen and all-visible, so no VACUUM pass is needed);
 * - the indexes and constraints are then rebuilt from their own definitions, two at a time (two cores), and the
 *   schema is compared with what the migrations produced: the benchmark runs on exactly the migrated schema.
 *
 * Every value comes from one seeded generator, the demo workspace's (`@coinventory/server/demo-data`), in a fixed
 * order: the same workspaces give the same data. The steps, in order: workspaces (seed/workspaces.mjs), stock
 * (seed/stock.mjs, one coin at a time from seed/coin.mjs), sales (seed/sales.mjs), the schema (seed/schema.mjs).
 */

/** @typedef {import('./seed/context.mjs').SeedOrg} SeedOrg */

/**
 * @typedef {object} SeedResult
 * @property {number} ms
 * @property {Record<string, number>} rows     rows per table
 * @property {Record<string, number>} phasesMs
 * @property {{ consignmentIds: string[] }} measured
 */

/**
 * Seeds every organization's data.
 * @param {string} url
 * @param {SeedOrg[]} orgs
 * @param {{ now: number }} options
 * @returns {Promise<SeedResult>}
 */
export async function seed(url, orgs, { now }) {
  const started = performance.now();
  /** @type {Record<string, number>} */
  const phasesMs = {};
  const sql = postgres(url, { max: 6, onnotice: () => {} });
  /** @type {import('./seed/context.mjs').SeedContext} */
  const context = { sql, random: new Random(20_260_116), now, rows: {} };
  const mark = (/** @type {string} */ phase, /** @type {number} */ since) => {
    phasesMs[phase] = Math.round(performance.now() - since);
  };
  try {
    const before = await schemaFingerprint(sql);

    let phase = performance.now();
    const places = await seedPlaces(context, orgs);
    const customersByOrg = await seedConsignmentsAndCustomers(context, orgs, places);
    mark('workspaces', phase);

    phase = performance.now();
    const restore = await setIndexesAside(sql);
    const stock = await seedStock(context, orgs, places);
    mark('bulk copy', phase);

    phase = performance.now();
    await seedSales(context, orgs, places, customersByOrg, stock);
    mark('sales', phase);

    await rebuildIndexes(sql, restore, mark);
    const entries = await assertSchemaUnchanged(sql, before);
    const measured = orgs.find((o) => o.sales);
    log(`seeded ${context.rows.items} items; schema identical to the migrations' (${entries} catalog entries)`);
    return {
      ms: Math.round(performance.now() - started),
      rows: context.rows,
      phasesMs,
      measured: { consignmentIds: (measured && places.get(measured.slug)?.consignments) || [] },
    };
  } finally {
    await sql.end({ timeout: 5 });
  }
}
