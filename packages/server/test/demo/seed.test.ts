import {
  CONSIGNMENT_STATUSES,
  ConsignmentListSchema,
  INVOICE_STATUSES,
  InvoiceListSchema,
  ITEM_STATUSES,
  ItemListSchema,
  ListConsignmentsQuerySchema,
  ListInvoicesQuerySchema,
  ListItemsQuerySchema,
  SETTLED_PAYMENT_STATUS,
  SOLD_INVOICE_STATUSES,
  ValuationListSchema,
} from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/connect.js';
import { DEMO_ANCHOR, type DemoOrganization, seedDemo, seedDemoOrganization } from '../../src/demo/index.js';
import { ProvisioningError } from '../../src/errors.js';
import { hashKey, isWellFormedKey } from '../../src/modules/access/index.js';
import { listConsignments } from '../../src/modules/consignments/index.js';
import { listInvoices } from '../../src/modules/invoices/index.js';
import { listItems, listItemValuations } from '../../src/modules/items/index.js';
import { estimate, valuate } from '../../src/modules/valuations/index.js';
// What `valuate` reads the engine's inputs with.
import { guideKey, guideValuesOf, itemsToValue, salesOf, spotPrices } from '../../src/modules/valuations/store.js';
import { createTestDatabase } from '../support/database.js';

const TIMEOUT_MS = 60_000;

let db: Database;
let demo: DemoOrganization;

beforeAll(async () => {
  // A migrated, empty database: in-memory embedded (connectDatabase + migrate) or a fresh one on the test cluster.
  db = await createTestDatabase();
  demo = await seedDemoOrganization(db.sql);
}, TIMEOUT_MS);

afterAll(async () => {
  await db?.close();
}, TIMEOUT_MS);

/** `SELECT <column>, count(*)` as a plain object, for readable expectations. */
async function countBy(table: 'items' | 'valuations' | 'consignments' | 'invoices', column: string) {
  const rows = await db.sql<{ value: string | null; n: number }[]>`
    SELECT ${db.sql(column)} AS value, count(*)::int AS n
    FROM ${db.sql(table)}
    WHERE organization_id = ${demo.organizationId}
    GROUP BY 1
  `;
  return Object.fromEntries(rows.map((row) => [row.value ?? 'null', row.n]));
}

describe('seedDemoOrganization', () => {
  it('creates the organization on the business plan with its people', async () => {
    const [org] = await db.sql<{ name: string; slug: string; plan: string }[]>`
      SELECT name, slug, plan FROM organizations WHERE id = ${demo.organizationId}
    `;
    expect(org).toEqual({ name: 'Liberty Coin & Bullion', slug: 'liberty-coin', plan: 'business' });
    const members = await db.sql<{ email: string; role: string }[]>`
      SELECT u.email, m.role FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = ${demo.organizationId} ORDER BY m.role
    `;
    expect(members.map((m) => m.role)).toEqual(['admin', 'member', 'owner']);
    expect(members.find((m) => m.role === 'owner')?.email).toBe(demo.ownerEmail);
  });

  it('reports counts that match the tables', async () => {
    const [row] = await db.sql<{ items: number; valuations: number; consignments: number; invoices: number }[]>`
      SELECT
        (SELECT count(*)::int FROM items WHERE organization_id = ${demo.organizationId}) AS items,
        (SELECT count(*)::int FROM valuations WHERE organization_id = ${demo.organizationId}) AS valuations,
        (SELECT count(*)::int FROM consignments WHERE organization_id = ${demo.organizationId}) AS consignments,
        (SELECT count(*)::int FROM invoices WHERE organization_id = ${demo.organizationId}) AS invoices
    `;
    expect(row).toEqual(demo.counts);
    expect(demo.counts.items).toBeGreaterThanOrEqual(45);
    expect(demo.counts.items).toBeLessThanOrEqual(60);
    expect(demo.counts.invoices).toBeGreaterThanOrEqual(15);
  });

  it('lays out two warehouses whose zones hold the items', async () => {
    const zones = await db.sql<{ warehouse: string; is_default: boolean; zone: string; position: number }[]>`
      SELECT w.name AS warehouse, w.is_default, z.name AS zone, z.position
      FROM zones z JOIN warehouses w ON w.organization_id = z.organization_id AND w.id = z.warehouse_id
      WHERE z.organization_id = ${demo.organizationId}
      ORDER BY w.is_default DESC, z.position
    `;
    expect(zones.slice(0, 3)).toEqual([
      { warehouse: 'Main', is_default: true, zone: 'Receiving', position: 1 },
      { warehouse: 'Main', is_default: true, zone: 'Vault A', position: 2 },
      { warehouse: 'Main', is_default: true, zone: 'Showcase', position: 3 },
    ]);
    expect(zones.filter((z) => z.warehouse === 'Show inventory' && !z.is_default)).toHaveLength(2);
    const [spread] = await db.sql<{ warehouses: number; zones: number }[]>`
      SELECT count(DISTINCT warehouse_id)::int AS warehouses, count(DISTINCT zone_id)::int AS zones
      FROM items WHERE organization_id = ${demo.organizationId}
    `;
    expect(spread).toEqual({ warehouses: 2, zones: 5 });
    const [categories] = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM categories WHERE organization_id = ${demo.organizationId}
    `;
    expect(categories?.n).toBe(5);
  });

  it('has at least five items of every status, some reserved, with distinct creation times', async () => {
    const statuses = await countBy('items', 'status');
    for (const status of ITEM_STATUSES) {
      expect(statuses[status], status).toBeGreaterThanOrEqual(5);
    }
    const [row] = await db.sql<{ reserved: number; distinct_created: number; total: number; updated: number }[]>`
      SELECT
        count(*) FILTER (WHERE quantity_reserved > 0)::int AS reserved,
        count(DISTINCT created_at)::int AS distinct_created,
        count(*)::int AS total,
        count(*) FILTER (WHERE updated_at IS NOT NULL)::int AS updated
      FROM items WHERE organization_id = ${demo.organizationId}
    `;
    expect(row?.reserved).toBeGreaterThan(0);
    expect(row?.distinct_created).toBe(row?.total);
    expect(row?.updated).toBeGreaterThan(0);
    const [bounds] = await db.sql<{ oldest: Date; newest: Date; stale_updates: number }[]>`
      SELECT min(created_at) AS oldest, max(created_at) AS newest,
             count(*) FILTER (WHERE updated_at <= created_at OR updated_at > ${DEMO_ANCHOR})::int AS stale_updates
      FROM items WHERE organization_id = ${demo.organizationId}
    `;
    expect(bounds?.stale_updates).toBe(0);
    expect(bounds?.newest.getTime()).toBeLessThan(DEMO_ANCHOR.getTime());
    // Roughly the last 18 months.
    expect(DEMO_ANCHOR.getTime() - (bounds?.oldest.getTime() ?? 0)).toBeGreaterThan(450 * 86_400_000);
  });

  it('numbers item images 1..n with the documented url', async () => {
    const images = await db.sql<{ sku: string; position: number; url: string; rank: number }[]>`
      SELECT i.sku, im.position, im.url,
             row_number() OVER (PARTITION BY im.item_id ORDER BY im.position)::int AS rank
      FROM item_images im JOIN items i ON i.organization_id = im.organization_id AND i.id = im.item_id
      WHERE im.organization_id = ${demo.organizationId}
    `;
    expect(images.length).toBeGreaterThan(0);
    for (const image of images) {
      expect(image.position).toBe(image.rank);
      expect(image.url).toBe(`https://images.liberty-coin.example/items/${image.sku}/${image.position}.jpg`);
    }
  });

  it("seeds the engine's sources: sales of the coins it holds, a price guide, spot prices for gold and silver", async () => {
    const [sales] = await db.sql<
      { total: number; coins: number; services: number; adjacent: number; older: number; moments: number }[]
    >`
      SELECT count(*)::int AS total, count(DISTINCT coin_identity)::int AS coins,
             count(DISTINCT grading_service)::int AS services,
             count(*) FILTER (WHERE EXISTS (
               SELECT 1 FROM items i
               WHERE i.organization_id = s.organization_id AND i.grading_service = s.grading_service
                 AND i.title = s.coin || ' ' || i.grading_service || ' ' || i.grade AND i.grade <> s.grade
             ))::int AS adjacent,
             count(*) FILTER (WHERE sold_at < ${DEMO_ANCHOR}::timestamptz - interval '730 days')::int AS older,
             count(*) FILTER (WHERE sold_at_text <> to_char(sold_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'))::int AS moments
      FROM comparable_sales s WHERE organization_id = ${demo.organizationId}
    `;
    expect(sales?.total).toBeGreaterThanOrEqual(60);
    expect(sales?.coins).toBeGreaterThanOrEqual(15);
    expect(sales?.services).toBe(3);
    // Sales at a grade beside the item's (what the engine widens to), some too old to count, and marketplace sales
    // dated to the moment.
    expect(sales?.adjacent).toBeGreaterThan(0);
    expect(sales?.older).toBeGreaterThan(0);
    expect(sales?.moments).toBeGreaterThan(0);
    const [guide] = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM price_guide_entries WHERE organization_id = ${demo.organizationId}
    `;
    expect(guide?.n).toBeGreaterThan(0);
    expect(await spotPrices(db.sql)).toEqual({ gold: 330_000, silver: 3_800 });
  });

  it('has only the bases the engine makes, with ordered estimates and comps in their order', async () => {
    const bases = await countBy('valuations', 'basis');
    expect(Object.keys(bases).sort()).toEqual(['comps', 'melt', 'price_guide']);
    const [bad] = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM valuations
      WHERE organization_id = ${demo.organizationId}
        AND (estimate_low_in_cents > estimate_in_cents OR estimate_in_cents > estimate_high_in_cents
             OR confidence_percent NOT BETWEEN 5 AND 95)
    `;
    expect(bad?.n).toBe(0);
    const [items] = await db.sql<{ n: number; histories: number; distinct_times: boolean }[]>`
      SELECT count(DISTINCT item_id)::int AS n,
             (SELECT count(*)::int FROM (
               SELECT item_id FROM valuations WHERE organization_id = ${demo.organizationId}
               GROUP BY item_id HAVING count(*) > 1
             ) h) AS histories,
             count(DISTINCT (item_id, created_at)) = count(*) AS distinct_times
      FROM valuations WHERE organization_id = ${demo.organizationId}
    `;
    expect(items?.n).toBeGreaterThanOrEqual(18);
    expect(items?.histories).toBeGreaterThanOrEqual(3);
    expect(items?.distinct_times).toBe(true);
    // Numbered from 0 in their order, as `valuate` writes them.
    const [comps] = await db.sql<{ total: number; misnumbered: number }[]>`
      SELECT count(*)::int AS total,
             count(*) FILTER (WHERE position <> rank - 1)::int AS misnumbered
      FROM (
        SELECT position, row_number() OVER (PARTITION BY valuation_id ORDER BY position) AS rank
        FROM valuation_comps WHERE organization_id = ${demo.organizationId}
      ) c
    `;
    expect(comps?.total).toBeGreaterThan(0);
    expect(comps?.misnumbered).toBe(0);
    const [melt] = await db.sql<{ missing: number }[]>`
      SELECT count(*)::int AS missing FROM valuations
      WHERE organization_id = ${demo.organizationId} AND basis = 'melt' AND melt_value_in_cents IS NULL
    `;
    expect(melt?.missing).toBe(0);
  });

  it("has as valuations exactly the engine's estimates over the seeded sources, read as valuate reads them", async () => {
    const org = demo.organizationId;
    const spot = await spotPrices(db.sql);
    let checked = 0;
    for (const item of await itemsToValue(db.sql, org, null)) {
      const guide = await guideValuesOf(db.sql, org, [item.identity]);
      for (const valuation of (await listItemValuations(db.sql, org, item.id, 50)).items) {
        // What `valuate` makes with `now` the valuation's moment, from the sales sold by then.
        const now = new Date(valuation.createdAt);
        const expected = estimate({
          item,
          sales: await salesOf(db.sql, org, [item.identity], now),
          priceGuideValueInCents: item.grade === null ? null : (guide.get(guideKey(item.identity, item.grade)) ?? null),
          spotCentsPerOz: spot,
          now,
        });
        const label = `${item.sku} at ${valuation.createdAt}`;
        expect(expected, label).not.toBeNull();
        expect(valuation, label).toEqual({
          id: valuation.id,
          itemId: item.id,
          ...expected,
          appliedAt: valuation.appliedAt,
          createdAt: valuation.createdAt,
        });
        checked += 1;
      }
    }
    expect(checked).toBe(demo.counts.valuations);
  });

  it('makes each applied valuation the item value, as valuate --apply does', async () => {
    const rows = await db.sql<
      {
        value: number;
        estimate: number;
        applied_at: Date;
        created_at: Date;
        updated_at: Date | null;
        newest: boolean;
      }[]
    >`
      SELECT i.value_in_cents AS value, v.estimate_in_cents AS estimate, v.applied_at, v.created_at, i.updated_at,
             v.created_at = (SELECT max(w.created_at) FROM valuations w
                             WHERE w.organization_id = v.organization_id AND w.item_id = v.item_id) AS newest
      FROM valuations v JOIN items i ON i.organization_id = v.organization_id AND i.id = v.item_id
      WHERE v.organization_id = ${demo.organizationId} AND v.applied_at IS NOT NULL
    `;
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const row of rows) {
      expect(row.estimate).toBe(row.value);
      expect(row.newest).toBe(true);
      // In the transaction that wrote the valuation and updated the item, as a PATCH does.
      expect(row.applied_at).toEqual(row.created_at);
      expect(row.updated_at?.getTime()).toBeGreaterThanOrEqual(row.applied_at.getTime());
    }
  });

  it('covers every consignment status with dates that fit it', async () => {
    const statuses = await countBy('consignments', 'status');
    for (const status of CONSIGNMENT_STATUSES) {
      expect(statuses[status], status).toBeGreaterThanOrEqual(1);
    }
    const consignments = await db.sql<
      { status: string; number: string; received_at: Date | null; sold_at: Date | null; settled_at: Date | null }[]
    >`
      SELECT status, number, received_at, sold_at, settled_at FROM consignments
      WHERE organization_id = ${demo.organizationId}
    `;
    for (const c of consignments) {
      expect(c.number).toMatch(/^C-20\d\d-\d{3}$/);
      expect(c.received_at).not.toBeNull();
      expect(c.sold_at !== null, `${c.status} sold_at`).toBe(c.status === 'sold' || c.status === 'settled');
      expect(c.settled_at !== null, `${c.status} settled_at`).toBe(c.status === 'settled');
    }
    const [linked] = await db.sql<{ items: number; early: number; sold_total: number }[]>`
      SELECT count(*)::int AS items,
             count(*) FILTER (WHERE i.created_at < c.received_at)::int AS early,
             coalesce((
               SELECT sum(l.total_price_in_cents) FROM invoice_lines l
               JOIN items li ON li.organization_id = l.organization_id AND li.id = l.item_id
               JOIN invoices inv ON inv.organization_id = l.organization_id AND inv.id = l.invoice_id
               WHERE l.organization_id = ${demo.organizationId} AND li.consignment_id IS NOT NULL
                 AND inv.status IN ${db.sql(SOLD_INVOICE_STATUSES)}
             ), 0)::int AS sold_total
      FROM items i JOIN consignments c ON c.organization_id = i.organization_id AND c.id = i.consignment_id
      WHERE i.organization_id = ${demo.organizationId}
    `;
    expect(linked?.items).toBeGreaterThanOrEqual(10);
    expect(linked?.early).toBe(0);
    expect(linked?.sold_total).toBeGreaterThan(0);
  });

  it('covers every invoice status with payments that agree with it', async () => {
    const statuses = await countBy('invoices', 'status');
    for (const status of INVOICE_STATUSES) {
      expect(statuses[status], status).toBeGreaterThanOrEqual(1);
    }
    const invoices = await db.sql<
      {
        number: number;
        status: string;
        customer_id: string | null;
        customer_name: string | null;
        subtotal: number;
        discount: number;
        total: number;
        succeeded: number;
        payments: number;
        due_at: Date | null;
        paid_at: Date | null;
        lines: number;
        misnumbered: number;
        items_after_invoice: number;
      }[]
    >`
      SELECT inv.number, inv.status, inv.customer_id, inv.customer_name, inv.due_at, inv.paid_at,
             l.subtotal, inv.discount_in_cents AS discount,
             (l.subtotal - inv.discount_in_cents + inv.shipping_in_cents + inv.tax_in_cents)::int AS total,
             p.succeeded, p.payments, l.lines, l.misnumbered, l.items_after_invoice
      FROM invoices inv
      CROSS JOIN LATERAL (
        SELECT coalesce(sum(x.total_price_in_cents), 0)::int AS subtotal, count(*)::int AS lines,
               count(*) FILTER (WHERE x.position <> x.rank)::int AS misnumbered,
               count(*) FILTER (WHERE x.item_created_at >= inv.created_at)::int AS items_after_invoice
        FROM (
          SELECT il.total_price_in_cents, il.position, it.created_at AS item_created_at,
                 row_number() OVER (ORDER BY il.position) AS rank
          FROM invoice_lines il
          LEFT JOIN items it ON it.organization_id = il.organization_id AND it.id = il.item_id
          WHERE il.organization_id = inv.organization_id AND il.invoice_id = inv.id
        ) x
      ) l
      CROSS JOIN LATERAL (
        SELECT coalesce(sum(amount_in_cents) FILTER (WHERE status = ${SETTLED_PAYMENT_STATUS}), 0)::int AS succeeded,
               count(*)::int AS payments
        FROM invoice_payments
        WHERE organization_id = inv.organization_id AND invoice_id = inv.id
      ) p
      WHERE inv.organization_id = ${demo.organizationId}
    `;
    for (const inv of invoices) {
      const label = `invoice ${inv.number} (${inv.status})`;
      expect(inv.lines, label).toBeGreaterThanOrEqual(1);
      expect(inv.lines, label).toBeLessThanOrEqual(4);
      expect(inv.misnumbered, label).toBe(0);
      expect(inv.items_after_invoice, label).toBe(0);
      expect(inv.discount, label).toBeLessThanOrEqual(inv.subtotal);
      expect(inv.paid_at !== null, label).toBe(inv.status === 'paid');
      switch (inv.status) {
        case 'paid':
          expect(inv.succeeded, label).toBe(inv.total);
          break;
        case 'partially_paid':
          expect(inv.succeeded, label).toBeGreaterThan(0);
          expect(inv.succeeded, label).toBeLessThan(inv.total);
          break;
        case 'overdue':
          expect(inv.succeeded, label).toBeLessThan(inv.total);
          expect(inv.due_at?.getTime(), label).toBeLessThan(DEMO_ANCHOR.getTime());
          break;
        case 'sent':
          expect(inv.succeeded, label).toBe(0);
          expect(inv.due_at?.getTime(), label).toBeGreaterThan(DEMO_ANCHOR.getTime());
          break;
        case 'draft':
          expect(inv.payments, label).toBe(0);
          break;
        default:
          // void and cancelled: nothing collected.
          expect(inv.succeeded, label).toBe(0);
      }
    }
    const walkIn = invoices.filter((inv) => inv.customer_id === null);
    expect(walkIn.map((inv) => inv.customer_name)).toEqual(['Walk-in customer']);
    const sources = await countBy('invoices', 'source');
    expect(Object.keys(sources).sort()).toEqual(['Heritage Auctions', 'eBay', 'manual']);
    const paymentStatuses = await db.sql<{ status: string }[]>`
      SELECT DISTINCT status FROM invoice_payments WHERE organization_id = ${demo.organizationId} ORDER BY status
    `;
    expect(paymentStatuses.map((p) => p.status)).toEqual(['failed', 'pending', 'succeeded']);
  });

  it('lists some in-stock items on the marketplace at their available quantity', async () => {
    const listings = await db.sql<{ status: string; synced: number | null; available: number; item_status: string }[]>`
      SELECT ml.status, ml.last_synced_quantity AS synced, i.quantity_available AS available, i.status AS item_status
      FROM marketplace_listings ml JOIN items i ON i.organization_id = ml.organization_id AND i.id = ml.item_id
      WHERE ml.organization_id = ${demo.organizationId}
    `;
    expect(listings.length).toBeGreaterThanOrEqual(2);
    for (const listing of listings) {
      expect(listing).toMatchObject({ status: 'active', item_status: 'in_stock', synced: listing.available });
    }
  });

  it('reads back through the services as valid API responses, every status filter finding items', async () => {
    const org = demo.organizationId;
    const all = (await listItems(db.sql, org, ListItemsQuerySchema.parse({ limit: '100' }))).parse();
    expect(ItemListSchema.parse(all).items).toHaveLength(demo.counts.items);
    for (const status of ITEM_STATUSES) {
      const page = (await listItems(db.sql, org, ListItemsQuerySchema.parse({ status, limit: '100' }))).parse();
      expect(page.items.length, status).toBeGreaterThanOrEqual(5);
    }
    let valuations = 0;
    for (const item of all.items) {
      const list = ValuationListSchema.parse(await listItemValuations(db.sql, org, item.id, 50));
      const times = list.items.map((v) => v.createdAt);
      expect(times, item.sku).toEqual([...times].sort().reverse());
      valuations += list.items.length;
    }
    expect(valuations).toBe(demo.counts.valuations);
    const consignments = await listConsignments(db.sql, org, ListConsignmentsQuerySchema.parse({ limit: '100' }));
    expect(ConsignmentListSchema.parse(consignments).items).toHaveLength(demo.counts.consignments);
    expect(consignments.items.some((c) => c.totalSoldInCents > 0 && c.totalCommissionInCents > 0)).toBe(true);
    const invoices = await listInvoices(db.sql, org, ListInvoicesQuerySchema.parse({ limit: '100' }));
    expect(InvoiceListSchema.parse(invoices).items).toHaveLength(demo.counts.invoices);
  });

  it('issues a well-formed read/write key of the owner and stores only its hash', async () => {
    expect(isWellFormedKey(demo.key.key)).toBe(true);
    expect(demo.key.scopes).toEqual(['read', 'write']);
    const [row] = await db.sql<{ id: string; email: string; scopes: string[]; revoked_at: Date | null }[]>`
      SELECT k.id, u.email, k.scopes, k.revoked_at
      FROM api_keys k JOIN users u ON u.id = k.created_by
      WHERE k.organization_id = ${demo.organizationId} AND k.key_hash = ${hashKey(demo.key.key)}
    `;
    expect(row).toEqual({ id: demo.key.id, email: demo.ownerEmail, scopes: ['read', 'write'], revoked_at: null });
  });

  it('is meant for an empty database: a second run fails on the slug and leaves nothing behind', async () => {
    const before = await db.sql<{ n: number }[]>`SELECT count(*)::int AS n FROM items`;
    await expect(seedDemoOrganization(db.sql)).rejects.toMatchObject({
      code: '23505',
      constraint_name: 'organizations_slug_key',
    });
    const after = await db.sql<{ orgs: number; items: number; users: number }[]>`
      SELECT (SELECT count(*)::int FROM organizations) AS orgs, (SELECT count(*)::int FROM items) AS items,
             (SELECT count(*)::int FROM users) AS users
    `;
    expect(after[0]).toEqual({ orgs: 1, items: before[0]?.n, users: 3 });
  });
});

describe('valuate on the demo organization', () => {
  it('finds at the anchor what the demo holds: each item the demo valued then keeps that valuation', async () => {
    const result = await valuate(db.sql, { org: demo.slug, item: null, now: DEMO_ANCHOR });
    const latest = await db.sql<{ id: string; item_id: string }[]>`
      SELECT id, item_id FROM valuations WHERE organization_id = ${demo.organizationId} AND created_at = ${DEMO_ANCHOR}
    `;
    expect(latest.length).toBeGreaterThanOrEqual(18);
    const byItem = (a: { itemId: string }, b: { itemId: string }) => a.itemId.localeCompare(b.itemId);
    // The same estimate, range, confidence, summary and comps as the demo's: nothing new to record.
    expect(result.unchanged.map(({ itemId, valuationId }) => ({ itemId, valuationId })).sort(byItem)).toEqual(
      latest.map((row) => ({ itemId: row.item_id, valuationId: row.id })).sort(byItem),
    );
    expect(result.valued.filter((v) => latest.some((row) => row.item_id === v.itemId))).toEqual([]);
  });
});

describe('seedDemo (the operator command)', () => {
  it('refuses a second demo organization as a conflict the operator can read', async () => {
    const refusal = seedDemo(db.sql);
    await expect(refusal).rejects.toBeInstanceOf(ProvisioningError);
    await expect(refusal).rejects.toMatchObject({
      kind: 'conflict',
      message: 'The demo organization "liberty-coin" already exists.',
    });
  });
});
