import { ITEM_STATUSES, type Item, type ItemStatus, LIMITS } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY, expectBadRequest } from '../../support/errors.js';
import { freshApi, listItems, randomId, type SeedItem, seedSortKeys } from '../../support/items.js';
import { addCategory, createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;

const seed = (organization: TestOrganization, seeds: SeedItem[]) =>
  seedSortKeys(server.database.sql, organization, seeds);

const skus = (items: Item[]) => items.map((item) => item.sku);
const ids = (items: Item[]) => items.map((item) => item.id);

/** ITEM_STATUS_RULES, restated in JavaScript from an item's fields. */
function statusOf(item: Item): ItemStatus {
  if (item.isAtAuction) return 'at_auction';
  if (item.quantity.available > 0) return 'in_stock';
  if (item.quantity.sold > 0) return 'sold';
  return 'out_of_stock';
}

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('GET /items status filter', () => {
  let org: TestOrganization;
  const seeds: SeedItem[] = [
    { sku: 'ST-IN-1', title: 'In stock', available: 3 },
    { sku: 'ST-IN-2', title: 'In stock, some sold', available: 2, sold: 5, reserved: 1 },
    { sku: 'ST-OUT-1', title: 'Out of stock', available: 0 },
    { sku: 'ST-OUT-2', title: 'Out of stock, reserved', available: 0, reserved: 2 },
    { sku: 'ST-SOLD-1', title: 'Sold', available: 0, sold: 4 },
    { sku: 'ST-SOLD-2', title: 'Sold, reserved', available: 0, sold: 1, reserved: 3 },
    { sku: 'ST-AUC-1', title: 'At auction, available', available: 1, isAtAuction: true },
    { sku: 'ST-AUC-2', title: 'At auction, none available', available: 0, isAtAuction: true },
    { sku: 'ST-AUC-3', title: 'At auction, sold', available: 0, sold: 3, isAtAuction: true },
  ];
  const expected: Record<ItemStatus, string[]> = {
    in_stock: ['ST-IN-1', 'ST-IN-2'],
    out_of_stock: ['ST-OUT-1', 'ST-OUT-2'],
    sold: ['ST-SOLD-1', 'ST-SOLD-2'],
    at_auction: ['ST-AUC-1', 'ST-AUC-2', 'ST-AUC-3'],
  };

  beforeAll(async () => {
    org = await createTestOrganization(server.database.sql);
    await seed(org, seeds);
  });

  it('shows the quantities and auction flag set in the database', async () => {
    const api = await freshApi(server, org);
    const all = await listItems(api, { sort: 'sku', limit: 100 });
    expect(all.items).toHaveLength(seeds.length);
    for (const s of seeds) {
      const item = all.items.find((i) => i.sku === s.sku);
      expect(item?.quantity).toEqual({ available: s.available ?? 1, sold: s.sold ?? 0, reserved: s.reserved ?? 0 });
      expect(item?.isAtAuction).toBe(s.isAtAuction ?? false);
    }
  });

  it.each(ITEM_STATUSES)('status=%s selects exactly the items ITEM_STATUS_RULES puts there', async (status) => {
    const api = await freshApi(server, org);
    const all = await listItems(api, { sort: 'sku', limit: 100 });
    const filtered = await listItems(api, { status, sort: 'sku', limit: 100 });
    expect(filtered).toMatchObject({ page: 1, limit: 100, hasMore: false });
    expect([...skus(filtered.items)].sort()).toEqual([...expected[status]].sort());
    expect(ids(filtered.items)).toEqual(ids(all.items.filter((item) => statusOf(item) === status)));
  });

  it('partitions the items: every item matches exactly one status', async () => {
    const api = await freshApi(server, org);
    const seen: string[] = [];
    for (const status of ITEM_STATUSES) seen.push(...ids((await listItems(api, { status, limit: 100 })).items));
    expect(seen).toHaveLength(seeds.length);
    expect(new Set(seen).size).toBe(seeds.length);
  });
});

describe('GET /items filters and search', () => {
  let org: TestOrganization;
  let other: TestOrganization;
  let catA: string;
  let catB: string;
  let otherCat: string;

  beforeAll(async () => {
    const sql = server.database.sql;
    org = await createTestOrganization(sql);
    other = await createTestOrganization(sql);
    catA = await addCategory(sql, org.organizationId, 'Morgans');
    catB = await addCategory(sql, org.organizationId, 'Others');
    otherCat = await addCategory(sql, other.organizationId, 'Morgans');
    await seed(org, [
      {
        sku: 'F-01',
        title: 'Morgan Dollar 1881-S',
        description: 'Blast white',
        categoryId: catA,
        gradingService: 'PCGS',
        grade: 'MS65',
        certificateNumber: '11111111',
      },
      {
        sku: 'F-02',
        title: 'Morgan Dollar 1884-CC',
        categoryId: catA,
        gradingService: 'pcgs',
        grade: 'ms65',
        certificateNumber: '22222222',
      },
      { sku: 'F-03', title: 'Peace Dollar 1922', categoryId: catB, gradingService: 'NGC', grade: 'MS65' },
      {
        sku: 'F-04',
        title: 'Walking Liberty Half',
        description: 'Contains 100%_pure silver',
        gradingService: 'NGC',
        grade: 'AU58',
        available: 0,
      },
      { sku: 'F-05', title: 'Buffalo Nickel', categoryId: catB, gradingService: 'PCGS ', grade: 'MS65+' },
      { sku: 'abc-1', title: 'Lower-case sku' },
      { sku: 'ABC-1', title: 'Upper-case sku' },
      { sku: 'F-08', title: 'Standing Liberty', description: 'Contains 100xypure silver' },
      { sku: 'F-09', title: 'Back\\slash token' },
      {
        sku: 'F-10',
        title: 'Hidden fields',
        acquiredFrom: 'Zanzibar Estate',
        gradingNotes: 'Quokka holder',
        grade: 'Xylograph',
      },
      { sku: 'CROSS-A', title: 'Bfield' },
      { sku: 'F-12', title: 'ÜBER Thaler' },
    ]);
    // Another organization with look-alike data: none of it may ever appear.
    await seed(other, [
      { sku: 'F-01', title: 'Morgan Dollar 1881-S', categoryId: otherCat, gradingService: 'PCGS', grade: 'MS65' },
      { sku: 'ABC-1', title: 'Upper-case sku', certificateNumber: '22222222' },
      { sku: 'O-3', title: '100%_pure Morgan', gradingService: 'NGC', grade: 'ms65' },
    ]);
  });

  /** SKUs matching a query, in sku order. */
  async function find(query: Record<string, string>): Promise<string[]> {
    const api = await freshApi(server, org);
    const list = await listItems(api, { ...query, sort: 'sku', limit: 100 });
    expect(list.hasMore).toBe(false);
    return skus(list.items);
  }

  it('categoryId selects the items of that category only', async () => {
    expect(await find({ categoryId: catA })).toEqual(['F-01', 'F-02']);
    expect(await find({ categoryId: catB })).toEqual(['F-03', 'F-05']);
    expect(await find({ categoryId: randomId() })).toEqual([]);
    expect(await find({ categoryId: otherCat })).toEqual([]);
  });

  it('gradingService matches exactly, case-insensitively', async () => {
    expect(await find({ gradingService: 'pcgs' })).toEqual(['F-01', 'F-02']);
    expect(await find({ gradingService: 'PCGS' })).toEqual(['F-01', 'F-02']);
    expect(await find({ gradingService: 'nGc' })).toEqual(['F-03', 'F-04']);
    expect(await find({ gradingService: 'PCG' })).toEqual([]);
    expect(await find({ gradingService: 'PCGS ' })).toEqual(['F-05']);
  });

  it('grade matches exactly, case-insensitively', async () => {
    expect(await find({ grade: 'ms65' })).toEqual(['F-01', 'F-02', 'F-03']);
    expect(await find({ grade: 'MS65+' })).toEqual(['F-05']);
    expect(await find({ grade: 'MS6' })).toEqual([]);
    expect(await find({ grade: 'au58' })).toEqual(['F-04']);
  });

  it('sku matches exactly', async () => {
    expect(await find({ sku: 'ABC-1' })).toEqual(['ABC-1']);
    expect(await find({ sku: 'abc-1' })).toEqual(['abc-1']);
    expect(await find({ sku: 'ABC' })).toEqual([]);
    expect(await find({ sku: 'F-0' })).toEqual([]);
    expect(await find({ sku: 'F-01' })).toEqual(['F-01']);
  });

  it('q matches a case-insensitive substring of sku, title, description and certificate number', async () => {
    expect(await find({ q: 'MORGAN' })).toEqual(['F-01', 'F-02']);
    expect(await find({ q: 'morgan dollar 1884' })).toEqual(['F-02']);
    expect(await find({ q: 'bLaSt WHITE' })).toEqual(['F-01']);
    expect(await find({ q: '2222' })).toEqual(['F-02']);
    expect(await find({ q: 'f-0' })).toEqual(['F-01', 'F-02', 'F-03', 'F-04', 'F-05', 'F-08', 'F-09']);
    expect(await find({ q: 'abc-' })).toEqual(['ABC-1', 'abc-1']);
    expect(await find({ q: 'liberty' })).toEqual(['F-04', 'F-08']);
  });

  it('q does not search other fields (acquiredFrom, gradingNotes, grade, gradingService)', async () => {
    expect(await find({ q: 'zanzibar' })).toEqual([]);
    expect(await find({ q: 'quokka' })).toEqual([]);
    expect(await find({ q: 'xylograph' })).toEqual([]);
    expect(await find({ q: 'ngc' })).toEqual([]);
  });

  it('q treats % and _ literally, not as wildcards', async () => {
    expect(await find({ q: '100%_' })).toEqual(['F-04']);
    expect(await find({ q: '%' })).toEqual(['F-04']);
    expect(await find({ q: '_' })).toEqual(['F-04']);
    expect(await find({ q: '0%_p' })).toEqual(['F-04']);
    expect(await find({ q: '100xy' })).toEqual(['F-08']);
  });

  it('q treats a backslash literally', async () => {
    expect(await find({ q: '\\' })).toEqual(['F-09']);
    expect(await find({ q: 'k\\s' })).toEqual(['F-09']);
  });

  it('q matches within one field, never across the boundary between two', async () => {
    expect(await find({ q: 'cross-a' })).toEqual(['CROSS-A']);
    expect(await find({ q: 'a\nb' })).toEqual([]);
    expect(await find({ q: 'cross-a\nbfield' })).toEqual([]);
  });

  it('q is case-insensitive beyond ASCII', async () => {
    expect(await find({ q: 'über' })).toEqual(['F-12']);
    expect(await find({ q: 'ÜBER' })).toEqual(['F-12']);
  });

  it('combines filters with AND', async () => {
    expect(await find({ categoryId: catA, grade: 'MS65', q: '1884' })).toEqual(['F-02']);
    expect(await find({ categoryId: catB, q: 'dollar' })).toEqual(['F-03']);
    expect(await find({ status: 'in_stock', gradingService: 'ngc' })).toEqual(['F-03']);
    expect(await find({ status: 'out_of_stock', gradingService: 'ngc', grade: 'au58' })).toEqual(['F-04']);
    expect(await find({ status: 'sold', gradingService: 'ngc' })).toEqual([]);
    expect(await find({ gradingService: 'pcgs', grade: 'ms65', sku: 'F-01', q: 'blast' })).toEqual(['F-01']);
    expect(await find({ categoryId: catA, q: 'peace' })).toEqual([]);
  });

  it("never shows another organization's items", async () => {
    const mine = await find({});
    expect(mine).toHaveLength(12);
    expect(await find({ sku: 'F-01' })).toEqual(['F-01']);
    expect(await find({ q: '100%_pure' })).toEqual(['F-04']);
    const theirs = skus((await listItems(await freshApi(server, other), { sort: 'sku', limit: 100 })).items);
    expect(theirs).toEqual(['ABC-1', 'F-01', 'O-3']);
    const api = await freshApi(server, org);
    const everything = await listItems(api, { limit: 100 });
    const [row] = await server.database.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM items WHERE organization_id = ${org.organizationId}
    `;
    expect(everything.items).toHaveLength(row?.n ?? -1);
  });

  it.each([
    ['q', ''],
    ['q', 'x'.repeat(LIMITS.q.max + 1)],
    ['status', 'available'],
    ['sort', 'price'],
    ['categoryId', 'not-a-uuid'],
    ['limit', '0'],
    ['limit', '101'],
    ['limit', 'ten'],
    ['page', '0'],
    ['unknownParam', '1'],
  ] as const)('refuses an invalid %s with 400 naming it (case %#)', async (name, value) => {
    const api = await freshApi(server, org);
    const response = await api.get(`/items?${new URLSearchParams({ [name]: value })}`);
    if (name === 'unknownParam') {
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject(ERROR_BODY.BAD_REQUEST);
    } else expectBadRequest(response, [`query.${name}`]);
  });

  it('accepts q at its maximum length of 200', async () => {
    expect(await find({ q: 'x'.repeat(LIMITS.q.max) })).toEqual([]);
  });
});
