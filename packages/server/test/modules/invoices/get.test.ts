import { type DeletedItem, type Invoice, type InvoicePayment, InvoiceSchema, type Item } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/http.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import {
  compareIds,
  insertCustomer,
  insertInvoice,
  insertLine,
  insertPayment,
  type LineRow,
  noAmounts,
  type PaymentRow,
} from '../../support/sales.js';
import { startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** How a stored timestamp must come back: ISO 8601 in UTC with milliseconds, as JavaScript writes it. */
const isoOf = (value: string) => new Date(value).toISOString();

describe('GET /invoices/{id}', () => {
  let ws: TestOrganization;
  let api: ReturnType<typeof client>;
  const inv: Record<string, string> = {};
  const lineIds: Record<string, string> = {};
  const paymentIds: Record<string, string> = {};
  let customerId: string;
  let keptItemId: string;
  let deletedItemId: string;

  async function get(id: string | undefined): Promise<Invoice> {
    const response = await api.get<Invoice>(`/invoices/${id}`);
    expect(response.status, response.text).toBe(200);
    return InvoiceSchema.strict().parse(response.body);
  }
  /** Payments come in no order the spec fixes: compare them by id. */
  const byId = (payments: InvoicePayment[]) => [...payments].sort((a, b) => compareIds(a.id, b.id));
  const normalized = (invoice: Invoice) => ({ ...invoice, payments: byId(invoice.payments) });

  beforeAll(async () => {
    const { sql } = server.database;
    ws = await createTestOrganization(sql);
    api = client(server.baseUrl, ws.key);
    const org = ws.organizationId;
    customerId = await insertCustomer(sql, org, { name: 'Carol Collector', email: 'carol@buyers.test' });

    const create = async (sku: string, title: string) => {
      const response = await api.post<Item>('/items', { body: { sku, title, valueInCents: 10000 } });
      expect(response.status, response.text).toBe(200);
      return response.body.id;
    };
    keptItemId = await create('MORGAN-1881S', 'Morgan 1881-S');
    deletedItemId = await create('PEACE-1922', 'Peace 1922');

    inv.full = await insertInvoice(sql, org, {
      number: 5001,
      status: 'partially_paid',
      source: 'Heritage Auctions',
      customer_id: customerId,
      customer_name: 'Carol Collector',
      customer_email: 'carol@buyers.test',
      discount_in_cents: 1000,
      shipping_in_cents: 1500,
      tax_in_cents: 825,
      due_at: '2024-07-01T12:00:00+02:00',
      paid_at: null,
      created_at: '2024-06-01T09:30:15.123Z',
    });
    // Inserted out of position order: the response follows position.
    const lines: Record<string, LineRow> = {
      p3: { position: 3, item_id: deletedItemId, description: 'Peace 1922', quantity: 1, unit_price_in_cents: 4200 },
      p1: { position: 1, item_id: keptItemId, description: 'Morgan 1881-S', quantity: 2, unit_price_in_cents: 12500 },
      p4: { position: 4, item_id: null, description: null, quantity: 0, unit_price_in_cents: 999 },
      p2: { position: 2, item_id: null, description: 'Shipping insurance', quantity: 1, unit_price_in_cents: 300 },
    };
    for (const [label, line] of Object.entries(lines)) lineIds[label] = await insertLine(sql, org, inv.full, line);
    const payments: Record<string, PaymentRow> = {
      card: { amount_in_cents: 10000, method: 'card', status: 'succeeded', paid_at: '2024-05-02T12:34:56.789654Z' },
      wire: { amount_in_cents: 5000, method: 'wire', status: 'succeeded', paid_at: '2024-05-03T23:30:00+05:00' },
      failed: { amount_in_cents: 7000, method: 'card', status: 'failed', paid_at: '2024-05-01T00:00:00.9999Z' },
      pending: { amount_in_cents: 3000, method: 'check', status: 'pending', paid_at: null },
      unknown: { amount_in_cents: 111, method: null, status: null, paid_at: null },
    };
    for (const [label, payment] of Object.entries(payments)) {
      paymentIds[label] = await insertPayment(sql, org, inv.full, payment);
    }

    inv.empty = await insertInvoice(sql, org, { status: 'draft', created_at: '2024-06-02T00:00:00.000Z' });

    inv.walkIn = await insertInvoice(sql, org, {
      number: 5003,
      status: 'paid',
      customer_id: null,
      customer_name: 'Walk-in Buyer',
      customer_email: null,
      paid_at: '2024-06-03T15:00:00.000Z',
      created_at: '2024-06-03T14:00:00.000Z',
    });
    lineIds.walkIn = await insertLine(sql, org, inv.walkIn, {
      position: 1,
      description: 'Counter sale',
      quantity: 1,
      unit_price_in_cents: 2000,
    });
    paymentIds.walkIn = await insertPayment(sql, org, inv.walkIn, {
      amount_in_cents: 2000,
      method: 'cash',
      status: 'succeeded',
      paid_at: '2024-06-03T15:00:00.000Z',
    });

    inv.overpaid = await insertInvoice(sql, org, { status: 'paid', number: 5004 });
    await insertLine(sql, org, inv.overpaid, { position: 1, quantity: 1, unit_price_in_cents: 1000 });
    await insertPayment(sql, org, inv.overpaid, { amount_in_cents: 900, status: 'succeeded' });
    await insertPayment(sql, org, inv.overpaid, { amount_in_cents: 600, status: 'succeeded' });

    inv.overDiscounted = await insertInvoice(sql, org, {
      status: 'sent',
      number: 5005,
      discount_in_cents: 3000,
      shipping_in_cents: 500,
      tax_in_cents: 200,
    });
    await insertLine(sql, org, inv.overDiscounted, { position: 1, quantity: 1, unit_price_in_cents: 1000 });

    inv.big = await insertInvoice(sql, org, { status: 'sent', number: 5006, tax_in_cents: 4_000_000_000 });
    await insertLine(sql, org, inv.big, { position: 1, quantity: 3, unit_price_in_cents: 3_000_000_000 });
    await insertPayment(sql, org, inv.big, { amount_in_cents: 2_500_000_000, status: 'succeeded' });
  });

  const fullLines = (deletedItem: string | null) => [
    {
      id: lineIds.p1,
      itemId: keptItemId,
      description: 'Morgan 1881-S',
      quantity: 2,
      unitPriceInCents: 12500,
      totalPriceInCents: 25000,
    },
    {
      id: lineIds.p2,
      itemId: null,
      description: 'Shipping insurance',
      quantity: 1,
      unitPriceInCents: 300,
      totalPriceInCents: 300,
    },
    {
      id: lineIds.p3,
      itemId: deletedItem,
      description: 'Peace 1922',
      quantity: 1,
      unitPriceInCents: 4200,
      totalPriceInCents: 4200,
    },
    { id: lineIds.p4, itemId: null, description: null, quantity: 0, unitPriceInCents: 999, totalPriceInCents: 0 },
  ];

  const fullInvoice = (deletedItem: string | null) => ({
    id: inv.full,
    number: 5001,
    status: 'partially_paid',
    source: 'Heritage Auctions',
    customer: { id: customerId, name: 'Carol Collector', email: 'carol@buyers.test' },
    // 25000 + 300 + 4200 + 0
    subtotalInCents: 29500,
    discountInCents: 1000,
    shippingInCents: 1500,
    taxInCents: 825,
    // 29500 − 1000 + 1500 + 825
    totalInCents: 30825,
    // Only the two succeeded payments: 10000 + 5000.
    paidInCents: 15000,
    dueInCents: 15825,
    lines: fullLines(deletedItem),
    payments: byId([
      {
        id: paymentIds.card ?? '',
        amountInCents: 10000,
        method: 'card',
        status: 'succeeded',
        paidAt: isoOf('2024-05-02T12:34:56.789654Z'),
      },
      {
        id: paymentIds.wire ?? '',
        amountInCents: 5000,
        method: 'wire',
        status: 'succeeded',
        paidAt: '2024-05-03T18:30:00.000Z',
      },
      {
        id: paymentIds.failed ?? '',
        amountInCents: 7000,
        method: 'card',
        status: 'failed',
        paidAt: isoOf('2024-05-01T00:00:00.9999Z'),
      },
      { id: paymentIds.pending ?? '', amountInCents: 3000, method: 'check', status: 'pending', paidAt: null },
      { id: paymentIds.unknown ?? '', amountInCents: 111, method: null, status: null, paidAt: null },
    ]),
    dueAt: '2024-07-01T10:00:00.000Z',
    paidAt: null,
    createdAt: '2024-06-01T09:30:15.123Z',
  });

  it('returns every field: lines in position order, payments with UTC paidAt, derived amounts', async () => {
    const body = await get(inv.full);
    expect(normalized(body)).toEqual(fullInvoice(deletedItemId));
    expect(body.lines.map((line) => line.id)).toEqual([lineIds.p1, lineIds.p2, lineIds.p3, lineIds.p4]);
    expect(isoOf('2024-05-02T12:34:56.789654Z')).toBe('2024-05-02T12:34:56.789Z');
  });

  it('keeps a line whose item was deleted, with itemId null', async () => {
    const deleted = await api.delete<DeletedItem>(`/items/${deletedItemId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ id: deletedItemId, deleted: true });
    expect(normalized(await get(inv.full))).toEqual(fullInvoice(null));
    // The other item is untouched.
    expect((await api.get(`/items/${keptItemId}`)).status).toBe(200);
  });

  it('shows an invoice without lines or payments with zeros, empty arrays and null fields', async () => {
    expect(await get(inv.empty)).toEqual({
      id: inv.empty,
      number: null,
      status: 'draft',
      source: 'manual',
      customer: { id: null, name: null, email: null },
      ...noAmounts,
      dueAt: null,
      paidAt: null,
      createdAt: '2024-06-02T00:00:00.000Z',
    });
  });

  it('shows a walk-in customer with a null id', async () => {
    expect(await get(inv.walkIn)).toEqual({
      id: inv.walkIn,
      number: 5003,
      status: 'paid',
      source: 'manual',
      customer: { id: null, name: 'Walk-in Buyer', email: null },
      subtotalInCents: 2000,
      discountInCents: 0,
      shippingInCents: 0,
      taxInCents: 0,
      totalInCents: 2000,
      paidInCents: 2000,
      dueInCents: 0,
      lines: [
        {
          id: lineIds.walkIn,
          itemId: null,
          description: 'Counter sale',
          quantity: 1,
          unitPriceInCents: 2000,
          totalPriceInCents: 2000,
        },
      ],
      payments: [
        {
          id: paymentIds.walkIn,
          amountInCents: 2000,
          method: 'cash',
          status: 'succeeded',
          paidAt: '2024-06-03T15:00:00.000Z',
        },
      ],
      dueAt: null,
      paidAt: '2024-06-03T15:00:00.000Z',
      createdAt: '2024-06-03T14:00:00.000Z',
    });
  });

  it.each([
    ['overpaid: nothing is due', 'overpaid', { subtotal: 1000, total: 1000, paid: 1500, due: 0 }],
    ['discount beyond the subtotal: the total is 0', 'overDiscounted', { subtotal: 1000, total: 0, paid: 0, due: 0 }],
    [
      'amounts beyond 32 bits stay exact',
      'big',
      { subtotal: 9_000_000_000, total: 13_000_000_000, paid: 2_500_000_000, due: 10_500_000_000 },
    ],
  ] as const)('%s', async (_what, label, amounts) => {
    const body = await get(inv[label]);
    expect({
      subtotal: body.subtotalInCents,
      total: body.totalInCents,
      paid: body.paidInCents,
      due: body.dueInCents,
    }).toEqual(amounts);
    expect(body.subtotalInCents).toBe(body.lines.reduce((sum, line) => sum + line.totalPriceInCents, 0));
  });
});
