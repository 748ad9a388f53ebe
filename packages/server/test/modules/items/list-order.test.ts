import { DEFAULT_ITEM_SORT, ITEM_SORTS, type Item } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  at,
  expectedOrder,
  freshApi,
  listItems,
  type SeedItem,
  type SortKey,
  seedSortKeys,
} from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/** The item list's order: every sort, with ties on each sort key, and pages that never skip or repeat a row. */

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const ids = (items: Item[]) => items.map((item) => item.id);
const seed = (organization: TestOrganization, seeds: SeedItem[]) =>
  seedSortKeys(server.database.sql, organization, seeds);

describe('GET /items sorts, including ties', () => {
  let org: TestOrganization;
  let keys: SortKey[];

  beforeAll(async () => {
    org = await createTestOrganization(server.database.sql);
    keys = await seed(org, [
      { sku: 'b-2', title: 'apple', valueInCents: 500, createdAt: at(0) },
      { sku: 'B-1', title: 'Banana', valueInCents: 500, createdAt: at(0) },
      { sku: 'a-10', title: 'APPLE', valueInCents: 500, createdAt: at(0) },
      { sku: 'a-9', title: 'Apple', valueInCents: 0, createdAt: at(1) },
      { sku: '_x', title: 'banana', valueInCents: 0, createdAt: at(1) },
      { sku: '10', title: '[bracket', valueInCents: 1_000_000, createdAt: at(2) },
      { sku: '9', title: 'Zebra', valueInCents: Number.MAX_SAFE_INTEGER, createdAt: at(2) },
      { sku: 'Z', title: 'zebra', valueInCents: 1, createdAt: at(3) },
      { sku: 'z', title: 'ZEBRA', valueInCents: 500, createdAt: at(3) },
      { sku: 'A', title: 'aardvark', valueInCents: 0, createdAt: at(3) },
      { sku: 'a', title: 'Morgan', valueInCents: 750, createdAt: at(4) },
      { sku: 'M-1', title: 'morgan', valueInCents: 750, createdAt: at(0) },
      { sku: 'M-2', title: 'Morgan ', valueInCents: 749, createdAt: at(5) },
      { sku: 'M-3', title: 'Morgan1', valueInCents: 751, createdAt: at(0) },
    ]);
  });

  it('the data has ties on every sort key', () => {
    const dupes = (values: (string | number)[]) => values.length - new Set(values).size;
    expect(dupes(keys.map((k) => k.createdAt))).toBeGreaterThan(3);
    expect(dupes(keys.map((k) => k.title.toLowerCase()))).toBeGreaterThan(3);
    expect(dupes(keys.map((k) => k.valueInCents))).toBeGreaterThan(3);
  });

  it.each(ITEM_SORTS)('sort=%s follows ITEM_SORT_RULES, ties broken by id', async (sort) => {
    const api = await freshApi(server, org);
    const list = await listItems(api, { sort, limit: 100 });
    expect(list).toMatchObject({ page: 1, limit: 100, hasMore: false });
    expect(ids(list.items)).toEqual(expectedOrder(keys, sort));
    // Pages of 4 give the same order, split at the right places.
    const paged: string[] = [];
    for (let page = 1; page <= 4; page += 1) {
      const part = await listItems(api, { sort, limit: 4, page });
      expect(part).toMatchObject({ page, limit: 4, hasMore: page < 4 });
      paged.push(...ids(part.items));
    }
    expect(paged).toEqual(expectedOrder(keys, sort));
  });

  it('returns money as exact integers, up to Number.MAX_SAFE_INTEGER', async () => {
    const api = await freshApi(server, org);
    const list = await listItems(api, { sort: 'value_desc', limit: 1 });
    expect(list.items[0]?.valueInCents).toBe(Number.MAX_SAFE_INTEGER);
    expect(list.items[0]?.sku).toBe('9');
  });
});

describe('GET /items pagination', () => {
  let org: TestOrganization;
  let other: TestOrganization;
  let keys: SortKey[];
  const COUNT = 250;
  const PAGE = 7;

  beforeAll(async () => {
    const sql = server.database.sql;
    org = await createTestOrganization(sql);
    other = await createTestOrganization(sql);
    const titles = ['Morgan', 'MORGAN', 'peace', 'Peace', 'walker'];
    keys = await seed(
      org,
      Array.from({ length: COUNT }, (_, i) => ({
        sku: `W-${(i * 37) % COUNT}`,
        title: `${titles[i % titles.length]} ${i % 7}`,
        valueInCents: (i % 6) * 250,
        createdAt: at(i % 10),
      })),
    );
    // Look-alikes in another organization, interleaved in every order.
    await seed(
      other,
      Array.from({ length: 40 }, (_, i) => ({
        sku: `W-${i}`,
        title: `Morgan ${i % 7}`,
        valueInCents: (i % 6) * 250,
        createdAt: at(i % 10),
      })),
    );
  });

  it('uses sort newest, page 1 and limit 20 when no parameter is given', async () => {
    const api = await freshApi(server, org);
    const response = await api.get('/items');
    const list = await listItems(api);
    expect(response.body).toEqual(list);
    expect(DEFAULT_ITEM_SORT).toBe('newest');
    expect(list).toMatchObject({ page: 1, limit: 20, hasMore: true });
    expect(ids(list.items)).toEqual(expectedOrder(keys, 'newest').slice(0, 20));
  });

  it('serves limit 100, the maximum, and a short last page', async () => {
    const api = await freshApi(server, org);
    const order = expectedOrder(keys, 'sku');
    const third = await listItems(api, { sort: 'sku', limit: 100, page: 3 });
    expect(third).toMatchObject({ page: 3, limit: 100, hasMore: false });
    expect(ids(third.items)).toEqual(order.slice(200));
    const second = await listItems(api, { sort: 'sku', limit: 100, page: 2 });
    expect(second.hasMore).toBe(true);
    expect(ids(second.items)).toEqual(order.slice(100, 200));
  });

  it('reports hasMore false on a page that ends exactly at the last item', async () => {
    const api = await freshApi(server, org);
    const last = await listItems(api, { sort: 'oldest', limit: 50, page: 5 });
    expect(last).toMatchObject({ page: 5, limit: 50, hasMore: false });
    expect(ids(last.items)).toEqual(expectedOrder(keys, 'oldest').slice(200));
  });

  it.each(ITEM_SORTS)('a page walk over 250 items with no gap or repeat (sort=%s)', async (sort) => {
    const api = await freshApi(server, org, `walk ${sort}`);
    const collected: string[] = [];
    let page = 1;
    for (;;) {
      const list = await listItems(api, { sort, limit: PAGE, page });
      expect(list.page).toBe(page);
      expect(list.limit).toBe(PAGE);
      collected.push(...ids(list.items));
      if (!list.hasMore) {
        expect(list.items).toHaveLength(COUNT % PAGE);
        break;
      }
      expect(list.items).toHaveLength(PAGE);
      page += 1;
      if (page > COUNT) throw new Error('the walk does not end');
    }
    expect(page).toBe(Math.ceil(COUNT / PAGE));
    expect(new Set(collected).size).toBe(collected.length);
    expect(collected).toHaveLength(COUNT);
    expect(collected).toEqual(expectedOrder(keys, sort));
    for (const past of [page + 1, page + 100]) {
      const beyond = await listItems(api, { sort, limit: PAGE, page: past });
      expect(beyond).toEqual({ items: [], page: past, limit: PAGE, hasMore: false });
    }
  });
});
