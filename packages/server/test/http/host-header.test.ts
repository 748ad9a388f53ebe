import { describe, expect, it } from 'vitest';
import {
  exchange,
  expectErrorResponse,
  head,
  type RawResponse,
  rawHttpServer,
  variesOnHost,
} from '../support/raw-http.js';
import { startTestServer } from '../support/server.js';

/**
 * Without PUBLIC_BASE_URL the server names itself after the request's Host header, in cacheable documents (the
 * protected-resource metadata, the OpenAPI document's `servers`) and in the challenges of 401 and 403. A Host that
 * is not a valid host is never copied there (and never turns those answers into 500s), and every such answer says
 * `Vary: Host`. Sent as raw bytes, since an HTTP client would refuse or rewrite most of these headers.
 */

const METADATA_PATH = '/.well-known/oauth-protected-resource/v1';

const raw = rawHttpServer();

describe('the Host header', () => {
  // Not a host: spaces, an unclosed or bogus IPv6 literal, ports out of range, percent signs, non-ASCII, a path,
  // userinfo, a query, an empty value, a label starting with a hyphen, an empty label, a numeric name that is no IPv4,
  // a label over 63 characters, punycode that does not decode.
  const invalidHosts = [
    'a b',
    '[::1',
    'a:99999',
    '%',
    'ä.example',
    'a:0',
    'a:',
    '[::1]x',
    'a/b',
    'user@a.example',
    'a?b',
    '[zz::1]',
    '-a.example',
    'a..example',
    '999.1.1.1',
    'a:80:80',
    '',
    'a#b',
    '"a.example"',
    'a,b.example',
    '<a.example>',
    '%61.example',
    'a\\b',
    `${'a'.repeat(64)}.example`,
    'xn--a.example',
  ];
  const validHosts: Array<[string, string]> = [
    ['localhost:3000', 'http://localhost:3000'],
    ['[::1]:3000', 'http://[::1]:3000'],
    ['example.com', 'http://example.com'],
    ['API.Example.com:8443', 'http://api.example.com:8443'],
    ['192.0.2.7:65535', 'http://192.0.2.7:65535'],
    ['[2001:db8::1]', 'http://[2001:db8::1]'],
  ];

  /** The metadata document, the OpenAPI document and a 401's challenge, as a client sending `host` sees them. */
  async function reflections(host: string) {
    const get = (path: string, extra: Array<[string, string]> = []) =>
      exchange(raw.port, [head(`GET ${path} HTTP/1.1`, [['Host', host], ...extra])]);
    const metadata = await get(METADATA_PATH);
    const openapi = await get('/v1/openapi.json');
    const unauthorized = await get('/v1/items');
    const forbidden = await exchange(raw.port, [
      head('POST /v1/items HTTP/1.1', [
        ['Host', host],
        ['Authorization', `Bearer ${raw.organization.readKey}`],
        ['Content-Type', 'application/json'],
        ['Content-Length', '2'],
      ]),
      '{}',
    ]);
    expect(metadata.status, metadata.text).toBe(200);
    expect(openapi.status, openapi.text).toBe(200);
    expectErrorResponse(unauthorized, 'UNAUTHORIZED');
    expectErrorResponse(forbidden, 'FORBIDDEN');
    for (const response of [metadata, openapi, unauthorized, forbidden]) expect(variesOnHost(response)).toBe(true);
    const resourceMetadata = (response: RawResponse) =>
      /resource_metadata="([^"]*)"/.exec(response.headers['www-authenticate'] ?? '')?.[1];
    return {
      resource: (metadata.body as { resource: string }).resource,
      documentation: (metadata.body as { resource_documentation: string }).resource_documentation,
      server: (openapi.body as { servers: Array<{ url: string }> }).servers[0]?.url,
      challenges: [resourceMetadata(unauthorized), resourceMetadata(forbidden)],
    };
  }

  it.each(invalidHosts)('Host %j is never reflected: the server names its own address instead', async (host) => {
    const seen = await reflections(host);
    // 127.0.0.1:<port>: the address the request reached.
    expect(seen).toEqual({
      resource: `${raw.server.origin}/v1`,
      documentation: `${raw.server.origin}/docs`,
      server: `${raw.server.origin}/v1`,
      challenges: [`${raw.server.origin}${METADATA_PATH}`, `${raw.server.origin}${METADATA_PATH}`],
    });
    expect(raw.capture.errors()).toEqual([]);
  });

  it.each(validHosts)('Host %j is reflected as %s', async (host, origin) => {
    expect(await reflections(host)).toEqual({
      resource: `${origin}/v1`,
      documentation: `${origin}/docs`,
      server: `${origin}/v1`,
      challenges: [`${origin}${METADATA_PATH}`, `${origin}${METADATA_PATH}`],
    });
    expect(raw.capture.errors()).toEqual([]);
  });

  it('behind PUBLIC_BASE_URL nothing depends on the Host: no Vary, whatever it says', async () => {
    const proxied = await startTestServer({ publicBaseUrl: 'https://api.example.com/v1' });
    try {
      const proxiedPort = Number(new URL(proxied.origin).port);
      for (const host of ['a b', 'evil.example']) {
        const metadata = await exchange(proxiedPort, [head(`GET ${METADATA_PATH} HTTP/1.1`, [['Host', host]])]);
        expect(metadata.status).toBe(200);
        expect((metadata.body as { resource: string }).resource).toBe('https://api.example.com/v1');
        expect(variesOnHost(metadata)).toBe(false);
        const unauthorized = await exchange(proxiedPort, [head('GET /v1/items HTTP/1.1', [['Host', host]])]);
        expectErrorResponse(unauthorized, 'UNAUTHORIZED');
        expect(unauthorized.headers['www-authenticate']).toContain(
          'resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/v1"',
        );
        expect(variesOnHost(unauthorized)).toBe(false);
      }
    } finally {
      await proxied.close();
    }
  });
});
