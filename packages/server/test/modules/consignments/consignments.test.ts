import {
  CONSIGNMENT_STATUSES,
  type Consignment,
  type ConsignmentList,
  ConsignmentListSchema,
  ConsignmentSchema,
  ERRORS,
  type Item,
  LIMITS,
} from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/http.js';
import {
  compareIds,
  insertConsignment,
  insertConsignor,
  insertItem,
  insertSale,
  linkItem,
} from '../../support/sales.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { createWorkspace, type TestWorkspace } from '../../support/workspace.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const notFoundBody = { code: 'NOT_FOUND', message: ERRORS.NOT_FOUND.message };
const badRequestBody = (...messages: string[]) => ({
  code: 'BAD_REQUEST',
  message: ERRORS.BAD_REQUEST.message,
  issues: messages.map((message) => ({ message })),
});

/** A consignment as the API shows it when no item is linked. */
const zeroTotals = {
  numItems: 0,
  numItemsSold: 0,
  totalValueInCents: 0,
  totalSoldInCents: 0,
  totalCommissionInCents: 0,
  totalPayoutInCents: 0,
};

describe('GET /consignments', () => {
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let otherConsignmentId: string;
  let otherConsignorId: string;
  let api: ReturnType<typeof client>;
  /** Consignment ids by label, and each one's created_at, as inserted. */
  const ids: Record<string, string> = {};
  const createdAt: Record<string, string> = {};
  let alice: string;
  let bob: string;
  let anonymous: string;

  /** The labels, newest first: created_at descending, then id descending. */
  const newestFirst = (labels: string[]) =>
    [...labels].sort((a, b) => {
      const byTime = Date.parse(createdAt[b] ?? '') - Date.parse(createdAt[a] ?? '');
      return byTime !== 0 ? byTime : compareIds(ids[b] ?? '', ids[a] ?? '');
    });
  const idsOf = (labels: string[]) => newestFirst(labels).map((label) => ids[label]);

  async function list(query: string): Promise<ConsignmentList> {
    const response = await api.get<ConsignmentList>(`/consignments${query}`);
    expect(response.status, response.text).toBe(200);
    return ConsignmentListSchema.parse(response.body);
  }
  async function listIds(query: string): Promise<string[]> {
    const body = await list(query);
    return body.items.map((c) => c.id);
  }

  beforeAll(async () => {
    const { sql } = server.database;
    ws = await createWorkspace(sql);
    other = await createWorkspace(sql);
    api = client(server.baseUrl, ws.readKey);
    const org = ws.organizationId;
    alice = await insertConsignor(sql, org, { name: 'Alice Numismatics', email: 'Alice@Example.test' });
    bob = await insertConsignor(sql, org, { name: 'Bob 100% Coins', email: 'bob_smith@coins.test' });
    anonymous = await insertConsignor(sql, org, {});
    const rows: Array<{
      label: string;
      status: string;
      number: string | null;
      name: string | null;
      consignor: string | null;
      at: string;
    }> = [
      {
        label: 'intake',
        status: 'intake',
        number: 'CN-1001',
        name: 'Morgan dollars',
        consignor: alice,
        at: '2024-01-01T00:00:00.000Z',
      },
      {
        label: 'cataloging',
        status: 'cataloging',
        number: 'CN-1002',
        name: 'Peace dollars',
        consignor: bob,
        at: '2024-01-02T00:00:00.000Z',
      },
      // Three consignments created at the same instant: id decides.
      {
        label: 'listed',
        status: 'listed',
        number: 'CN-1003',
        name: '100% silver lot',
        consignor: null,
        at: '2024-01-03T12:00:00.500Z',
      },
      {
        label: 'partially_sold',
        status: 'partially_sold',
        number: 'cn-1004',
        name: '100 silver rounds',
        consignor: anonymous,
        at: '2024-01-03T12:00:00.500Z',
      },
      {
        label: 'sold',
        status: 'sold',
        number: 'CN-2005',
        name: 'lot_7 gold',
        consignor: alice,
        at: '2024-01-03T12:00:00.500Z',
      },
      {
        label: 'settled',
        status: 'settled',
        number: null,
        name: 'lotA7 bronze écu',
        consignor: null,
        at: '2024-01-04T00:00:00.000Z',
      },
      {
        label: 'withdrawn',
        status: 'withdrawn',
        number: 'X-7',
        name: null,
        consignor: bob,
        at: '2024-01-05T00:00:00.000Z',
      },
      {
        label: 'returned',
        status: 'returned',
        number: 'CN-3008',
        name: 'Back\\slash',
        consignor: null,
        at: '2023-12-31T23:59:59.999Z',
      },
    ];
    for (const row of rows) {
      ids[row.label] = await insertConsignment(sql, org, {
        status: row.status,
        number: row.number,
        name: row.name,
        consignor_id: row.consignor,
        created_at: row.at,
      });
      createdAt[row.label] = row.at;
    }
    // Another workspace with look-alike consignments, newer than all of the above.
    otherConsignorId = await insertConsignor(sql, other.organizationId, {
      name: 'Alice Numismatics',
      email: 'alice@example.test',
    });
    otherConsignmentId = await insertConsignment(sql, other.organizationId, {
      status: 'intake',
      number: 'CN-1001',
      name: 'Morgan dollars',
      consignor_id: otherConsignorId,
      created_at: '2025-01-01T00:00:00.000Z',
    });
  });

  const all = () => Object.keys(ids);

  it('returns the envelope with defaults, newest first, ties on createdAt broken by id descending', async () => {
    const body = await list('');
    expect(body.page).toBe(LIMITS.page.default);
    expect(body.limit).toBe(LIMITS.listLimit.default);
    expect(body.hasMore).toBe(false);
    expect(body.items.map((c) => c.id)).toEqual(idsOf(all()));
    // Sanity: the three tied rows really are adjacent and in descending id order.
    const tied = body.items.filter((c) => c.createdAt === '2024-01-03T12:00:00.500Z').map((c) => c.id);
    expect(tied).toHaveLength(3);
    expect(tied).toEqual([...tied].sort(compareIds).reverse());
    expect(body.items[0]?.id).toBe(ids.withdrawn);
    expect(body.items.at(-1)?.id).toBe(ids.returned);
  });

  it('shows each listed consignment exactly as GET /consignments/{id} does', async () => {
    const body = await list('');
    for (const entry of body.items) {
      const single = await api.get<Consignment>(`/consignments/${entry.id}`);
      expect(single.status).toBe(200);
      expect(single.body).toEqual(entry);
    }
    expect(body.items.find((c) => c.id === ids.withdrawn)).toEqual({
      id: ids.withdrawn,
      number: 'X-7',
      name: null,
      status: 'withdrawn',
      paymentStatus: null,
      consignor: { id: bob, name: 'Bob 100% Coins', email: 'bob_smith@coins.test' },
      commissionBps: null,
      buyerPremiumBps: null,
      ...zeroTotals,
      receivedAt: null,
      soldAt: null,
      settledAt: null,
      createdAt: '2024-01-05T00:00:00.000Z',
    });
  });

  it.each(CONSIGNMENT_STATUSES)('filters on status %s', async (status) => {
    expect(await listIds(`?status=${status}`)).toEqual([ids[status]]);
  });

  it('filters on consignorId', async () => {
    expect(await listIds(`?consignorId=${alice}`)).toEqual(idsOf(['intake', 'sold']));
    expect(await listIds(`?consignorId=${bob}`)).toEqual(idsOf(['cataloging', 'withdrawn']));
    expect(await listIds(`?consignorId=${anonymous}`)).toEqual([ids.partially_sold]);
    expect(await listIds(`?consignorId=${alice}&status=sold`)).toEqual([ids.sold]);
    // Another workspace's consignor, and an id nobody has: nothing.
    expect(await listIds(`?consignorId=${otherConsignorId}`)).toEqual([]);
    expect(await listIds('?consignorId=00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it.each([
    ['number', 'cn-100', ['intake', 'cataloging', 'listed', 'partially_sold']],
    ['number, upper-case query', 'CN-1004', ['partially_sold']],
    ['number, middle of the text', '-20', ['sold']],
    ['name', 'MORGAN', ['intake']],
    ['name, substring', 'ver ro', ['partially_sold']],
    ['consignor name', 'numismatics', ['intake', 'sold']],
    ['consignor email', 'example.TEST', ['intake', 'sold']],
    ['consignor email, full', 'alice@example.test', ['intake', 'sold']],
    ['name, case folded beyond ASCII', 'ÉCU', ['settled']],
    ['`%` literally (name and consignor name)', '100%', ['listed', 'cataloging', 'withdrawn']],
    ['`_` literally (name)', 't_7', ['sold']],
    ['`_` literally (consignor email)', 'b_s', ['cataloging', 'withdrawn']],
    ['a backslash literally', '\\', ['returned']],
    ['nothing', 'zzz', []],
  ])('q matches %s', async (_what, q, labels) => {
    expect(await listIds(`?q=${encodeURIComponent(q)}`)).toEqual(idsOf(labels));
  });

  it('q does not match text that spans two fields', async () => {
    // Number "CN-1001" and name "Morgan dollars" are separate fields; neither contains "1001\nmorgan".
    expect(await listIds(`?q=${encodeURIComponent('1001\nmorgan')}`)).toEqual([]);
  });

  it('combines q with status', async () => {
    expect(await listIds('?q=numismatics&status=sold')).toEqual([ids.sold]);
    expect(await listIds('?q=numismatics&status=listed')).toEqual([]);
  });

  it('pages with page and limit, hasMore true while another page follows', async () => {
    const expected = idsOf(all());
    const page1 = await list('?limit=3');
    expect({ ...page1, items: page1.items.map((c) => c.id) }).toEqual({
      items: expected.slice(0, 3),
      page: 1,
      limit: 3,
      hasMore: true,
    });
    const page2 = await list('?limit=3&page=2');
    expect({ ...page2, items: page2.items.map((c) => c.id) }).toEqual({
      items: expected.slice(3, 6),
      page: 2,
      limit: 3,
      hasMore: true,
    });
    const page3 = await list('?limit=3&page=3');
    expect({ ...page3, items: page3.items.map((c) => c.id) }).toEqual({
      items: expected.slice(6, 8),
      page: 3,
      limit: 3,
      hasMore: false,
    });
    expect(await list('?limit=3&page=4')).toEqual({ items: [], page: 4, limit: 3, hasMore: false });
    // A page that ends exactly at the last row has nothing after it.
    const exact = await list('?limit=4&page=2');
    expect({ ...exact, items: exact.items.map((c) => c.id) }).toEqual({
      items: expected.slice(4, 8),
      page: 2,
      limit: 4,
      hasMore: false,
    });
    expect((await list('?limit=7')).hasMore).toBe(true);
    expect((await list('?limit=8')).hasMore).toBe(false);
    expect((await list('?limit=100')).items).toHaveLength(8);
  });

  it('never lists or shows another workspace’s consignments', async () => {
    expect(await listIds('?q=morgan')).toEqual([ids.intake]);
    expect(await listIds('')).not.toContain(otherConsignmentId);
    const response = await api.get(`/consignments/${otherConsignmentId}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundBody);
    // And the other workspace sees only its own.
    const theirs = await client(server.baseUrl, other.readKey).get<ConsignmentList>('/consignments');
    expect(theirs.status).toBe(200);
    expect(ConsignmentListSchema.parse(theirs.body).items.map((c) => c.id)).toEqual([otherConsignmentId]);
  });

  it.each([
    [
      'status',
      '?status=open',
      `query.status: Invalid enum value. Expected ${CONSIGNMENT_STATUSES.map((s) => `'${s}'`).join(' | ')}, received 'open'`,
    ],
    ['consignorId', '?consignorId=not-a-uuid', 'query.consignorId: Invalid uuid'],
    ['limit 0', '?limit=0', 'query.limit: Number must be greater than or equal to 1'],
    ['limit 101', '?limit=101', 'query.limit: Number must be less than or equal to 100'],
    ['page 0', '?page=0', 'query.page: Number must be greater than or equal to 1'],
    ['page not a number', '?page=two', 'query.page: must be a whole number written in digits'],
    ['empty q', '?q=', 'query.q: must be at least 1 character'],
    ['q of 201 chars', `?q=${'a'.repeat(LIMITS.q.max + 1)}`, 'query.q: must be at most 200 characters'],
    ['unknown parameter', '?sort=newest', "query: Unrecognized key(s) in object: 'sort'"],
  ])('answers 400 for a bad %s', async (_what, query, message) => {
    const response = await api.get(`/consignments${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(badRequestBody(message));
  });

  it('accepts q of exactly 200 chars', async () => {
    expect(await list(`?q=${'a'.repeat(LIMITS.q.max)}`)).toEqual({ items: [], page: 1, limit: 20, hasMore: false });
  });
});

describe('GET /consignments/{id}', () => {
  let ws: TestWorkspace;
  let api: ReturnType<typeof client>;
  const c: Record<string, string> = {};
  let consignorId: string;
  let blankConsignorId: string;

  async function get(id: string | undefined): Promise<Consignment> {
    const response = await api.get<Consignment>(`/consignments/${id}`);
    expect(response.status, response.text).toBe(200);
    return ConsignmentSchema.strict().parse(response.body);
  }

  beforeAll(async () => {
    const { sql } = server.database;
    ws = await createWorkspace(sql);
    api = client(server.baseUrl, ws.key);
    const org = ws.organizationId;
    consignorId = await insertConsignor(sql, org, { name: 'Alice Numismatics', email: 'alice@example.test' });
    blankConsignorId = await insertConsignor(sql, org, {});

    c.full = await insertConsignment(sql, org, {
      number: 'CN-2024-001',
      name: 'Morgan dollar estate',
      status: 'partially_sold',
      payment_status: 'pending',
      consignor_id: consignorId,
      commission_bps: 1250,
      buyer_premium_bps: 1500,
      received_at: '2024-01-02T03:04:05.678Z',
      sold_at: '2024-02-03T04:05:06.789+02:00',
      settled_at: '2024-03-04T05:06:07.891Z',
      created_at: '2024-01-01T00:00:00.000Z',
    });
    c.empty = await insertConsignment(sql, org, { status: 'intake', created_at: '2024-06-01T10:00:00.000Z' });
    c.halfUp = await insertConsignment(sql, org, {
      status: 'sold',
      consignor_id: blankConsignorId,
      commission_bps: 1000,
      created_at: '2024-06-02T10:00:00.000Z',
    });
    c.noCommission = await insertConsignment(sql, org, { status: 'sold', created_at: '2024-06-03T10:00:00.000Z' });
    c.allCommission = await insertConsignment(sql, org, {
      status: 'settled',
      commission_bps: 10000,
      created_at: '2024-06-04T10:00:00.000Z',
    });
    c.zeroCommission = await insertConsignment(sql, org, {
      status: 'settled',
      commission_bps: 0,
      created_at: '2024-06-05T10:00:00.000Z',
    });
    c.halfUpLarger = await insertConsignment(sql, org, {
      status: 'sold',
      commission_bps: 5000,
      created_at: '2024-06-06T10:00:00.000Z',
    });
    c.justBelowHalf = await insertConsignment(sql, org, {
      status: 'sold',
      commission_bps: 4999,
      created_at: '2024-06-07T10:00:00.000Z',
    });
    c.unsold = await insertConsignment(sql, org, {
      status: 'listed',
      commission_bps: 1500,
      created_at: '2024-06-08T10:00:00.000Z',
    });

    // The full consignment: one item created through the API and then consigned, two inserted directly.
    const created = await api.post<Item>('/items', {
      body: { sku: 'FULL-A', title: 'Morgan 1881-S', valueInCents: 10000 },
    });
    expect(created.status).toBe(200);
    const a = created.body.id;
    await linkItem(sql, org, a, { consignmentId: c.full, quantitySold: 1 });
    const b = await insertItem(sql, ws, { sku: 'FULL-B', value_in_cents: 5000, consignment_id: c.full });
    const cc = await insertItem(sql, ws, {
      sku: 'FULL-C',
      value_in_cents: 2500,
      quantity_sold: 2,
      consignment_id: c.full,
    });
    // Items elsewhere, with sales of their own that must not count for the full consignment.
    const elsewhere = await insertItem(sql, ws, {
      sku: 'HALF-UP',
      value_in_cents: 700,
      quantity_sold: 1,
      consignment_id: c.halfUp,
    });
    const loose = await insertItem(sql, ws, { sku: 'LOOSE', value_in_cents: 123, quantity_sold: 1 });

    // Counted: lines on sent, paid, partially_paid and overdue invoices. 5000 + 2000 + 345 + 5000 = 12345.
    await insertSale(sql, org, 'sent', [
      { itemId: a, quantity: 1, unitPriceInCents: 5000 },
      { itemId: null, quantity: 1, unitPriceInCents: 777 },
      { itemId: loose, quantity: 1, unitPriceInCents: 888 },
    ]);
    await insertSale(sql, org, 'paid', [{ itemId: cc, quantity: 2, unitPriceInCents: 1000 }]);
    await insertSale(sql, org, 'partially_paid', [
      { itemId: a, quantity: 1, unitPriceInCents: 345 },
      { itemId: elsewhere, quantity: 1, unitPriceInCents: 5 },
    ]);
    await insertSale(sql, org, 'overdue', [{ itemId: cc, quantity: 1, unitPriceInCents: 5000 }]);
    // Not counted: drafts, void and cancelled invoices.
    await insertSale(sql, org, 'draft', [{ itemId: a, quantity: 1, unitPriceInCents: 99999 }]);
    await insertSale(sql, org, 'void', [{ itemId: cc, quantity: 1, unitPriceInCents: 88888 }]);
    await insertSale(sql, org, 'cancelled', [
      { itemId: b, quantity: 3, unitPriceInCents: 77777 },
      { itemId: elsewhere, quantity: 1, unitPriceInCents: 66666 },
    ]);

    // No commission rate: everything is paid out. Values beyond 32 bits stay exact.
    const big = await insertItem(sql, ws, {
      sku: 'BIG',
      value_in_cents: 3_000_000_000,
      quantity_sold: 1,
      consignment_id: c.noCommission,
    });
    await insertSale(sql, org, 'paid', [{ itemId: big, quantity: 2, unitPriceInCents: 2_500_000_000 }]);
    const all = await insertItem(sql, ws, {
      sku: 'ALL',
      value_in_cents: 1000,
      quantity_sold: 1,
      consignment_id: c.allCommission,
    });
    await insertSale(sql, org, 'sent', [{ itemId: all, quantity: 1, unitPriceInCents: 999 }]);
    const zero = await insertItem(sql, ws, {
      sku: 'ZERO',
      value_in_cents: 1000,
      quantity_sold: 1,
      consignment_id: c.zeroCommission,
    });
    await insertSale(sql, org, 'sent', [{ itemId: zero, quantity: 1, unitPriceInCents: 999 }]);
    // 101 × 5000 / 10000 = 50.5 → 51; 101 × 4999 / 10000 = 50.4899 → 50.
    const larger = await insertItem(sql, ws, {
      sku: 'LARGER',
      value_in_cents: 0,
      quantity_sold: 1,
      consignment_id: c.halfUpLarger,
    });
    await insertSale(sql, org, 'overdue', [{ itemId: larger, quantity: 1, unitPriceInCents: 101 }]);
    const below = await insertItem(sql, ws, {
      sku: 'BELOW',
      value_in_cents: 0,
      quantity_sold: 1,
      consignment_id: c.justBelowHalf,
    });
    await insertSale(sql, org, 'overdue', [{ itemId: below, quantity: 1, unitPriceInCents: 101 }]);
    // Items consigned but not sold: values count, nothing sold.
    await insertItem(sql, ws, { sku: 'UNSOLD-1', value_in_cents: 400, consignment_id: c.unsold });
    await insertItem(sql, ws, {
      sku: 'UNSOLD-2',
      value_in_cents: 600,
      quantity_available: 0,
      consignment_id: c.unsold,
    });
  });

  it('returns every field, with totals derived from items and sold invoice lines', async () => {
    expect(await get(c.full)).toEqual({
      id: c.full,
      number: 'CN-2024-001',
      name: 'Morgan dollar estate',
      status: 'partially_sold',
      paymentStatus: 'pending',
      consignor: { id: consignorId, name: 'Alice Numismatics', email: 'alice@example.test' },
      commissionBps: 1250,
      buyerPremiumBps: 1500,
      numItems: 3,
      numItemsSold: 2,
      totalValueInCents: 17500,
      totalSoldInCents: 12345,
      // 12345 × 1250 / 10000 = 1543.125 → 1543.
      totalCommissionInCents: 1543,
      totalPayoutInCents: 10802,
      receivedAt: '2024-01-02T03:04:05.678Z',
      soldAt: '2024-02-03T02:05:06.789Z',
      settledAt: '2024-03-04T05:06:07.891Z',
      createdAt: '2024-01-01T00:00:00.000Z',
    });
  });

  it('shows a consignment without consignor or items with null fields and zero totals', async () => {
    expect(await get(c.empty)).toEqual({
      id: c.empty,
      number: null,
      name: null,
      status: 'intake',
      paymentStatus: null,
      consignor: null,
      commissionBps: null,
      buyerPremiumBps: null,
      ...zeroTotals,
      receivedAt: null,
      soldAt: null,
      settledAt: null,
      createdAt: '2024-06-01T10:00:00.000Z',
    });
  });

  it('rounds the commission half up (5 × 1000 bps = 0.5 → 1) and shows a consignor without name or email', async () => {
    expect(await get(c.halfUp)).toEqual({
      id: c.halfUp,
      number: null,
      name: null,
      status: 'sold',
      paymentStatus: null,
      consignor: { id: blankConsignorId, name: null, email: null },
      commissionBps: 1000,
      buyerPremiumBps: null,
      numItems: 1,
      numItemsSold: 1,
      totalValueInCents: 700,
      totalSoldInCents: 5,
      totalCommissionInCents: 1,
      totalPayoutInCents: 4,
      receivedAt: null,
      soldAt: null,
      settledAt: null,
      createdAt: '2024-06-02T10:00:00.000Z',
    });
  });

  it.each([
    [
      'commissionBps null: no commission, everything paid out',
      'noCommission',
      null,
      1,
      3_000_000_000,
      5_000_000_000,
      0,
    ],
    ['commissionBps 10000: everything kept', 'allCommission', 10000, 1, 1000, 999, 999],
    ['commissionBps 0: nothing kept', 'zeroCommission', 0, 1, 1000, 999, 0],
    ['50.5 rounds up to 51', 'halfUpLarger', 5000, 1, 0, 101, 51],
    ['50.4899 rounds down to 50', 'justBelowHalf', 4999, 1, 0, 101, 50],
    ['consigned items without sales', 'unsold', 1500, 0, 1000, 0, 0],
  ] as const)('%s', async (_what, label, bps, sold, value, totalSold, commission) => {
    const body = await get(c[label]);
    expect({
      commissionBps: body.commissionBps,
      numItems: body.numItems,
      numItemsSold: body.numItemsSold,
      totalValueInCents: body.totalValueInCents,
      totalSoldInCents: body.totalSoldInCents,
      totalCommissionInCents: body.totalCommissionInCents,
      totalPayoutInCents: body.totalPayoutInCents,
    }).toEqual({
      commissionBps: bps,
      numItems: label === 'unsold' ? 2 : 1,
      numItemsSold: sold,
      totalValueInCents: value,
      totalSoldInCents: totalSold,
      totalCommissionInCents: commission,
      totalPayoutInCents: totalSold - commission,
    });
  });

  it('follows item changes: unlinking an item removes its value and sales', async () => {
    const { sql } = server.database;
    const before = await get(c.unsold);
    const extra = await insertItem(sql, ws, {
      sku: 'LATE',
      value_in_cents: 250,
      quantity_sold: 1,
      consignment_id: c.unsold,
    });
    const invoiceId = await insertSale(sql, ws.organizationId, 'paid', [
      { itemId: extra, quantity: 1, unitPriceInCents: 2000 },
    ]);
    expect(await get(c.unsold)).toEqual({
      ...before,
      numItems: 3,
      numItemsSold: 1,
      totalValueInCents: 1250,
      totalSoldInCents: 2000,
      totalCommissionInCents: 300,
      totalPayoutInCents: 1700,
    });
    await linkItem(sql, ws.organizationId, extra, { consignmentId: null, quantitySold: 1 });
    expect(await get(c.unsold)).toEqual(before);
    await sql`DELETE FROM invoices WHERE organization_id = ${ws.organizationId} AND id = ${invoiceId}`;
  });

  it('answers 404 for an unknown id', async () => {
    const response = await api.get('/consignments/00000000-0000-4000-8000-000000000000');
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundBody);
  });

  it('answers 400 for an id that is not a uuid', async () => {
    const response = await api.get('/consignments/not-a-uuid');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(badRequestBody('path.id: Invalid uuid'));
  });
});
