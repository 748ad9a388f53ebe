import type { ChangeList } from '@coinventory/contract';
import type { ChangeType } from '@coinventory/contract/constants';
import { APIUserAbortError, CoinventoryError } from './errors.js';
import { sleep } from './retry.js';
import type { RequestOptions } from './transport.js';

/** The parameters of one page of the changes feed: `client.changes.list(params)`. */
export interface ChangePageParams {
  /**
   * Where to start: a page's `nextCursor`, or the cursor from `client.changes.cursor()`. Without it the feed starts
   * at its oldest kept change.
   */
  after?: string | undefined;
  /** Changes per page. The API's default is its largest page. */
  limit?: number | undefined;
  /** Only changes of these types (sent as the comma-separated `types`). All types when absent. */
  types?: readonly ChangeType[] | undefined;
}

/** The parameters of `client.changes.pages()` and `client.changes.all()`: a page's, and whether to keep following. */
export interface ChangeFeedParams extends ChangePageParams {
  /**
   * Keep following at the end of the feed, like `tail -f`: poll every `pollIntervalMs` for new changes until the
   * `signal` in the options aborts. Without it, the iteration ends at the end of the feed.
   * @default false
   */
  follow?: boolean | undefined;
  /**
   * With `follow`, how long to wait at the end of the feed before asking again, in milliseconds. Each poll is one
   * request against the key's rate limit.
   * @default 5000
   */
  pollIntervalMs?: number | undefined;
}

const DEFAULT_POLL_INTERVAL_MS = 5_000;

/** Fetches one page of the feed. */
export type ChangePageFetcher = (params: ChangePageParams) => Promise<ChangeList>;

/** The query `GET /changes` takes for `params`: `types` comma-separated, as the API reads it. */
export function changeQuery(params: ChangePageParams): Record<string, string | number | undefined> {
  const { after, limit, types } = params;
  if (types !== undefined && (!Array.isArray(types) || types.length === 0)) {
    throw new CoinventoryError('`types` must list at least one change type; leave it out for every type.');
  }
  return { after, limit, types: types?.join(',') };
}

/**
 * The changes feed as an async iterable, from `client.changes.pages()` (one `ChangeList` page at a time, empty pages
 * skipped) or `client.changes.all()` (one `Change` at a time). It follows `nextCursor` from page to page, and with
 * `follow` keeps polling at the end of the feed until the options' `signal` aborts; aborting ends the iteration
 * quietly (the loop just exits), it does not throw.
 *
 * Progress is counted in pages: a page's `nextCursor` is where to resume once every change of that page has been
 * applied. {@link cursor} is that cursor for the last page whose entries have all been handed out, so a consumer
 * that stores it after applying each entry (in the same transaction, for exactly-once) and passes it back as
 * `after` resumes without missing or repeating a page. A crash in the middle of a page repeats that page's earlier
 * changes on resume: each carries the object's whole state, so applying one again is harmless to a copy of the
 * data, and `change.id` tells a repeat apart. Iterate it once; make a new one to start again.
 */
export class ChangeFeed<T> implements AsyncIterable<T> {
  readonly #params: ChangeFeedParams;
  readonly #options: RequestOptions;
  readonly #fetch: ChangePageFetcher;
  /** What one page hands out: its changes, or the page itself. */
  readonly #entries: (page: ChangeList) => readonly T[];
  readonly #pollIntervalMs: number;
  #cursor: string | undefined;
  #started = false;

  constructor(
    params: ChangeFeedParams,
    options: RequestOptions,
    fetch: ChangePageFetcher,
    entries: (page: ChangeList) => readonly T[],
  ) {
    const pollIntervalMs = params.pollIntervalMs ?? DEFAULT_POLL_INTERVAL_MS;
    if (typeof pollIntervalMs !== 'number' || !Number.isFinite(pollIntervalMs) || pollIntervalMs < 0) {
      throw new CoinventoryError(`pollIntervalMs must be a number of milliseconds ≥ 0; got ${String(pollIntervalMs)}.`);
    }
    changeQuery(params);
    this.#params = params;
    this.#options = options;
    this.#fetch = fetch;
    this.#entries = entries;
    this.#pollIntervalMs = pollIntervalMs;
    this.#cursor = params.after;
  }

  /**
   * Where to resume: the `nextCursor` of the last page whose entries have all been handed out (it moves when the last
   * change of a page is yielded, and past pages with nothing to yield), else the `after` it started from. Store it
   * once the entry you were given has been applied, never before, and not when applying it failed. Undefined until
   * the first page is done when started without `after`.
   */
  get cursor(): string | undefined {
    return this.#cursor;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    if (this.#started) {
      throw new CoinventoryError(
        'This change feed has already been iterated: make a new one, with `after: feed.cursor` to resume.',
      );
    }
    this.#started = true;
    const { signal } = this.#options;
    for await (const page of this.#pages()) {
      const entries = this.#entries(page);
      if (entries.length === 0) this.#cursor = page.nextCursor;
      for (const [index, entry] of entries.entries()) {
        if (signal?.aborted) return;
        if (index === entries.length - 1) this.#cursor = page.nextCursor;
        yield entry;
      }
    }
  }

  /** Every page from the cursor on, empty ones included; with `follow`, polls at the end until aborted. */
  async *#pages(): AsyncGenerator<ChangeList, void, undefined> {
    const { limit, types, follow } = this.#params;
    const { signal } = this.#options;
    let after = this.#cursor;
    try {
      for (;;) {
        if (signal?.aborted) return;
        const page = await this.#fetch({ after, limit, types });
        yield page;
        if (page.hasMore && page.nextCursor === after) {
          throw new CoinventoryError('The changes feed answered `hasMore` without moving its cursor; stopping.');
        }
        after = page.nextCursor;
        if (page.hasMore) continue;
        if (!follow) return;
        await sleep(this.#pollIntervalMs, signal);
      }
    } catch (error) {
      // The signal is how a follower is stopped: its abort ends the iteration rather than failing it.
      if (error instanceof APIUserAbortError && signal?.aborted) return;
      throw error;
    }
  }
}
