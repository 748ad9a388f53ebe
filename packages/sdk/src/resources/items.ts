import type {
  AdjustItemInput,
  BatchItemsInput,
  BatchItemsResult,
  CreateItemInput,
  DeletedItem,
  ExportItemsParams,
  Item,
  ListItemsParams,
  ListMovementsParams,
  ListValuationsParams,
  Movement,
  UpdateItemInput,
  ValuationList,
} from '@coinventory/contract';
import { ERRORS, EXPORTS } from '@coinventory/contract/constants';
import type { APIPromise, NotModified } from '../core/api-promise.js';
import { NotFoundError } from '../core/errors.js';
import { ItemsExport } from '../core/items-export.js';
import type { PagePromise } from '../core/pagination.js';
import type {
  ConditionalGetOptions,
  ConditionalWriteOptions,
  DryRunOptions,
  RequestOptions,
  SendOptions,
  UnconditionalOptions,
  WriteOptions,
} from '../core/transport.js';
import { dryRunQuery, Resource } from './resource.js';

/** Inventory items: `client.items`. */
export class Items extends Resource {
  /**
   * Lists items. Await it for one page, or iterate every item of every page:
   * `for await (const item of client.items.list({ status: 'in_stock' }))`.
   */
  list(params: ListItemsParams = {}, options?: RequestOptions): PagePromise<Item, ListItemsParams> {
    return this.transport.requestList('items.list', params, options);
  }

  /**
   * Gets one item. Throws `NotFoundError` for an unknown id or one of another organization. With `ifNoneMatch` (an
   * ETag from `withResponse()`), resolves to `NOT_MODIFIED` when the item has not changed since.
   */
  get(id: string, options: ConditionalGetOptions): APIPromise<Item | NotModified>;
  get(id: string, options?: UnconditionalOptions): APIPromise<Item>;
  get(id: string, options?: SendOptions): APIPromise<Item | NotModified> {
    return this.transport.request('items.get', { params: { id } }, options);
  }

  /**
   * Gets the item with this SKU: exactly this SKU, case included, as SKUs are unique within the organization (the
   * list's `sku` filter, one request). Throws `NotFoundError` (404, `NOT_FOUND`, as `get` does) when no item has it;
   * to search by part of a SKU or title, use `list({ q })`. For the item's ETag, read it with `get(item.id)`.
   */
  async getBySku(sku: string, options?: RequestOptions): Promise<Item> {
    const lookup = this.transport.request(
      'items.list',
      { query: { sku, limit: 1 } satisfies ListItemsParams },
      options,
    );
    const { data, response } = await lookup.withResponse();
    const [item] = data.items;
    if (item) return item;
    throw new NotFoundError({
      status: ERRORS.NOT_FOUND.status,
      code: 'NOT_FOUND',
      message: ERRORS.NOT_FOUND.message,
      issues: undefined,
      headers: response.headers,
      body: undefined,
      missing: `item with SKU ${JSON.stringify(sku)}`,
      hint: 'SKUs match exactly, case included.',
    });
  }

  /**
   * Adds an item (`sku` and `title` required) and returns it. Throws `ConflictError` when the SKU is taken. Retried
   * like a read (5xx, connection errors, 429): the Idempotency-Key it carries makes a retry safe. With
   * `{ dryRun: true }`, returns the item it would create (or throws what it would throw) and creates nothing.
   */
  create(body: CreateItemInput, options: WriteOptions & DryRunOptions = {}): APIPromise<Item> {
    const { dryRun, ...rest } = options;
    return this.transport.request('items.create', { body, ...dryRunQuery(dryRun) }, rest);
  }

  /**
   * Creates (`mode: 'create'`) or upserts by SKU (`mode: 'upsert'`) up to 100 items in one request. Each entry is
   * answered at its position in `results`: the item, or the error body the single-item route would give; the valid
   * ones are applied together. With `{ dryRun: true }` nothing is written and the answer says what would happen. An
   * entry refused is not an exception: check `failed` and each result's `status`.
   */
  batch(
    body: BatchItemsInput,
    params: { dryRun?: boolean } = {},
    options?: WriteOptions,
  ): APIPromise<BatchItemsResult> {
    return this.transport.request('items.batch', { body, ...dryRunQuery(params.dryRun) }, options);
  }

  /**
   * Changes the fields sent (`null` clears a nullable field) and returns the item. Changing `quantity` also updates
   * a linked marketplace listing. With `ifMatch`, throws `PreconditionFailedError` (and changes nothing) when the
   * item no longer has that ETag. With `{ dryRun: true }`, returns the item as it would be and changes nothing.
   */
  update(id: string, body: UpdateItemInput, options: ConditionalWriteOptions & DryRunOptions = {}): APIPromise<Item> {
    const { dryRun, ...rest } = options;
    return this.transport.request('items.update', { params: { id }, body, ...dryRunQuery(dryRun) }, rest);
  }

  /**
   * Adds signed numbers of units to `quantity.available` and `quantity.sold`, together, and returns the item:
   * `{ available: -1, sold: 1, reason: 'sale', reference: 'ORD-1' }` sells one. Throws `InsufficientQuantityError`
   * (and changes nothing) when a quantity would go below 0, so two sellers of the last unit never both succeed. The
   * item's ledger (`movements`) records it with its reason and reference. With `ifMatch`, throws
   * `PreconditionFailedError` when the item no longer has that ETag. With `{ dryRun: true }`, returns the item as it
   * would be (or throws what it would throw) and changes nothing.
   */
  adjust(id: string, body: AdjustItemInput, options: ConditionalWriteOptions & DryRunOptions = {}): APIPromise<Item> {
    const { dryRun, ...rest } = options;
    return this.transport.request('items.adjust', { params: { id }, body, ...dryRunQuery(dryRun) }, rest);
  }

  /**
   * The item's ledger, newest first: every movement of its quantities (its creation, a `PATCH` of `quantity`, an
   * adjustment, each step of a reservation, an import…), by how much, what they were after it, and who made it. Await
   * it for one page, or iterate it for every movement.
   */
  movements(
    id: string,
    params: ListMovementsParams = {},
    options?: RequestOptions,
  ): PagePromise<Movement, ListMovementsParams> {
    return this.transport.requestList('items.movements', params, options, { id });
  }

  /**
   * Deletes an item and any marketplace listing made from it. With `ifMatch`, throws `PreconditionFailedError` (and
   * deletes nothing) when the item no longer has that ETag. With `{ dryRun: true }`, checks it and deletes nothing.
   */
  delete(id: string, options: ConditionalWriteOptions & DryRunOptions = {}): APIPromise<DeletedItem> {
    const { dryRun, ...rest } = options;
    return this.transport.request('items.delete', { params: { id }, ...dryRunQuery(dryRun) }, rest);
  }

  /**
   * Every item the filters keep (the list's, without pages), oldest first, in one streamed request read from one
   * snapshot: `for await (const item of exported)`, then follow `client.changes` from `exported.nextCursor` to stay
   * in sync with nothing missed and nothing twice. The request is sent when the iteration starts; it is one request
   * for the rate limit whatever the size.
   */
  export(params: ExportItemsParams = {}, options?: RequestOptions): ItemsExport {
    return new ItemsExport(() =>
      this.transport.stream('items.export', params, { ...options, accept: EXPORTS.mediaTypes.ndjson }),
    );
  }

  /**
   * The item's valuations, newest first, each with its comparable sales. Not paginated: `{ items }` only. With
   * `ifNoneMatch`, resolves to `NOT_MODIFIED` when they have not changed.
   */
  valuations(
    id: string,
    params: ListValuationsParams,
    options: ConditionalGetOptions,
  ): APIPromise<ValuationList | NotModified>;
  valuations(id: string, params?: ListValuationsParams, options?: UnconditionalOptions): APIPromise<ValuationList>;
  valuations(
    id: string,
    params: ListValuationsParams = {},
    options?: SendOptions,
  ): APIPromise<ValuationList | NotModified> {
    return this.transport.request('items.valuations', { params: { id }, query: params }, options);
  }
}
