import type { Invoice, ListInvoicesParams } from '@coinventory/contract';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/transport.js';
import { Resource } from './resource.js';

/** Sales invoices, read-only: `client.invoices`. */
export class Invoices extends Resource {
  /** Lists invoices with their lines and payments. Await it for one page, or iterate it for every invoice. */
  list(params: ListInvoicesParams = {}, options?: RequestOptions): PagePromise<Invoice, ListInvoicesParams> {
    return this.transport.requestList('invoices.list', params, options);
  }

  /** Gets one invoice with its lines and payments. Throws `NotFoundError` for an unknown id. */
  get(id: string, options?: RequestOptions): Promise<Invoice> {
    return this.transport.request('invoices.get', { params: { id } }, options);
  }
}
