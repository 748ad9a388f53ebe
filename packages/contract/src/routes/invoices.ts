import { InvoiceListSchema, InvoiceSchema, ListInvoicesQuerySchema } from '../schemas/invoice.js';
import { c, listAndGet } from './common.js';

/** The sales invoices routes: read-only. */
export const invoices = c.router(
  listAndGet(
    'Invoices',
    '/invoices',
    {
      summary: 'List invoices',
      description: 'Lists sales invoices with their lines and payments.',
      operationId: 'listInvoices',
      query: ListInvoicesQuerySchema,
      page: InvoiceListSchema,
    },
    {
      summary: 'Get an invoice',
      description: 'Returns one sales invoice with its lines and payments.',
      operationId: 'getInvoice',
      entry: InvoiceSchema,
    },
  ),
);
