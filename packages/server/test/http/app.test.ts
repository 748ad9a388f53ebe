import { randomUUID } from 'node:crypto';
import { contractRoutes, type Item, MAX_BODY_BYTES } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY } from '../support/errors.js';
import { type ApiResponse, call, client } from '../support/http.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import { rowCounts, type SeededResources, seedResources } from '../support/routes.js';
import { startTestServer, type TestServer } from '../support/server.js';

const JSON_TYPE = /^application\/json(;|$)/;

let server: TestServer;
let organization: TestOrganization;
let data: SeededResources;

beforeAll(async () => {
  // This suite sends far more than 120 requests with one key; the rate limit has its own suite.
  server = await startTestServer({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
  organization = await createTestOrganization(server.database.sql);
  data = await seedResources(server.database.sql, server.baseUrl, organization, 'HTTP');
});
afterAll(() => server.close());

const counts = () => rowCounts(server.database.sql, organization.organizationId);
const getItem = () => client(server.baseUrl, organization.key).get<Item>(`/items/${data.itemId}`);

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
        key: organization.key,
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
        key: organization.key,
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
      key: organization.key,
      rawBody: raw,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual(ERROR_BODY.PAYLOAD_TOO_LARGE);
  });

  it(`a body of exactly ${MAX_BODY_BYTES} bytes is read (then refused for its too-long description, not its size)`, async () => {
    const before = await counts();
    const response = await call(server.baseUrl, 'POST', '/items', {
      key: organization.key,
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
        key: organization.key,
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
      headers: { authorization: `Bearer ${organization.key}` },
      body: new TextEncoder().encode(JSON.stringify({ sku: randomUUID(), title: 'No media type' })),
    });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual(ERROR_BODY.UNSUPPORTED_MEDIA_TYPE);
    expect(await counts()).toEqual(before);
  });

  it('JSON declared with a charset other than UTF-8 → 415', async () => {
    const response = await call(server.baseUrl, 'POST', '/items', {
      key: organization.key,
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
      key: organization.key,
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
    // `GET /` is the server's index (test/http/docs.test.ts); `/v1` itself names nothing.
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
    for (const key of [null, organization.key]) {
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
    for (const key of [null, organization.key]) {
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
    const api = client(server.baseUrl, organization.key);
    await call(server.baseUrl, 'PUT', `/items/${data.itemId}`, { key: organization.key, body: { title: 'Put' } });
    await api.post(`/items/${data.itemId}`, { body: { title: 'Post' } });
    await api.delete('/items');
    expect({ counts: await counts(), item: (await getItem()).body }).toEqual(before);
  });
});
