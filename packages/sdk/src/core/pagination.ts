import { CoinventoryError } from './errors.js';

/** The envelope every paginated list returns: `{ items, page, limit, hasMore }`. */
export interface PageResponse<T> {
  items: T[];
  page: number;
  limit: number;
  hasMore: boolean;
}

/** The parameters every paginated list takes. */
export interface PageParams {
  page?: number | undefined;
  limit?: number | undefined;
}

/** Fetches one page for the given parameters. */
export type PageFetcher<T, P extends PageParams> = (params: P) => Promise<PageResponse<T>>;

/** What {@link PagePromise.collectAll} returns. */
export interface CollectedItems<T> {
  /** At most `max` items, in list order. */
  items: T[];
  /** True when the list holds more items than `max`: `items` is then not the whole list. */
  truncated: boolean;
}

/**
 * One page of a list. `for await (const item of page)` walks this page's items and then every following page's.
 */
export class Page<T, P extends PageParams = PageParams> implements AsyncIterable<T> {
  /** The entries of this page, in the requested order. */
  readonly items: T[];
  /** The page number returned (1-based). */
  readonly page: number;
  /** The page size used. */
  readonly limit: number;
  /** True when another page follows this one. */
  readonly hasMore: boolean;
  /** The parameters this page was requested with. */
  readonly params: P;
  readonly #fetch: PageFetcher<T, P>;

  constructor(response: PageResponse<T>, params: P, fetch: PageFetcher<T, P>) {
    this.items = response.items;
    this.page = response.page;
    this.limit = response.limit;
    this.hasMore = response.hasMore;
    this.params = params;
    this.#fetch = fetch;
  }

  /** Whether a next page exists (`hasMore`). */
  hasNextPage(): boolean {
    return this.hasMore;
  }

  /** Fetches the next page (same parameters, `page + 1`). Throws when {@link hasNextPage} is false. */
  async nextPage(): Promise<Page<T, P>> {
    if (!this.hasMore) {
      throw new CoinventoryError('There is no next page (hasMore is false); check hasNextPage() first.');
    }
    const params: P = { ...this.params, page: this.page + 1 };
    return new Page<T, P>(await this.#fetch(params), params, this.#fetch);
  }

  /** This page, then every following page, fetched one at a time as you iterate. */
  async *iterPages(): AsyncGenerator<Page<T, P>, void, undefined> {
    let page: Page<T, P> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.nextPage();
      yield page;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.iterPages()) yield* page.items;
  }
}

/**
 * What a list method returns: `await` it for the first {@link Page}, or iterate it with `for await` for every item
 * of every page. The request is sent when you first await or iterate it, and only once.
 */
export class PagePromise<T, P extends PageParams = PageParams> implements PromiseLike<Page<T, P>>, AsyncIterable<T> {
  readonly #params: P;
  readonly #fetch: PageFetcher<T, P>;
  #first: Promise<Page<T, P>> | undefined;

  constructor(params: P, fetch: PageFetcher<T, P>) {
    this.#params = params;
    this.#fetch = fetch;
  }

  #load(): Promise<Page<T, P>> {
    this.#first ??= this.#fetch(this.#params).then((response) => new Page(response, this.#params, this.#fetch));
    return this.#first;
  }

  // biome-ignore lint/suspicious/noThenProperty: a PagePromise is awaitable on purpose.
  then<R1 = Page<T, P>, R2 = never>(
    onfulfilled?: ((page: Page<T, P>) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#load().then(onfulfilled, onrejected);
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<Page<T, P> | R> {
    return this.#load().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<Page<T, P>> {
    return this.#load().finally(onfinally);
  }

  /** Every page, from the first, fetched one at a time as you iterate. */
  async *iterPages(): AsyncGenerator<Page<T, P>, void, undefined> {
    yield* (await this.#load()).iterPages();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    yield* await this.#load();
  }

  /**
   * Collects items across pages, stopping at `max`: never fetches more pages than needed to fill it. When the list
   * holds more than `max` items, `truncated` is true. `max` is required, so a list that grows cannot silently
   * exhaust memory or the rate limit; pass `limit: 100` in the list's parameters to fetch fewer, larger pages.
   */
  async collectAll(options: { max: number }): Promise<CollectedItems<T>> {
    const max = options?.max;
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) {
      throw new CoinventoryError('collectAll({ max }) needs `max`, a whole number of at least 1.');
    }
    const items: T[] = [];
    for await (const page of this.iterPages()) {
      const room = max - items.length;
      items.push(...page.items.slice(0, room));
      if (page.items.length > room || (items.length === max && page.hasMore)) return { items, truncated: true };
      if (items.length === max) break;
    }
    return { items, truncated: false };
  }

  get [Symbol.toStringTag](): string {
    return 'PagePromise';
  }
}
