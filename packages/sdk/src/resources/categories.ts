import type { Category, ListCategoriesParams } from '@coinventory/contract';
import type { APIPromise, NotModified } from '../core/api-promise.js';
import type { PagePromise } from '../core/pagination.js';
import type { ConditionalGetOptions, RequestOptions, SendOptions, UnconditionalOptions } from '../core/transport.js';
import { Resource } from './resource.js';

/** The organization's item categories, read-only: `client.categories`. Their ids are what `categoryId` takes. */
export class Categories extends Resource {
  /** Lists categories by name, then id. Await it for one page, or iterate it for every category. */
  list(params: ListCategoriesParams = {}, options?: RequestOptions): PagePromise<Category, ListCategoriesParams> {
    return this.transport.requestList('categories.list', params, options);
  }

  /**
   * Gets one category. Throws `NotFoundError` for an unknown id. With `ifNoneMatch`, resolves to `NOT_MODIFIED` when
   * it has not changed.
   */
  get(id: string, options: ConditionalGetOptions): APIPromise<Category | NotModified>;
  get(id: string, options?: UnconditionalOptions): APIPromise<Category>;
  get(id: string, options?: SendOptions): APIPromise<Category | NotModified> {
    return this.transport.request('categories.get', { params: { id } }, options);
  }
}
