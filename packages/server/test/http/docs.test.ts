import { contractRoutes } from '@coinventory/contract';
import openApiDocument from '@coinventory/contract/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY } from '../support/errors.js';
import { call } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

let server: TestServer;
let proxied: TestServer;
beforeAll(async () => {
  [server, proxied] = await Promise.all([
    startTestServer(),
    startTestServer({ publicBaseUrl: 'https://api.liberty-coin.example/v1' }),
  ]);
});
afterAll(async () => {
  await Promise.all([server.close(), proxied.close()]);
});

describe('GET /', () => {
  it('points at the API, its OpenAPI document and its reference, without a key, each of which answers', async () => {
    const response = await call(server.origin, 'GET', '/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      name: 'Coinventory API',
      api: server.baseUrl,
      openapi: `${server.baseUrl}/openapi.json`,
      docs: `${server.origin}/docs`,
    });
    const { openapi, docs } = response.body as { openapi: string; docs: string };
    for (const url of [openapi, docs]) expect((await fetch(url)).status).toBe(200);
    const me = await fetch(`${server.baseUrl}/me`);
    expect(me.status).toBe(401);
  });

  it('names the public base URL behind a proxy, and answers 405 with Allow to other methods', async () => {
    const proxiedIndex = await call(proxied.origin, 'GET', '/');
    expect(proxiedIndex.body).toMatchObject({
      api: 'https://api.liberty-coin.example/v1',
      openapi: 'https://api.liberty-coin.example/v1/openapi.json',
      docs: 'https://api.liberty-coin.example/docs',
    });
    const post = await call(server.origin, 'POST', '/');
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    expect(post.body).toEqual(ERROR_BODY.METHOD_NOT_ALLOWED);
  });
});

describe('GET /v1/openapi.json', () => {
  it('serves the contract document without a key, naming this server as its base URL', async () => {
    const response = await call(server.origin, 'GET', '/v1/openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.body).toEqual({
      ...openApiDocument,
      servers: [{ url: server.baseUrl, description: expect.any(String) }],
    });
    const operations = Object.values((response.body as typeof openApiDocument).paths).flatMap((ops) =>
      Object.values(ops).map((op) => op.operationId),
    );
    expect(operations.sort()).toEqual(contractRoutes.map(({ route }) => route.metadata.operationId).sort());
  });

  it('names the configured public base URL behind a proxy', async () => {
    const response = await call(proxied.origin, 'GET', '/v1/openapi.json');
    expect((response.body as typeof openApiDocument).servers).toEqual([
      { url: 'https://api.liberty-coin.example/v1', description: expect.any(String) },
    ]);
  });

  it('answers HEAD, and 405 with Allow for other methods', async () => {
    expect((await call(server.origin, 'HEAD', '/v1/openapi.json')).status).toBe(200);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const response = await call(server.origin, method, '/v1/openapi.json');
      expect(response.status, method).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD');
      expect(response.body).toEqual(ERROR_BODY.METHOD_NOT_ALLOWED);
    }
  });

  it('ignores a key, valid or not: the description is public', async () => {
    const response = await call(server.origin, 'GET', '/v1/openapi.json', { key: 'cvk_live_not-a-key' });
    expect(response.status).toBe(200);
  });
});

describe('GET /docs', () => {
  it('serves the interactive reference page, loading only same-origin assets under a strict CSP', async () => {
    const response = await call(server.origin, 'GET', '/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    const urls = [...response.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1] ?? '');
    expect(urls.length).toBeGreaterThanOrEqual(4);
    for (const url of urls) expect(url, url).toMatch(/^\/(docs\/assets|v1)\//);
    expect(response.text).not.toMatch(/<script>(?!<\/script>)/);
  });

  it('serves every asset the page names; the vendored ones with a cache lifetime', async () => {
    const page = await call(server.origin, 'GET', '/docs');
    const assets = [...page.text.matchAll(/(?:src|href)="(\/docs\/assets\/[^"]+)"/g)].map((match) => match[1] ?? '');
    expect(assets).toHaveLength(4);
    for (const asset of assets) {
      const response = await call(server.origin, 'GET', asset);
      expect(response.status, asset).toBe(200);
      expect(response.headers.get('content-type'), asset).toMatch(
        /^(text\/css|text\/javascript|application\/javascript|image\/png)/,
      );
      expect(response.text.length, asset).toBeGreaterThan(100);
      // Our own init script may change with a release; Swagger UI's files only with the package.
      const cache = response.headers.get('cache-control');
      expect(cache, asset).toBe(asset.endsWith('/init.js') ? 'no-cache' : 'public, max-age=86400');
    }
  });

  it('points Swagger UI at the served document and turns off its online validator', async () => {
    const init = await call(server.origin, 'GET', '/docs/assets/init.js');
    expect(init.text).toContain('url: "/v1/openapi.json"');
    expect(init.text).toContain('validatorUrl: null');
  });

  it('answers 404 for other asset names, including inherited property names', async () => {
    for (const name of ['index.html', 'swagger-ui.js.map', 'constructor', '__proto__', '..%2Fpackage.json']) {
      const response = await call(server.origin, 'GET', `/docs/assets/${name}`);
      expect(response.status, name).toBe(404);
      expect((response.body as { code: string }).code, name).toBe('NOT_FOUND');
    }
  });

  it('answers 405 with Allow for methods other than GET and HEAD', async () => {
    const response = await call(server.origin, 'POST', '/docs');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });
});
