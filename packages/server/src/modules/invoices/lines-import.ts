import { LIMITS } from '@coinventory/contract';
import { z } from 'zod';
import type { TransactionSql } from '../../db/types.js';
import {
  cents,
  kindOf,
  type NaturalKey,
  optionalText,
  refuseUnfound,
  sku,
  type Written,
  wholeNumber,
} from '../imports/index.js';
import {
  bothBefore,
  consignmentsHoldingItems,
  consignmentsHoldingItemsOnInvoices,
  idsBySku,
  recordConsignmentsChanged,
} from '../items/index.js';
import {
  invoiceNumber,
  invoicesByNumber,
  recordInvoices,
  refuseUnknownInvoices,
  upsertOfInvoices,
} from './imported-invoices.js';

/**
 * Invoices' lines, as an operator imports them (`import invoice-lines FILE`), by invoice number and line number. An
 * invoice the file names has exactly the file's lines, and gets an `invoice.updated` change when they changed; each
 * consignment whose totals the lines moved gets a `consignment.updated`.
 */

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
  await recordInvoices(tx, organizationId, changed, 'invoice.updated');
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
