import { type Consignment, ConsignmentSchema, type Item } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/http.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import {
  consignmentWith,
  insertConsignment,
  insertConsignor,
  insertItem,
  insertSale,
  linkItem,
} from '../../support/sales.js';
import { startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface ConsignedItem {
  sku: string;
  value: number;
  sold?: number;
  available?: number;
  /** Its one line, on an invoice of a status whose lines count as sales. */
  sale?: { on: string; quantity: number; price: number };
}

/** Consignments that each show one rule of the totals: what they hold, and what they must add up to. */
const TOTALS_CASES: readonly {
  what: string;
  label: string;
  status: string;
  bps: number | null;
  items: ConsignedItem[];
  numItemsSold: number;
  value: number;
  sold: number;
  commission: number;
}[] = [
  // No commission rate: everything is paid out. Values beyond 32 bits stay exact.
  {
    what: 'commissionBps null: no commission, everything paid out',
    label: 'noCommission',
    status: 'sold',
    bps: null,
    items: [{ sku: 'BIG', value: 3_000_000_000, sold: 1, sale: { on: 'paid', quantity: 2, price: 2_500_000_000 } }],
    numItemsSold: 1,
    value: 3_000_000_000,
    sold: 5_000_000_000,
    commission: 0,
  },
  {
    what: 'commissionBps 10000: everything kept',
    label: 'allCommission',
    status: 'settled',
    bps: 10000,
    items: [{ sku: 'ALL', value: 1000, sold: 1, sale: { on: 'sent', quantity: 1, price: 999 } }],
    numItemsSold: 1,
    value: 1000,
    sold: 999,
    commission: 999,
  },
  {
    what: 'commissionBps 0: nothing kept',
    label: 'zeroCommission',
    status: 'settled',
    bps: 0,
    items: [{ sku: 'ZERO', value: 1000, sold: 1, sale: { on: 'sent', quantity: 1, price: 999 } }],
    numItemsSold: 1,
    value: 1000,
    sold: 999,
    commission: 0,
  },
  // 101 × 5000 / 10000 = 50.5 → 51; 101 × 4999 / 10000 = 50.4899 → 50.
  {
    what: '50.5 rounds up to 51',
    label: 'halfUpLarger',
    status: 'sold',
    bps: 5000,
    items: [{ sku: 'LARGER', value: 0, sold: 1, sale: { on: 'overdue', quantity: 1, price: 101 } }],
    numItemsSold: 1,
    value: 0,
    sold: 101,
    commission: 51,
  },
  {
    what: '50.4899 rounds down to 50',
    label: 'justBelowHalf',
    status: 'sold',
    bps: 4999,
    items: [{ sku: 'BELOW', value: 0, sold: 1, sale: { on: 'overdue', quantity: 1, price: 101 } }],
    numItemsSold: 1,
    value: 0,
    sold: 101,
    commission: 50,
  },
  // Items consigned but not sold: values count, nothing sold.
  {
    what: 'consigned items without sales',
    label: 'unsold',
    status: 'listed',
    bps: 1500,
    items: [
      { sku: 'UNSOLD-1', value: 400 },
      { sku: 'UNSOLD-2', value: 600, available: 0 },
    ],
    numItemsSold: 0,
    value: 1000,
    sold: 0,
    commission: 0,
  },
];

describe('GET /consignments/{id}', () => {
  let ws: TestOrganization;
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
    ws = await createTestOrganization(sql);
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

    for (const [index, totals] of TOTALS_CASES.entries()) {
      const consignmentId = await insertConsignment(sql, org, {
        status: totals.status,
        commission_bps: totals.bps,
        created_at: new Date(Date.UTC(2024, 5, 3 + index, 10)).toISOString(),
      });
      c[totals.label] = consignmentId;
      for (const item of totals.items) {
        const itemId = await insertItem(sql, ws, {
          sku: item.sku,
          value_in_cents: item.value,
          ...(item.sold !== undefined && { quantity_sold: item.sold }),
          ...(item.available !== undefined && { quantity_available: item.available }),
          consignment_id: consignmentId,
        });
        const { sale } = item;
        if (sale)
          await insertSale(sql, org, sale.on, [{ itemId, quantity: sale.quantity, unitPriceInCents: sale.price }]);
      }
    }
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
    expect(await get(c.empty)).toEqual(
      consignmentWith({ id: c.empty ?? '', status: 'intake', createdAt: '2024-06-01T10:00:00.000Z' }),
    );
  });

  it('rounds the commission half up (5 × 1000 bps = 0.5 → 1) and shows a consignor without name or email', async () => {
    expect(await get(c.halfUp)).toEqual(
      consignmentWith({
        id: c.halfUp ?? '',
        status: 'sold',
        consignor: { id: blankConsignorId, name: null, email: null },
        commissionBps: 1000,
        numItems: 1,
        numItemsSold: 1,
        totalValueInCents: 700,
        totalSoldInCents: 5,
        totalCommissionInCents: 1,
        totalPayoutInCents: 4,
        createdAt: '2024-06-02T10:00:00.000Z',
      }),
    );
  });

  it.each(TOTALS_CASES.map((totals) => [totals.what, totals] as const))('%s', async (_what, totals) => {
    const body = await get(c[totals.label]);
    expect({
      commissionBps: body.commissionBps,
      numItems: body.numItems,
      numItemsSold: body.numItemsSold,
      totalValueInCents: body.totalValueInCents,
      totalSoldInCents: body.totalSoldInCents,
      totalCommissionInCents: body.totalCommissionInCents,
      totalPayoutInCents: body.totalPayoutInCents,
    }).toEqual({
      commissionBps: totals.bps,
      numItems: totals.items.length,
      numItemsSold: totals.numItemsSold,
      totalValueInCents: totals.value,
      totalSoldInCents: totals.sold,
      totalCommissionInCents: totals.commission,
      totalPayoutInCents: totals.sold - totals.commission,
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
});
