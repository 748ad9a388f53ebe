import type { Consignment, ListConsignmentsParams } from '@coinventory/contract';
import type { Coinventory, RequestOptions } from '../client.js';
import type { PagePromise } from '../core/pagination.js';

/** Consignments, read-only: `client.consignments`. */
export class Consignments {
  readonly #client: Coinventory;

  constructor(client: Coinventory) {
    this.#client = client;
  }

  /** Lists consignments, newest first. Await it for one page, or iterate it for every consignment. */
  list(
    params: ListConsignmentsParams = {},
    options?: RequestOptions,
  ): PagePromise<Consignment, ListConsignmentsParams> {
    return this.#client.requestList<Consignment, ListConsignmentsParams, 'consignments.list'>(
      'consignments.list',
      params,
      options,
    );
  }

  /** Gets one consignment with its totals and consignor. Throws `NotFoundError` for an unknown id. */
  get(id: string, options?: RequestOptions): Promise<Consignment> {
    return this.#client.request<Consignment, 'consignments.get'>('consignments.get', { params: { id } }, options);
  }
}
