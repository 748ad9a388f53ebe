import { ErrorBodySchema, ItemSchema } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY } from '../../support/errors.js';
import { expectStatus } from '../../support/http.js';
import { createItem, freshApi, getItem, listItems } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { startTestServer, type TestServer } from '../../support/server.js';

let server: TestServer;
let org: TestOrganization;
let other: TestOrganization;

beforeAll(async () => {
  server = await startTestServer();
  org = await createTestOrganization(server.database.sql);
  other = await createTestOrganization(server.database.sql);
});
afterAll(() => server.close());

async function rowsWithSku(organization: TestOrganization, sku: string): Promise<string[]> {
  const rows = await server.database.sql<{ id: string }[]>`
    SELECT id FROM items WHERE organization_id = ${organization.organizationId} AND sku = ${sku}
  `;
  return rows.map((row) => row.id);
}

describe('SKU uniqueness under concurrency', () => {
  it.each(['RACE-1', 'RACE-2', 'RACE-3'])(
    '20 concurrent POSTs of one SKU → exactly one 200 and nineteen 409 (%s)',
    async (sku) => {
      const api = await freshApi(server, org, `race ${sku}`);
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => api.post('/items', { body: { sku, title: `Racer ${i}`, quantity: i } })),
      );
      const winners = responses.filter((r) => r.status === 200);
      const losers = responses.filter((r) => r.status === 409);
      expect(
        responses.map((r) => r.status),
        responses.map((r) => r.text).join('\n'),
      ).toHaveLength(20);
      expect(winners).toHaveLength(1);
      expect(losers).toHaveLength(19);
      for (const loser of losers) expect(ErrorBodySchema.parse(loser.body)).toEqual(ERROR_BODY.CONFLICT);

      const winner = ItemSchema.parse(winners[0]?.body);
      expect(winner.sku).toBe(sku);
      expect(await rowsWithSku(org, sku)).toEqual([winner.id]);
      expect(await getItem(api, winner.id)).toEqual(winner);
      const listed = await listItems(api, { sku });
      expect(listed.items).toEqual([winner]);
    },
  );

  it('20 concurrent POSTs of distinct SKUs all succeed', async () => {
    const api = await freshApi(server, org, 'distinct');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api.post('/items', { body: { sku: `DISTINCT-${i}`, title: `Item ${i}` } })),
    );
    expect(responses.map((r) => r.status)).toEqual(Array.from({ length: 20 }, () => 200));
    const created = responses.map((r) => ItemSchema.parse(r.body));
    expect(created.map((item) => item.sku)).toEqual(Array.from({ length: 20 }, (_, i) => `DISTINCT-${i}`));
    expect(new Set(created.map((item) => item.id)).size).toBe(20);
  });

  it('the same SKU in two different organizations both succeed, even at the same moment', async () => {
    const mine = await freshApi(server, org, 'two orgs');
    const theirs = await freshApi(server, other, 'two orgs');
    const [a, b] = await Promise.all([
      mine.post('/items', { body: { sku: 'SHARED-SKU', title: 'Mine' } }),
      theirs.post('/items', { body: { sku: 'SHARED-SKU', title: 'Theirs' } }),
    ]);
    if (!a || !b) throw new Error('missing response');
    expectStatus(a, 200);
    expectStatus(b, 200);
    const itemA = ItemSchema.parse(a.body);
    const itemB = ItemSchema.parse(b.body);
    expect(itemA.id).not.toBe(itemB.id);
    expect(await rowsWithSku(org, 'SHARED-SKU')).toEqual([itemA.id]);
    expect(await rowsWithSku(other, 'SHARED-SKU')).toEqual([itemB.id]);
    expect((await listItems(mine, { sku: 'SHARED-SKU' })).items).toEqual([itemA]);
    expect((await listItems(theirs, { sku: 'SHARED-SKU' })).items).toEqual([itemB]);
    // A second one in either organization is still refused.
    const again = await mine.post('/items', { body: { sku: 'SHARED-SKU', title: 'Again' } });
    expectStatus(again, 409);
    expect(again.body).toEqual(ERROR_BODY.CONFLICT);
  });

  it('10 concurrent PATCHes renaming 10 items to one SKU → exactly one 200 and nine 409', async () => {
    const api = await freshApi(server, org, 'patch race');
    const items = [];
    for (let i = 0; i < 10; i += 1) items.push(await createItem(api, { sku: `PRE-RENAME-${i}`, title: `Rename ${i}` }));
    const responses = await Promise.all(
      items.map((item) => api.patch(`/items/${item.id}`, { body: { sku: 'RENAMED-ONE' } })),
    );
    const winners = responses.filter((r) => r.status === 200);
    const losers = responses.filter((r) => r.status === 409);
    expect(winners, responses.map((r) => r.text).join('\n')).toHaveLength(1);
    expect(losers).toHaveLength(9);
    for (const loser of losers) expect(loser.body).toEqual(ERROR_BODY.CONFLICT);
    const winner = ItemSchema.parse(winners[0]?.body);
    expect(await rowsWithSku(org, 'RENAMED-ONE')).toEqual([winner.id]);
    // The losers kept their SKUs.
    for (const item of items.filter((i) => i.id !== winner.id))
      expect((await getItem(api, item.id)).sku).toBe(item.sku);
  }, 5_000);
});
