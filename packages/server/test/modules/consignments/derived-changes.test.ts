import { type Change, type Consignment, ConsignmentSchema } from '@coinventory/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../../src/db/types.js';
import { feedCursor, readToEnd } from '../../support/changes.js';
import { expectStatus } from '../../support/http.js';
import { importFiles, operatorCommands } from '../../support/imports.js';
import { type Api, createItem, freshApi } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { serverWithOrganization } from '../../support/server.js';

/**
 * A consignment's totals come from its items and the invoices that sell them: a write to one of those that moves
 * them records `consignment.updated` (data as GET shows the consignment right after), in the same transaction as the
 * write and after its own change; a write that leaves them as they were records none.
 */

const { file } = importFiles('consignment-changes');

const pairs = (changes: readonly Change[]) => changes.map((change) => [change.type, change.objectId]);

describe("a consignment's totals, moved by writes to its items and their invoices", () => {
  const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
  const sql = (): Sql => ctx.server.database.sql;
  const { json } = operatorCommands(sql);

  let ws: TestOrganization;
  let api: Api;
  const ids = { held: '', sold: '', loose: '', consignment: '' };

  const consignment = async (): Promise<Consignment> => {
    const response = await api.get(`/consignments/${ids.consignment}`);
    expectStatus(response, 200);
    return ConsignmentSchema.parse(response.body);
  };

  /** The changes `write` records, read from the feed. */
  const changesOf = async (write: () => Promise<unknown>): Promise<Change[]> => {
    const cursor = await feedCursor(api);
    await write();
    return (await readToEnd(api, cursor)).changes;
  };

  const invoices = (secondStatus: string) =>
    file(`invoices-${secondStatus}.csv`, ['number,status', '1,paid', `2,${secondStatus}`]);
  const lines = (firstPrice: number, extra: readonly string[] = []) =>
    file(`lines-${firstPrice}-${extra.length}.csv`, [
      'invoice,line,sku,quantity,unitPriceInCents',
      `1,1,CD-SOLD,1,${firstPrice}`,
      '2,1,CD-HELD,1,60000',
      ...extra,
    ]);

  beforeAll(async () => {
    ws = await createTestOrganization(sql());
    api = await freshApi(ctx.server, ws);
    ids.held = (await createItem(api, { sku: 'CD-HELD', title: 'Held', valueInCents: 10_000 })).id;
    ids.sold = (await createItem(api, { sku: 'CD-SOLD', title: 'Sold', valueInCents: 20_000 })).id;
    ids.loose = (await createItem(api, { sku: 'CD-LOOSE', title: 'Not consigned', valueInCents: 5_000 })).id;
    const org = ['--org', ws.slug];
    await json(
      'import',
      'consignments',
      file('consignments.csv', ['number,status,commissionBps', 'C-1,listed,1000']),
      ...org,
    );
    await json(
      'import',
      'consignment-items',
      file('links.csv', ['sku,consignment', 'CD-HELD,C-1', 'CD-SOLD,C-1']),
      ...org,
    );
    await json('import', 'invoices', invoices('draft'), ...org);
    await json('import', 'invoice-lines', lines(50_000), ...org);
    const [row] = await sql()<{ id: string }[]>`
      SELECT id::text FROM consignments WHERE organization_id = ${ws.organizationId} AND number = 'C-1'
    `;
    ids.consignment = row?.id ?? expect.fail('no consignment');
    // Invoice 1 (paid) sells CD-SOLD; invoice 2 (a draft) sells nothing yet.
    expect(await consignment()).toMatchObject({
      numItems: 2,
      totalValueInCents: 30_000,
      totalSoldInCents: 50_000,
      totalCommissionInCents: 5_000,
      totalPayoutInCents: 45_000,
    });
  });

  it("PATCH of a consigned item's value: item.updated, then consignment.updated with the new total", async () => {
    const changes = await changesOf(async () =>
      expectStatus(await api.patch(`/items/${ids.held}`, { body: { valueInCents: 12_500 } }), 200),
    );
    expect(pairs(changes)).toEqual([
      ['item.updated', ids.held],
      ['consignment.updated', ids.consignment],
    ]);
    expect(changes[1]?.data).toEqual(await consignment());
    expect(changes[1]?.data).toMatchObject({ totalValueInCents: 32_500 });
  });

  it('a PATCH that leaves the totals as they were: item.updated alone', async () => {
    const same = await changesOf(async () =>
      expectStatus(await api.patch(`/items/${ids.held}`, { body: { valueInCents: 12_500 } }), 200),
    );
    const title = await changesOf(async () =>
      expectStatus(await api.patch(`/items/${ids.held}`, { body: { title: 'Held, retitled' } }), 200),
    );
    const loose = await changesOf(async () =>
      expectStatus(await api.patch(`/items/${ids.loose}`, { body: { valueInCents: 7_500 } }), 200),
    );
    expect([same, title, loose].map(pairs)).toEqual([
      [['item.updated', ids.held]],
      [['item.updated', ids.held]],
      [['item.updated', ids.loose]],
    ]);
  });

  it('a dry run records nothing', async () => {
    const changes = await changesOf(async () =>
      expectStatus(await api.patch(`/items/${ids.held}?dryRun=true`, { body: { valueInCents: 1 } }), 200),
    );
    expect(changes).toEqual([]);
    expect(await consignment()).toMatchObject({ totalValueInCents: 32_500 });
  });

  it("an imported invoice's status that makes its lines sold: invoice.updated, then consignment.updated", async () => {
    const changes = await changesOf(() => json('import', 'invoices', invoices('sent'), '--org', ws.slug));
    expect(pairs(changes)).toEqual([
      ['invoice.updated', expect.any(String)],
      ['consignment.updated', ids.consignment],
    ]);
    expect(changes[1]?.data).toEqual(await consignment());
    expect(changes[1]?.data).toMatchObject({
      totalSoldInCents: 110_000,
      totalCommissionInCents: 11_000,
      totalPayoutInCents: 99_000,
    });
    // The same file again: nothing.
    expect(await changesOf(() => json('import', 'invoices', invoices('sent'), '--org', ws.slug))).toEqual([]);
  });

  it("imported lines: a consigned item's price moves the totals; a line of an item of no consignment does not", async () => {
    const repriced = await changesOf(() => json('import', 'invoice-lines', lines(52_000), '--org', ws.slug));
    expect(pairs(repriced)).toEqual([
      ['invoice.updated', expect.any(String)],
      ['consignment.updated', ids.consignment],
    ]);
    expect(repriced[1]?.data).toMatchObject({ totalSoldInCents: 112_000 });
    const looseLine = await changesOf(() =>
      json('import', 'invoice-lines', lines(52_000, ['1,2,CD-LOOSE,1,9000']), '--org', ws.slug),
    );
    expect(pairs(looseLine)).toEqual([['invoice.updated', expect.any(String)]]);
    expect(await consignment()).toMatchObject({ totalSoldInCents: 112_000 });
  });

  it('imported lines that no longer sell a consigned item: consignment.updated', async () => {
    const changes = await changesOf(() =>
      json(
        'import',
        'invoice-lines',
        file('lines-without-held.csv', [
          'invoice,line,sku,quantity,unitPriceInCents',
          '1,1,CD-SOLD,1,52000',
          '2,1,,1,60000',
        ]),
        '--org',
        ws.slug,
      ),
    );
    expect(pairs(changes)).toEqual([
      ['invoice.updated', expect.any(String)],
      ['invoice.updated', expect.any(String)],
      ['consignment.updated', ids.consignment],
    ]);
    expect(changes[2]?.data).toEqual(await consignment());
    expect(changes[2]?.data).toMatchObject({ totalSoldInCents: 52_000 });
  });

  it('DELETE of a consigned item: item.deleted, then consignment.updated without it; a webhook hears of it', async () => {
    const response = await api.post('/webhook-endpoints', {
      body: { url: 'https://hooks.example.com/consignments', events: ['consignment.updated'] },
    });
    expectStatus(response, 200);
    const endpointId = (response.body as { id: string }).id;
    const changes = await changesOf(async () => expectStatus(await api.delete(`/items/${ids.held}`), 200));
    expect(pairs(changes)).toEqual([
      ['item.deleted', ids.held],
      ['consignment.updated', ids.consignment],
    ]);
    expect(changes[1]?.data).toEqual(await consignment());
    expect(changes[1]?.data).toMatchObject({ numItems: 1, totalValueInCents: 20_000 });
    const queued = await sql()<{ type: string; object_id: string }[]>`
      SELECT c.type, c.object_id::text FROM webhook_deliveries d
      JOIN changes c ON c.organization_id = d.organization_id AND c.position = d.change_position
      WHERE d.organization_id = ${ws.organizationId} AND d.endpoint_id = ${endpointId}
    `;
    expect(queued.map((row) => [row.type, row.object_id])).toEqual([['consignment.updated', ids.consignment]]);
  });
});
