import type { Item } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findItem } from '../../../src/modules/items/index.js';
import { call, expectStatus } from '../../support/http.js';
import { addCategory, createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { startTestServer, type TestServer } from '../../support/server.js';

/**
 * GET /items/{id} reads the item in its authentication statement (request/gated-read.ts): one round trip where the
 * other routes take two, and the same answer, byte for byte, as the item read on its own.
 */
describe('GET /items/{id}', () => {
  let server: TestServer;
  let org: TestOrganization;
  /** Every statement the server's pool sends, as postgres.js is about to send it. */
  const sent: string[] = [];
  let full: Item;
  let bare: Item;

  const get = (path: string, key = org.key) => call<Item>(server.baseUrl, 'GET', path, { key });
  /** The statements one request sends (the key's use, recorded at most once a minute, is written first). */
  async function statementsOf(path: string): Promise<string[]> {
    await get('/me');
    await new Promise((resolve) => setTimeout(resolve, 50));
    sent.length = 0;
    const response = await get(path);
    expect(response.status).toBeLessThan(500);
    return [...sent];
  }

  beforeAll(async () => {
    server = await startTestServer();
    org = await createTestOrganization(server.database.sql);
    // postgres.js reads its options' `debug` as each statement is built: the test's window on the wire.
    server.database.sql.options.debug = (_connection, query) => {
      sent.push(query);
    };
    const categoryId = await addCategory(server.database.sql, org.organizationId, 'Morgan dollars');
    const created = await call<Item>(server.baseUrl, 'POST', '/items', {
      key: org.key,
      body: {
        sku: 'GET-ONE-FULL',
        title: '1881-S Morgan dollar',
        description: 'Frosty, "prooflike" obverse',
        categoryId,
        quantity: 2,
        valueInCents: 25_000,
        acquisitionPriceInCents: 18_000,
        acquisitionDate: '2024-03-01T12:34:56.789Z',
        acquiredFrom: 'Estate lot',
        gradingService: 'PCGS',
        grade: 'MS65',
        certificateNumber: '12345678',
        attributes: { zeta: 1881, mint: 'S', alpha: true, weightGrams: 26.73 },
        locationDetails: 'Tray 4',
      },
    });
    expectStatus(created, 200);
    await server.database.sql`
      INSERT INTO item_images (organization_id, item_id, position, url, width, height)
      VALUES (${org.organizationId}, ${created.body.id}, 2, 'https://img.example/b.jpg', NULL, NULL),
             (${org.organizationId}, ${created.body.id}, 1, 'https://img.example/a.jpg', 1200, 800)
    `;
    await server.database.sql`UPDATE items SET updated_at = now() WHERE id = ${created.body.id}`;
    full = (await get(`/items/${created.body.id}`)).body;
    const made = await call<Item>(server.baseUrl, 'POST', '/items', {
      key: org.key,
      body: { sku: 'GET-ONE-BARE', title: 'Bare' },
    });
    bare = made.body;
  });
  afterAll(() => server.close());

  it('answers exactly what the item reads as on its own: every field, nested, null and time', async () => {
    for (const item of [full, bare]) {
      const response = await get(`/items/${item.id}`);
      expectStatus(response, 200);
      const alone = await findItem(server.database.sql, org.organizationId, item.id);
      expect(response.text).toBe(JSON.stringify(alone));
    }
    expect(full.images).toEqual([
      { url: 'https://img.example/a.jpg', width: 1200, height: 800 },
      { url: 'https://img.example/b.jpg', width: null, height: null },
    ]);
    expect(full.category).toEqual({ id: expect.any(String), name: 'Morgan dollars' });
    expect(full.acquisition.date).toBe('2024-03-01T12:34:56.789Z');
    expect(full.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('is one statement: the key, the count and the item (a list is two)', async () => {
    const one = await statementsOf(`/items/${full.id}`);
    expect(one).toHaveLength(1);
    expect(one[0]).toMatch(/rate_limit_admit/);
    expect(one[0]).toMatch(/FROM items i/);
    expect(await statementsOf('/items')).toHaveLength(2);
  });

  it('is 404 for an unknown id and for another organization’s item, in one statement too', async () => {
    const other = await createTestOrganization(server.database.sql);
    for (const key of [org.key, other.key]) {
      const path = `/items/${key === org.key ? '00000000-0000-4000-8000-000000000000' : full.id}`;
      const response = await get(path, key);
      expectStatus(response, 404);
    }
    expect(await statementsOf('/items/00000000-0000-4000-8000-000000000000')).toHaveLength(1);
  });

  it('with a malformed id: authenticated first, then 400, without a read', async () => {
    expect((await get('/items/not-a-uuid', 'ck_live_wrong')).status).toBe(401);
    const response = await get('/items/not-a-uuid');
    expectStatus(response, 400);
    const statements = await statementsOf('/items/not-a-uuid');
    expect(statements).toHaveLength(1);
    expect(statements[0]).not.toMatch(/FROM items/);
  });
});
