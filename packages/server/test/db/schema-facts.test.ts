import {
  CategorySchema,
  CHANGE_TYPES,
  CONSIGNMENT_STATUSES,
  ConsignmentSchema,
  INVOICE_STATUSES,
  InvoiceSchema,
  ITEM_STATUS_RULES,
  ITEM_STATUSES,
  ItemSchema,
  type ItemStatus,
  SCOPES,
  SEARCH_FIELDS,
  ValuationSchema,
  WarehouseSchema,
} from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connect.js';
import { CATEGORIES } from '../../src/modules/categories/index.js';
import { CONSIGNMENTS } from '../../src/modules/consignments/index.js';
import { INVOICES } from '../../src/modules/invoices/index.js';
import { ITEMS, VALUATIONS } from '../../src/modules/items/index.js';
import { SYNC_STATES } from '../../src/modules/marketplace/index.js';
import { PLANS, ROLES } from '../../src/modules/organizations/index.js';
import { WAREHOUSES } from '../../src/modules/warehouses/index.js';
import { createTestDatabase } from '../support/database.js';
import { insertItems, type SeedItem } from '../support/items.js';
import { createTestOrganization } from '../support/organization.js';
import {
  type AnyTable,
  checkedValues,
  columnsOf,
  declaredPaths,
  generatedExpression,
  keyPaths,
  rowFor,
  schemaPaths,
  searchColumns,
  statusByRules,
} from '../support/schema-facts.js';

/**
 * Facts the code and the migrated schema both state, because each needs them (a CHECK constraint, a generated
 * column, a list in TypeScript): each is read back from the live database's catalog and compared with its
 * TypeScript side, so neither can change alone.
 */

let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('CHECK constraints hold the lists the code names', () => {
  it.each([
    ['organizations', 'plan', 'PLANS (organizations)', PLANS],
    ['memberships', 'role', 'ROLES (organizations)', ROLES],
    ['marketplace_sync_jobs', 'state', 'SYNC_STATES (marketplace)', SYNC_STATES],
    ['consignments', 'status', "the contract's CONSIGNMENT_STATUSES", CONSIGNMENT_STATUSES],
    ['invoices', 'status', "the contract's INVOICE_STATUSES", INVOICE_STATUSES],
    ['api_keys', 'scopes', "the contract's SCOPES", SCOPES],
    ['changes', 'type', "the contract's CHANGE_TYPES", CHANGE_TYPES],
  ] as const)('%s.%s allows exactly %s', async (table, column, _list, values) => {
    expect(await checkedValues(database.sql, table, column)).toEqual([...values].sort());
  });
});

const TABLES: Record<string, { table: AnyTable; schema: Parameters<typeof schemaPaths>[0] }> = {
  items: { table: ITEMS, schema: ItemSchema },
  valuations: { table: VALUATIONS, schema: ValuationSchema },
  consignments: { table: CONSIGNMENTS, schema: ConsignmentSchema },
  invoices: { table: INVOICES, schema: InvoiceSchema },
  categories: { table: CATEGORIES, schema: CategorySchema },
  warehouses: { table: WAREHOUSES, schema: WarehouseSchema },
};

describe("each list's generated search_text holds exactly the SEARCH_FIELDS its table stores", () => {
  it.each(Object.keys(SEARCH_FIELDS) as (keyof typeof SEARCH_FIELDS)[])('%s', async (list) => {
    const entry = TABLES[list];
    if (!entry) throw new Error(`no table declaration for ${list}`);
    const expression = await generatedExpression(database.sql, entry.table.name, 'search_text');
    const columns = await columnsOf(database.sql, entry.table.name);
    const searched = searchColumns(entry.table, SEARCH_FIELDS[list]);
    const named = columns.map((column) => column.name).filter((name) => new RegExp(`\\b${name}\\b`).test(expression));
    expect(named.sort(), expression).toEqual([...searched.stored].sort());
    // What the table does not store (a consignor's name) is read from a joined row, which a computed field shows.
    expect(searched.unshown, `${list}: search fields no column shows`).toEqual([]);
  });
});

describe('the items table derives status by the contract’s ITEM_STATUS_RULES', () => {
  /** Every mix of none, one and several units available, sold and reserved, at auction or not. */
  const mixes = [0, 1, 7].flatMap((available) =>
    [0, 1, 3].flatMap((sold) =>
      [0, 2].flatMap((reserved) => [false, true].map((isAtAuction) => ({ available, sold, reserved, isAtAuction }))),
    ),
  );

  it('the rules partition the mixes: each matches exactly one status', () => {
    for (const mix of mixes) expect(statusByRules(ITEM_STATUS_RULES, mix), JSON.stringify(mix)).toHaveLength(1);
    const seen = new Set(mixes.flatMap((mix) => statusByRules(ITEM_STATUS_RULES, mix)));
    expect([...seen].sort()).toEqual([...ITEM_STATUSES].sort());
  });

  it('the generated column gives each mix the status its rule names', async () => {
    const organization = await createTestOrganization(database.sql);
    const seeds: SeedItem[] = mixes.map((mix, index) => ({ sku: `STATUS-${index}`, title: 'Status', ...mix }));
    await insertItems(database.sql, organization, seeds);
    const rows = await database.sql<{ sku: string; status: ItemStatus }[]>`
      SELECT sku, status FROM items WHERE organization_id = ${organization.organizationId}
    `;
    const stored = new Map(rows.map((row) => [row.sku, row.status]));
    for (const [index, mix] of mixes.entries()) {
      expect([stored.get(`STATUS-${index}`)], JSON.stringify(mix)).toEqual(statusByRules(ITEM_STATUS_RULES, mix));
    }
  });
});

describe.each(Object.entries(TABLES))('the %s table declaration', (_name, { table, schema }) => {
  it('stores only columns the table has, none of them generated', async () => {
    const columns = await columnsOf(database.sql, table.name);
    const byName = new Map(columns.map((column) => [column.name, column]));
    for (const name of table.stored) {
      expect(byName.get(name), `${table.name}.${name}`).toMatchObject({ generated: false });
    }
  });

  it("shows exactly the contract schema's fields, in its order", () => {
    expect(declaredPaths(table)).toEqual(schemaPaths(schema));
  });

  it('builds API objects whose keys, at every level, follow the schema', () => {
    expect(keyPaths(table.toApi(rowFor(table)))).toEqual(schemaPaths(schema));
  });
});
