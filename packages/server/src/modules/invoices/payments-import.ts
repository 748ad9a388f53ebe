import { z } from 'zod';
import type { TransactionSql } from '../../db/types.js';
import {
  cents,
  externalId,
  kindOf,
  type NaturalKey,
  optionalDate,
  optionalText,
  type Written,
} from '../imports/index.js';
import {
  invoiceNumber,
  invoicesByNumber,
  recordInvoices,
  refuseUnknownInvoices,
  upsertOfInvoices,
} from './imported-invoices.js';

/**
 * Invoices' payments, as an operator imports them (`import invoice-payments FILE`), by invoice number and the
 * payment's externalId; each invoice whose payments changed gets an `invoice.updated` change.
 */

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

/** A re-import finds a payment by its invoice and externalId and updates every other column it writes. */
const PAYMENT_KEY: NaturalKey = {
  table: 'invoice_payments',
  key: ['organization_id', 'invoice_id', 'external_id'],
  partial: 'external_id',
};

async function writePayments(tx: TransactionSql, organizationId: string, rows: PaymentRow[]): Promise<Written> {
  const invoices = await invoicesByNumber(tx, organizationId, [...new Set(rows.map((row) => row.invoice))], true);
  const { changed, ...written } = await upsertOfInvoices(tx, PAYMENT_KEY, rows, (row) => {
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
  await recordInvoices(tx, organizationId, changed, 'invoice.updated');
  return written;
}

export const INVOICE_PAYMENTS_IMPORT = kindOf(PaymentRow, {
  name: 'invoice-payments',
  key: (row) => JSON.stringify([row.invoice, row.externalId]),
  keyFields: 'invoice and externalId',
  check: (sql, organizationId, rows) => refuseUnknownInvoices(sql, organizationId, rows),
  write: writePayments,
});
