import { INVOICE_STATUSES, LIMITS } from '@coinventory/contract';
import { z } from 'zod';
import type { Queryable, TransactionSql } from '../../db/types.js';
import { recordChange } from '../changes/index.js';
import {
  bothBefore,
  consignmentsHoldingItems,
  consignmentsHoldingItemsOnInvoices,
  recordConsignmentsChanged,
} from '../consignments/derived-changes.js';
import {
  cents,
  externalId,
  type ImportKind,
  oneOf,
  optionalDate,
  optionalEmail,
  optionalText,
  PERSON_FIELDS,
  PersonRow,
  refuseUnknown,
  sku,
  type Upserted,
  upsertInChunks,
  upsertWithCreatedAt,
  type Written,
  wholeNumber,
} from '../imports/index.js';
import { idsBySku } from '../items/index.js';
import { findInvoice } from './store.js';

/**
 * Customers, invoices, their lines and their payments, as an operator imports them (invoices are managed in the
 * vendor's application, never through the API). Each invoice an import creates or changes (itself, a line or a
 * payment) gets an `invoice.created` or `invoice.updated` change, recorded after the import's writes in their
 * transaction (the feed's lock is taken last, migration 0007), followed by a `consignment.updated` for each
 * consignment whose totals it moved (its items' lines, on invoices sold or not: derived-changes.ts). Importing invoices
 * leaves items' quantities alone: an item's quantities come with the item.
 */

/** Records a change for each invoice, as `GET /invoices/{id}` returns it now. */
async function recordInvoices(
  tx: Queryable,
  organizationId: string,
  ids: Iterable<string>,
  type: 'invoice.created' | 'invoice.updated',
): Promise<void> {
  for (const id of ids) {
    const invoice = await findInvoice(tx, organizationId, id);
    if (!invoice) throw new Error(`invoice ${id} vanished inside the import that wrote it`);
    await recordChange(tx, organizationId, { type, objectId: id, data: invoice });
  }
}

// ── customers ──────────────────────────────────────────────────────────────────────────────────────────────────────

function writeCustomers(tx: TransactionSql, organizationId: string, rows: PersonRow[]) {
  // An invoice keeps the name and email it was issued to: a changed customer changes no invoice.
  return upsertInChunks(rows, (chunk) => {
    const values = chunk.map((row) => ({
      organization_id: organizationId,
      external_id: row.externalId,
      name: row.name,
      email: row.email,
    }));
    return tx<Upserted>`
      INSERT INTO customers ${tx(values)}
      ON CONFLICT (organization_id, external_id) WHERE external_id IS NOT NULL
      DO UPDATE SET name = EXCLUDED.name, email = EXCLUDED.email
      WHERE (customers.name, customers.email) IS DISTINCT FROM (EXCLUDED.name, EXCLUDED.email)
      RETURNING (xmax = 0) AS created, id::text AS touched
    `;
  });
}

export const CUSTOMERS_IMPORT: ImportKind<PersonRow> = {
  name: 'customers',
  fields: PERSON_FIELDS,
  required: ['externalId'],
  row: PersonRow,
  key: (row) => row.externalId,
  keyFields: 'externalId',
  write: writeCustomers,
};

async function customersByExternalId(
  sql: Queryable,
  organizationId: string,
  externalIds: readonly string[],
): Promise<Map<string, { id: string; name: string | null; email: string | null }>> {
  const rows = await sql<{ id: string; external_id: string; name: string | null; email: string | null }[]>`
    SELECT id, external_id, name, email FROM customers
    WHERE organization_id = ${organizationId} AND external_id = ANY(${externalIds as string[]})
  `;
  return new Map(rows.map((row) => [row.external_id, { id: row.id, name: row.name, email: row.email }]));
}

// ── invoices ───────────────────────────────────────────────────────────────────────────────────────────────────────

const invoiceNumber = wholeNumber(1, LIMITS.quantity.max, 'a whole invoice number');
const optionalCents = cents.optional().transform((value) => value ?? 0);

const InvoiceRow = z
  .object({
    number: invoiceNumber,
    status: oneOf(INVOICE_STATUSES),
    source: optionalText(200).transform((value) => value ?? 'manual'),
    customer: externalId.optional().transform((value) => value ?? null),
    customerName: optionalText(200),
    customerEmail: optionalEmail,
    discountInCents: optionalCents,
    shippingInCents: optionalCents,
    taxInCents: optionalCents,
    dueAt: optionalDate,
    paidAt: optionalDate,
    createdAt: optionalDate,
  })
  .strict();
type InvoiceRow = z.infer<typeof InvoiceRow>;

/** Upserts invoices by number, their createdAt too when `dated`; returns those created or changed. */
function upsertInvoices(tx: TransactionSql, values: object[], dated: boolean) {
  return tx<Upserted>`
    INSERT INTO invoices ${tx(values)}
    ON CONFLICT (organization_id, number) DO UPDATE SET
      status = EXCLUDED.status, source = EXCLUDED.source, customer_id = EXCLUDED.customer_id,
      customer_name = EXCLUDED.customer_name, customer_email = EXCLUDED.customer_email,
      discount_in_cents = EXCLUDED.discount_in_cents, shipping_in_cents = EXCLUDED.shipping_in_cents,
      tax_in_cents = EXCLUDED.tax_in_cents, due_at = EXCLUDED.due_at, paid_at = EXCLUDED.paid_at
      ${dated ? tx`, created_at = EXCLUDED.created_at` : tx``}
    WHERE (invoices.status, invoices.source, invoices.customer_id, invoices.customer_name, invoices.customer_email,
           invoices.discount_in_cents, invoices.shipping_in_cents, invoices.tax_in_cents, invoices.due_at,
           invoices.paid_at ${dated ? tx`, invoices.created_at` : tx``})
      IS DISTINCT FROM (EXCLUDED.status, EXCLUDED.source, EXCLUDED.customer_id, EXCLUDED.customer_name,
           EXCLUDED.customer_email, EXCLUDED.discount_in_cents, EXCLUDED.shipping_in_cents, EXCLUDED.tax_in_cents,
           EXCLUDED.due_at, EXCLUDED.paid_at ${dated ? tx`, EXCLUDED.created_at` : tx``})
    RETURNING (xmax = 0) AS created, id::text AS touched
  `;
}

async function writeInvoices(tx: TransactionSql, organizationId: string, rows: InvoiceRow[]) {
  const customers = await customersByExternalId(tx, organizationId, [
    ...new Set(rows.flatMap((row) => (row.customer === null ? [] : [row.customer]))),
  ]);
  // What the invoices already there were issued to: a row without a name or email keeps it, unless the row names
  // another customer (an invoice keeps what it was issued to, even after its customer is renamed).
  const existing = await tx<
    {
      id: string;
      number: number;
      customer_id: string | null;
      customer_name: string | null;
      customer_email: string | null;
    }[]
  >`
    SELECT id, number, customer_id, customer_name, customer_email FROM invoices
    WHERE organization_id = ${organizationId} AND number = ANY(${rows.map((row) => row.number)}::int[])
  `;
  const issued = new Map(existing.map((row) => [row.number, row]));
  // An invoice's status says whether its lines count as sold in their items' consignments.
  const consignments = await consignmentsHoldingItemsOnInvoices(
    tx,
    organizationId,
    existing.map((row) => row.id),
  );
  const written = await upsertWithCreatedAt(
    rows,
    (row) => {
      const found = row.customer === null ? undefined : customers.get(row.customer);
      const before = issued.get(row.number);
      const customer =
        before !== undefined && before.customer_id === (found?.id ?? null)
          ? { name: before.customer_name, email: before.customer_email }
          : found;
      return {
        organization_id: organizationId,
        number: row.number,
        status: row.status,
        source: row.source,
        customer_id: found?.id ?? null,
        // Billed to the customer's name and email unless the row says what the invoice was issued to.
        customer_name: row.customerName ?? customer?.name ?? null,
        customer_email: row.customerEmail ?? customer?.email ?? null,
        discount_in_cents: row.discountInCents,
        shipping_in_cents: row.shippingInCents,
        tax_in_cents: row.taxInCents,
        due_at: row.dueAt,
        paid_at: row.paidAt,
        created_at: row.createdAt,
      };
    },
    (values, dated) => upsertInvoices(tx, values, dated),
  );
  await recordInvoices(tx, organizationId, written.createdIds, 'invoice.created');
  await recordInvoices(tx, organizationId, written.updatedIds, 'invoice.updated');
  await recordConsignmentsChanged(tx, organizationId, consignments);
  return written;
}

export const INVOICES_IMPORT: ImportKind<InvoiceRow> = {
  name: 'invoices',
  fields: Object.keys(InvoiceRow.shape),
  required: ['number', 'status'],
  row: InvoiceRow,
  key: (row) => String(row.number),
  keyFields: 'number',
  check: async (sql, organizationId, rows) => {
    const named = [...new Set(rows.flatMap((entry) => (entry.value.customer === null ? [] : [entry.value.customer])))];
    return refuseUnknown(
      rows,
      (row) => row.customer,
      await customersByExternalId(sql, organizationId, named),
      (name) => `customer: no customer with externalId "${name}" (import customers first)`,
    );
  },
  write: writeInvoices,
};

/** The workspace's invoices with these numbers, by number; locked when `lock` (their lines or payments change). */
async function invoicesByNumber(
  sql: Queryable,
  organizationId: string,
  numbers: readonly number[],
  lock = false,
): Promise<Map<number, string>> {
  const rows = await sql<{ id: string; number: number }[]>`
    SELECT id, number FROM invoices
    WHERE organization_id = ${organizationId} AND number = ANY(${numbers as number[]}::int[])
    ORDER BY id
    ${lock ? sql`FOR UPDATE` : sql``}
  `;
  return new Map(rows.map((row) => [row.number, row.id]));
}

const refuseUnknownInvoices = async <Row extends { invoice: number }>(
  sql: Queryable,
  organizationId: string,
  rows: ReadonlyArray<{ row: number; value: Row }>,
) => {
  const known = await invoicesByNumber(sql, organizationId, [...new Set(rows.map((entry) => entry.value.invoice))]);
  return refuseUnknown(
    rows,
    (row) => String(row.invoice),
    new Set([...known.keys()].map(String)),
    (number) => `invoice: no invoice numbered ${number} (import invoices first)`,
  );
};

// ── lines ──────────────────────────────────────────────────────────────────────────────────────────────────────────

const LineRow = z
  .object({
    invoice: invoiceNumber,
    line: wholeNumber(1, 10_000, 'a whole line number'),
    sku: sku.optional().transform((value) => value ?? null),
    description: optionalText(2_000),
    quantity: wholeNumber(LIMITS.quantity.min, LIMITS.quantity.max, 'a whole quantity'),
    unitPriceInCents: cents,
  })
  .strict();
type LineRow = z.infer<typeof LineRow>;

async function writeLines(tx: TransactionSql, organizationId: string, rows: LineRow[]): Promise<Written> {
  const invoices = await invoicesByNumber(tx, organizationId, [...new Set(rows.map((row) => row.invoice))], true);
  const items = await idsBySku(
    tx,
    organizationId,
    rows.flatMap((row) => (row.sku === null ? [] : [row.sku])),
  );
  // A line sells its item in the item's consignment: those of the items on the lines before and after may change.
  const consignments = bothBefore(
    await consignmentsHoldingItemsOnInvoices(tx, organizationId, [...invoices.values()]),
    await consignmentsHoldingItems(tx, organizationId, [...items.values()]),
  );
  const changed = new Set<string>();
  const written = await upsertInChunks(rows, async (chunk) => {
    const values = chunk.map((row) => {
      const invoiceId = invoices.get(row.invoice);
      const itemId = row.sku === null ? null : items.get(row.sku);
      // check() refused unknown invoices and SKUs; an item deleted since then refuses the import.
      if (invoiceId === undefined || itemId === undefined) {
        throw new Error(`invoice ${row.invoice} or item ${row.sku} vanished during the import`);
      }
      return {
        organization_id: organizationId,
        invoice_id: invoiceId,
        position: row.line,
        item_id: itemId,
        description: row.description,
        quantity: row.quantity,
        unit_price_in_cents: row.unitPriceInCents,
      };
    });
    const upserted = await tx<Array<{ created: boolean; touched: string; invoice_id: string }>>`
      INSERT INTO invoice_lines ${tx(values)}
      ON CONFLICT (organization_id, invoice_id, position) DO UPDATE SET
        item_id = EXCLUDED.item_id, description = EXCLUDED.description, quantity = EXCLUDED.quantity,
        unit_price_in_cents = EXCLUDED.unit_price_in_cents
      WHERE (invoice_lines.item_id, invoice_lines.description, invoice_lines.quantity, invoice_lines.unit_price_in_cents)
        IS DISTINCT FROM (EXCLUDED.item_id, EXCLUDED.description, EXCLUDED.quantity, EXCLUDED.unit_price_in_cents)
      RETURNING (xmax = 0) AS created, id::text AS touched, invoice_id
    `;
    for (const row of upserted) changed.add(row.invoice_id);
    return upserted;
  });
  // An invoice the file names has exactly the file's lines: those it no longer lists are removed.
  const kept = rows.map((row) => ({ invoice_id: invoices.get(row.invoice) as string, position: row.line }));
  const removed = await tx<{ invoice_id: string }[]>`
    DELETE FROM invoice_lines l
    WHERE l.organization_id = ${organizationId} AND l.invoice_id = ANY(${[...invoices.values()]}::uuid[])
      AND NOT EXISTS (
        SELECT 1 FROM json_to_recordset(${JSON.stringify(kept)}::text::json) AS k (invoice_id uuid, position int)
        WHERE k.invoice_id = l.invoice_id AND k.position = l.position
      )
    RETURNING l.invoice_id
  `;
  for (const row of removed) changed.add(row.invoice_id);
  await recordInvoices(tx, organizationId, changed, 'invoice.updated');
  await recordConsignmentsChanged(tx, organizationId, consignments);
  return { ...written, removed: removed.length };
}

export const INVOICE_LINES_IMPORT: ImportKind<LineRow> = {
  name: 'invoice-lines',
  fields: Object.keys(LineRow.shape),
  required: ['invoice', 'line', 'quantity', 'unitPriceInCents'],
  row: LineRow,
  key: (row) => JSON.stringify([row.invoice, row.line]),
  keyFields: 'invoice and line',
  check: async (sql, organizationId, rows) => {
    const named = [...new Set(rows.flatMap((entry) => (entry.value.sku === null ? [] : [entry.value.sku])))];
    const items = await idsBySku(sql, organizationId, named);
    return [
      ...(await refuseUnknownInvoices(sql, organizationId, rows)),
      ...refuseUnknown(
        rows,
        (row) => row.sku,
        items,
        (name) => `sku: no item with SKU "${name}"`,
      ),
    ];
  },
  write: writeLines,
};

// ── payments ───────────────────────────────────────────────────────────────────────────────────────────────────────

const PaymentRow = z
  .object({
    invoice: invoiceNumber,
    externalId,
    amountInCents: cents,
    method: optionalText(50),
    status: optionalText(50),
    paidAt: optionalDate,
  })
  .strict();
type PaymentRow = z.infer<typeof PaymentRow>;

async function writePayments(tx: TransactionSql, organizationId: string, rows: PaymentRow[]): Promise<Written> {
  const invoices = await invoicesByNumber(tx, organizationId, [...new Set(rows.map((row) => row.invoice))], true);
  const changed = new Set<string>();
  const written = await upsertInChunks(rows, async (chunk) => {
    const values = chunk.map((row) => {
      const invoiceId = invoices.get(row.invoice);
      if (invoiceId === undefined) throw new Error(`invoice ${row.invoice} vanished during the import`);
      return {
        organization_id: organizationId,
        invoice_id: invoiceId,
        external_id: row.externalId,
        amount_in_cents: row.amountInCents,
        method: row.method,
        status: row.status,
        paid_at: row.paidAt,
      };
    });
    const upserted = await tx<Array<{ created: boolean; touched: string; invoice_id: string }>>`
      INSERT INTO invoice_payments ${tx(values)}
      ON CONFLICT (organization_id, invoice_id, external_id) WHERE external_id IS NOT NULL DO UPDATE SET
        amount_in_cents = EXCLUDED.amount_in_cents, method = EXCLUDED.method, status = EXCLUDED.status,
        paid_at = EXCLUDED.paid_at
      WHERE (invoice_payments.amount_in_cents, invoice_payments.method, invoice_payments.status, invoice_payments.paid_at)
        IS DISTINCT FROM (EXCLUDED.amount_in_cents, EXCLUDED.method, EXCLUDED.status, EXCLUDED.paid_at)
      RETURNING (xmax = 0) AS created, id::text AS touched, invoice_id
    `;
    for (const row of upserted) changed.add(row.invoice_id);
    return upserted;
  });
  await recordInvoices(tx, organizationId, changed, 'invoice.updated');
  return written;
}

export const INVOICE_PAYMENTS_IMPORT: ImportKind<PaymentRow> = {
  name: 'invoice-payments',
  fields: Object.keys(PaymentRow.shape),
  required: ['invoice', 'externalId', 'amountInCents'],
  row: PaymentRow,
  key: (row) => JSON.stringify([row.invoice, row.externalId]),
  keyFields: 'invoice and externalId',
  check: (sql, organizationId, rows) => refuseUnknownInvoices(sql, organizationId, rows),
  write: writePayments,
};
