import type { Consignment, ListConsignmentsParams } from '@coinventory/contract';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/transport.js';
import { Resource } from './resource.js';

/** Consignments, read-only: `client.consignments`. */
export class Consignments extends Resource {
  /** Lists consignments, newest first. Await it for one page, or iterate it for every consignment. */
  list(
    params: ListConsignmentsParams = {},
    options?: RequestOptions,
  ): PagePromise<Consignment, ListConsignmentsParams> {
    return this.transport.requestList('consignments.list', params, options);
  }

  /** Gets one consignment with its totals and consignor. Throws `NotFoundError` for an unknown id. */
  get(id: string, options?: RequestOptions): Promise<Consignment> {
    return this.transport.request('consignments.get', { params: { id } }, options);
  }
}
