import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { CoinventoryError, NotFoundError, Page, PagePromise } from '../src/index.js';
import { errorBody, makeClient, server, url, useMsw } from './support/msw.js';

useMsw();

/**
 * Serves `path` as a list of `total` entries (`{ id: 'e1' }`, …) paged by `page` and `limit` (default 20), the way
 * the API does, and records every query it was asked.
 */
function list(path: string, total: number): URLSearchParams[] {
  const queries: URLSearchParams[] = [];
  server.use(
    http.get(url(path), ({ request }) => {
      const query = new URL(request.url).searchParams;
      queries.push(query);
      const page = Number(query.get('page') ?? '1');
      const limit = Number(query.get('limit') ?? '20');
      const start = (page - 1) * limit;
      const items = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, i) => ({
        id: `e${start + i + 1}`,
      }));
      return HttpResponse.json({ items, page, limit, hasMore: start + limit < total });
    }),
  );
  return queries;
}

const ids = (entries: { id: string }[]) => entries.map((e) => e.id);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `e${from + i}`);

describe('awaiting a list', () => {
  it('gives the first page: items, page, limit, hasMore', async () => {
    list('/items', 45);
    const page = await makeClient().items.list();
    expect(page).toBeInstanceOf(Page);
    expect(ids(page.items)).toEqual(range(1, 20));
    expect(page).toMatchObject({ page: 1, limit: 20, hasMore: true });
    expect(page.hasNextPage()).toBe(true);
  });

  it('walks by nextPage() until hasMore is false, then refuses', async () => {
    const queries = list('/items', 45);
    const first = await makeClient().items.list({ status: 'in_stock', sort: 'sku' });
    const second = await first.nextPage();
    const third = await second.nextPage();
    expect([second.page, third.page]).toEqual([2, 3]);
    expect(ids(third.items)).toEqual(range(41, 45));
    expect(third.hasNextPage()).toBe(false);
    await expect(third.nextPage()).rejects.toThrowError(CoinventoryError);
    expect(queries.map((q) => Object.fromEntries(q))).toEqual([
      { status: 'in_stock', sort: 'sku' },
      { status: 'in_stock', sort: 'sku', page: '2' },
      { status: 'in_stock', sort: 'sku', page: '3' },
    ]);
  });

  it('sends nothing until it is awaited or iterated, and sends the first request once', async () => {
    const queries = list('/items', 5);
    const pending = makeClient().items.list();
    expect(pending).toBeInstanceOf(PagePromise);
    await Promise.resolve();
    expect(queries).toHaveLength(0);
    const [a, b] = await Promise.all([pending, pending]);
    expect(a).toBe(b);
    expect(queries).toHaveLength(1);
  });

  it('rejects with the API error', async () => {
    server.use(
      http.get(url('/invoices'), () => HttpResponse.json(errorBody('NOT_FOUND', 'Not found'), { status: 404 })),
    );
    await expect(makeClient().invoices.list()).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      makeClient()
        .invoices.list()
        .catch((e: unknown) => e),
    ).resolves.toBeInstanceOf(NotFoundError);
  });
});

describe('iterating a list', () => {
  it('for await walks every item of every page, following hasMore', async () => {
    const queries = list('/items', 45);
    const seen: string[] = [];
    for await (const item of makeClient().items.list({ status: 'in_stock' })) seen.push(item.id);
    expect(seen).toEqual(range(1, 45));
    expect(queries.map((q) => q.get('page'))).toEqual([null, '2', '3']);
    expect(queries.every((q) => q.get('status') === 'in_stock')).toBe(true);
  });

  it('starts at the page asked for and keeps the page size', async () => {
    const queries = list('/consignments', 10);
    const seen: string[] = [];
    for await (const consignment of makeClient().consignments.list({ page: 2, limit: 3 })) seen.push(consignment.id);
    expect(seen).toEqual(range(4, 10));
    expect(queries.map((q) => `${q.get('page')}/${q.get('limit')}`)).toEqual(['2/3', '3/3', '4/3']);
  });

  it('iterates from an awaited page onwards', async () => {
    list('/invoices', 7);
    const page = await makeClient().invoices.list({ limit: 5 });
    const seen: string[] = [];
    for await (const invoice of page) seen.push(invoice.id);
    expect(seen).toEqual(range(1, 7));
  });

  it('stops fetching when the loop breaks', async () => {
    const queries = list('/items', 100);
    for await (const item of makeClient().items.list({ limit: 10 })) if (item.id === 'e12') break;
    expect(queries).toHaveLength(2);
  });

  it('iterates pages with iterPages()', async () => {
    list('/items', 25);
    const sizes: number[] = [];
    for await (const page of makeClient().items.list({ limit: 10 }).iterPages()) sizes.push(page.items.length);
    expect(sizes).toEqual([10, 10, 5]);
  });

  it("walks a list under another object's path (an endpoint's deliveries), with its id in every request", async () => {
    const queries = list('/webhook-endpoints/ep%2F1/deliveries', 5);
    const seen: string[] = [];
    const deliveries = makeClient().webhookEndpoints.deliveries('ep/1', { status: 'failed', limit: 2 });
    for await (const delivery of deliveries) seen.push(delivery.id);
    expect(seen).toEqual(range(1, 5));
    expect(queries.map((q) => `${q.get('page')}/${q.get('status')}`)).toEqual(['null/failed', '2/failed', '3/failed']);
  });

  it('handles an empty list', async () => {
    list('/items', 0);
    const seen: unknown[] = [];
    for await (const item of makeClient().items.list()) seen.push(item);
    expect(seen).toEqual([]);
  });
});

describe('collectAll({ max })', () => {
  it.each([
    // [test, max, items collected, truncated, pages fetched] of a list of 45 items
    ['collects everything when the list fits', 1000, 45, false, 3],
    ['stops at max inside a page and says the result is truncated', 25, 25, true, 2],
    ['stops at max on a page boundary without fetching the next page', 40, 40, true, 2],
  ] as const)('%s', async (_test, max, collected, truncated, pages) => {
    const queries = list('/items', 45);
    const result = await makeClient().items.list().collectAll({ max });
    expect(ids(result.items)).toEqual(range(1, collected));
    expect(result.truncated).toBe(truncated);
    expect(queries).toHaveLength(pages);
  });

  it('is not truncated when the list holds exactly max', async () => {
    list('/items', 40);
    expect(await makeClient().items.list().collectAll({ max: 40 })).toMatchObject({ truncated: false });
  });

  it.each([undefined, 0, -1, 2.5, Number.POSITIVE_INFINITY])('refuses max = %s', async (max) => {
    const call = makeClient()
      .items.list()
      .collectAll({ max } as { max: number });
    await expect(call).rejects.toThrowError(/collectAll\(\{ max \}\)/);
  });
});

describe('valuations', () => {
  it('returns { items } only, not a page', async () => {
    server.use(http.get(url('/items/it-1/valuations'), () => HttpResponse.json({ items: [{ id: 'v1' }] })));
    const valuations = await makeClient().items.valuations('it-1');
    expect(valuations).toEqual({ items: [{ id: 'v1' }] });
  });
});
