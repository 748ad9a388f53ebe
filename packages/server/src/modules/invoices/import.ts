import { INVOICE_STATUSES } from '@coinventory/contract';
import { z } from 'zod';
import type { TransactionSql } from '../../db/types.js';
import {
  field,
  importedFirst,
  kindOf,
  type NaturalKey,
  namesIn,
  recordWritten,
  upsertWithCreatedAt,
} from '../imports/index.js';
import { consignmentsHoldingItemsOnInvoices, recordConsignmentsChanged } from '../items/index.js';
import { customersByExternalId } from './customers-import.js';
import { invoiceNumber } from './imported-invoices.js';
import { findInvoice } from './store.js';

/**
 * Customers, invoices, their lines and their payments, as an operator imports them (invoices are managed in the
 * vendor's application, never through the API): customers-import.ts, this file and parts-import.ts (lines and
 * payments). Each invoice an import creates or changes (itself, a line or a payment) gets an
 * `invoice.created` or `invoice.updated` change, recorded after the import's writes in their transaction (the feed's
 * lock is taken last, migration 0007), followed by a `consignment.updated` for each consignment whose totals it moved
 * (its items' lines, on invoices sold or not: items/consignment-changes.ts). Importing invoices leaves items' quantities alone:
 * an item's quantities come with the item.
 */

const optionalCents = field.cents.optional().transform((value) => value ?? 0);

const InvoiceRow = z
  .object({
    number: invoiceNumber,
    status: field.oneOf(INVOICE_STATUSES),
    source: field.optionalText(200).transform((value) => value ?? 'manual'),
    customer: field.externalId.optional().transform((value) => value ?? null),
    customerName: field.optionalText(200),
    customerEmail: field.optionalEmail,
    discountInCents: optionalCents,
    shippingInCents: optionalCents,
    taxInCents: optionalCents,
    dueAt: field.optionalDate,
    paidAt: field.optionalDate,
    createdAt: field.optionalDate,
  })
  .strict();
type InvoiceRow = z.infer<typeof InvoiceRow>;

/** A re-import finds an invoice by its number and updates every other column it writes. */
const INVOICE_KEY: NaturalKey = { table: 'invoices', key: ['organization_id', 'number'] };

async function writeInvoices(tx: TransactionSql, organizationId: string, rows: InvoiceRow[]) {
  const customers = await customersByExternalId(
    tx,
    organizationId,
    namesIn(rows, (row) => row.customer),
  );
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
  const written = await upsertWithCreatedAt(tx, INVOICE_KEY, rows, (row) => {
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
  });
  await recordWritten(tx, organizationId, written, 'invoice', findInvoice);
  await recordConsignmentsChanged(tx, organizationId, consignments);
  return written;
}

export const INVOICES_IMPORT = kindOf(InvoiceRow, {
  name: 'invoices',
  key: (row) => String(row.number),
  keyFields: 'number',
  check: importedFirst('customers', 'customer', (row) => row.customer),
  write: writeInvoices,
});
