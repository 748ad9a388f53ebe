import type { Invoice, ListInvoicesParams } from '@coinventory/contract';
import type { APIPromise, NotModified } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { ConditionalGetOptions, RequestOptions, SendOptions, UnconditionalOptions } from '../core/transport.js';
import { Resource } from './resource.js';

/** Sales invoices, read-only: `client.invoices`. */
export class Invoices extends Resource {
  /** Lists invoices with their lines and payments. Await it for one page, or iterate it for every invoice. */
  list(params: ListInvoicesParams = {}, options?: RequestOptions): PagePromise<Invoice, ListInvoicesParams> {
    return this.transport.requestList('invoices.list', params, options);
  }

  /**
   * Gets one invoice with its lines and payments. Throws `NotFoundError` for an unknown id. With `ifNoneMatch`,
   * resolves to `NOT_MODIFIED` when it has not changed.
   */
  get(id: string, options: ConditionalGetOptions): APIPromise<Invoice | NotModified>;
  get(id: string, options?: UnconditionalOptions): APIPromise<Invoice>;
  get(id: string, options?: SendOptions): APIPromise<Invoice | NotModified> {
    return this.transport.request('invoices.get', { params: { id } }, options);
  }
}
