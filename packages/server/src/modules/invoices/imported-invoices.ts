import { LIMITS } from '@coinventory/contract';
import type { Queryable } from '../../db/types.js';
import { recordChangesOf } from '../changes/index.js';
import { field } from '../imports/index.js';
import { findInvoice } from './store.js';

/**
 * What the imports of invoices, their lines and their payments share: an invoice's number, and the `invoice.updated`
 * change of each invoice whose lines or payments an import writes.
 */

export const invoiceNumber = field.wholeNumber(1, LIMITS.quantity.max, 'a whole invoice number');

/** Records an `invoice.updated` change for each invoice, as `GET /invoices/{id}` returns it now. */
export async function recordInvoicesUpdated(
  tx: Queryable,
  organizationId: string,
  ids: Iterable<string>,
): Promise<void> {
  await recordChangesOf(tx, organizationId, ids, 'invoice.updated', findInvoice);
}
