import type { Consignment, ListConsignmentsParams } from '@coinventory/contract';
import type { APIPromise, NotModified } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { ConditionalGetOptions, RequestOptions, SendOptions, UnconditionalOptions } from '../core/transport.js';
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

  /**
   * Gets one consignment with its totals and consignor. Throws `NotFoundError` for an unknown id. With
   * `ifNoneMatch`, resolves to `NOT_MODIFIED` when it has not changed.
   */
  get(id: string, options: ConditionalGetOptions): APIPromise<Consignment | NotModified>;
  get(id: string, options?: UnconditionalOptions): APIPromise<Consignment>;
  get(id: string, options?: SendOptions): APIPromise<Consignment | NotModified> {
    return this.transport.request('consignments.get', { params: { id } }, options);
  }
}
