import type { Invoice, InvoiceList, ListInvoicesQuery } from '@coinventory/contract';
import * as invoices from './store.js';
import { pageOf } from '../../db/sql-helpers.js';
import type { Queryable } from '../../db/types.js';
import { notFound } from '../../errors.js';

export async function listInvoices(
  sql: Queryable,
  organizationId: string,
  query: ListInvoicesQuery,
): Promise<InvoiceList> {
  const { entries, hasMore } = pageOf(await invoices.listInvoices(sql, organizationId, query), query.limit);
  return { items: entries, page: query.page, limit: query.limit, hasMore };
}

export async function getInvoice(sql: Queryable, organizationId: string, id: string): Promise<Invoice> {
  const invoice = await invoices.findInvoice(sql, organizationId, id);
  if (!invoice) throw notFound();
  return invoice;
}
