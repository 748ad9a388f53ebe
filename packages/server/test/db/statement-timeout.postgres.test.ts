import type { Item } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY } from '../support/errors.js';
import { client } from '../support/http.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import { startTestServer, type TestServer } from '../support/server.js';

const JSON_TYPE = /^application\/json(;|$)/;
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// The embedded database is one session, so it cannot hold a lock against itself; this runs on PostgreSQL only.
describe('a statement that outlives STATEMENT_TIMEOUT_MS', () => {
  let slow: TestServer;
  let owner: TestOrganization;
  let item: Item;

  beforeAll(async () => {
    slow = await startTestServer({ statementTimeoutMs: 300 });
    owner = await createTestOrganization(slow.database.sql);
    const created = await client(slow.baseUrl, owner.key).post<Item>('/items', {
      body: { sku: 'LOCKED-1', title: 'Locked item', quantity: 2 },
    });
    if (created.status !== 200) throw new Error(created.text);
    item = created.body;
  });
  afterAll(() => slow?.close());

  /** Runs `during` while another connection holds a row lock on the item. */
  async function whileLocked<T>(during: () => Promise<T>): Promise<T> {
    const results: T[] = [];
    await slow.database.sql.begin(async (tx) => {
      await tx`SELECT 1 FROM items WHERE organization_id = ${owner.organizationId} AND id = ${item.id} FOR UPDATE`;
      results.push(await during());
    });
    const [result] = results;
    if (result === undefined) throw new Error('no result');
    return result;
  }

  it('PATCH of a locked item → 500 Internal server error, no detail, after the timeout', async () => {
    const api = client(slow.baseUrl, owner.key);
    const { response, elapsed } = await whileLocked(async () => {
      const started = Date.now();
      const response = await api.patch(`/items/${item.id}`, { body: { title: 'Changed under lock', quantity: 7 } });
      return { response, elapsed: Date.now() - started };
    });
    expect(response.status).toBe(500);
    expect(response.body).toEqual(ERROR_BODY.INTERNAL_SERVER_ERROR);
    expect(response.text).toBe(JSON.stringify(ERROR_BODY.INTERNAL_SERVER_ERROR));
    expect(response.headers.get('content-type')).toMatch(JSON_TYPE);
    expect(response.headers.get('x-request-id')).toMatch(SAFE_REQUEST_ID);
    // It waited for the lock until the statement timeout, rather than failing for another reason.
    expect(elapsed).toBeGreaterThanOrEqual(250);

    const after = await api.get<Item>(`/items/${item.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(item);
  });

  it('DELETE of a locked item → 500, and the item is still there afterwards', async () => {
    const api = client(slow.baseUrl, owner.key);
    const response = await whileLocked(() => api.delete(`/items/${item.id}`));
    expect(response.status).toBe(500);
    expect(response.text).toBe(JSON.stringify(ERROR_BODY.INTERNAL_SERVER_ERROR));
    const after = await api.get<Item>(`/items/${item.id}`);
    expect(after.status).toBe(200);
    expect(after.body).toEqual(item);
  });

  it('once the lock is gone the same PATCH succeeds (the pool recovered)', async () => {
    const api = client(slow.baseUrl, owner.key);
    const response = await api.patch<Item>(`/items/${item.id}`, { body: { title: 'Changed after lock' } });
    expect(response.status, response.text).toBe(200);
    expect(response.body.title).toBe('Changed after lock');
  });
});
