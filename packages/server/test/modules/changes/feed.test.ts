import { type Item, LIMITS } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { pruneChanges } from '../../../src/modules/changes/index.js';
import { applyChanges, changesPage, feedCursor, readAllItems, readToEnd } from '../../support/changes.js';
import { expectBadRequest } from '../../support/errors.js';
import { expectStatus } from '../../support/http.js';
import { createItem, freshApi } from '../../support/items.js';
import { createTestOrganization } from '../../support/organization.js';
import { uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

describe('GET /changes', () => {
  it('reports a create, an update and a delete, each with the item exactly as GET returned it then', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const start = await feedCursor(api);
    const created = await createItem(api, { sku: uniqueSku('FEED'), title: 'Feed coin' });
    const createdText = (await api.get(`/items/${created.id}`)).text;
    const patched = await api.patch<Item>(`/items/${created.id}`, { body: { valueInCents: 4_200 } });
    expectStatus(patched, 200);
    expectStatus(await api.delete(`/items/${created.id}`), 200);

    const response = await api.get(`/changes?after=${start}`);
    expectStatus(response, 200);
    const { changes } = await readToEnd(api, start);
    expect(changes.map((change) => [change.type, change.objectId])).toEqual([
      ['item.created', created.id],
      ['item.updated', created.id],
      ['item.deleted', created.id],
    ]);
    const [first, second, third] = changes;
    // The same bytes as the GET at that moment, fields in the API's order.
    expect(JSON.stringify(first?.data)).toBe(createdText);
    expect(JSON.stringify(second?.data)).toBe(patched.text);
    expect(third?.data).toBeNull();
    expect(first?.occurredAt).toBe(created.createdAt);
    expect(second?.occurredAt).toBe(patched.body.updatedAt);
    expect(new Set(changes.map((change) => change.id)).size).toBe(3);
  });

  it('pages in commit order: limit bounds a page, hasMore says another follows, nextCursor continues it', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const start = await feedCursor(api);
    const ids: string[] = [];
    for (let i = 0; i < 7; i += 1) ids.push((await createItem(api, { sku: uniqueSku('PAGE'), title: `Page ${i}` })).id);
    const first = await changesPage(api, { after: start, limit: 3 });
    expect(first.items.map((change) => change.objectId)).toEqual(ids.slice(0, 3));
    expect(first.hasMore).toBe(true);
    const rest = await readToEnd(api, first.nextCursor, { limit: 3 });
    expect(rest.changes.map((change) => change.objectId)).toEqual(ids.slice(3));
    expect(rest.pages).toBe(2);
    // At the end: an empty page, the same cursor, nothing more.
    const end = await changesPage(api, { after: rest.cursor });
    expect(end).toEqual({ items: [], nextCursor: rest.cursor, hasMore: false });
  });

  it('filters by type, and the cursor at the end passes the changes the filter left out', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const start = await feedCursor(api);
    const item = await createItem(api, { sku: uniqueSku('TYPES'), title: 'Typed' });
    for (let i = 1; i <= 3; i += 1) expectStatus(await api.patch(`/items/${item.id}`, { body: { quantity: i } }), 200);
    const created = await changesPage(api, { after: start, types: 'item.created' });
    expect(created.items.map((change) => change.type)).toEqual(['item.created']);
    expect(created.hasMore).toBe(false);
    // Nothing after the filtered page's cursor: the three updates are behind it.
    expect((await changesPage(api, { after: created.nextCursor })).items).toEqual([]);
    const updates = await changesPage(api, { after: start, types: 'item.updated,item.deleted', limit: 2 });
    expect(updates.items.map((change) => change.type)).toEqual(['item.updated', 'item.updated']);
    expect(updates.hasMore).toBe(true);
  });

  it('starts at the oldest kept change without `after`', async () => {
    const fresh = await createTestOrganization(ctx.server.database.sql);
    const api = await freshApi(ctx.server, fresh);
    expect(await changesPage(api)).toMatchObject({ items: [], hasMore: false });
    const item = await createItem(api, { sku: uniqueSku('OLDEST'), title: 'First ever' });
    const page = await changesPage(api);
    expect(page.items.map((change) => change.objectId)).toEqual([item.id]);
  });

  it('records nothing for a write that fails', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const item = await createItem(api, { sku: uniqueSku('FAIL'), title: 'Stays' });
    const start = await feedCursor(api);
    expect((await api.post('/items', { body: { sku: item.sku, title: 'Duplicate' } })).status).toBe(409);
    expect((await api.patch(`/items/${crypto.randomUUID()}`, { body: { title: 'x' } })).status).toBe(404);
    expect((await api.patch(`/items/${item.id}`, { body: { categoryId: crypto.randomUUID() } })).status).toBe(400);
    expect((await api.delete(`/items/${item.id}`, { headers: { 'if-match': '"stale"' } })).status).toBe(412);
    expect((await changesPage(api, { after: start })).items).toEqual([]);
  });

  it("shows an organization only its own changes, and refuses another organization's cursor", async () => {
    const other = await createTestOrganization(ctx.server.database.sql);
    const otherApi = await freshApi(ctx.server, other);
    const api = await freshApi(ctx.server, ctx.organization);
    const theirs = await feedCursor(otherApi);
    await createItem(api, { sku: uniqueSku('MINE'), title: 'Mine' });
    expect((await changesPage(otherApi, { after: theirs })).items).toEqual([]);
    const response = await api.get(`/changes?after=${theirs}`);
    expectBadRequest(response, ['query.after'], ['another organization', 'full read']);
  });

  it('refuses a cursor that is not one, naming the parameter and what to do', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const cursor = await feedCursor(api);
    for (const bad of ['nonsense', `${cursor}x`, cursor.slice(0, -2), Buffer.from('chg1.zz.1').toString('base64url')]) {
      expectBadRequest(await api.get(`/changes?after=${encodeURIComponent(bad)}`), ['query.after'], ['full read']);
    }
  });

  it('refuses unknown types and limits out of bounds', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    expectBadRequest(await api.get('/changes?types=item.created,item.sold'), ['query.types'], ['item.sold']);
    expectBadRequest(await api.get(`/changes?limit=${LIMITS.changesLimit.max + 1}`), ['query.limit']);
    expectBadRequest(await api.get('/changes?limit=0'), ['query.limit']);
  });

  it('keeps changes for the retention period: an older cursor is refused, one at or after the removed end works', async () => {
    const fresh = await createTestOrganization(ctx.server.database.sql);
    const api = await freshApi(ctx.server, fresh);
    const start = await feedCursor(api);
    const old = await createItem(api, { sku: uniqueSku('OLD'), title: 'Old' });
    const afterOld = (await readToEnd(api, start)).cursor;
    const kept = await createItem(api, { sku: uniqueSku('KEPT'), title: 'Kept' });
    const sql = ctx.server.database.sql;
    await sql`
      UPDATE changes SET occurred_at = now() - interval '31 days'
      WHERE organization_id = ${fresh.organizationId} AND object_id = ${old.id}
    `;
    expect(await pruneChanges(sql, new Date(Date.now() - 30 * 24 * 3600 * 1000))).toBeGreaterThanOrEqual(1);
    expectBadRequest(await api.get(`/changes?after=${start}`), ['query.after'], ['expired', 'full read']);
    expect((await changesPage(api, { after: afterOld })).items.map((change) => change.objectId)).toEqual([kept.id]);
    // Without a cursor the feed starts at the oldest change it still has.
    expect((await changesPage(api)).items.map((change) => change.objectId)).toEqual([kept.id]);
  });

  it('a first load then the feed from the cursor taken before it reproduces the items', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const writer = await freshApi(ctx.server, ctx.organization, 'another client');
    const cursor = await feedCursor(api);
    const copy = await readAllItems(api);
    const made = await createItem(writer, { sku: uniqueSku('LOAD'), title: 'After the load' });
    const someone = [...copy.keys()][0];
    if (someone) expectStatus(await writer.delete(`/items/${someone}`), 200);
    expectStatus(await writer.patch(`/items/${made.id}`, { body: { title: 'Renamed' } }), 200);
    applyChanges(copy, (await readToEnd(api, cursor)).changes);
    expect(copy).toEqual(await readAllItems(api));
  });
});
