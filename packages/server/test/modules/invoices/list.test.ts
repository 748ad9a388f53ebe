import { INVOICE_SORTS, INVOICE_STATUSES, InvoiceListSchema } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAndGetSuite, type SeededRow } from '../../support/list-and-get.js';
import { insertCustomer, insertInvoice, noAmounts } from '../../support/sales.js';
import { startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('GET /invoices', () => {
  let carol: string;

  const listed = listAndGetSuite(() => server, {
    path: '/invoices',
    noun: 'invoice',
    listSchema: InvoiceListSchema,
    statuses: INVOICE_STATUSES,
    sorts: INVOICE_SORTS,
    async seed(sql, ws, other) {
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
      const seeded: Record<string, SeededRow> = {};
      for (const row of rows) {
        const id = await insertInvoice(sql, org, {
          status: row.status,
          number: row.number,
          source: row.source,
          customer_id: row.customer,
          customer_name: row.name,
          customer_email: row.email,
          created_at: row.at,
        });
        seeded[row.status] = { id, createdAt: row.at };
      }
      // A look-alike in another organization, newer than all of the above; numbers are unique per organization only.
      const otherId = await insertInvoice(sql, other.organizationId, {
        status: 'draft',
        number: 1001,
        source: 'manual',
        customer_name: 'Carol Collector',
        customer_email: 'carol@buyers.test',
        created_at: '2025-01-01T00:00:00.000Z',
      });
      return { rows: seeded, otherId };
    },
    newest: 'void',
    oldest: 'cancelled',
    tied: ['paid', 'partially_paid', 'overdue'],
    search: [
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
    ],
    // Number 1001 and customer name "Carol Collector" are separate fields; neither contains "1001\ncarol".
    spanningTwoFields: '1001\ncarol',
    lookAlike: { q: '1001', label: 'draft' },
    unknownParameter: 'customerId',
    badQueries: [],
  });

  it('shows a listed invoice with every field, its customer included', async () => {
    const body = await listed.list('');
    expect(body.items.find((i) => i.id === listed.id('draft'))).toEqual({
      id: listed.id('draft'),
      number: 1001,
      status: 'draft',
      source: 'manual',
      customer: { id: carol, name: 'Carol Collector', email: 'carol@Buyers.test' },
      ...noAmounts,
      dueAt: null,
      paidAt: null,
      createdAt: '2024-02-01T00:00:00.000Z',
    });
  });

  it('combines q, status and sort', async () => {
    const { listIds, ordered, id } = listed;
    expect(await listIds('?q=042&status=paid')).toEqual([id('paid')]);
    expect(await listIds('?q=042&sort=oldest')).toEqual(ordered(['paid', 'partially_paid'], 'oldest'));
    expect(await listIds('?q=carol&status=void')).toEqual([]);
  });
});
