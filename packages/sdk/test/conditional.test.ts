import { CONDITIONAL, ERRORS } from '@coinventory/contract/constants';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import {
  APIError,
  APIPromise,
  type Coinventory,
  InternalServerError,
  NOT_MODIFIED,
  PreconditionFailedError,
} from '../src/index.js';
import { errorBody, makeClient, server, url, useMsw } from './support/msw.js';

useMsw();

const ETAG = '"v1-4f2a"';
const item = { id: 'it-1', sku: 'SKU-1', title: 'A coin' };

/**
 * Serves GET `path` the way the API does: `body` with a strong ETag, or 304 without a body when If-None-Match names
 * that ETag. Records the If-None-Match of each request.
 */
function conditionalGet(path: string, body: object, etag = ETAG): (string | null)[] {
  const seen: (string | null)[] = [];
  server.use(
    http.get(url(path), ({ request }) => {
      const ifNoneMatch = request.headers.get(CONDITIONAL.ifNoneMatchHeader);
      seen.push(ifNoneMatch);
      if (ifNoneMatch === etag) return new HttpResponse(null, { status: 304, headers: { ETag: etag } });
      return HttpResponse.json(body, { headers: { ETag: etag, 'X-Request-Id': 'req_etag' } });
    }),
  );
  return seen;
}

describe('withResponse()', () => {
  it('gives the body with the ETag, the request id and the response', async () => {
    conditionalGet('/items/it-1', item);
    const { data, etag, requestId, response } = await makeClient().items.get('it-1').withResponse();
    expect(data).toEqual(item);
    expect(etag).toBe(ETAG);
    expect(requestId).toBe('req_etag');
    expect(response.status).toBe(200);
    expect(response.headers.get('etag')).toBe(ETAG);
  });

  it('sends one request whichever of the two is awaited, and the promise still awaits to the body', async () => {
    const seen = conditionalGet('/items/it-1', item);
    const call = makeClient().items.get('it-1');
    expect(call).toBeInstanceOf(Promise);
    expect(call).toBeInstanceOf(APIPromise);
    const [body, { data }] = await Promise.all([call, call.withResponse()]);
    expect(body).toEqual(item);
    expect(data).toBe(body);
    expect(seen).toHaveLength(1);
  });

  it('gives undefined for a response without an ETag', async () => {
    server.use(http.get(url('/me'), () => HttpResponse.json({})));
    expect((await makeClient().me().withResponse()).etag).toBeUndefined();
  });

  it('rejects with the API error, through then, catch and withResponse alike', async () => {
    server.use(
      http.get(url('/items/it-1'), () => HttpResponse.json(errorBody('NOT_FOUND', 'Not found'), { status: 404 })),
    );
    const client = makeClient();
    await expect(client.items.get('it-1')).rejects.toBeInstanceOf(APIError);
    await expect(client.items.get('it-1').withResponse()).rejects.toMatchObject({ status: 404 });
    expect(await client.items.get('it-1').catch((error: unknown) => error)).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('ifNoneMatch: reading again only what changed', () => {
  const gets: [string, string, object, (client: Coinventory, ifNoneMatch: string) => Promise<unknown>][] = [
    ['client.me', '/me', {}, (c, ifNoneMatch) => c.me({ ifNoneMatch })],
    ['items.get', '/items/it-1', item, (c, ifNoneMatch) => c.items.get('it-1', { ifNoneMatch })],
    [
      'items.valuations',
      '/items/it-1/valuations',
      { items: [] },
      (c, v) => c.items.valuations('it-1', {}, { ifNoneMatch: v }),
    ],
    [
      'consignments.get',
      '/consignments/co-1',
      { id: 'co-1' },
      (c, v) => c.consignments.get('co-1', { ifNoneMatch: v }),
    ],
    ['invoices.get', '/invoices/in-1', { id: 'in-1' }, (c, v) => c.invoices.get('in-1', { ifNoneMatch: v })],
    ['categories.get', '/categories/ca-1', { id: 'ca-1' }, (c, v) => c.categories.get('ca-1', { ifNoneMatch: v })],
    ['warehouses.get', '/warehouses/wh-1', { id: 'wh-1' }, (c, v) => c.warehouses.get('wh-1', { ifNoneMatch: v })],
  ];

  it.each(gets)(
    '%s resolves to NOT_MODIFIED on a 304, and to the body when it changed',
    async (_name, path, body, call) => {
      const seen = conditionalGet(path, body);
      const client = makeClient();
      expect(await call(client, ETAG)).toBe(NOT_MODIFIED);
      expect(await call(client, '"an-older-one"')).toEqual(body);
      expect(seen).toEqual([ETAG, '"an-older-one"']);
    },
  );

  it('keeps the ETag of a 304 in withResponse()', async () => {
    conditionalGet('/items/it-1', item);
    const answer = await makeClient().items.get('it-1', { ifNoneMatch: ETAG }).withResponse();
    expect(answer).toMatchObject({ data: NOT_MODIFIED, etag: ETAG });
    expect(answer.response.status).toBe(304);
  });

  it('sends no If-None-Match without the option, or with it undefined', async () => {
    const seen = conditionalGet('/items/it-1', item);
    await makeClient().items.get('it-1');
    await makeClient().items.get('it-1', { ifNoneMatch: undefined });
    expect(seen).toEqual([null, null]);
  });

  it('works through client.request for any GET, lists included', async () => {
    const page = { items: [], page: 1, limit: 20, hasMore: false };
    conditionalGet('/items', page);
    expect(await makeClient().request('items.list', {}, { ifNoneMatch: ETAG })).toBe(NOT_MODIFIED);
    expect(await makeClient().request('items.list', {}, { ifNoneMatch: '"x"' })).toEqual(page);
  });

  it('is a symbol shared by every copy of the SDK', () => {
    expect(NOT_MODIFIED).toBe(Symbol.for('coinventory.notModified'));
  });
});

describe('ifMatch: changing only the version you read', () => {
  /** Serves `verb path`: 412 unless If-Match names the current ETag. Records each If-Match. */
  function conditionalWrite(
    verb: 'patch' | 'delete' | 'post',
    answer: object,
    path = '/items/it-1',
  ): (string | null)[] {
    const seen: (string | null)[] = [];
    server.use(
      http[verb](url(path), ({ request }) => {
        const ifMatch = request.headers.get(CONDITIONAL.ifMatchHeader);
        seen.push(ifMatch);
        if (ifMatch !== null && ifMatch !== ETAG) {
          const body = errorBody('PRECONDITION_FAILED', ERRORS.PRECONDITION_FAILED.message);
          return HttpResponse.json(body, { status: 412, headers: { 'X-Request-Id': 'req_412' } });
        }
        return HttpResponse.json(answer, { headers: { ETag: '"v2"' } });
      }),
    );
    return seen;
  }

  it('update sends If-Match and resolves when the ETag still matches; withResponse gives the new ETag', async () => {
    const seen = conditionalWrite('patch', item);
    const { data, etag } = await makeClient().items.update('it-1', { quantity: 2 }, { ifMatch: ETAG }).withResponse();
    expect(data).toEqual(item);
    expect(etag).toBe('"v2"');
    expect(seen).toEqual([ETAG]);
  });

  it.each([
    [
      'update',
      'patch',
      '/items/it-1',
      (c: Coinventory) => c.items.update('it-1', { quantity: 2 }, { ifMatch: '"stale"' }),
    ],
    ['delete', 'delete', '/items/it-1', (c: Coinventory) => c.items.delete('it-1', { ifMatch: '"stale"' })],
    [
      'adjust',
      'post',
      '/items/it-1/adjustments',
      (c: Coinventory) => c.items.adjust('it-1', { sold: 1, available: -1, reason: 'sale' }, { ifMatch: '"stale"' }),
    ],
  ] as const)('%s rejects with PreconditionFailedError on a 412, without retrying', async (_name, verb, path, call) => {
    const seen = conditionalWrite(verb, { id: 'it-1', deleted: true }, path);
    const error = await call(makeClient()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreconditionFailedError);
    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({
      name: 'PreconditionFailedError',
      status: 412,
      code: 'PRECONDITION_FAILED',
      message: ERRORS.PRECONDITION_FAILED.message,
      requestId: 'req_412',
    });
    expect(seen).toEqual(['"stale"']);
  });

  it('sends no If-Match without the option', async () => {
    const seen = conditionalWrite('delete', { id: 'it-1', deleted: true });
    await makeClient().items.delete('it-1');
    expect(seen).toEqual([null]);
  });
});
