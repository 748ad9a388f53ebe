import {
  type DeletedItem,
  ERRORS,
  INVOICE_SORTS,
  INVOICE_STATUSES,
  type Invoice,
  type InvoiceList,
  InvoiceListSchema,
  type InvoicePayment,
  InvoiceSchema,
  type Item,
  LIMITS,
} from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/http.js';
import { compareIds, insertCustomer, insertInvoice, insertLine, insertPayment } from '../../support/sales.js';
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

/** How a stored timestamp must come back: ISO 8601 in UTC with milliseconds, as JavaScript writes it. */
const isoOf = (value: string) => new Date(value).toISOString();

describe('GET /invoices', () => {
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let otherInvoiceId: string;
  let api: ReturnType<typeof client>;
  const ids: Record<string, string> = {};
  const createdAt: Record<string, string> = {};
  let carol: string;

  const ordered = (labels: string[], sort: 'newest' | 'oldest') =>
    [...labels]
      .sort((a, b) => {
        const byTime = Date.parse(createdAt[a] ?? '') - Date.parse(createdAt[b] ?? '');
        return byTime !== 0 ? byTime : compareIds(ids[a] ?? '', ids[b] ?? '');
      })
      .map((label) => ids[label])
      [sort === 'newest' ? 'reverse' : 'slice']();
  const newest = (labels: string[]) => ordered(labels, 'newest');

  async function list(query: string): Promise<InvoiceList> {
    const response = await api.get<InvoiceList>(`/invoices${query}`);
    expect(response.status, response.text).toBe(200);
    return InvoiceListSchema.parse(response.body);
  }
  const listIds = async (query: string) => (await list(query)).items.map((invoice) => invoice.id);

  beforeAll(async () => {
    const { sql } = server.database;
    ws = await createWorkspace(sql);
    other = await createWorkspace(sql);
    api = client(server.baseUrl, ws.readKey);
    const org = ws.organizationId;
    carol = await insertCustomer(sql, org, { name: 'Carol Collector', email: 'carol@Buyers.test' });
    const rows: Array<{
      status: string;
      number: number | null;
      source: string;
      customer: string | null;
      name: string | null;
      email: string | null;
      at: string;
    }> = [
      {
        status: 'draft',
        number: 1001,
        source: 'manual',
        customer: carol,
        name: 'Carol Collector',
        email: 'carol@Buyers.test',
        at: '2024-02-01T00:00:00.000Z',
      },
      {
        status: 'sent',
        number: 1002,
        source: 'manual',
        customer: null,
        name: 'Dave 50% Off',
        email: null,
        at: '2024-02-02T00:00:00.000Z',
      },
      // Three invoices created at the same instant: id decides, in the sort's direction.
      {
        status: 'paid',
        number: 2042,
        source: 'Heritage Auctions',
        customer: null,
        name: 'Eve_Smith',
        email: 'eve@x.test',
        at: '2024-02-03T08:00:00.250Z',
      },
      {
        status: 'partially_paid',
        number: 3042,
        source: "Stack's Bowers",
        customer: null,
        name: 'EveXSmith',
        email: null,
        at: '2024-02-03T08:00:00.250Z',
      },
      {
        status: 'overdue',
        number: null,
        source: 'eBay',
        customer: null,
        name: null,
        email: 'carol.alt@buyers.test',
        at: '2024-02-03T08:00:00.250Z',
      },
      {
        status: 'void',
        number: 7,
        source: 'manual',
        customer: null,
        name: 'Frank',
        email: null,
        at: '2024-02-04T00:00:00.000Z',
      },
      {
        status: 'cancelled',
        number: 104,
        source: 'GreatCollections',
        customer: null,
        name: 'Grace 50 coins',
        email: null,
        at: '2024-01-31T23:59:59.999Z',
      },
    ];
    for (const row of rows) {
      ids[row.status] = await insertInvoice(sql, org, {
        status: row.status,
        number: row.number,
        source: row.source,
        customer_id: row.customer,
        customer_name: row.name,
        customer_email: row.email,
        created_at: row.at,
      });
      createdAt[row.status] = row.at;
    }
    // A look-alike in another workspace, newer than all of the above; numbers are unique per workspace only.
    otherInvoiceId = await insertInvoice(sql, other.organizationId, {
      status: 'draft',
      number: 1001,
      source: 'manual',
      customer_name: 'Carol Collector',
      customer_email: 'carol@buyers.test',
      created_at: '2025-01-01T00:00:00.000Z',
    });
  });

  const all = () => Object.keys(ids);

  it('returns the envelope with defaults, newest first, ties on createdAt broken by id descending', async () => {
    const body = await list('');
    expect(body.page).toBe(LIMITS.page.default);
    expect(body.limit).toBe(LIMITS.listLimit.default);
    expect(body.hasMore).toBe(false);
    expect(body.items.map((i) => i.id)).toEqual(newest(all()));
    expect(await listIds('?sort=newest')).toEqual(newest(all()));
    const tied = body.items.filter((i) => i.createdAt === '2024-02-03T08:00:00.250Z').map((i) => i.id);
    expect(tied).toHaveLength(3);
    expect(tied).toEqual([...tied].sort(compareIds).reverse());
    expect(body.items[0]?.id).toBe(ids.void);
    expect(body.items.at(-1)?.id).toBe(ids.cancelled);
  });

  it('sorts oldest first with sort=oldest, ties on createdAt broken by id ascending', async () => {
    const body = await list('?sort=oldest');
    expect(body.items.map((i) => i.id)).toEqual(ordered(all(), 'oldest'));
    const tied = body.items.filter((i) => i.createdAt === '2024-02-03T08:00:00.250Z').map((i) => i.id);
    expect(tied).toEqual([...tied].sort(compareIds));
    expect(body.items[0]?.id).toBe(ids.cancelled);
    expect(body.items.at(-1)?.id).toBe(ids.void);
  });

  it('shows each listed invoice exactly as GET /invoices/{id} does', async () => {
    const body = await list('');
    for (const entry of body.items) {
      const single = await api.get<Invoice>(`/invoices/${entry.id}`);
      expect(single.status).toBe(200);
      expect(single.body).toEqual(entry);
    }
    expect(body.items.find((i) => i.id === ids.draft)).toEqual({
      id: ids.draft,
      number: 1001,
      status: 'draft',
      source: 'manual',
      customer: { id: carol, name: 'Carol Collector', email: 'carol@Buyers.test' },
      subtotalInCents: 0,
      discountInCents: 0,
      shippingInCents: 0,
      taxInCents: 0,
      totalInCents: 0,
      paidInCents: 0,
      dueInCents: 0,
      lines: [],
      payments: [],
      dueAt: null,
      paidAt: null,
      createdAt: '2024-02-01T00:00:00.000Z',
    });
  });

  it.each(INVOICE_STATUSES)('filters on status %s', async (status) => {
    expect(await listIds(`?status=${status}`)).toEqual([ids[status]]);
  });

  it.each([
    ['number as text', '042', ['paid', 'partially_paid']],
    ['a whole number', '1001', ['draft']],
    ['a short number', '7', ['void']],
    ['customer name, case-insensitively', 'FRANK', ['void']],
    ['customer name and email', 'carol', ['draft', 'overdue']],
    ['customer email', 'BUYERS.TEST', ['draft', 'overdue']],
    ['source', 'heritage', ['paid']],
    ['source, with a quote', "k's b", ['partially_paid']],
    ['source manual', 'MANUAL', ['draft', 'sent', 'void']],
    ['`%` literally', '50%', ['sent']],
    ['`_` literally', 'e_s', ['paid']],
    ['nothing', 'no such text', []],
  ])('q matches %s', async (_what, q, labels) => {
    expect(await listIds(`?q=${encodeURIComponent(q)}`)).toEqual(newest(labels));
  });

  it('q does not match text that spans two fields', async () => {
    // Number 1001 and customer name "Carol Collector" are separate fields; neither contains "1001\ncarol".
    expect(await listIds(`?q=${encodeURIComponent('1001\ncarol')}`)).toEqual([]);
  });

  it('combines q, status and sort', async () => {
    expect(await listIds('?q=042&status=paid')).toEqual([ids.paid]);
    expect(await listIds('?q=042&sort=oldest')).toEqual(ordered(['paid', 'partially_paid'], 'oldest'));
    expect(await listIds('?q=carol&status=void')).toEqual([]);
  });

  it.each(INVOICE_SORTS)(
    'pages with page and limit (sort=%s), hasMore true while another page follows',
    async (sort) => {
      const expected = ordered(all(), sort);
      const pageOf = async (page: number, limit: number) => {
        const body = await list(`?sort=${sort}&limit=${limit}&page=${page}`);
        return { ...body, items: body.items.map((i) => i.id) };
      };
      expect(await pageOf(1, 3)).toEqual({ items: expected.slice(0, 3), page: 1, limit: 3, hasMore: true });
      expect(await pageOf(2, 3)).toEqual({ items: expected.slice(3, 6), page: 2, limit: 3, hasMore: true });
      expect(await pageOf(3, 3)).toEqual({ items: expected.slice(6, 7), page: 3, limit: 3, hasMore: false });
      expect(await pageOf(4, 3)).toEqual({ items: [], page: 4, limit: 3, hasMore: false });
      expect(await pageOf(1, 7)).toEqual({ items: expected, page: 1, limit: 7, hasMore: false });
      expect(await pageOf(1, 6)).toEqual({ items: expected.slice(0, 6), page: 1, limit: 6, hasMore: true });
    },
  );

  it('never lists or shows another workspace’s invoices', async () => {
    expect(await listIds('?q=1001')).toEqual([ids.draft]);
    expect(await listIds('')).not.toContain(otherInvoiceId);
    const response = await api.get(`/invoices/${otherInvoiceId}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(notFoundBody);
    const theirs = await client(server.baseUrl, other.readKey).get<InvoiceList>('/invoices');
    expect(theirs.status).toBe(200);
    expect(InvoiceListSchema.parse(theirs.body).items.map((i) => i.id)).toEqual([otherInvoiceId]);
  });

  it.each([
    [
      'status',
      '?status=open',
      `query.status: Invalid enum value. Expected ${INVOICE_STATUSES.map((s) => `'${s}'`).join(' | ')}, received 'open'`,
    ],
    [
      'sort',
      '?sort=title',
      `query.sort: Invalid enum value. Expected ${INVOICE_SORTS.map((s) => `'${s}'`).join(' | ')}, received 'title'`,
    ],
    ['limit 0', '?limit=0', 'query.limit: Number must be greater than or equal to 1'],
    ['limit 101', '?limit=101', 'query.limit: Number must be less than or equal to 100'],
    ['page 0', '?page=0', 'query.page: Number must be greater than or equal to 1'],
    ['empty q', '?q=', 'query.q: must be at least 1 character'],
    ['q of 201 chars', `?q=${'a'.repeat(LIMITS.q.max + 1)}`, 'query.q: must be at most 200 characters'],
    ['unknown parameter', '?customerId=x', "query: Unrecognized key(s) in object: 'customerId'"],
  ])('answers 400 for a bad %s', async (_what, query, message) => {
    const response = await api.get(`/invoices${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(badRequestBody(message));
  });
});

describe('GET /invoices/{id}', () => {
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let api: ReturnType<typeof client>;
  const inv: Record<string, string> = {};
  const lineIds: Record<string, string> = {};
  const paymentIds: Record<string, string> = {};
  let customerId: string;
  let keptItemId: string;
  let deletedItemId: string;
  let otherInvoiceId: string;

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
    ws = await createWorkspace(sql);
    other = await createWorkspace(sql);
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
    lineIds.p3 = await insertLine(sql, org, inv.full, {
      position: 3,
      item_id: deletedItemId,
      description: 'Peace 1922',
      quantity: 1,
      unit_price_in_cents: 4200,
    });
    lineIds.p1 = await insertLine(sql, org, inv.full, {
      position: 1,
      item_id: keptItemId,
      description: 'Morgan 1881-S',
      quantity: 2,
      unit_price_in_cents: 12500,
    });
    lineIds.p4 = await insertLine(sql, org, inv.full, {
      position: 4,
      item_id: null,
      description: null,
      quantity: 0,
      unit_price_in_cents: 999,
    });
    lineIds.p2 = await insertLine(sql, org, inv.full, {
      position: 2,
      item_id: null,
      description: 'Shipping insurance',
      quantity: 1,
      unit_price_in_cents: 300,
    });
    paymentIds.card = await insertPayment(sql, org, inv.full, {
      amount_in_cents: 10000,
      method: 'card',
      status: 'succeeded',
      paid_at: '2024-05-02T12:34:56.789654Z',
    });
    paymentIds.wire = await insertPayment(sql, org, inv.full, {
      amount_in_cents: 5000,
      method: 'wire',
      status: 'succeeded',
      paid_at: '2024-05-03T23:30:00+05:00',
    });
    paymentIds.failed = await insertPayment(sql, org, inv.full, {
      amount_in_cents: 7000,
      method: 'card',
      status: 'failed',
      paid_at: '2024-05-01T00:00:00.9999Z',
    });
    paymentIds.pending = await insertPayment(sql, org, inv.full, {
      amount_in_cents: 3000,
      method: 'check',
      status: 'pending',
      paid_at: null,
    });
    paymentIds.unknown = await insertPayment(sql, org, inv.full, {
      amount_in_cents: 111,
      method: null,
      status: null,
      paid_at: null,
    });

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

    otherInvoiceId = await insertInvoice(sql, other.organizationId, { status: 'sent', number: 5001 });
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
      subtotalInCents: 0,
      discountInCents: 0,
      shippingInCents: 0,
      taxInCents: 0,
      totalInCents: 0,
      paidInCents: 0,
      dueInCents: 0,
      lines: [],
      payments: [],
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

  it('answers 404 for an unknown id and for another workspace’s invoice', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', otherInvoiceId]) {
      const response = await api.get(`/invoices/${id}`);
      expect(response.status).toBe(404);
      expect(response.body).toEqual(notFoundBody);
    }
  });

  it('answers 400 for an id that is not a uuid', async () => {
    const response = await api.get('/invoices/5001');
    expect(response.status).toBe(400);
    expect(response.body).toEqual(badRequestBody('path.id: Invalid uuid'));
  });
});
