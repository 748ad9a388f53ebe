import { actAs, OPERATOR } from '../db/actor.js';
import type { Sql, TransactionSql } from '../db/types.js';
import { type IssuedKey, issueApiKey } from '../modules/access/index.js';
import { insertCategoryRows } from '../modules/categories/index.js';
import { insertConsignmentRows } from '../modules/consignments/index.js';
import { insertInvoiceRows } from '../modules/invoices/index.js';
import { insertItemRows } from '../modules/items/index.js';
import { insertListingRows } from '../modules/marketplace/index.js';
// The store's own inserts, not the operator's provisioning: a second seed must end in the slug's unique violation
// (and roll back), which provisioning would turn into its own conflict.
import { organizationStore } from '../modules/organizations/index.js';
import { holdReservedUnits } from '../modules/reservations/index.js';
import type { DemoFill } from '../modules/sandbox/index.js';
import { insertValuationRows, insertValuationSourceRows } from '../modules/valuations/index.js';
import { createDefaultWarehouse, insertWarehouseRows } from '../modules/warehouses/index.js';
import { addDays } from './build/context.js';
import { type BuildOptions, buildDemoRows, type DemoOrganizationIds } from './build/index.js';
import { DEMO_ANCHOR, KEY_SCOPES, ORGANIZATION, PEOPLE } from './catalog/shop.js';
import type { DemoRows } from './rows.js';

export { DEMO_ANCHOR, DEMO_SLUG } from './catalog/shop.js';

/**
 * The demo organization: one coin shop with enough varied data that every list, filter, sort and status of the API
 * returns something worth looking at.
 *
 * - Run it on a database that holds no demo organization yet: the organization's slug and the users' emails are
 *   unique, so a second run fails on the first insert and its transaction leaves nothing behind.
 * - Everything but the API key and the organization and user ids is the same on every run: values come from the
 *   catalog (./catalog) and a seeded PRNG, ids of the organization's rows from a second seeded PRNG, and dates are offsets from a
 *   fixed anchor (`options.now` moves them all, e.g. to today). The builder (./build) turns the catalog into rows;
 *   this file writes them.
 */

export interface DemoOrganization {
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

/** When the demo business "opened": its organization's and default warehouse's creation, before all of its data. */
const openedAt = (now: Date) => addDays(now, -548);

/** The organization with its default warehouse and first zone, dated back to when the demo business "opened". */
async function insertOrganization(tx: TransactionSql, now: Date) {
  const createdAt = openedAt(now);
  const { id } = await organizationStore.createOrganization(tx, { ...ORGANIZATION, createdAt });
  const { defaultWarehouseId, defaultZoneId } = await createDefaultWarehouse(tx, id, createdAt);
  return { organizationId: id, warehouseId: defaultWarehouseId, receivingZoneId: defaultZoneId };
}

/**
 * Writes the demo shop's rows below the organization and its people: stock, the comparable sales and price guide its
 * valuations come from, valuations, consignments, invoices, marketplace listings, and held reservations for its
 * reserved units. Spot prices, which every organization shares, only when `spotPrices` says so.
 */
async function insertDemoRows(
  tx: TransactionSql,
  organization: DemoOrganizationIds,
  now: Date,
  options: BuildOptions & { spotPrices: boolean },
): Promise<DemoRows> {
  const rows = buildDemoRows(organization, now, options);
  // Each owner's rows in one multi-row INSERT per table (the demo stays far below PostgreSQL's 65,535 parameters
  // per statement); parents before children, in foreign key order.
  await insertWarehouseRows(tx, rows);
  await insertCategoryRows(tx, rows.categories);
  await insertConsignmentRows(tx, rows);
  await insertItemRows(tx, { items: rows.items, images: rows.itemImages });
  // The catalog's reserved units are held by web checkouts.
  await holdReservedUnits(tx, organization.organizationId, 'web checkout');
  await insertValuationSourceRows(tx, {
    sales: rows.comparableSales,
    guide: rows.priceGuideEntries,
    spotPrices: options.spotPrices ? rows.spotPrices : [],
  });
  await insertValuationRows(tx, rows.valuations, rows.valuationComps);
  await insertInvoiceRows(tx, {
    customers: rows.customers,
    invoices: rows.invoices,
    lines: rows.invoiceLines,
    payments: rows.invoicePayments,
  });
  await insertListingRows(tx, rows.marketplaceListings);
  return rows;
}

/**
 * Creates the demo organization (organization, people, stock, the comparable sales and price guide its valuations come
 * from, valuations, consignments, invoices) in one transaction, with spot prices for the metals the deployment has
 * none for, and returns a read/write API key for it. Meant for an empty database: a second run fails on the unique
 * slug and rolls back completely.
 */
export async function seedDemoOrganization(sql: Sql, options: SeedOptions = {}): Promise<DemoOrganization> {
  const now = options.now ?? DEMO_ANCHOR;
  return sql.begin(async (tx) => {
    await actAs(tx, OPERATOR);
    const organization = await insertOrganization(tx, now);
    const { organizationId } = organization;

    let owner: { id: string; email: string } | null = null;
    for (const person of PEOPLE) {
      const user = await organizationStore.createUser(tx, { email: person.email, name: person.name });
      await organizationStore.addMember(tx, organizationId, user.id, person.role);
      if (person.role === 'owner') owner = { id: user.id, email: person.email };
    }
    if (owner === null) throw new Error('demo seed: no owner among PEOPLE');

    const rows = await insertDemoRows(tx, organization, now, { spotPrices: true });

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

/**
 * Fills a sandbox with the demo shop's data (`sandbox reset --from demo`), in the reset's transaction: the same rows
 * as the demo organization's, with ids of the sandbox's own (seeded from its id), and without an organization,
 * people or keys, which the sandbox has of its workspace. Spot prices are left alone: they are every organization's,
 * and test mode changes nothing outside its sandbox.
 */
export const seedDemoSandbox: DemoFill = async (tx, sandbox) => {
  const now = DEMO_ANCHOR;
  const { defaultWarehouseId, defaultZoneId } = await createDefaultWarehouse(tx, sandbox.id, openedAt(now));
  const rows = await insertDemoRows(
    tx,
    { organizationId: sandbox.id, warehouseId: defaultWarehouseId, receivingZoneId: defaultZoneId },
    now,
    { spotPrices: false, idSalt: Number.parseInt(sandbox.id.slice(0, 8), 16) },
  );
  return {
    warehouses: rows.warehouses.length + 1,
    zones: rows.zones.length + 1,
    categories: rows.categories.length,
    consignors: rows.consignors.length,
    consignments: rows.consignments.length,
    items: rows.items.length,
    itemImages: rows.itemImages.length,
    valuations: rows.valuations.length,
    valuationComps: rows.valuationComps.length,
    customers: rows.customers.length,
    invoices: rows.invoices.length,
    invoiceLines: rows.invoiceLines.length,
    invoicePayments: rows.invoicePayments.length,
  };
};
