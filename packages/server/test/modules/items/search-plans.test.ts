import { ITEM_SORTS, type Item } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
