import { randomUUID } from 'node:crypto';
import { INVOICE_SOURCES, PAYMENT_METHODS } from '../data.mjs';
import { DAY_MS, iso } from './context.mjs';
import { copyLines, t } from './copy.mjs';

/**
 * The sales of the workspaces that sell: invoices (their lines sell the workspace's sold items, in turn), their
 * payments as the invoice's status implies, and marketplace listings of the items the stock step picked.
 */

/** How a dealer's invoices are spread over their statuses. */
const INVOICE_STATUSES = /** @type {const} */ ([
  ['paid', 55],
  ['sent', 10],
  ['partially_paid', 8],
  ['overdue', 7],
  ['draft', 8],
  ['void', 6],
  ['cancelled', 6],
]);

/**
 * @param {import('./context.mjs').SeedContext} context
 * @param {import('./context.mjs').SeedOrg[]} orgs
 * @param {Map<string, import('./context.mjs').Place>} places
 * @param {Map<string, Array<{ id: string, name: string, email: string | null }>>} customersByOrg
 * @param {import('./stock.mjs').Stock} stock
 */
export async function seedSales({ sql, random, now, rows }, orgs, places, customersByOrg, { soldByOrg, listedByOrg }) {
  /** @type {string[]} */
  const invoiceLines = [];
  /** @type {string[]} */
  const lineLines = [];
  /** @type {string[]} */
  const paymentLines = [];
  /** @type {string[]} */
  const listingLines = [];
  for (const org of orgs) {
    const place = places.get(org.slug);
    const customers = customersByOrg.get(org.slug);
    if (!org.sales || !place || !customers) continue;
    const soldItems = soldByOrg.get(org.slug) ?? [];
    let nextSold = 0;
    for (let i = 0; i < org.sales.invoices; i++) {
      const id = randomUUID();
      const status = random.weighted(INVOICE_STATUSES);
      const source = random.weighted(INVOICE_SOURCES);
      const walkIn = source === 'manual' && random.chance(0.2);
      const customer = walkIn ? null : random.pick(customers);
      // Invoice numbers rise with time, as a dealer's invoice book does.
      const createdMs = now - 4 * 365 * DAY_MS + Math.floor((i / org.sales.invoices) * 4 * 365 * DAY_MS);
      let subtotal = 0;
      const lines = random.int(1, 4);
      for (let l = 1; l <= lines; l++) {
        const item = soldItems.length > 0 ? soldItems[nextSold++ % soldItems.length] : undefined;
        const quantity = 1;
        const unit = item ? Math.round((item.value * (0.95 + random.next() * 0.15)) / 100) * 100 : 2_500;
        subtotal += quantity * unit;
        lineLines.push(
          [
            place.id,
            randomUUID(),
            id,
            l,
            item?.id ?? '\\N',
            item ? '\\N' : 'Supplies and holders',
            quantity,
            unit,
          ].join('\t'),
        );
      }
      const discount = random.chance(0.15) ? Math.round(subtotal * 0.05) : 0;
      const shipping = source === 'manual' ? 0 : random.pick([0, 1_200, 2_500, 4_500]);
      const tax = source === 'manual' && random.chance(0.5) ? Math.round(subtotal * 0.0725) : 0;
      const totalDue = Math.max(subtotal - discount + shipping + tax, 0);
      const paidMs = status === 'paid' ? Math.min(now - 60_000, createdMs + random.int(0, 20) * DAY_MS) : null;
      invoiceLines.push(
        [
          place.id,
          id,
          i + 1,
          status,
          t(source),
          customer?.id ?? '\\N',
          t(customer?.name ?? (walkIn ? 'Walk-in customer' : null)),
          t(customer?.email ?? null),
          discount,
          shipping,
          tax,
          iso(createdMs + 30 * DAY_MS),
          paidMs === null ? '\\N' : iso(paidMs),
          iso(createdMs),
        ].join('\t'),
      );
      /** @type {Array<[number, string, number]>} amount, status, paid at */
      const payments = [];
      if (status === 'paid') {
        if (random.chance(0.1)) payments.push([Math.round(totalDue / 2), 'failed', createdMs + DAY_MS]);
        payments.push([totalDue, 'succeeded', paidMs ?? createdMs]);
      } else if (status === 'partially_paid') {
        payments.push([Math.round(totalDue * (0.2 + random.next() * 0.5)), 'succeeded', createdMs + 2 * DAY_MS]);
      } else if (status === 'overdue' && random.chance(0.3)) {
        payments.push([totalDue, 'failed', createdMs + 5 * DAY_MS]);
      } else if (status === 'sent' && random.chance(0.2)) {
        payments.push([totalDue, 'pending', createdMs + DAY_MS]);
      }
      for (const [amount, paymentStatus, atMs] of payments) {
        paymentLines.push(
          [
            place.id,
            randomUUID(),
            id,
            amount,
            random.pick(PAYMENT_METHODS),
            paymentStatus,
            paymentStatus === 'pending' ? '\\N' : iso(Math.min(atMs, now - 60_000)),
            iso(Math.min(atMs, now - 60_000)),
          ].join('\t'),
        );
      }
    }
    for (const [i, item] of (listedByOrg.get(org.slug) ?? []).entries()) {
      listingLines.push(
        `${place.id}\t${randomUUID()}\t${item}\tmkt-${org.slug}-${i + 1}\thttps://market.coinventory.example/listing/${i + 1}`,
      );
    }
  }
  await copyLines(
    sql,
    'invoices',
    [
      'organization_id',
      'id',
      'number',
      'status',
      'source',
      'customer_id',
      'customer_name',
      'customer_email',
      'discount_in_cents',
      'shipping_in_cents',
      'tax_in_cents',
      'due_at',
      'paid_at',
      'created_at',
    ],
    invoiceLines,
  );
  await copyLines(
    sql,
    'invoice_lines',
    ['organization_id', 'id', 'invoice_id', 'position', 'item_id', 'description', 'quantity', 'unit_price_in_cents'],
    lineLines,
  );
  await copyLines(
    sql,
    'invoice_payments',
    ['organization_id', 'id', 'invoice_id', 'amount_in_cents', 'method', 'status', 'paid_at', 'created_at'],
    paymentLines,
  );
  await copyLines(
    sql,
    'marketplace_listings',
    ['organization_id', 'id', 'item_id', 'marketplace_listing_id', 'external_url'],
    listingLines,
  );
  rows.invoices = invoiceLines.length;
  rows.invoice_lines = lineLines.length;
  rows.invoice_payments = paymentLines.length;
  rows.marketplace_listings = listingLines.length;
}
