import { ITEM_SORTS, type Item, type ListItemsQuery, ListItemsQuerySchema } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ITEMS } from '../../../src/modules/items/index.js';
import { SEARCH_TUNING, type SearchTuning, searchPage } from '../../../src/modules/items/search.js';
import { freshApi, insertItems, listItems, type SeedItem } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * A search takes one of two plans (modules/items/store.ts, searchPage): walking the items in the page's order and
 * stopping at the page's last match, which answers when the term is common enough; or the trigram index, when the
 * walk gives up. The answer must not depend on which ran. The oracle is the list without `q` (its own order, tested
 * elsewhere), filtered in JavaScript by the rule `q` follows.
 */

let server: TestServer;
let org: TestOrganization;
let all: Item[];

const TERM = '1881-s';
const contains = (value: string | null) => (value ?? '').toLowerCase().includes(TERM);
/** The seeds set no certificate number: sku, title and description are the fields that can match. */
const matches = (item: Item) => contains(item.sku) || contains(item.title) || contains(item.description);

/** 60 items, about two in three holding the term in one field, with sort keys that tie and differ. */
function seeds(): SeedItem[] {
  return Array.from({ length: 60 }, (_, n) => {
    const field = n % 3;
    return {
      sku: `SP-${String(n).padStart(3, '0')}${field === 0 ? '-1881-S' : ''}`,
      title: field === 1 ? `Morgan 1881-S dollar ${n % 7}` : `Morgan dollar ${n % 7}`,
      description: field === 2 && n % 2 === 0 ? 'An 1881-s in a holder' : null,
      valueInCents: (n % 9) * 1_000,
      createdAt: new Date(Date.UTC(2024, 0, 1 + (n % 11))).toISOString(),
    };
  });
}

beforeAll(async () => {
  server = await startTestServer({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
  org = await createTestOrganization(server.database.sql);
  await insertItems(server.database.sql, org, seeds());
});
afterAll(() => server.close());

describe('a search answers the same whichever plan runs', () => {
  it.each(ITEM_SORTS.map((sort) => [sort]))(
    'sort=%s: every page of every size is the list’s order, filtered',
    async (sort) => {
      const api = await freshApi(server, org);
      all = (await listItems(api, { sort, limit: 100 })).items;
      expect(all).toHaveLength(60);
      const expected = all.filter(matches).map((item) => item.id);
      expect(expected.length).toBeGreaterThan(30);
      // Pages of 6: the walk finds the early pages' matches (it answers), not the last page's (the trigram index
      // answers). A page of 100: the trigram index answers.
      for (const limit of [6, 100]) {
        const found: string[] = [];
        for (let page = 1; ; page++) {
          const list = await listItems(api, { sort, q: '1881-S', limit, page });
          found.push(...list.items.map((item) => item.id));
          expect(list.items.length, `${sort} limit ${limit} page ${page}`).toBeLessThanOrEqual(limit);
          if (!list.hasMore) break;
          expect(list.items).toHaveLength(limit);
        }
        expect(found, `${sort} limit ${limit}`).toEqual(expected);
      }
    },
  );

  it('combines q with the other filters on both plans', async () => {
    const api = await freshApi(server, org);
    const expected = (await listItems(api, { limit: 100, status: 'out_of_stock' })).items.filter(matches);
    for (const limit of [2, 100]) {
      const list = await listItems(api, { q: '1881-S', status: 'out_of_stock', limit });
      expect(list.items.map((item) => item.id)).toEqual(expected.slice(0, limit).map((item) => item.id));
    }
  });
});

/**
 * The statement's three ways (probe, walk on, trigram index) with tunings that make each of them answer: the rows
 * stay the same. EXPLAIN ANALYZE shows which way ran, so a tuning that stopped forcing its way fails here.
 */
describe('every way of the search statement', () => {
  const TUNINGS: ReadonlyArray<[string, SearchTuning, 'walked on' | 'did not walk on']> = [
    [
      'the probe, then the walk on',
      { ...SEARCH_TUNING, probeRows: 5, maxWalk: 1_000, walkedRow: { together: 0, apart: 0 } },
      'walked on',
    ],
    [
      'the probe, a walk on too short, then the index',
      { ...SEARCH_TUNING, probeRows: 5, maxWalk: 3, walkedRow: { together: 0, apart: 0 } },
      'walked on',
    ],
    [
      'the probe, then the index',
      { ...SEARCH_TUNING, probeRows: 5, maxWalk: 1_000, walkedRow: { together: 1e9, apart: 1e9 } },
      'did not walk on',
    ],
  ];

  /** Rows the `walked` CTE (the walk after the probe) gave, from the statement's EXPLAIN ANALYZE. */
  async function walkedRows(query: ListItemsQuery, offset: number, tuning: SearchTuning): Promise<number> {
    const sql = server.database.sql;
    const [row] =
      await sql`EXPLAIN (ANALYZE, FORMAT JSON) ${searchPage(sql, org.organizationId, query, offset, tuning)}`;
    type Node = { 'Subplan Name'?: string; 'Actual Rows'?: number; Plans?: Node[] };
    const nodes = (node: Node): Node[] => [node, ...(node.Plans ?? []).flatMap(nodes)];
    const [{ Plan }] = (row as Record<string, [{ Plan: Node }]>)['QUERY PLAN'] as [{ Plan: Node }];
    return nodes(Plan).find((n) => n['Subplan Name'] === 'CTE walked')?.['Actual Rows'] ?? 0;
  }

  it.each(TUNINGS)('%s: every page of every sort is the list’s order, filtered', async (_, tuning, way) => {
    const sql = server.database.sql;
    await sql`ANALYZE items`;
    const api = await freshApi(server, org);
    let walked = 0;
    for (const sort of ITEM_SORTS) {
      const expected = (await listItems(api, { sort, limit: 100 })).items.filter(matches).map((item) => item.id);
      const found: string[] = [];
      for (let page = 1; ; page++) {
        const query = ListItemsQuerySchema.parse({ q: '1881-S', sort, limit: '6', page: String(page) });
        const offset = (page - 1) * 6;
        const list = (await ITEMS.pageText(searchPage(sql, org.organizationId, query, offset, tuning), query)).parse();
        walked += await walkedRows(query, offset, tuning);
        found.push(...list.items.map((item) => item.id));
        if (!list.hasMore) break;
        expect(list.items, `${sort} page ${page}`).toHaveLength(6);
      }
      expect(found, sort).toEqual(expected);
    }
    if (way === 'walked on') expect(walked).toBeGreaterThan(0);
    else expect(walked).toBe(0);
  });
});
