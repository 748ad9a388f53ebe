import type { Consignment } from '@coinventory/sdk';
import { describe, expect, it } from 'vitest';
import { scrub } from './support/cli.js';
import { parseCsv } from './support/csv.js';
import { json, listed, run, sdk } from './support/demo.js';

// `consignments list` and `get` on the demo organization's consignments.

describe('consignments', () => {
  it('list: table, filters, --all', async () => {
    const { code, stdout } = await run(['consignments', 'list', '--status', 'partially_sold']);
    expect(code).toBe(0);
    expect(scrub(stdout)).toMatchInlineSnapshot(`
      "ID                                    NUMBER      NAME                                      STATUS          CONSIGNOR              SOLD/ITEMS      VALUE     SOLD  RECEIVED
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  C-2026-008  Hartwell collection, part 2: gem Morgans  partially_sold  Hartwell Family Trust         1/3  $2,345.00  $360.00  2026-07-09 16:22
      "
    `);
    const all = listed<Consignment>(await run(['consignments', 'list', '--all', '--limit', '3', '--json']));
    expect(all).toEqual((await sdk.consignments.list({ limit: 100 })).items);
    const consignorId = all.find((c) => c.consignor)?.consignor?.id ?? '';
    const mine = listed<Consignment>(await run(['consignments', 'list', '--consignor-id', consignorId, '--json']));
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((c) => c.consignor?.id === consignorId)).toBe(true);
    const found = listed<Consignment>(await run(['consignments', 'list', '-q', 'Okafor', '--json']));
    expect(found.map((c) => c.number).sort()).toEqual(['C-2026-006', 'C-2026-014']);
    const csv = parseCsv((await run(['consignments', 'list', '--output', 'csv', '--limit', '1'])).stdout);
    expect(csv[0]).toContain('consignor.email');
  });

  it('get: detail view and JSON', async () => {
    const [first] = (await sdk.consignments.list({ status: 'partially_sold' })).items;
    if (!first) throw new Error('no partially sold consignment in the demo');
    expect(scrub((await run(['consignments', 'get', first.id])).stdout)).toMatchInlineSnapshot(`
      "ID                xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      Number            C-2026-008
      Name              Hartwell collection, part 2: gem Morgans
      Status            partially_sold
      Payment status    unpaid
      Consignor         Hartwell Family Trust <trustee@hartwell-trust.example> (xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)
      Commission        10%
      Buyer premium     20%
      Items             3 (1 sold)
      Total value       $2,345.00
      Total sold        $360.00
      Commission total  $36.00
      Payout            $324.00
      Received          2026-07-09 16:22
      Sold              -
      Settled           -
      Created           2026-07-09 14:22
      "
    `);
    expect(json<Consignment>(await run(['consignments', 'get', first.id, '--json']))).toEqual(first);
  });
});
