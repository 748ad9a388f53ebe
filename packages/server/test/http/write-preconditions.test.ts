import { CONDITIONAL, type Item, type WebhookEndpoint } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { changesPage, feedCursor } from '../support/changes.js';
import { ERROR_BODY } from '../support/errors.js';
import { expectStatus } from '../support/http.js';
import { type Api, createItem, freshApi } from '../support/items.js';
import { uniqueSku } from '../support/routes.js';
import { serverWithOrganization } from '../support/server.js';

/**
 * RFC 9110 §13.1 preconditions on the writes that take them (PATCH and DELETE of an item or a webhook endpoint),
 * evaluated against the object's current ETag under its row lock: If-Match (strong comparison) and If-None-Match (weak
 * comparison, `*` for "exists"), either failing → 412 and nothing written. On both databases: the check reads the row.
 */

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

/** The 412 of a failed If-None-Match: PRECONDITION_FAILED with the contract's message for that header. */
const NONE_MATCH_FAILED = { code: 'PRECONDITION_FAILED', message: CONDITIONAL.noneMatchFailedMessage };

const etagOf = async (api: Api, path: string) => {
  const response = await api.get(path);
  expectStatus(response, 200);
  return { etag: response.headers.get('etag') ?? '', text: response.text };
};

describe('If-None-Match on PATCH and DELETE of an item', () => {
  it('refuses with 412, writing nothing, when it names the current ETag (weakly) or is *', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const item = await createItem(api, { sku: uniqueSku('INM'), title: 'Kept', quantity: 1 });
    const path = `/items/${item.id}`;
    const before = await etagOf(api, path);
    const cursor = await feedCursor(api);
    for (const header of [before.etag, `W/${before.etag}`, `"other", ${before.etag}`, '*']) {
      const patched = await api.patch(path, { body: { title: 'Changed' }, headers: { 'if-none-match': header } });
      expect([patched.status, patched.body], header).toEqual([412, NONE_MATCH_FAILED]);
      const deleted = await api.delete(path, { headers: { 'if-none-match': header } });
      expect([deleted.status, deleted.body], header).toEqual([412, NONE_MATCH_FAILED]);
      // A dry run checks it the same way.
      const dry = await api.patch(`${path}?dryRun=true`, {
        body: { title: 'x' },
        headers: { 'if-none-match': header },
      });
      expect(dry.status, header).toBe(412);
    }
    expect((await etagOf(api, path)).text).toBe(before.text);
    expect((await changesPage(api, { after: cursor })).items).toEqual([]);
  });

  it('writes when it names none of the current ETags', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const item = await createItem(api, { sku: uniqueSku('INM'), title: 'Old', quantity: 1 });
    const path = `/items/${item.id}`;
    const first = await etagOf(api, path);
    const patched = await api.patch<Item>(path, { body: { title: 'New' }, headers: { 'if-none-match': '"stale"' } });
    expectStatus(patched, 200);
    expect(patched.body.title).toBe('New');
    // The ETag it had before the PATCH no longer matches: a write conditioned on "not that version" goes ahead.
    expectStatus(await api.delete(path, { headers: { 'if-none-match': first.etag } }), 200);
    expect((await api.get(path)).status).toBe(404);
  });

  it('evaluates If-Match first (RFC 9110 §13.2.2): a stale If-Match is its own 412', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const item = await createItem(api, { sku: uniqueSku('INM'), title: 'Both' });
    const path = `/items/${item.id}`;
    const { etag } = await etagOf(api, path);
    const stale = await api.patch(path, {
      body: { title: 'x' },
      headers: { 'if-match': '"stale"', 'if-none-match': etag },
    });
    expect([stale.status, stale.body]).toEqual([412, ERROR_BODY.PRECONDITION_FAILED]);
    const both = await api.patch(path, { body: { title: 'x' }, headers: { 'if-match': etag, 'if-none-match': etag } });
    expect([both.status, both.body]).toEqual([412, NONE_MATCH_FAILED]);
    expectStatus(
      await api.patch(path, { body: { title: 'y' }, headers: { 'if-match': etag, 'if-none-match': '"a"' } }),
      200,
    );
  });

  it('is 404 for an item that does not exist, If-None-Match: * included', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const missing = `/items/${crypto.randomUUID()}`;
    expect((await api.patch(missing, { body: { title: 'x' }, headers: { 'if-none-match': '*' } })).status).toBe(404);
    expect((await api.delete(missing, { headers: { 'if-none-match': '*' } })).status).toBe(404);
  });
});

describe('If-Match and If-None-Match on PATCH and DELETE of a webhook endpoint', () => {
  const createEndpoint = async (api: Api) => {
    const created = await api.post<WebhookEndpoint>('/webhook-endpoints', {
      body: { url: 'https://hooks.example.com/preconditions', events: ['item.created'] },
    });
    expectStatus(created, 200);
    return `/webhook-endpoints/${created.body.id}`;
  };

  it('refuses a stale If-Match with the 412 items give, writing nothing; the current ETag writes', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const path = await createEndpoint(api);
    const first = await etagOf(api, path);
    const mine = await api.patch(path, { body: { description: 'mine' }, headers: { 'if-match': first.etag } });
    expectStatus(mine, 200);
    const now = await etagOf(api, path);
    expect(mine.headers.get('etag')).toBe(now.etag);
    for (const header of [first.etag, `W/${now.etag}`, '"nope", "other"']) {
      const theirs = await api.patch(path, { body: { enabled: false }, headers: { 'if-match': header } });
      expect([theirs.status, theirs.body], header).toEqual([412, ERROR_BODY.PRECONDITION_FAILED]);
      const refusedDelete = await api.delete(path, { headers: { 'if-match': header } });
      expect([refusedDelete.status, refusedDelete.body], header).toEqual([412, ERROR_BODY.PRECONDITION_FAILED]);
    }
    expect((await etagOf(api, path)).text).toBe(now.text);
    expectStatus(await api.patch(path, { body: { enabled: false }, headers: { 'if-match': `"x", ${now.etag}` } }), 200);
    const latest = await etagOf(api, path);
    expectStatus(await api.delete(path, { headers: { 'if-match': latest.etag } }), 200);
    expect((await api.get(path)).status).toBe(404);
  });

  it('refuses an If-None-Match naming the current ETag or *, and writes past one that does not', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const path = await createEndpoint(api);
    const before = await etagOf(api, path);
    for (const header of [before.etag, '*']) {
      const patched = await api.patch(path, { body: { description: 'x' }, headers: { 'if-none-match': header } });
      expect([patched.status, patched.body], header).toEqual([412, NONE_MATCH_FAILED]);
      const deleted = await api.delete(path, { headers: { 'if-none-match': header } });
      expect([deleted.status, deleted.body], header).toEqual([412, NONE_MATCH_FAILED]);
    }
    expect((await etagOf(api, path)).text).toBe(before.text);
    expectStatus(await api.patch(path, { body: { description: 'y' }, headers: { 'if-none-match': '"old"' } }), 200);
    expectStatus(await api.delete(path, { headers: { 'if-none-match': before.etag } }), 200);
  });

  it('is 404 for an endpoint that does not exist, whatever the conditions say', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const missing = `/webhook-endpoints/${crypto.randomUUID()}`;
    expect((await api.patch(missing, { body: { description: 'x' }, headers: { 'if-match': '*' } })).status).toBe(404);
    expect((await api.delete(missing, { headers: { 'if-match': '"abc"' } })).status).toBe(404);
    expect((await api.delete(missing, { headers: { 'if-none-match': '*' } })).status).toBe(404);
  });
});
