import type { ListWarehousesParams, Warehouse } from '@coinventory/contract';
import type { APIPromise, NotModified } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { ConditionalGetOptions, RequestOptions, SendOptions, UnconditionalOptions } from '../core/transport.js';
import { Resource } from './resource.js';

/**
 * The organization's warehouses and their zones, read-only: `client.warehouses`. Their ids are what `warehouseId` and
 * `zoneId` take.
 */
export class Warehouses extends Resource {
  /**
   * Lists warehouses with their zones: the default one first, then by name, then id. Await it for one page, or
   * iterate it for every warehouse.
   */
  list(params: ListWarehousesParams = {}, options?: RequestOptions): PagePromise<Warehouse, ListWarehousesParams> {
    return this.transport.requestList('warehouses.list', params, options);
  }

  /**
   * Gets one warehouse with its zones. Throws `NotFoundError` for an unknown id. With `ifNoneMatch`, resolves to
   * `NOT_MODIFIED` when it has not changed.
   */
  get(id: string, options: ConditionalGetOptions): APIPromise<Warehouse | NotModified>;
  get(id: string, options?: UnconditionalOptions): APIPromise<Warehouse>;
  get(id: string, options?: SendOptions): APIPromise<Warehouse | NotModified> {
    return this.transport.request('warehouses.get', { params: { id } }, options);
  }
}
