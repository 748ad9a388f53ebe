import type { Invoice, ListInvoicesParams } from '@coinventory/contract';
import type { Coinventory, RequestOptions } from '../client.js';
import type { PagePromise } from '../core/pagination.js';

/** Sales invoices, read-only: `client.invoices`. */
export class Invoices {
  readonly #client: Coinventory;

  constructor(client: Coinventory) {
    this.#client = client;
  }

  /** Lists invoices with their lines and payments. Await it for one page, or iterate it for every invoice. */
  list(params: ListInvoicesParams = {}, options?: RequestOptions): PagePromise<Invoice, ListInvoicesParams> {
    return this.#client.requestList<Invoice, ListInvoicesParams, 'invoices.list'>('invoices.list', params, options);
  }

  /** Gets one invoice with its lines and payments. Throws `NotFoundError` for an unknown id. */
  get(id: string, options?: RequestOptions): Promise<Invoice> {
    return this.#client.request<Invoice, 'invoices.get'>('invoices.get', { params: { id } }, options);
  }
}
