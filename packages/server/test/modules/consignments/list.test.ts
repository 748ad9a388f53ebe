import { CONSIGNMENT_STATUSES, ConsignmentListSchema } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAndGetSuite, type SeededRow } from '../../support/list-and-get.js';
import { consignmentWith, insertConsignment, insertConsignor } from '../../support/sales.js';
import { startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe('GET /consignments', () => {
  let alice: string;
  let bob: string;
  let anonymous: string;
  let otherConsignorId: string;

  const listed = listAndGetSuite(() => server, {
    path: '/consignments',
    noun: 'consignment',
    listSchema: ConsignmentListSchema,
    statuses: CONSIGNMENT_STATUSES,
    async seed(sql, ws, other) {
      const org = ws.organizationId;
      alice = await insertConsignor(sql, org, { name: 'Alice Numismatics', email: 'Alice@Example.test' });
      bob = await insertConsignor(sql, org, { name: 'Bob 100% Coins', email: 'bob_smith@coins.test' });
      anonymous = await insertConsignor(sql, org, {});
      const rows: Array<{
        status: string;
        number: string | null;
        name: string | null;
        consignor: string | null;
        at: string;
      }> = [
        {
          status: 'intake',
          number: 'CN-1001',
          name: 'Morgan dollars',
          consignor: alice,
          at: '2024-01-01T00:00:00.000Z',
        },
        {
          status: 'cataloging',
          number: 'CN-1002',
          name: 'Peace dollars',
          consignor: bob,
          at: '2024-01-02T00:00:00.000Z',
        },
        // Three consignments created at the same instant: id decides.
        {
          status: 'listed',
          number: 'CN-1003',
          name: '100% silver lot',
          consignor: null,
          at: '2024-01-03T12:00:00.500Z',
        },
        {
          status: 'partially_sold',
          number: 'cn-1004',
          name: '100 silver rounds',
          consignor: anonymous,
          at: '2024-01-03T12:00:00.500Z',
        },
        { status: 'sold', number: 'CN-2005', name: 'lot_7 gold', consignor: alice, at: '2024-01-03T12:00:00.500Z' },
        { status: 'settled', number: null, name: 'lotA7 bronze écu', consignor: null, at: '2024-01-04T00:00:00.000Z' },
        { status: 'withdrawn', number: 'X-7', name: null, consignor: bob, at: '2024-01-05T00:00:00.000Z' },
        { status: 'returned', number: 'CN-3008', name: 'Back\\slash', consignor: null, at: '2023-12-31T23:59:59.999Z' },
      ];
      const seeded: Record<string, SeededRow> = {};
      for (const row of rows) {
        const id = await insertConsignment(sql, org, {
          status: row.status,
          number: row.number,
          name: row.name,
          consignor_id: row.consignor,
          created_at: row.at,
        });
        seeded[row.status] = { id, createdAt: row.at };
      }
      // Another organization with look-alike consignments, newer than all of the above.
      otherConsignorId = await insertConsignor(sql, other.organizationId, {
        name: 'Alice Numismatics',
        email: 'alice@example.test',
      });
      const otherId = await insertConsignment(sql, other.organizationId, {
        status: 'intake',
        number: 'CN-1001',
        name: 'Morgan dollars',
        consignor_id: otherConsignorId,
        created_at: '2025-01-01T00:00:00.000Z',
      });
      return { rows: seeded, otherId };
    },
    newest: 'withdrawn',
    oldest: 'returned',
    tied: ['listed', 'partially_sold', 'sold'],
    search: [
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
    ],
    // Number "CN-1001" and name "Morgan dollars" are separate fields; neither contains "1001\nmorgan".
    spanningTwoFields: '1001\nmorgan',
    lookAlike: { q: 'morgan', label: 'intake' },
    unknownParameter: 'sort',
    badQueries: [['consignorId', '?consignorId=not-a-uuid', 'query.consignorId: Invalid uuid']],
  });

  it('shows a listed consignment with every field, its consignor included', async () => {
    const body = await listed.list('');
    expect(body.items.find((c) => c.id === listed.id('withdrawn'))).toEqual(
      consignmentWith({
        id: listed.id('withdrawn'),
        number: 'X-7',
        status: 'withdrawn',
        consignor: { id: bob, name: 'Bob 100% Coins', email: 'bob_smith@coins.test' },
        createdAt: '2024-01-05T00:00:00.000Z',
      }),
    );
  });

  it('filters on consignorId', async () => {
    const { listIds, ordered, id } = listed;
    expect(await listIds(`?consignorId=${alice}`)).toEqual(ordered(['intake', 'sold']));
    expect(await listIds(`?consignorId=${bob}`)).toEqual(ordered(['cataloging', 'withdrawn']));
    expect(await listIds(`?consignorId=${anonymous}`)).toEqual([id('partially_sold')]);
    expect(await listIds(`?consignorId=${alice}&status=sold`)).toEqual([id('sold')]);
    // Another organization's consignor, and an id nobody has: nothing.
    expect(await listIds(`?consignorId=${otherConsignorId}`)).toEqual([]);
    expect(await listIds('?consignorId=00000000-0000-4000-8000-000000000000')).toEqual([]);
  });

  it('combines q with status', async () => {
    expect(await listed.listIds('?q=numismatics&status=sold')).toEqual([listed.id('sold')]);
    expect(await listed.listIds('?q=numismatics&status=listed')).toEqual([]);
  });
});
