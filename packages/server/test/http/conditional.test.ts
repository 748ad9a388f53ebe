import { CONDITIONAL, type Item } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { etagOf } from '../../src/request/etag.js';
import { changesPage, feedCursor } from '../support/changes.js';
import { ERROR_BODY } from '../support/errors.js';
import { call, expectStatus } from '../support/http.js';
import { createItem, freshApi } from '../support/items.js';
import { readRoutes, requestFor, serverWithResources, uniqueSku } from '../support/routes.js';

const ctx = serverWithResources('Conditional', { policy: { maxRequests: 100_000, windowSeconds: 60 } });

const STRONG_ETAG = /^"[A-Za-z0-9_-]{27}"$/;
const remaining = (headers: Headers) => Number(/r=(\d+)/.exec(headers.get('ratelimit') ?? '')?.[1]);

describe('ETag and If-None-Match on every GET', () => {
  // The export too: it is read whole before it is sent, and its ETag is of those bytes.
  it.each(readRoutes.map((entry) => [entry.key, entry] as const))(
    '%s: 200 with a strong ETag; the same ETag in If-None-Match is 304 with no body, still counted',
    async (_key, entry) => {
      const { server, organization, data } = ctx;
      const request = requestFor(entry, data);
      const first = await call(server.baseUrl, request.method, request.path, { key: organization.key });
      expectStatus(first, 200);
      const etag = first.headers.get(CONDITIONAL.etagHeader) ?? '';
      expect(etag).toMatch(STRONG_ETAG);
      const again = await call(server.baseUrl, request.method, request.path, { key: organization.key });
      expect(again.headers.get('etag')).toBe(etag);
      for (const header of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const cached = await call(server.baseUrl, request.method, request.path, {
          key: organization.key,
          headers: { 'if-none-match': header },
        });
        expect(cached.status, header).toBe(304);
        expect(cached.text).toBe('');
        expect(cached.headers.get('etag')).toBe(etag);
        expect(remaining(cached.headers)).toBeLessThan(remaining(first.headers));
      }
      const stale = await call(server.baseUrl, request.method, request.path, {
        key: organization.key,
        headers: { 'if-none-match': '"not-this-one"' },
      });
      expect([stale.status, stale.text]).toEqual([200, first.text]);
    },
  );

  it('gives an item a new ETag when it changes, and the ETag a PATCH answers with is the next GET’s', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const item = await createItem(api, { sku: uniqueSku('ETAG'), title: 'Tagged' });
    const before = (await api.get(`/items/${item.id}`)).headers.get('etag');
    const patched = await api.patch(`/items/${item.id}`, { body: { title: 'Retagged' } });
    const after = await api.get(`/items/${item.id}`, { headers: { 'if-none-match': before ?? '' } });
    expectStatus(after, 200);
    expect(after.headers.get('etag')).not.toBe(before);
    expect(patched.headers.get('etag')).toBe(after.headers.get('etag'));
  });
});

describe('If-Match on PATCH and DELETE', () => {
  it('writes when the item still has the ETag, and refuses with 412 otherwise, writing nothing', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const item = await createItem(api, { sku: uniqueSku('MATCH'), title: 'Original', quantity: 1 });
    const etag = (await api.get(`/items/${item.id}`)).headers.get('etag') ?? '';
    const mine = await api.patch<Item>(`/items/${item.id}`, { body: { title: 'Mine' }, headers: { 'if-match': etag } });
    expectStatus(mine, 200);
    const cursor = await feedCursor(api);
    // A second writer still holding the first ETag has not seen "Mine": refused, for every form that names it.
    for (const header of [etag, `W/${etag}`, '"nope", "other"']) {
      const theirs = await api.patch(`/items/${item.id}`, { body: { quantity: 9 }, headers: { 'if-match': header } });
      expect(theirs.status, header).toBe(412);
      expect(theirs.body).toEqual(ERROR_BODY.PRECONDITION_FAILED);
      const refusedDelete = await api.delete(`/items/${item.id}`, { headers: { 'if-match': header } });
      expect(refusedDelete.status, header).toBe(412);
    }
    const now = await api.get<Item>(`/items/${item.id}`);
    expect(now.text).toBe(mine.text);
    expect((await changesPage(api, { after: cursor })).items).toEqual([]);
    const current = now.headers.get('etag') ?? '';
    expectStatus(
      await api.patch(`/items/${item.id}`, { body: { quantity: 2 }, headers: { 'if-match': `"x", ${current}` } }),
      200,
    );
    expectStatus(await api.patch(`/items/${item.id}`, { body: { quantity: 3 }, headers: { 'if-match': '*' } }), 200);
    const latest = (await api.get(`/items/${item.id}`)).headers.get('etag') ?? '';
    expectStatus(await api.delete(`/items/${item.id}`, { headers: { 'if-match': latest } }), 200);
  });

  it('is 404 for an item that does not exist, whatever If-Match says', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const missing = `/items/${crypto.randomUUID()}`;
    expect((await api.patch(missing, { body: { title: 'x' }, headers: { 'if-match': '*' } })).status).toBe(404);
    expect((await api.delete(missing, { headers: { 'if-match': '"abc"' } })).status).toBe(404);
  });
});

describe('the bytes of an answer, small or large', () => {
  it('are JSON.stringify’s text, with its byte length and its ETag, and HEAD gets the same headers alone', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const after = await feedCursor(api);
    // Non-ASCII text, so characters and bytes differ: four changes of about 6 KB each make a page over the 16 KB
    // from which the body leaves as a Buffer; its first change alone stays under it, and leaves as a string.
    for (let i = 0; i < 4; i += 1) {
      await createItem(api, {
        sku: uniqueSku('BYTES'),
        title: `Bytes ${i}`,
        description: 'Pièce “fleur de coin” 🪙 '.repeat(250),
      });
    }
    const pages = {
      small: `/changes?after=${encodeURIComponent(after)}&limit=1`,
      large: `/changes?after=${encodeURIComponent(after)}`,
    };
    for (const [size, path] of Object.entries(pages)) {
      const answer = await api.get(path);
      expectStatus(answer, 200);
      expect(answer.text, size).toBe(JSON.stringify(answer.body));
      const bytes = Buffer.byteLength(answer.text);
      expect(bytes > 16 * 1024, size).toBe(size === 'large');
      expect(answer.headers.get('content-length'), size).toBe(String(bytes));
      expect(answer.headers.get('etag'), size).toBe(etagOf(answer.text));
      const head = await call(ctx.server.baseUrl, 'HEAD', path, { key: ctx.organization.key });
      expect(head.status, size).toBe(200);
      expect(head.text, size).toBe('');
      expect(head.headers.get('content-length'), size).toBe(String(bytes));
      expect(head.headers.get('etag'), size).toBe(answer.headers.get('etag'));
    }
  });
});
