import { connect } from 'node:net';
import { IDEMPOTENCY, type Item } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../src/modules/access/index.js';
import { changesPage, feedCursor } from '../../support/changes.js';
import { ERROR_BODY, expectBadRequest } from '../../support/errors.js';
import { client, expectStatus } from '../../support/http.js';
import { type Api, createItem, freshApi } from '../../support/items.js';
import { uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

const withKey = (key: string, extra: Record<string, string> = {}) => ({ [IDEMPOTENCY.header]: key, ...extra });
const newKey = () => crypto.randomUUID();

async function itemsWithSku(sku: string): Promise<number> {
  const [row] = await ctx.server.database.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM items WHERE organization_id = ${ctx.organization.organizationId} AND sku = ${sku}
  `;
  return row?.n ?? 0;
}

/** Each write route, with a request that succeeds once on a fresh item. */
const WRITES = [
  {
    name: 'POST /items',
    prepare: async (_api: Api) => {
      const sku = uniqueSku('IDEM');
      return { method: 'post' as const, path: '/items', body: { sku, title: 'Once' }, sku };
    },
  },
  {
    name: 'PATCH /items/{id}',
    prepare: async (api: Api) => {
      const item = await createItem(api, { sku: uniqueSku('IDEM'), title: 'Before', quantity: 1 });
      return {
        method: 'patch' as const,
        path: `/items/${item.id}`,
        body: { title: 'After', quantity: 5 },
        sku: item.sku,
      };
    },
  },
  {
    name: 'DELETE /items/{id}',
    prepare: async (api: Api) => {
      const item = await createItem(api, { sku: uniqueSku('IDEM'), title: 'Doomed' });
      return { method: 'delete' as const, path: `/items/${item.id}`, body: undefined, sku: item.sku };
    },
  },
];

describe.each(WRITES)('Idempotency-Key on $name', ({ prepare }) => {
  it('does the write once: a retry gets the same status and bytes, marked replayed, and changes nothing', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const request = await prepare(api);
    const cursor = await feedCursor(api);
    const key = newKey();
    const send = () =>
      api[request.method](request.path, {
        ...(request.body !== undefined && { body: request.body }),
        headers: withKey(key),
      });
    const first = await send();
    expectStatus(first, 200);
    expect(first.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();
    for (let retry = 0; retry < 3; retry += 1) {
      const again = await send();
      expect(again.status).toBe(200);
      expect(again.text).toBe(first.text);
      expect(again.headers.get(IDEMPOTENCY.replayedHeader)).toBe('true');
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
    }
    expect((await changesPage(api, { after: cursor })).items).toHaveLength(1);
    expect(await itemsWithSku(request.sku)).toBe(request.method === 'delete' ? 0 : 1);
  });

  it('refuses the same key with another request: 400 naming the header, and nothing done', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const request = await prepare(api);
    const key = newKey();
    expectStatus(
      await api[request.method](request.path, {
        ...(request.body !== undefined && { body: request.body }),
        headers: withKey(key),
      }),
      200,
    );
    const cursor = await feedCursor(api);
    const other = await api.post('/items', {
      body: { sku: uniqueSku('OTHER'), title: 'Other' },
      headers: withKey(key),
    });
    expectBadRequest(other, ['headers.idempotency-key'], ['different request']);
    expect((await changesPage(api, { after: cursor })).items).toEqual([]);
  });

  it('belongs to the API key that sent it: another key with the same value does its own write', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const second = await freshApi(ctx.server, ctx.organization, 'second key');
    const key = newKey();
    const sku = uniqueSku('SCOPE');
    expectStatus(await api.post('/items', { body: { sku, title: 'One' }, headers: withKey(key) }), 200);
    const theirs = await second.post('/items', { body: { sku: `${sku}-2`, title: 'Two' }, headers: withKey(key) });
    expectStatus(theirs, 200);
    expect(theirs.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();
  });
});

describe('Idempotency-Key', () => {
  it('keeps and replays a 4xx the write answered: a taken SKU stays 409, an unknown item 404', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const taken = await createItem(api, { sku: uniqueSku('TAKEN'), title: 'Taken' });
    const key = newKey();
    const conflict = () => api.post('/items', { body: { sku: taken.sku, title: 'Again' }, headers: withKey(key) });
    const first = await conflict();
    expect(first.status).toBe(409);
    expect(first.body).toEqual(ERROR_BODY.CONFLICT);
    // The SKU is freed; the kept answer still stands for this key (Stripe's rule: a key answers one way).
    expectStatus(await api.delete(`/items/${taken.id}`), 200);
    const again = await conflict();
    expect([again.status, again.text, again.headers.get(IDEMPOTENCY.replayedHeader)]).toEqual([
      409,
      first.text,
      'true',
    ]);
    const missing = `/items/${crypto.randomUUID()}`;
    const gone = newKey();
    expect((await api.patch(missing, { body: { title: 'x' }, headers: withKey(gone) })).status).toBe(404);
    const replay = await api.patch(missing, { body: { title: 'x' }, headers: withKey(gone) });
    expect([replay.status, replay.headers.get(IDEMPOTENCY.replayedHeader)]).toEqual([404, 'true']);
  });

  it('keeps nothing for a request refused before its handler: a retry with a valid body runs', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const key = newKey();
    expectBadRequest(await api.post('/items', { body: { title: 'No SKU' }, headers: withKey(key) }), ['body.sku']);
    const sku = uniqueSku('LATER');
    // A different body with the same key: allowed, as the invalid one was never kept.
    expectStatus(await api.post('/items', { body: { sku, title: 'Valid' }, headers: withKey(key) }), 200);
    expect(await itemsWithSku(sku)).toBe(1);
  });

  it('takes 1 to 255 printable ASCII characters; anything else is a 400 naming the header', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const sku = uniqueSku('KEYS');
    for (const key of ['', 'x'.repeat(IDEMPOTENCY.key.max + 1), 'tab\there']) {
      const response = await api.post('/items', { body: { sku, title: 'Keyed' }, headers: withKey(key) });
      expectBadRequest(response, ['headers.idempotency-key']);
    }
    expect(await itemsWithSku(sku)).toBe(0);
    const longest = 'k'.repeat(IDEMPOTENCY.key.max);
    expectStatus(await api.post('/items', { body: { sku, title: 'Keyed' }, headers: withKey(longest) }), 200);
    expectStatus(await api.post('/items', { body: { sku: `${sku}-b`, title: 'Keyed' }, headers: withKey(' !~') }), 200);
  });

  it('treats the same JSON with its keys in another order as the same request', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const key = newKey();
    const sku = uniqueSku('ORDER');
    const first = await api.post('/items', {
      rawBody: JSON.stringify({ sku, title: 'T', quantity: 2 }),
      headers: withKey(key, { 'content-type': 'application/json' }),
    });
    expectStatus(first, 200);
    const again = await api.post('/items', {
      rawBody: JSON.stringify({ quantity: 2, title: 'T', sku }),
      headers: withKey(key, { 'content-type': 'application/json' }),
    });
    expect([again.status, again.headers.get(IDEMPOTENCY.replayedHeader)]).toEqual([200, 'true']);
  });

  it('ignores the header on GET', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const response = await api.get('/me', { headers: withKey('not-for-reads') });
    expectStatus(response, 200);
    expect(response.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();
  });

  it('forgets an answer after the retention period: the key then does a new write', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const key = newKey();
    const item = await createItem(api, { sku: uniqueSku('AGED'), title: 'Aged', quantity: 1 });
    const patch = () => api.patch<Item>(`/items/${item.id}`, { body: { quantity: 9 }, headers: withKey(key) });
    expectStatus(await patch(), 200);
    await ctx.server.database.sql`
      UPDATE idempotency_keys SET created_at = now() - ${`${IDEMPOTENCY.retentionHours} hours 1 minute`}::interval
      WHERE key = ${key}
    `;
    const later = await patch();
    expectStatus(later, 200);
    expect(later.headers.get(IDEMPOTENCY.replayedHeader)).toBeNull();
  });

  it('concurrent duplicates: one write, and every answer is that write or 409 in use', async () => {
    const api = await freshApi(ctx.server, ctx.organization);
    const key = newKey();
    const sku = uniqueSku('STORM');
    const responses = await Promise.all(
      Array.from({ length: 12 }, () => api.post('/items', { body: { sku, title: 'Storm' }, headers: withKey(key) })),
    );
    const ok = responses.filter((response) => response.status === 200);
    const busy = responses.filter((response) => response.status === 409);
    expect(ok.length + busy.length, responses.map((response) => response.text).join('\n')).toBe(12);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((response) => response.text)).size).toBe(1);
    for (const response of busy) {
      expect(response.body).toEqual(ERROR_BODY.IDEMPOTENCY_KEY_IN_USE);
      expect(response.headers.get('retry-after')).toBe('1');
    }
    expect(await itemsWithSku(sku)).toBe(1);
  });

  it('a POST whose connection drops before the answer, retried with its key, creates exactly one item', async () => {
    const issued = await issueApiKey(ctx.server.database.sql, {
      organizationId: ctx.organization.organizationId,
      createdBy: ctx.organization.ownerId,
      name: 'dropping client',
      scopes: ['read', 'write'],
    });
    const api = client(ctx.server.baseUrl, issued.key);
    const key = newKey();
    const sku = uniqueSku('DROP');
    const body = JSON.stringify({ sku, title: 'Dropped' });
    const { port } = new URL(ctx.server.baseUrl);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(
      [
        'POST /v1/items HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        `Authorization: Bearer ${issued.key}`,
        'Content-Type: application/json',
        `Content-Length: ${Buffer.byteLength(body)}`,
        `${IDEMPOTENCY.header}: ${key}`,
        '',
        body,
      ].join('\r\n'),
    );
    // Gone before any answer: the client cannot know whether the item was made.
    socket.destroy();
    let answer = await api.post('/items', { body: JSON.parse(body), headers: withKey(key) });
    for (let tries = 0; answer.status === 409 && tries < 50; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      answer = await api.post('/items', { body: JSON.parse(body), headers: withKey(key) });
    }
    expectStatus(answer, 200);
    expect((answer.body as Item).sku).toBe(sku);
    expect(await itemsWithSku(sku)).toBe(1);
  });
});
