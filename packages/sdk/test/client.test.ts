import { readFileSync } from 'node:fs';
import { DEFAULT_BASE_URL } from '@coinventory/contract/constants';
import { HttpResponse, http, type JsonBodyType } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import DefaultExport, {
  Coinventory,
  CoinventoryError,
  type Fetch,
  KEY_MODES,
  Page,
  TEST_MODE,
  VERSION,
} from '../src/index.js';
import { API_KEY, BASE_URL, makeClient, server, url, useMsw } from './support/msw.js';

useMsw();

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('constructing a client', () => {
  it('takes the key from COINVENTORY_API_KEY when none is passed', async () => {
    vi.stubEnv('COINVENTORY_API_KEY', 'cvk_live_fromTheEnvironment');
    let authorization: string | null = null;
    server.use(
      http.get(url('/me'), ({ request }) => {
        authorization = request.headers.get('authorization');
        return HttpResponse.json({});
      }),
    );
    await new Coinventory({ baseUrl: BASE_URL }).me();
    expect(authorization).toBe('Bearer cvk_live_fromTheEnvironment');
  });

  it('refuses to start without a key, naming both ways to give one', () => {
    vi.stubEnv('COINVENTORY_API_KEY', '');
    expect(() => new Coinventory()).toThrowError(CoinventoryError);
    expect(() => new Coinventory()).toThrowError(/apiKey.*COINVENTORY_API_KEY/);
  });

  it("defaults the base URL to the contract's DEFAULT_BASE_URL, or COINVENTORY_BASE_URL", () => {
    vi.stubEnv('COINVENTORY_BASE_URL', '');
    expect(new Coinventory({ apiKey: API_KEY }).baseUrl).toBe(DEFAULT_BASE_URL);
    vi.stubEnv('COINVENTORY_BASE_URL', 'https://env.example/v1');
    expect(new Coinventory({ apiKey: API_KEY }).baseUrl).toBe('https://env.example/v1');
    expect(new Coinventory({ apiKey: API_KEY, baseUrl: 'https://given.example/v1/' }).baseUrl).toBe(
      'https://given.example/v1',
    );
  });

  it('refuses a base URL that is not http(s) when it is made, before any request, naming where it came from', () => {
    const fetch = vi.fn<Fetch>();
    const refused = (baseUrl: string) => {
      try {
        new Coinventory({ apiKey: API_KEY, baseUrl, fetch });
      } catch (error) {
        expect(error).toBeInstanceOf(CoinventoryError);
        return (error as Error).message;
      }
      throw new Error(`${baseUrl} was taken`);
    };
    // The usual slip, a missing scheme, is named with what was probably meant.
    expect(refused('localhost:3000/v1')).toBe(
      `baseUrl must be an http or https URL such as ${DEFAULT_BASE_URL}; got "localhost:3000/v1". Did you mean "http://localhost:3000/v1"?`,
    );
    expect(refused('api.dealer.example/v1')).toMatch(/Did you mean "http:\/\/api\.dealer\.example\/v1"\?$/);
    expect(refused('ftp://files.example/v1')).toBe(
      `baseUrl must be an http or https URL such as ${DEFAULT_BASE_URL}; got "ftp://files.example/v1".`,
    );
    expect(refused('http//localhost:3000')).toBe(
      `baseUrl must be an http or https URL such as ${DEFAULT_BASE_URL}; got "http//localhost:3000".`,
    );
    vi.stubEnv('COINVENTORY_BASE_URL', 'localhost:3000/v1');
    expect(() => new Coinventory({ apiKey: API_KEY, fetch })).toThrowError(
      /^COINVENTORY_BASE_URL must be an http or https URL .*Did you mean "http:\/\/localhost:3000\/v1"\?$/,
    );
    // A baseUrl given outright wins over the variable, which is then not checked.
    expect(new Coinventory({ apiKey: API_KEY, baseUrl: 'http://127.0.0.1:3000/v1', fetch }).baseUrl).toBe(
      'http://127.0.0.1:3000/v1',
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('documents its defaults: 60 s timeout, 2 retries', () => {
    const client = makeClient();
    expect(client.timeoutMs).toBe(60_000);
    expect(client.maxRetries).toBe(2);
  });

  it('rejects nonsensical timeouts and retry counts', () => {
    expect(() => makeClient({ timeoutMs: 0 })).toThrowError(/timeoutMs/);
    expect(() => makeClient({ maxRetries: -1 })).toThrowError(/maxRetries/);
    expect(() => makeClient({ maxRetries: 1.5 })).toThrowError(/maxRetries/);
  });

  it("says the key's mode from its prefix: test for cvk_test_, live for any other key", () => {
    const test = `${TEST_MODE.keyPrefixes.test}unitTestKeyunitTestKeyunitTestKey00`;
    expect(makeClient({ apiKey: test }).mode).toBe('test');
    expect(makeClient().mode).toBe('live');
    // A key of no known shape is the server's to refuse; it never reaches a sandbox, so it is not a test key.
    expect(makeClient({ apiKey: 'not-a-coinventory-key' }).mode).toBe('live');
    expect(makeClient({ apiKey: `x${test}` }).mode).toBe('live');
    vi.stubEnv('COINVENTORY_API_KEY', test);
    expect(new Coinventory({ baseUrl: BASE_URL }).mode).toBe('test');
    expect(KEY_MODES).toEqual(['live', 'test']);
  });

  it('is the default export too', () => {
    expect(DefaultExport).toBe(Coinventory);
  });

  it('does not show the key when logged', () => {
    expect(JSON.stringify(makeClient())).not.toContain(API_KEY);
  });

  it('keeps VERSION equal to package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(VERSION).toBe(pkg.version);
  });
});

describe('requests', () => {
  it('sends the bearer key, JSON accept, and the SDK version in User-Agent and X-Coinventory-Client', async () => {
    let headers: Headers | undefined;
    server.use(
      http.get(url('/me'), ({ request }) => {
        headers = request.headers;
        return HttpResponse.json({ organization: { slug: 'x' } });
      }),
    );
    const me = await makeClient().me();
    expect(me.organization.slug).toBe('x');
    expect(headers?.get('authorization')).toBe(`Bearer ${API_KEY}`);
    expect(headers?.get('accept')).toBe('application/json');
    expect(headers?.get('user-agent')).toBe(`coinventory-sdk-js/${VERSION}`);
    expect(headers?.get('x-coinventory-client')).toBe(`coinventory-sdk-js/${VERSION}`);
    expect(headers?.get('content-type')).toBeNull();
  });

  it('sends per-call headers, such as your own X-Request-Id', async () => {
    let requestId: string | null = null;
    server.use(
      http.get(url('/me'), ({ request }) => {
        requestId = request.headers.get('x-request-id');
        return HttpResponse.json({});
      }),
    );
    await makeClient().me({ headers: { 'X-Request-Id': 'sync-42' } });
    expect(requestId).toBe('sync-42');
  });

  const item = { id: 'it-1', sku: 'SKU-1' };
  const routes: [string, string, (client: Coinventory) => Promise<unknown>, JsonBodyType][] = [
    ['GET', '/me', (c) => c.me(), {}],
    ['GET', '/items', (c) => c.items.list(), { items: [], page: 1, limit: 20, hasMore: false }],
    ['POST', '/items', (c) => c.items.create({ sku: 'SKU-1', title: 'A coin' }), item],
    ['GET', '/items/it-1', (c) => c.items.get('it-1'), item],
    ['PATCH', '/items/it-1', (c) => c.items.update('it-1', { quantity: 2 }), item],
    ['DELETE', '/items/it-1', (c) => c.items.delete('it-1'), { id: 'it-1', deleted: true }],
    ['GET', '/items/it-1/valuations', (c) => c.items.valuations('it-1'), { items: [] }],
    ['GET', '/consignments', (c) => c.consignments.list(), { items: [], page: 1, limit: 20, hasMore: false }],
    ['GET', '/consignments/co-1', (c) => c.consignments.get('co-1'), { id: 'co-1' }],
    ['GET', '/invoices', (c) => c.invoices.list(), { items: [], page: 1, limit: 20, hasMore: false }],
    ['GET', '/invoices/in-1', (c) => c.invoices.get('in-1'), { id: 'in-1' }],
    ['GET', '/categories', (c) => c.categories.list(), { items: [], page: 1, limit: 20, hasMore: false }],
    ['GET', '/categories/ca-1', (c) => c.categories.get('ca-1'), { id: 'ca-1', name: 'Morgan dollars' }],
    ['GET', '/warehouses', (c) => c.warehouses.list(), { items: [], page: 1, limit: 20, hasMore: false }],
    ['GET', '/warehouses/wh-1', (c) => c.warehouses.get('wh-1'), { id: 'wh-1', zones: [] }],
    ['GET', '/changes', (c) => c.changes.list(), { items: [], nextCursor: 'cur-1', hasMore: false }],
    ['GET', '/changes/cursor', (c) => c.changes.cursor(), { cursor: 'cur-1' }],
  ];
  it.each(routes)('%s %s', async (method, path, call, body) => {
    let seen: { method: string; path: string; body: string } | undefined;
    server.use(
      http.all(url('/*'), async ({ request }) => {
        seen = { method: request.method, path: new URL(request.url).pathname, body: await request.text() };
        return HttpResponse.json(body);
      }),
    );
    const result = await call(makeClient());
    expect(seen?.method).toBe(method);
    expect(seen?.path).toBe(`/v1${path}`);
    if (method === 'GET' || method === 'DELETE') expect(seen?.body).toBe('');
    const { items, page, limit, hasMore } = result instanceof Page ? result : ({} as Partial<Page<unknown>>);
    expect(result instanceof Page ? { items, page, limit, hasMore } : result).toEqual(body);
  });

  it('sends bodies as JSON with Content-Type application/json', async () => {
    let received: { type: string | null; body: unknown } | undefined;
    server.use(
      http.patch(url('/items/it-1'), async ({ request }) => {
        received = { type: request.headers.get('content-type'), body: await request.json() };
        return HttpResponse.json({ id: 'it-1' });
      }),
    );
    await makeClient().items.update('it-1', { quantity: 3, description: null, attributes: { toned: true } });
    expect(received).toEqual({
      type: 'application/json',
      body: { quantity: 3, description: null, attributes: { toned: true } },
    });
  });

  it('writes list parameters as a query, leaving out the ones not given', async () => {
    let search: URLSearchParams | undefined;
    server.use(
      http.get(url('/items'), ({ request }) => {
        search = new URL(request.url).searchParams;
        return HttpResponse.json({ items: [], page: 2, limit: 5, hasMore: false });
      }),
    );
    await makeClient().items.list({ status: 'in_stock', sort: 'value_desc', q: 'Morgan & co', page: 2, limit: 5 });
    expect(Object.fromEntries(search ?? [])).toEqual({
      status: 'in_stock',
      sort: 'value_desc',
      q: 'Morgan & co',
      page: '2',
      limit: '5',
    });
    await makeClient().items.list({ status: undefined, limit: 5 });
    expect(Object.fromEntries(search ?? [])).toEqual({ limit: '5' });
  });

  it('rawRequest: sends a repeated parameter for an array, after the query the path holds, and text for non-JSON', async () => {
    let search: [string, string][] = [];
    let method = '';
    server.use(
      http.all(url('/custom'), ({ request }) => {
        search = [...new URL(request.url).searchParams];
        method = request.method;
        return new HttpResponse('plain words', { headers: { 'Content-Type': 'text/plain' } });
      }),
    );
    const body = await makeClient().rawRequest('patch', '/custom?a=1', {
      query: { tag: ['x', 'y'], none: undefined, n: 2 },
      body: {},
    });
    expect(body).toBe('plain words');
    expect(method).toBe('PATCH');
    expect(search).toEqual([
      ['a', '1'],
      ['tag', 'x'],
      ['tag', 'y'],
      ['n', '2'],
    ]);
  });

  it('passes the valuation limit as a query', async () => {
    let limit: string | null = null;
    server.use(
      http.get(url('/items/it-1/valuations'), ({ request }) => {
        limit = new URL(request.url).searchParams.get('limit');
        return HttpResponse.json({ items: [] });
      }),
    );
    expect(await makeClient().items.valuations('it-1', { limit: 50 })).toEqual({ items: [] });
    expect(limit).toBe('50');
  });

  it('percent-encodes path values, so an id cannot reach another route', async () => {
    let path: string | undefined;
    server.use(
      http.get(url('/items/*'), ({ request }) => {
        path = new URL(request.url).pathname;
        return HttpResponse.json({});
      }),
    );
    await makeClient().items.get('a/b?c=d#e f');
    expect(path).toBe('/v1/items/a%2Fb%3Fc%3Dd%23e%20f');
  });

  it.each(['', '.', '..'])('refuses the path value %j without sending anything', async (id) => {
    await expect(makeClient().items.delete(id)).rejects.toThrowError(/Path parameter `id`/);
  });

  it('uses the fetch it is given', async () => {
    const fetch = vi.fn<Fetch>(async () => Response.json({ organization: { slug: 'custom' } }));
    const me = await makeClient({ fetch }).me();
    expect(me.organization.slug).toBe('custom');
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0]?.[0]).toBe(`${BASE_URL}/me`);
  });

  it('throws CoinventoryError with the request id when a 2xx body is not JSON', async () => {
    server.use(
      http.get(url('/me'), () => new HttpResponse('<html>', { status: 200, headers: { 'X-Request-Id': 'req_1' } })),
    );
    await expect(makeClient().me()).rejects.toThrowError(/not JSON \(request id req_1\)/);
  });
});
