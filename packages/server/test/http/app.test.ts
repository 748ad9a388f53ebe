import { randomUUID } from 'node:crypto';
import { contractRoutes, type Item, MAX_BODY_BYTES } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY } from '../support/errors.js';
import { type ApiResponse, call, client } from '../support/http.js';
import { pathFor, requestFor, rowCounts, type SeededResources, seedResources, send } from '../support/routes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createWorkspace, type TestWorkspace } from '../support/workspace.js';

const JSON_TYPE = /^application\/json(;|$)/;
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

let server: TestServer;
let workspace: TestWorkspace;
let data: SeededResources;

beforeAll(async () => {
  // This suite sends far more than 120 requests with one key; the rate limit has its own suite.
  server = await startTestServer({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
  workspace = await createWorkspace(server.database.sql);
  data = await seedResources(server.database.sql, server.baseUrl, workspace, 'HTTP');
});
afterAll(() => server.close());

const counts = () => rowCounts(server.database.sql, workspace.organizationId);
const getItem = () => client(server.baseUrl, workspace.key).get<Item>(`/items/${data.itemId}`);

/** A 400 whose issues all concern the body as a whole (`body: …`). */
function expectBodyRejected(response: ApiResponse) {
  expect(response.status, response.text).toBe(400);
  expect(response.body).toEqual({
    ...ERROR_BODY.BAD_REQUEST,
    issues: [{ message: expect.stringMatching(/^body: \S/) }],
  });
  expect(response.headers.get('content-type')).toMatch(JSON_TYPE);
}

/** The POST and PATCH that carry a JSON body, each with a valid body for when the transport is right. */
const bodyRoutes = () =>
  [
    ['POST', '/items'],
    ['PATCH', `/items/${data.itemId}`],
  ] as const;

describe('request bodies', () => {
  it.each([
    ...['{"sku": ', '{sku: "A", title: "B"}', "{'sku': 'A'}", '{"sku":"A","title":"B",}', '{"sku":"A"}}', '\u0000'].map(
      (raw) => [`malformed JSON ${JSON.stringify(raw)}`, raw],
    ),
    ...['[]', '[{"sku":"A","title":"B"}]', '"a string"', '42', 'true', 'null'].map((raw) => [
      `a JSON body that is not an object (${raw})`,
      raw,
    ]),
  ])('%s → 400 on POST and PATCH, nothing changes', async (_what, raw) => {
    const before = { counts: await counts(), item: (await getItem()).body };
    for (const [method, path] of bodyRoutes()) {
      const response = await call(server.baseUrl, method, path, {
        key: workspace.key,
        rawBody: raw,
        headers: { 'content-type': 'application/json' },
      });
      expectBodyRejected(response);
    }
    expect({ counts: await counts(), item: (await getItem()).body }).toEqual(before);
  });

  /** `{"sku":…,"title":…,"description":"xxx…"}` padded to exactly `bytes` bytes with `filler`. */
  function bodyOfBytes(bytes: number, filler = 'x'): string {
    const head = `{"sku":"${randomUUID()}","title":"Big","description":"`;
    const tail = '"}';
    const room = bytes - Buffer.byteLength(head + tail);
    const fillerBytes = Buffer.byteLength(filler);
    const body = `${head}${filler.repeat(Math.floor(room / fillerBytes))}${'x'.repeat(room % fillerBytes)}${tail}`;
    expect(Buffer.byteLength(body)).toBe(bytes);
    return body;
  }

  it(`a body of ${MAX_BODY_BYTES + 1} bytes → 413 on POST and PATCH, nothing changes`, async () => {
    const before = { counts: await counts(), item: (await getItem()).body };
    for (const [method, path] of bodyRoutes()) {
      const response = await call(server.baseUrl, method, path, {
        key: workspace.key,
        rawBody: bodyOfBytes(MAX_BODY_BYTES + 1),
        headers: { 'content-type': 'application/json' },
      });
      expect(response.status, `${method} ${path}`).toBe(413);
      expect(response.body).toEqual(ERROR_BODY.PAYLOAD_TOO_LARGE);
      expect(response.headers.get('content-type')).toMatch(JSON_TYPE);
    }
    expect({ counts: await counts(), item: (await getItem()).body }).toEqual(before);
  });

  it('the limit counts bytes, not characters: 600 000 two-byte characters → 413', async () => {
    const raw = bodyOfBytes(MAX_BODY_BYTES + 2, 'é');
    expect(raw.length).toBeLessThan(MAX_BODY_BYTES);
    const response = await call(server.baseUrl, 'POST', '/items', {
      key: workspace.key,
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual(ERROR_BODY.PAYLOAD_TOO_LARGE);
  });

  it(`a body of exactly ${MAX_BODY_BYTES} bytes is read (then refused for its too-long description, not its size)`, async () => {
    const before = await counts();
    const response = await call(server.baseUrl, 'POST', '/items', {
      key: workspace.key,
      rawBody: bodyOfBytes(MAX_BODY_BYTES),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      ...ERROR_BODY.BAD_REQUEST,
      issues: [{ message: expect.stringMatching(/^body\.description: /) }],
    });
    expect(await counts()).toEqual(before);
  });

  it.each([
    'text/plain',
    'text/plain; charset=utf-8',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/json-patch+json',
  ])('a JSON text sent as %s → 415 on POST and PATCH, nothing changes', async (contentType) => {
    const before = { counts: await counts(), item: (await getItem()).body };
    for (const [method, path] of bodyRoutes()) {
      const response = await call(server.baseUrl, method, path, {
        key: workspace.key,
        rawBody: JSON.stringify({ sku: randomUUID(), title: 'Wrong media type' }),
        headers: { 'content-type': contentType },
      });
      expect(response.status, `${method} ${path}`).toBe(415);
      expect(response.body).toEqual(ERROR_BODY.UNSUPPORTED_MEDIA_TYPE);
      expect(response.headers.get('content-type')).toMatch(JSON_TYPE);
    }
    expect({ counts: await counts(), item: (await getItem()).body }).toEqual(before);
  });

  it('a body without any Content-Type → 415, nothing created', async () => {
    const before = await counts();
    const response = await fetch(`${server.baseUrl}/items`, {
      method: 'POST',
      headers: { authorization: `Bearer ${workspace.key}` },
      body: new TextEncoder().encode(JSON.stringify({ sku: randomUUID(), title: 'No media type' })),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual(ERROR_BODY.UNSUPPORTED_MEDIA_TYPE);
    expect(await counts()).toEqual(before);
  });

  it('JSON declared with a charset other than UTF-8 → 415', async () => {
    const response = await call(server.baseUrl, 'POST', '/items', {
      key: workspace.key,
      rawBody: JSON.stringify({ sku: randomUUID(), title: 'Latin-1' }),
      headers: { 'content-type': 'application/json; charset=iso-8859-1' },
    });
    expect(response.status).toBe(415);
    expect(response.body).toEqual(ERROR_BODY.UNSUPPORTED_MEDIA_TYPE);
  });

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'application/json;charset=UTF-8',
    'Application/JSON',
  ])('Content-Type %s is accepted', async (contentType) => {
    const sku = randomUUID();
    const response = await call<Item>(server.baseUrl, 'POST', '/items', {
      key: workspace.key,
      rawBody: JSON.stringify({ sku, title: 'Media type accepted' }),
      headers: { 'content-type': contentType },
    });
    expect(response.status, response.text).toBe(200);
    expect(response.body.sku).toBe(sku);
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/v1/nope'],
    ['GET', '/nope'],
    ['GET', '/v2/items'],
    ['GET', '/'],
    ['GET', '/v1'],
    ['GET', '/v1/'],
    ['GET', '/v1/ITEMS'],
    ['GET', '/v1/items/00000000-0000-4000-8000-000000000000/nope'],
    ['GET', '/v1/me/extra'],
    ['GET', '/items'],
    ['POST', '/v1/nope'],
    ['DELETE', '/nope'],
    ['PUT', '/v2/items'],
  ])('%s %s → 404 JSON, with or without a key', async (method, path) => {
    for (const key of [null, workspace.key]) {
      const response = await call(server.origin, method, path, { key });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
      expect(response.headers.get('content-type')).toMatch(JSON_TYPE);
      expect(response.text).not.toMatch(/<html|<!DOCTYPE|Cannot (GET|POST|PUT|DELETE)/i);
    }
  });
});

describe('methods a path does not document', () => {
  const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  /** Each contract path with the methods it documents, from the contract. */
  const documented = new Map<string, Set<string>>();
  for (const { route } of contractRoutes) {
    const methods = documented.get(route.path) ?? new Set<string>();
    methods.add(route.method);
    documented.set(route.path, methods);
  }
  const cases = [...documented].flatMap(([path, methods]) =>
    METHODS.filter((method) => !methods.has(method)).map((method) => [method, path, [...methods]] as const),
  );

  it('include the ones the spec names: PUT /items, POST /items/{id}, DELETE /items', () => {
    const names = cases.map(([method, path]) => `${method} ${path}`);
    expect(names).toEqual(expect.arrayContaining(['PUT /items', 'POST /items/:id', 'DELETE /items']));
  });

  it.each(cases)('%s %s → 405 with Allow', async (method, path, methods) => {
    const expectedAllow = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].sort();
    const concrete = path.replace(':id', randomUUID());
    for (const key of [null, workspace.key]) {
      const response = await call(server.baseUrl, method, concrete, {
        key,
        ...(method === 'GET' || method === 'DELETE' ? {} : { body: { sku: randomUUID(), title: 'Nope' } }),
      });
      expect(response.status, `${method} ${concrete}`).toBe(405);
      expect(response.body).toEqual(ERROR_BODY.METHOD_NOT_ALLOWED);
      expect(response.headers.get('content-type')).toMatch(JSON_TYPE);
      const allow = (response.headers.get('allow') ?? '').split(',').map((m) => m.trim());
      expect(allow.sort()).toEqual(expectedAllow);
    }
  });

  it('a 405 changes nothing', async () => {
    const before = { counts: await counts(), item: (await getItem()).body };
    const api = client(server.baseUrl, workspace.key);
    await call(server.baseUrl, 'PUT', `/items/${data.itemId}`, { key: workspace.key, body: { title: 'Put' } });
    await api.post(`/items/${data.itemId}`, { body: { title: 'Post' } });
    await api.delete('/items');
    expect({ counts: await counts(), item: (await getItem()).body }).toEqual(before);
  });
});

describe('headers on every response', () => {
  interface Sample {
    label: string;
    path: string;
    response: ApiResponse;
  }

  async function sample(): Promise<Sample[]> {
    const samples: Sample[] = [];
    const add = async (label: string, path: string, response: Promise<ApiResponse>) => {
      samples.push({ label, path, response: await response });
    };
    for (const entry of contractRoutes) {
      if (entry.route.method === 'DELETE') continue;
      const request = requestFor(entry, data);
      await add(`${entry.key} ok`, `/v1${request.path}`, send(server.baseUrl, request, { key: workspace.key }));
      await add(`${entry.key} 401`, `/v1${request.path}`, send(server.baseUrl, request));
      if (entry.route.method !== 'GET') {
        await add(`${entry.key} 403`, `/v1${request.path}`, send(server.baseUrl, request, { key: workspace.readKey }));
      }
      if (entry.route.path.includes(':id')) {
        const missing = requestFor(entry, randomUUID());
        await add(`${entry.key} 404`, `/v1${missing.path}`, send(server.baseUrl, missing, { key: workspace.key }));
        const bad = requestFor(entry, 'bad');
        await add(`${entry.key} 400`, `/v1${bad.path}`, send(server.baseUrl, bad, { key: workspace.key }));
      }
    }
    const throwaway = await client(server.baseUrl, workspace.key).post<Item>('/items', {
      body: { sku: randomUUID(), title: 'To delete' },
    });
    await add('delete ok', '/v1/items/x', client(server.baseUrl, workspace.key).delete(`/items/${throwaway.body.id}`));
    await add('400 query', '/v1/items', client(server.baseUrl, workspace.key).get('/items?limit=0'));
    await add('405', '/v1/items', call(server.baseUrl, 'PUT', '/items', { key: workspace.key }));
    const rawPosts: [label: string, rawBody: string, contentType: string][] = [
      ['413', `"${'x'.repeat(MAX_BODY_BYTES)}"`, 'application/json'],
      ['415', '{}', 'text/plain'],
      ['malformed JSON', '{', 'application/json'],
    ];
    for (const [label, rawBody, contentType] of rawPosts) {
      const posted = call(server.baseUrl, 'POST', '/items', {
        key: workspace.key,
        rawBody,
        headers: { 'content-type': contentType },
      });
      await add(label, '/v1/items', posted);
    }
    await add('404 /v1/nope', '/v1/nope', call(server.origin, 'GET', '/v1/nope'));
    await add('404 /nope', '/nope', call(server.origin, 'GET', '/nope'));
    await add('healthz', '/healthz', call(server.origin, 'GET', '/healthz'));
    await add('readyz', '/readyz', call(server.origin, 'GET', '/readyz'));
    return samples;
  }

  let samples: Sample[];
  beforeAll(async () => {
    samples = await sample();
  });

  it('the sample covers success and every error class the server produces here', () => {
    const statuses = new Set(samples.map((s) => s.response.status));
    for (const status of [200, 400, 401, 403, 404, 405, 413, 415]) expect(statuses, String(status)).toContain(status);
  });

  it('no response carries X-Powered-By', () => {
    for (const { label, response } of samples) expect(response.headers.get('x-powered-by'), label).toBeNull();
  });

  it('every response is JSON, with Content-Type application/json', () => {
    for (const { label, response } of samples) {
      expect(response.headers.get('content-type'), label).toMatch(JSON_TYPE);
      expect(() => JSON.parse(response.text), label).not.toThrow();
    }
  });

  it('every /v1 response, success or error, has Cache-Control: no-store', () => {
    for (const { label, path, response } of samples) {
      if (!path.startsWith('/v1')) continue;
      expect(response.headers.get('cache-control'), label).toBe('no-store');
    }
  });

  it('every response has an X-Request-Id, and no two are the same', () => {
    const ids = samples.map(({ label, response }) => {
      const id = response.headers.get('x-request-id');
      expect(id, label).toMatch(SAFE_REQUEST_ID);
      return id;
    });
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('no error body leaks a stack trace or an internal detail', () => {
    for (const { label, response } of samples) {
      if (response.status < 400) continue;
      expect(response.text, label).not.toMatch(/\bat .+\.(ts|js):\d+|stack|node_modules|postgres|SQLSTATE/i);
      expect(Object.keys(response.body as object).sort(), label).toEqual(expect.arrayContaining(['code', 'message']));
    }
  });
});

describe('X-Request-Id', () => {
  const meWith = (requestId: string, key: string | null = workspace.key) =>
    call(server.baseUrl, 'GET', '/me', { key, headers: { 'x-request-id': requestId } });

  it.each(['abc-123', 'A.b_c:d-9', 'x', 'r'.repeat(128)])(
    'a valid one (%s) is echoed, on success and on errors',
    async (id) => {
      expect((await meWith(id)).headers.get('x-request-id')).toBe(id);
      expect((await meWith(id, null)).headers.get('x-request-id')).toBe(id);
      const notFound = await call(server.origin, 'GET', '/nope', { headers: { 'x-request-id': id } });
      expect(notFound.headers.get('x-request-id')).toBe(id);
    },
  );

  it.each([
    ['too long (129 chars)', 'r'.repeat(129)],
    ['with a space', 'abc 123'],
    ['with a slash', 'abc/123'],
    ['with markup', '<script>alert(1)</script>'],
    ['with a quote', 'abc"123'],
    ['with a newline-like escape', 'abc\\n123'],
  ])('an invalid one (%s) is replaced by a fresh id', async (_label, id) => {
    const first = await meWith(id);
    const second = await meWith(id);
    for (const response of [first, second]) {
      expect(response.status).toBe(200);
      const replaced = response.headers.get('x-request-id');
      expect(replaced).not.toBe(id);
      expect(replaced).toMatch(SAFE_REQUEST_ID);
    }
    expect(first.headers.get('x-request-id')).not.toBe(second.headers.get('x-request-id'));
  });

  it('an empty one is replaced by a fresh id', async () => {
    const response = await meWith('');
    expect(response.headers.get('x-request-id')).toMatch(SAFE_REQUEST_ID);
  });

  it('without one, each request gets its own', async () => {
    const ids = new Set<string | null>();
    for (let i = 0; i < 5; i++)
      ids.add((await client(server.baseUrl, workspace.key).get('/me')).headers.get('x-request-id'));
    expect(ids.size).toBe(5);
    expect(ids.has(null)).toBe(false);
  });
});

describe('health endpoints', () => {
  it('GET /healthz → 200 {status:"ok"} without a key', async () => {
    const response = await call(server.origin, 'GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers.get('content-type')).toMatch(JSON_TYPE);
  });

  it('GET /readyz → 200 without a key (the database is reachable)', async () => {
    const response = await call(server.origin, 'GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok' });
    expect(response.headers.get('content-type')).toMatch(JSON_TYPE);
  });

  it('a bad Authorization header does not affect them', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const response = await call(server.origin, 'GET', path, { headers: { authorization: 'Bearer nope' } });
      expect(response.status, path).toBe(200);
    }
  });
});

describe('contract paths answered by the server', () => {
  it('every contract route is mounted under /v1 (an authorised request never gets 404 or 405)', async () => {
    for (const entry of contractRoutes) {
      const request = requestFor(entry, data);
      if (entry.route.method === 'DELETE') {
        const created = await client(server.baseUrl, workspace.key).post<Item>('/items', {
          body: { sku: randomUUID(), title: 'Mounted' },
        });
        request.path = pathFor(entry.route, created.body.id);
      }
      const response = await send(server.baseUrl, request, { key: workspace.key });
      expect([404, 405], entry.key).not.toContain(response.status);
    }
  });
});
