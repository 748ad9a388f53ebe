import { randomUUID } from 'node:crypto';
import { contractRoutes, type Item, MAX_BODY_BYTES } from '@coinventory/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, call, client } from '../support/http.js';
import { pathFor, requestFor, send, serverWithResources } from '../support/routes.js';

/** What every response carries (security headers, request ids), the health endpoints, and the paths the app serves. */

const JSON_TYPE = /^application\/json(;|$)/;
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

// This suite sends far more than 120 requests with one key; the rate limit has its own suite.
const suite = serverWithResources('HTTP', { policy: { maxRequests: 100_000, windowSeconds: 60 } });

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
      const request = requestFor(entry, suite.data);
      await add(
        `${entry.key} ok`,
        `/v1${request.path}`,
        send(suite.server.baseUrl, request, { key: suite.organization.key }),
      );
      await add(`${entry.key} 401`, `/v1${request.path}`, send(suite.server.baseUrl, request));
      if (entry.route.method !== 'GET') {
        await add(
          `${entry.key} 403`,
          `/v1${request.path}`,
          send(suite.server.baseUrl, request, { key: suite.organization.readKey }),
        );
      }
      if (entry.route.path.includes(':id')) {
        const missing = requestFor(entry, randomUUID());
        await add(
          `${entry.key} 404`,
          `/v1${missing.path}`,
          send(suite.server.baseUrl, missing, { key: suite.organization.key }),
        );
        const bad = requestFor(entry, 'bad');
        await add(
          `${entry.key} 400`,
          `/v1${bad.path}`,
          send(suite.server.baseUrl, bad, { key: suite.organization.key }),
        );
      }
    }
    const throwaway = await client(suite.server.baseUrl, suite.organization.key).post<Item>('/items', {
      body: { sku: randomUUID(), title: 'To delete' },
    });
    await add(
      'delete ok',
      '/v1/items/x',
      client(suite.server.baseUrl, suite.organization.key).delete(`/items/${throwaway.body.id}`),
    );
    await add('400 query', '/v1/items', client(suite.server.baseUrl, suite.organization.key).get('/items?limit=0'));
    await add('405', '/v1/items', call(suite.server.baseUrl, 'PUT', '/items', { key: suite.organization.key }));
    const rawPosts: [label: string, rawBody: string, contentType: string][] = [
      ['413', `"${'x'.repeat(MAX_BODY_BYTES)}"`, 'application/json'],
      ['415', '{}', 'text/plain'],
      ['malformed JSON', '{', 'application/json'],
    ];
    for (const [label, rawBody, contentType] of rawPosts) {
      const posted = call(suite.server.baseUrl, 'POST', '/items', {
        key: suite.organization.key,
        rawBody,
        headers: { 'content-type': contentType },
      });
      await add(label, '/v1/items', posted);
    }
    await add('404 /v1/nope', '/v1/nope', call(suite.server.origin, 'GET', '/v1/nope'));
    await add('404 /nope', '/nope', call(suite.server.origin, 'GET', '/nope'));
    await add('healthz', '/healthz', call(suite.server.origin, 'GET', '/healthz'));
    await add('readyz', '/readyz', call(suite.server.origin, 'GET', '/readyz'));
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

  it("every response is JSON, with Content-Type application/json (an export's 200: NDJSON, a JSON object a line)", () => {
    const streamed = new Set(
      contractRoutes.filter((entry) => entry.route.metadata.streamed).map((entry) => `${entry.key} ok`),
    );
    expect(streamed.size).toBeGreaterThan(0);
    for (const { label, response } of samples) {
      if (streamed.has(label) && response.status === 200) {
        expect(response.headers.get('content-type'), label).toMatch(/^application\/x-ndjson(;|$)/);
        for (const line of response.text.trimEnd().split('\n')) expect(() => JSON.parse(line), label).not.toThrow();
        continue;
      }
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
  const meWith = (requestId: string, key: string | null = suite.organization.key) =>
    call(suite.server.baseUrl, 'GET', '/me', { key, headers: { 'x-request-id': requestId } });

  it.each(['abc-123', 'A.b_c:d-9', 'x', 'r'.repeat(128)])(
    'a valid one (%s) is echoed, on success and on errors',
    async (id) => {
      expect((await meWith(id)).headers.get('x-request-id')).toBe(id);
      expect((await meWith(id, null)).headers.get('x-request-id')).toBe(id);
      const notFound = await call(suite.server.origin, 'GET', '/nope', { headers: { 'x-request-id': id } });
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
      ids.add((await client(suite.server.baseUrl, suite.organization.key).get('/me')).headers.get('x-request-id'));
    expect(ids.size).toBe(5);
    expect(ids.has(null)).toBe(false);
  });
});

describe('health endpoints', () => {
  it('GET /healthz → 200 {status:"ok"} without a key', async () => {
    const response = await call(suite.server.origin, 'GET', '/healthz');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers.get('content-type')).toMatch(JSON_TYPE);
  });

  it('GET /readyz → 200 without a key (the database is reachable)', async () => {
    const response = await call(suite.server.origin, 'GET', '/readyz');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: 'ok' });
    expect(response.headers.get('content-type')).toMatch(JSON_TYPE);
  });

  it('a bad Authorization header does not affect them', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const response = await call(suite.server.origin, 'GET', path, { headers: { authorization: 'Bearer nope' } });
      expect(response.status, path).toBe(200);
    }
  });
});

describe('contract paths answered by the server', () => {
  it('every contract route is mounted under /v1 (an authorised request never gets 404 or 405)', async () => {
    for (const entry of contractRoutes) {
      const request = requestFor(entry, suite.data);
      // A DELETE removes something made for it, so the routes after it still find the seeded one.
      if (entry.key === 'items.delete') {
        const created = await client(suite.server.baseUrl, suite.organization.key).post<Item>('/items', {
          body: { sku: randomUUID(), title: 'Mounted' },
        });
        request.path = pathFor(entry.route, created.body.id);
      } else if (entry.key === 'webhookEndpoints.delete') {
        const created = await client(suite.server.baseUrl, suite.organization.key).post<{ id: string }>(
          '/webhook-endpoints',
          { body: { url: 'https://hooks.example.com/mounted', events: ['*'] } },
        );
        request.path = pathFor(entry.route, created.body.id);
      }
      const response = await send(suite.server.baseUrl, request, { key: suite.organization.key });
      expect([404, 405], entry.key).not.toContain(response.status);
    }
  });
});
