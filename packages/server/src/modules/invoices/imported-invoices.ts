import { LIMITS } from '@coinventory/contract';
import type { Queryable, TransactionSql } from '../../db/types.js';
import { recordChange } from '../changes/index.js';
import {
  type NaturalKey,
  refuseUnknown,
  upsertByKey,
  upsertInChunks,
  type Written,
  wholeNumber,
} from '../imports/index.js';
import { findInvoice } from './store.js';

/**
 * What the imports of invoices, their lines and their payments share: an invoice's number, finding invoices by it, and
 * the `invoice.created` or `invoice.updated` change of each invoice an import writes.
 */

export const invoiceNumber = wholeNumber(1, LIMITS.quantity.max, 'a whole invoice number');

/** Records a change for each invoice, as `GET /invoices/{id}` returns it now. */
export async function recordInvoices(
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
