import { CONDITIONAL, CORS, IDEMPOTENCY } from '@coinventory/contract';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { removeTempDirs, runToEnd, start, stop, tempDir } from '../support/binary.js';
import { type ApiResponse, call, expectStatus } from '../support/http.js';
import { serverWithOrganization } from '../support/server.js';

/**
 * CORS (CORS_ALLOWED_ORIGINS): off by default; on, exactly the listed origins get Access-Control-* headers, their
 * preflights are answered without a key (and not counted), and a bad origin in the setting stops the start.
 */

afterAll(removeTempDirs);

const ALLOWED = 'https://backoffice.example.com';
const ALSO_ALLOWED = 'http://localhost:5173';
const OTHER = 'https://evil.example.net';

const preflight = (baseUrl: string, path: string, origin: string, method = 'PATCH') =>
  call(baseUrl, 'OPTIONS', path, {
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization, content-type, idempotency-key, if-match',
    },
  });

const remaining = (response: ApiResponse) => Number(/r=(\d+)/.exec(response.headers.get('ratelimit') ?? '')?.[1]);
const varies = (response: ApiResponse) =>
  (response.headers.get('vary') ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .includes('origin');
const listed = (header: string | null) => (header ?? '').split(',').map((name) => name.trim().toLowerCase());

function expectNoCors(response: ApiResponse, label: string) {
  for (const name of [...response.headers.keys()]) expect(name, label).not.toMatch(/^access-control-/);
}

describe('CORS off (the default)', () => {
  const ctx = serverWithOrganization();

  it('sends no CORS header and keeps OPTIONS as it was: 405 with Allow on an API path', async () => {
    const { server, organization } = ctx;
    const options = await preflight(server.baseUrl, '/items', ALLOWED);
    expect(options.status).toBe(405);
    expect(options.headers.get('allow')).toBe('GET, HEAD, POST');
    expect(options.body).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    expectNoCors(options, 'preflight');
    const byId = await preflight(server.baseUrl, `/items/${crypto.randomUUID()}`, ALLOWED);
    expect([byId.status, byId.headers.get('allow')]).toEqual([405, 'GET, HEAD, PATCH, DELETE']);
    const read = await call(server.baseUrl, 'GET', '/me', { key: organization.key, headers: { origin: ALLOWED } });
    expectStatus(read, 200);
    expectNoCors(read, 'GET');
    expect(varies(read)).toBe(false);
  });
});

describe('CORS_ALLOWED_ORIGINS set', () => {
  const ctx = serverWithOrganization({ corsOrigins: [ALLOWED, ALSO_ALLOWED] });

  it('answers an allowed origin’s preflight 204 without a key, not counting it against any key', async () => {
    const { server, organization } = ctx;
    const before = await call(server.baseUrl, 'GET', '/me', { key: organization.key });
    for (const [path, method] of [
      ['/items', 'POST'],
      [`/items/${crypto.randomUUID()}`, 'PATCH'],
      [`/webhook-endpoints/${crypto.randomUUID()}`, 'DELETE'],
      ['/me', 'GET'],
    ] as const) {
      for (const origin of [ALLOWED, ALSO_ALLOWED]) {
        const response = await preflight(server.baseUrl, path, origin, method);
        const label = `${origin} ${method} ${path}`;
        expect(response.status, label).toBe(204);
        expect(response.text, label).toBe('');
        expect(response.headers.get('access-control-allow-origin'), label).toBe(origin);
        expect(response.headers.get('access-control-allow-credentials'), label).toBeNull();
        expect(listed(response.headers.get('access-control-allow-methods'))).toEqual(
          CORS.allowedMethods.map((name) => name.toLowerCase()),
        );
        const headers = listed(response.headers.get('access-control-allow-headers'));
        for (const name of [
          'authorization',
          'content-type',
          IDEMPOTENCY.header,
          CONDITIONAL.ifMatchHeader,
          CONDITIONAL.ifNoneMatchHeader,
          'x-request-id',
        ]) {
          expect(headers, label).toContain(name.toLowerCase());
        }
        expect(response.headers.get('access-control-max-age'), label).toBe(String(CORS.maxAgeSeconds));
        expect(varies(response), label).toBe(true);
        expect(response.headers.get('ratelimit'), label).toBeNull();
      }
    }
    const after = await call(server.baseUrl, 'GET', '/me', { key: organization.key });
    // Eight preflights in between, and only the second GET counted.
    expect(remaining(after)).toBe(remaining(before) - 1);
  });

  it('gives an allowed origin’s requests the origin and the headers a script may read, errors included', async () => {
    const { server, organization } = ctx;
    const read = await call(server.baseUrl, 'GET', '/me', { key: organization.key, headers: { origin: ALLOWED } });
    expectStatus(read, 200);
    expect(read.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(varies(read)).toBe(true);
    const exposed = listed(read.headers.get('access-control-expose-headers'));
    for (const name of [
      'etag',
      'ratelimit',
      'ratelimit-policy',
      'retry-after',
      'x-request-id',
      IDEMPOTENCY.replayedHeader.toLowerCase(),
      'coinventory-changes-cursor',
      ...CORS.exposedHeaders.map((name) => name.toLowerCase()),
    ]) {
      expect(exposed, name).toContain(name);
    }
    // Every exposed header the answer carries is one the script can now read.
    for (const name of ['etag', 'ratelimit', 'ratelimit-policy', 'x-request-id']) {
      expect(read.headers.get(name), name).not.toBeNull();
    }
    const refused = await call(server.baseUrl, 'GET', '/me', { headers: { origin: ALSO_ALLOWED } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe(ALSO_ALLOWED);
    const write = await call(server.baseUrl, 'POST', '/items', {
      key: organization.key,
      headers: { origin: ALLOWED, [IDEMPOTENCY.header]: crypto.randomUUID() },
      body: { sku: `CORS-${crypto.randomUUID()}`, title: 'From the back office' },
    });
    expectStatus(write, 200);
    expect(write.headers.get('access-control-allow-origin')).toBe(ALLOWED);
  });

  it('gives any other origin no CORS header at all, and its preflight the 405 it always had', async () => {
    const { server, organization } = ctx;
    for (const origin of [OTHER, 'null', `${ALLOWED}.evil.example`, 'https://BACKOFFICE.example.com', `${ALLOWED}/`]) {
      const read = await call(server.baseUrl, 'GET', '/me', { key: organization.key, headers: { origin } });
      expectStatus(read, 200);
      expectNoCors(read, origin);
      expect(varies(read), origin).toBe(true);
      const options = await preflight(server.baseUrl, '/items', origin);
      expect([options.status, options.headers.get('allow')], origin).toEqual([405, 'GET, HEAD, POST']);
      expectNoCors(options, origin);
    }
    // Without an Origin (a server-side client), nothing changes either.
    const plain = await call(server.baseUrl, 'GET', '/me', { key: organization.key });
    expectNoCors(plain, 'no Origin');
  });
});

describe('CORS_ALLOWED_ORIGINS in the binary', () => {
  it('refuses to start on an entry that is not an origin, naming it and what to write instead', async () => {
    const dataDir = tempDir();
    const cases = [
      [`${ALLOWED},https://shop.example.com/`, '"https://shop.example.com/"', 'write https://shop.example.com'],
      ['*', '"*" is not allowed', 'list each origin'],
      ['shop.example.com', '"shop.example.com" is not an origin', 'scheme://host[:port]'],
    ] as const;
    const results = await Promise.all(
      cases.map(([value]) => runToEnd(['start'], { COINVENTORY_DATA_DIR: dataDir, CORS_ALLOWED_ORIGINS: value })),
    );
    for (const [index, [value, named, hint]] of cases.entries()) {
      const result = results[index];
      expect(result?.code, value).toBe(2);
      expect(result?.stderr, value).toContain('CORS_ALLOWED_ORIGINS');
      expect(result?.stderr, value).toContain(named);
      expect(result?.stderr, value).toContain(hint);
    }
  });

  it('answers the listed origins’ preflights once started with it', async () => {
    // On the suite's PostgreSQL cluster where there is one: a start there takes no demo organization to create.
    const postgresUrl = inject('postgresUrl');
    const server = await start({
      COINVENTORY_DATA_DIR: tempDir(),
      ...(postgresUrl && { DATABASE_URL: postgresUrl, SYNC_WORKER: 'off' }),
      CORS_ALLOWED_ORIGINS: ` ${ALLOWED} , ${ALSO_ALLOWED} `,
    });
    try {
      for (const origin of [ALLOWED, ALSO_ALLOWED]) {
        const response = await preflight(server.baseUrl, '/items', origin, 'POST');
        expect([response.status, response.headers.get('access-control-allow-origin')]).toEqual([204, origin]);
      }
      expectNoCors(await preflight(server.baseUrl, '/items', OTHER, 'POST'), OTHER);
    } finally {
      await stop(server);
    }
  });
});
