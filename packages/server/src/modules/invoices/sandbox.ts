import { organizationRowCount } from '../../db/organization-rows.js';
import { sandboxCopy } from '../../db/sandbox-copy.js';
import type { Queryable } from '../../db/types.js';

/**
 * Test mode: a workspace's customers and invoices, with their lines and payments, copied into its sandbox
 * (modules/sandbox resets it from live), after its items: a line's item is the item's copy.
 */
export async function copyInvoicesToSandbox(tx: Queryable, from: string, to: string) {
  const customers = await sandboxCopy(tx, 'customers', { from, to }, (rows) => tx`INSERT INTO customers ${rows}`);
  const invoices = await sandboxCopy(tx, 'invoices', { from, to }, (rows) => tx`INSERT INTO invoices ${rows}`);
  const lines = await sandboxCopy(tx, 'invoice_lines', { from, to }, (rows) => tx`INSERT INTO invoice_lines ${rows}`);
  const payments = await sandboxCopy(
    tx,
    'invoice_payments',
    { from, to },
    (rows) => tx`INSERT INTO invoice_payments ${rows}`,
  );
  return { customers, invoices, invoiceLines: lines, invoicePayments: payments };
}

export const countInvoices = (sql: Queryable, organizationId: string): Promise<number> =>
  organizationRowCount(sql, 'invoices', organizationId);
