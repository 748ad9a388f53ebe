import type { Change, ChangeList, ChangesCursor } from '@coinventory/contract';
import { APIPromise } from '../core/api-promise.js';
import { ChangeFeed, type ChangeFeedParams, type ChangePageParams, changeQuery } from '../core/change-feed.js';
import type { RequestOptions } from '../core/transport.js';
import { Resource } from './resource.js';

/**
 * The changes feed: `client.changes`. Every change to the organization, in commit order, read from a cursor: items
 * created, updated and deleted through the API (`item.*`), the valuation engine's valuations (`valuation.created`),
 * and consignments and invoices an operator imports (`consignment.*`, `invoice.*`). `type` narrows `data`.
 *
 * Keep a copy of the items in sync: take `cursor()`, read everything (`client.items.list()`), then follow the feed
 * from that cursor with `all()` or `pages()`, storing the cursor they expose as you apply what they yield. Act on the
 * types you keep and pass over the others (or ask for only yours with `types`): new types may be added.
 *
 * ```ts
 * for await (const change of client.changes.all({ after: saved })) {
 *   if (change.type === 'item.created' || change.type === 'item.updated') copy.set(change.objectId, change.data);
 *   else if (change.type === 'item.deleted') copy.delete(change.objectId);
 * }
 * ```
 */
export class Changes extends Resource {
  /**
   * One page of changes after `after`, oldest first: `{ items, nextCursor, hasMore }`. Pass `nextCursor` as `after`
   * for the next page. Throws `BadRequestError` for an expired cursor or one of another organization: start again from
   * a full read.
   */
  list(params: ChangePageParams = {}, options?: RequestOptions): APIPromise<ChangeList> {
    // Started a microtask later so that bad params reject the call, as a bad path value does, rather than throw.
    const response = Promise.resolve().then(() =>
      this.transport.request('changes.list', { query: changeQuery(params) }, options).withResponse(),
    );
    return new APIPromise(response);
  }

  /**
   * The cursor at the feed's end right now: `{ cursor }`. Take it before a full read, then follow the feed from it:
   * no change made during or after the read is missed.
   */
  cursor(options?: RequestOptions): APIPromise<ChangesCursor> {
    return this.transport.request('changes.cursor', {}, options);
  }

  /**
   * Every page of changes after `params.after` that holds at least one change, following `nextCursor`; with `follow`,
   * waits for new changes at the end of the feed until `options.signal` aborts. The unit for exactly-once: apply a
   * page's changes and store its `nextCursor` in one transaction.
   *
   * ```ts
   * for await (const page of client.changes.pages({ after: saved, follow: true }, { signal })) {
   *   await db.transaction(async (tx) => { await applyAll(tx, page.items); await saveCursor(tx, page.nextCursor); });
   * }
   * ```
   */
  pages(params: ChangeFeedParams = {}, options: RequestOptions = {}): ChangeFeed<ChangeList> {
    return new ChangeFeed(
      params,
      options,
      (query) => this.list(query, options),
      (page) => (page.items.length > 0 ? [page] : []),
    );
  }

  /**
   * Every change after `params.after`, one at a time, following `nextCursor`; with `follow`, waits for new changes at
   * the end of the feed until `options.signal` aborts. `feed.cursor` is where to resume: store it after applying each
   * change.
   *
   * ```ts
   * const feed = client.changes.all({ after: saved, follow: true }, { signal });
   * for await (const change of feed) {
   *   await apply(change);
   *   await saveCursor(feed.cursor);
   * }
   * ```
   */
  all(params: ChangeFeedParams = {}, options: RequestOptions = {}): ChangeFeed<Change> {
    return new ChangeFeed(
      params,
      options,
      (query) => this.list(query, options),
      (page) => page.items,
    );
  }
}
