import type {
  CreateItemInput,
  DeletedItem,
  Item,
  ListItemsParams,
  ListValuationsParams,
  UpdateItemInput,
  ValuationList,
} from '@coinventory/contract';
import type { PagePromise } from '../core/pagination.js';
import type { RequestOptions } from '../core/transport.js';
import { Resource } from './resource.js';

/** Inventory items: `client.items`. */
export class Items extends Resource {
  /**
   * Lists items. Await it for one page, or iterate every item of every page:
   * `for await (const item of client.items.list({ status: 'in_stock' }))`.
   */
  list(params: ListItemsParams = {}, options?: RequestOptions): PagePromise<Item, ListItemsParams> {
    return this.transport.requestList('items.list', params, options);
  }

  /** Gets one item. Throws `NotFoundError` for an unknown id or one of another organization. */
  get(id: string, options?: RequestOptions): Promise<Item> {
    return this.transport.request('items.get', { params: { id } }, options);
  }

  /**
   * Adds an item (`sku` and `title` required) and returns it. Throws `ConflictError` when the SKU is taken.
   * Not retried on 5xx or connection errors (the API has no idempotency keys); retried on 429.
   */
  create(body: CreateItemInput, options?: RequestOptions): Promise<Item> {
    return this.transport.request('items.create', { body }, options);
  }

  /**
   * Changes the fields sent (`null` clears a nullable field) and returns the item. Changing `quantity` also updates
   * a linked marketplace listing. Not retried on 5xx or connection errors; retried on 429.
   */
  update(id: string, body: UpdateItemInput, options?: RequestOptions): Promise<Item> {
    return this.transport.request('items.update', { params: { id }, body }, options);
  }

  /**
   * Deletes an item and any marketplace listing made from it. Retried like a GET: when a retried delete had in fact
   * been applied, it rejects with `NotFoundError`.
   */
  delete(id: string, options?: RequestOptions): Promise<DeletedItem> {
    return this.transport.request('items.delete', { params: { id } }, options);
  }

  /** The item's valuations, newest first, each with its comparable sales. Not paginated: `{ items }` only. */
  valuations(id: string, params: ListValuationsParams = {}, options?: RequestOptions): Promise<ValuationList> {
    return this.transport.request('items.valuations', { params: { id }, query: params }, options);
  }
}
