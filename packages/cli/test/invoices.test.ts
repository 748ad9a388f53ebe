import type { Invoice } from '@coinventory/sdk';
import { describe, expect, it } from 'vitest';
import { scrub } from './support/cli.js';
import { parseCsv } from './support/csv.js';
import { json, listed, run, sdk } from './support/demo.js';

// `invoices list` and `get` on the demo organization's invoices.

describe('invoices', () => {
  it('list: table, status filter, sort, --all', async () => {
    const { code, stdout } = await run(['invoices', 'list', '--status', 'partially_paid', '--sort', 'oldest']);
    expect(code).toBe(0);
    expect(scrub(stdout)).toMatchInlineSnapshot(`
      "ID                                    NUMBER  STATUS          CUSTOMER         SOURCE      TOTAL        DUE  CREATED
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx    1008  partially_paid  Harold Jennings  manual  $4,000.00  $2,000.00  2026-07-19 20:39
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx    1011  partially_paid  Priya Natarajan  manual  $4,475.00  $3,475.00  2026-09-17 22:32
      "
    `);
    const all = listed<Invoice>(await run(['invoices', 'list', '--all', '--limit', '5', '--sort', 'oldest', '--json']));
    expect(all).toEqual((await sdk.invoices.list({ limit: 100, sort: 'oldest' })).items);
    const heritage = listed<Invoice>(await run(['invoices', 'list', '-q', 'heritage', '--json']));
    expect(heritage.length).toBeGreaterThan(0);
    expect(heritage.every((invoice) => invoice.source === 'Heritage Auctions')).toBe(true);
    const csv = parseCsv((await run(['invoices', 'list', '--output', 'csv', '--limit', '2'])).stdout);
    expect(csv[0]).toEqual(expect.arrayContaining(['customer.name', 'lines', 'payments']));
  });

  it('get: detail view with lines and payments, and JSON', async () => {
    const [invoice] = (await sdk.invoices.list({ status: 'partially_paid', sort: 'oldest', limit: 1 })).items;
    if (!invoice) throw new Error('no partially paid invoice in the demo');
    expect(scrub((await run(['invoices', 'get', invoice.id])).stdout)).toMatchInlineSnapshot(`
      "ID        xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      Number    1008
      Status    partially_paid
      Source    manual
      Customer  Harold Jennings <hjennings@mail.example> (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)
      Subtotal  $4,050.00
      Discount  $50.00
      Shipping  $0.00
      Tax       $0.00
      Total     $4,000.00
      Paid      $2,000.00
      Due       $2,000.00
      Due at    2026-08-18 20:39
      Paid at   -
      Created   2026-07-19 20:39

      Lines (1)
      DESCRIPTION                                        ITEM                                  QTY       UNIT      TOTAL
      1908 No Motto Saint-Gaudens Double Eagle NGC MS64  xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx    1  $4,050.00  $4,050.00

      Payments (1)
         AMOUNT  METHOD  STATUS     PAID              ID
      $2,000.00  wire    succeeded  2026-07-21 23:39  xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      "
    `);
    expect(json<Invoice>(await run(['invoices', 'get', invoice.id, '--json']))).toEqual(invoice);
  });
});
