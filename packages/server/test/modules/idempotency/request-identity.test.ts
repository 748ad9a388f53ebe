import { createHash } from 'node:crypto';
import { IDEMPOTENCY, type Item } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { expectBadRequest } from '../../support/errors.js';
import { expectStatus } from '../../support/http.js';
import { createItem, freshApi } from '../../support/items.js';
import { uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';

/**
 * What "the same request" is for Idempotency-Key: the route the router reached with its decoded parameters, not the
 * path as spelt (a trailing slash, percent-encoding); and the key is checked on dry runs too, which keep nothing.
 */

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

const withKey = (key: string) => ({ [IDEMPOTENCY.header]: key });
const replayed = (response: { status: number; headers: Headers }) => [
  response.status,
  response.headers.get(IDEMPOTENCY.replayedHeader),
];

async function itemsWithSku(sku: string): Promise<number> {
  const [row] = await ctx.server.database.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM items WHERE organization_id = ${ctx.organization.organizationId} AND sku = ${sku}
  `;
  return row?.n ?? 0;
}

describe('Idempotency-Key: the same route and parameters are the same request however the path is spelt', () => {
  it('POST /items/ then POST /items with one key and body: the second is a replay, one item', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const sku = uniqueSku('SLASH');
    const key = crypto.randomUUID();
    const first = await api.post<Item>('/items/', { body: { sku, title: 'Once' }, headers: withKey(key) });
    expectStatus(first, 200);
    const again = await api.post<Item>('/items', { body: { sku, title: 'Once' }, headers: withKey(key) });
    expect(replayed(again)).toEqual([200, 'true']);
    expect(again.text).toBe(first.text);
    expect(await itemsWithSku(sku)).toBe(1);
  });

  it('an answer kept by the previous release (its fingerprint of the path as spelt) still replays after an upgrade', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const sku = uniqueSku('UPGRADE');
    const key = crypto.randomUUID();
    const body = { sku, title: 'Kept before' };
    const first = await api.post<Item>('/items', { body, headers: withKey(key) });
    expectStatus(first, 200);
    // As the previous release kept it: method, the path as sent, the body's canonical JSON.
    const previous = createHash('sha256').update(
      `POST /v1/items\n{"sku":${JSON.stringify(sku)},"title":"Kept before"}`,
    );
    const updated = await ctx.server.database.sql`
      UPDATE idempotency_keys SET fingerprint = ${previous.digest('base64url')}
      WHERE organization_id = ${ctx.organization.organizationId} AND key = ${key}
    `;
    expect(updated.count).toBe(1);
    const again = await api.post<Item>('/items', { body, headers: withKey(key) });
    expect(replayed(again)).toEqual([200, 'true']);
    expect(again.text).toBe(first.text);
    // Another request with that key is still refused.
    const other = await api.post('/items', { body: { sku, title: 'Something else' }, headers: withKey(key) });
    expectBadRequest(other, ['headers.idempotency-key'], ['different request']);
    expect(await itemsWithSku(sku)).toBe(1);
  });

  it('PATCH and DELETE of an item by a path with a trailing slash or percent-encoded id: replays', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const item = await createItem(api, { sku: uniqueSku('ENC'), title: 'Spelt', quantity: 1 });
    // The id's first character percent-encoded: the router decodes it to the same id.
    const encoded = `%${item.id.charCodeAt(0).toString(16)}${item.id.slice(1)}`;
    const patchKey = crypto.randomUUID();
    const body = { quantity: 4 };
    const patched = await api.patch(`/items/${item.id}`, { body, headers: withKey(patchKey) });
    expectStatus(patched, 200);
    for (const path of [`/items/${item.id}/`, `/items/${encoded}`]) {
      const again = await api.patch(path, { body, headers: withKey(patchKey) });
      expect(replayed(again), path).toEqual([200, 'true']);
      expect(again.text, path).toBe(patched.text);
    }
    const deleteKey = crypto.randomUUID();
    expectStatus(await api.delete(`/items/${encoded}/`, { headers: withKey(deleteKey) }), 200);
    expect(replayed(await api.delete(`/items/${item.id}`, { headers: withKey(deleteKey) }))).toEqual([200, 'true']);
  });

  it('another item, or another route, with the same key is still a different request', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const one = await createItem(api, { sku: uniqueSku('ONE'), title: 'One' });
    const two = await createItem(api, { sku: uniqueSku('TWO'), title: 'Two' });
    const key = crypto.randomUUID();
    expectStatus(await api.patch(`/items/${one.id}`, { body: { title: 'x' }, headers: withKey(key) }), 200);
    const other = await api.patch(`/items/${two.id}`, { body: { title: 'x' }, headers: withKey(key) });
    expectBadRequest(other, ['headers.idempotency-key']);
    expect((await api.get<Item>(`/items/${two.id}`)).body.title).toBe('Two');
  });
});

describe('Idempotency-Key on a dry run', () => {
  it('is checked as on a real write: a 256-character key is a 400 naming the header, and nothing is tried', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const sku = uniqueSku('DRYKEY');
    const item = await createItem(api, { sku: uniqueSku('DRYKEY'), title: 'Kept' });
    const tooLong = 'k'.repeat(IDEMPOTENCY.key.max + 1);
    for (const key of [tooLong, '', 'tab\there']) {
      expectBadRequest(await api.post('/items?dryRun=true', { body: { sku, title: 'Dry' }, headers: withKey(key) }), [
        'headers.idempotency-key',
      ]);
      expectBadRequest(
        await api.patch(`/items/${item.id}?dryRun=true`, { body: { title: 'Dry' }, headers: withKey(key) }),
        ['headers.idempotency-key'],
      );
      expectBadRequest(await api.delete(`/items/${item.id}?dryRun=true`, { headers: withKey(key) }), [
        'headers.idempotency-key',
      ]);
      expectBadRequest(
        await api.post('/items/batch?dryRun=true', {
          body: { mode: 'create', items: [{ sku, title: 'Dry' }] },
          headers: withKey(key),
        }),
        ['headers.idempotency-key'],
      );
    }
    expect(await itemsWithSku(sku)).toBe(0);
  });

  it('with a valid key, still keeps nothing: the real write with that key runs', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const sku = uniqueSku('DRYRUN');
    const key = 'k'.repeat(IDEMPOTENCY.key.max);
    const dry = await api.post('/items?dryRun=true', { body: { sku, title: 'Dry' }, headers: withKey(key) });
    expect(replayed(dry)).toEqual([200, null]);
    expect(await itemsWithSku(sku)).toBe(0);
    const real = await api.post('/items', { body: { sku, title: 'Dry' }, headers: withKey(key) });
    expect(replayed(real)).toEqual([200, null]);
    expect(await itemsWithSku(sku)).toBe(1);
  });
});
