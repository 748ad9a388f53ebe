import type { Sql, TransactionSql } from '../db/types.js';
import { type IssuedKey, issueApiKey } from '../modules/access/index.js';
// The store's own inserts, not the operator's provisioning: a second seed must end in the slug's unique violation
// (and roll back), which provisioning would turn into its own conflict.
import { insertValuationRows } from '../modules/valuations/index.js';
import { workspaceRows } from '../modules/workspaces/index.js';
import { addDays } from './build/context.js';
import { buildDemoRows } from './build/index.js';
import { DEMO_ANCHOR, KEY_SCOPES, ORGANIZATION, PEOPLE } from './catalog/shop.js';

export { DEMO_ANCHOR, DEMO_SLUG } from './catalog/shop.js';

/**
 * The demo workspace: one coin shop with enough varied data that every list, filter, sort and status of the API
 * returns something worth looking at.
 *
 * - Run it on a database that holds no demo workspace yet: the organization's slug and the users' emails are
 *   unique, so a second run fails on the first insert and its transaction leaves nothing behind.
 * - Everything but the API key and the organization and user ids is the same on every run: values come from the
 *   catalog (./catalog) and a seeded PRNG, tenant row ids from a second seeded PRNG, and dates are offsets from a
 *   fixed anchor (`options.now` moves them all, e.g. to today). The builder (./build) turns the catalog into rows;
 *   this file writes them.
 */

export interface DemoWorkspace {
  organizationId: string;
  name: string;
  slug: string;
  key: IssuedKey;
  ownerEmail: string;
  counts: { items: number; valuations: number; consignments: number; invoices: number };
}

export interface SeedOptions {
  /** The moment the data is "as of"; every date is this minus some days. Defaults to DEMO_ANCHOR. */
  now?: Date;
}

/** The organization with its default warehouse and first zone, dated back to when the demo business "opened". */
async function insertOrganization(tx: TransactionSql, now: Date) {
  const created = await workspaceRows.createOrganization(tx, ORGANIZATION);
  const createdAt = addDays(now, -548);
  await tx`UPDATE organizations SET created_at = ${createdAt} WHERE id = ${created.id}`;
  await tx`UPDATE warehouses SET created_at = ${createdAt} WHERE organization_id = ${created.id}`;
  return {
    organizationId: created.id,
    warehouseId: created.defaultWarehouseId,
    receivingZoneId: created.defaultZoneId,
  };
}

type Table =
  | 'warehouses'
  | 'zones'
  | 'categories'
  | 'consignors'
  | 'consignments'
  | 'items'
  | 'item_images'
  | 'comparable_sales'
  | 'price_guide_entries'
  | 'customers'
  | 'invoices'
  | 'invoice_lines'
  | 'invoice_payments'
  | 'marketplace_listings';

/** One multi-row INSERT; the demo tables stay far below PostgreSQL's 65,535 parameters per statement. */
async function insertRows(tx: TransactionSql, table: Table, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  await tx`INSERT INTO ${tx(table)} ${tx(rows)}`;
}

/**
 * Creates the demo workspace (organization, people, stock, the comparable sales and price guide its valuations come
 * from, valuations, consignments, invoices) in one transaction, with spot prices for the metals the deployment has
 * none for, and returns a read/write API key for it. Meant for an empty database: a second run fails on the unique
 * slug and rolls back completely.
 */
export async function seedDemoWorkspace(sql: Sql, options: SeedOptions = {}): Promise<DemoWorkspace> {
  const now = options.now ?? DEMO_ANCHOR;
  return sql.begin(async (tx) => {
    const { organizationId, warehouseId, receivingZoneId } = await insertOrganization(tx, now);

    let owner: { id: string; email: string } | null = null;
    for (const person of PEOPLE) {
      const user = await workspaceRows.createUser(tx, { email: person.email, name: person.name });
      await workspaceRows.addMember(tx, organizationId, user.id, person.role);
      if (person.role === 'owner') owner = { id: user.id, email: person.email };
    }
    if (owner === null) throw new Error('demo seed: no owner among PEOPLE');

    const rows = buildDemoRows({ organizationId, warehouseId, receivingZoneId }, now);
    // Parents before children, in foreign key order.
    await insertRows(tx, 'warehouses', rows.warehouses);
    await insertRows(tx, 'zones', rows.zones);
    await insertRows(tx, 'categories', rows.categories);
    await insertRows(tx, 'consignors', rows.consignors);
    await insertRows(tx, 'consignments', rows.consignments);
    await insertRows(
      tx,
      'items',
      rows.items.map((item) => ({ ...item, attributes: tx.json(item.attributes) })),
    );
    await insertRows(tx, 'item_images', rows.itemImages);
    await insertRows(tx, 'comparable_sales', rows.comparableSales);
    await insertRows(tx, 'price_guide_entries', rows.priceGuideEntries);
    // Spot prices are the deployment's: an operator's own (`spot set`) stay as they are.
    await tx`INSERT INTO spot_prices ${tx(rows.spotPrices)} ON CONFLICT (metal) DO NOTHING`;
    await insertValuationRows(tx, rows.valuations, rows.valuationComps);
    await insertRows(tx, 'customers', rows.customers);
    await insertRows(tx, 'invoices', rows.invoices);
    await insertRows(tx, 'invoice_lines', rows.invoiceLines);
    await insertRows(tx, 'invoice_payments', rows.invoicePayments);
    await insertRows(tx, 'marketplace_listings', rows.marketplaceListings);

    const key = await issueApiKey(tx, {
      organizationId,
      createdBy: owner.id,
      name: 'Demo key',
      scopes: KEY_SCOPES,
    });

    return {
      organizationId,
      name: ORGANIZATION.name,
      slug: ORGANIZATION.slug,
      key,
      ownerEmail: owner.email,
      counts: {
        items: rows.items.length,
        valuations: rows.valuations.length,
        consignments: rows.consignments.length,
        invoices: rows.invoices.length,
      },
    };
  });
}
