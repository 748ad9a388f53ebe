import { LIMITS } from '@coinventory/contract';
import { z } from 'zod';
import type { Queryable, TransactionSql } from '../../db/types.js';
import {
  field,
  kindOf,
  type NaturalKey,
  refuseUnfound,
  refuseUnknown,
  upsertByKey,
  upsertInChunks,
  type Written,
} from '../imports/index.js';
import {
  bothBefore,
  consignmentsHoldingItems,
  consignmentsHoldingItemsOnInvoices,
  idsBySku,
  recordConsignmentsChanged,
} from '../items/index.js';
import { invoiceNumber, recordInvoicesUpdated } from './imported-invoices.js';

/**
 * The records that belong to an invoice, as an operator imports them: its lines (`import invoice-lines FILE`) and its
 * payments (`import invoice-payments FILE`), each found by its invoice's number. Each invoice whose lines or payments
 * changed gets an `invoice.updated` change.
 */

/** The organization's invoices with these numbers, by number; locked when `lock` (their lines or payments change). */
export async function invoicesByNumber(
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

/** The rows naming an invoice that is not there (it must be imported first). */
export async function refuseUnknownInvoices<Row extends { invoice: number }>(
  sql: Queryable,
  organizationId: string,
  rows: ReadonlyArray<{ row: number; value: Row }>,
) {
  const known = await invoicesByNumber(sql, organizationId, [...new Set(rows.map((entry) => entry.value.invoice))]);
  return refuseUnknown(
    rows,
    (row) => String(row.invoice),
    new Set([...known.keys()].map(String)),
    (number) => `invoice: no invoice numbered ${number} (import invoices first)`,
  );
}

/**
 * Upserts records that belong to an invoice (its lines, its payments) by their natural key; says what was written and
 * which invoices it changed.
 */
export async function upsertOfInvoices<Row>(
  tx: TransactionSql,
  target: NaturalKey,
  rows: Row[],
  valuesOf: (row: Row) => { invoice_id: string },
): Promise<Written & { changed: Set<string> }> {
  const changed = new Set<string>();
  const written = await upsertInChunks(rows, async (chunk) => {
    const upserted = await upsertByKey<{ invoice_id: string }>(tx, target, chunk.map(valuesOf), undefined, [
      'invoice_id',
    ]);
    for (const row of upserted) changed.add(row.invoice_id);
    return upserted;
  });
  return { ...written, changed };
}

// ── lines ──────────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Invoices' lines, as an operator imports them (`import invoice-lines FILE`), by invoice number and line number. An
 * invoice the file names has exactly the file's lines, and gets an `invoice.updated` change when they changed; each
 * consignment whose totals the lines moved gets a `consignment.updated`.
 */

const LineRow = z
  .object({
    invoice: invoiceNumber,
    line: field.wholeNumber(1, 10_000, 'a whole line number'),
    sku: field.sku.optional().transform((value) => value ?? null),
    description: field.optionalText(2_000),
    quantity: field.wholeNumber(LIMITS.quantity.min, LIMITS.quantity.max, 'a whole quantity'),
    unitPriceInCents: field.cents,
  })
  .strict();
type LineRow = z.infer<typeof LineRow>;

/** A re-import finds a line by its invoice and position and updates every other column it writes. */
const LINE_KEY: NaturalKey = { table: 'invoice_lines', key: ['organization_id', 'invoice_id', 'position'] };

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
  const { changed, ...written } = await upsertOfInvoices(tx, LINE_KEY, rows, (row) => {
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
  await recordInvoicesUpdated(tx, organizationId, changed);
  await recordConsignmentsChanged(tx, organizationId, consignments);
  return { ...written, removed: removed.length };
}

export const INVOICE_LINES_IMPORT = kindOf(LineRow, {
  name: 'invoice-lines',
  key: (row) => JSON.stringify([row.invoice, row.line]),
  keyFields: 'invoice and line',
  check: async (sql, organizationId, rows) => [
    ...(await refuseUnknownInvoices(sql, organizationId, rows)),
    ...(await refuseUnfound(
      rows,
      (row) => row.sku,
      (names) => idsBySku(sql, organizationId, names),
      (name) => `sku: no item with SKU "${name}"`,
    )),
  ],
  write: writeLines,
});

// ── payments ───────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Invoices' payments, as an operator imports them (`import invoice-payments FILE`), by invoice number and the
 * payment's externalId; each invoice whose payments changed gets an `invoice.updated` change.
 */

const PaymentRow = z
  .object({
    invoice: invoiceNumber,
    externalId: field.externalId,
    amountInCents: field.cents,
    method: field.optionalText(50),
    status: field.optionalText(50),
    paidAt: field.optionalDate,
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
  await recordInvoicesUpdated(tx, organizationId, changed);
  return written;
}

export const INVOICE_PAYMENTS_IMPORT = kindOf(PaymentRow, {
  name: 'invoice-payments',
  key: (row) => JSON.stringify([row.invoice, row.externalId]),
  keyFields: 'invoice and externalId',
  check: (sql, organizationId, rows) => refuseUnknownInvoices(sql, organizationId, rows),
  write: writePayments,
});
