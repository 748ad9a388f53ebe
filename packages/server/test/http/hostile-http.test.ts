import { deflateSync, gzipSync } from 'node:zlib';
import type { ErrorCode } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { ERROR_BODY } from '../support/errors.js';
import { exchange, expectErrorResponse, head, rawHttpServer, WARN_LEVEL } from '../support/raw-http.js';
import { uniqueSku } from '../support/routes.js';

/**
 * Malformed HTTP, sent as raw bytes: whatever a client gets wrong (the body's encoding, the chunking, the header
 * block), it is answered with a 4xx and the contract's JSON error body, never a 500, an empty body or an
 * error-level log line.
 */

const raw = rawHttpServer();

describe('request bodies that cannot be decoded', () => {
  const post = (encoding: string, body: Buffer) =>
    exchange(raw.port, [
      head('POST /v1/items HTTP/1.1', [
        ['Host', 'localhost'],
        ['Authorization', `Bearer ${raw.organization.key}`],
        ['Content-Type', 'application/json'],
        ['Content-Encoding', encoding],
        ['Content-Length', String(body.length)],
      ]),
      body,
    ]);
  const valid = () => Buffer.from(JSON.stringify({ sku: uniqueSku('ENC'), title: 'Encoded' }));

  it('a well-formed gzip or deflate body is read', async () => {
    expect((await post('gzip', gzipSync(valid()))).status).toBe(200);
    expect((await post('deflate', deflateSync(valid()))).status).toBe(200);
  });

  it.each([
    ['gzip', () => Buffer.from('this is not gzip at all')],
    ['gzip', () => gzipSync(valid()).subarray(0, 20)],
    ['gzip', () => Buffer.concat([gzipSync(valid()).subarray(0, 12), Buffer.alloc(40, 0xff)])],
    ['deflate', () => Buffer.from('this is not deflate either')],
    ['deflate', () => deflateSync(valid()).subarray(0, 8)],
  ])('a corrupt %s body → 400 with the contract body, and nothing is created', async (encoding, body) => {
    const before = await raw.server.database.sql`SELECT count(*)::int AS n FROM items`;
    const response = await post(encoding, body());
    expectErrorResponse(response, 'BAD_REQUEST');
    expect(response.body).toEqual({
      ...ERROR_BODY.BAD_REQUEST,
      issues: [{ message: `body: could not be decoded (Content-Encoding ${encoding})` }],
    });
    expect(await raw.server.database.sql`SELECT count(*)::int AS n FROM items`).toEqual(before);
    expect(raw.capture.errors()).toEqual([]);
  });

  it.each(['x-gzip', 'br', 'identity, gzip'])(
    'a body in an encoding the server does not read (%s) → 415',
    async (encoding) => {
      expectErrorResponse(await post(encoding, Buffer.from('garbage')), 'UNSUPPORTED_MEDIA_TYPE');
      expect(raw.capture.errors()).toEqual([]);
    },
  );
});

describe('requests Node refuses before the app sees them', () => {
  const key = () => `Bearer ${raw.organization.key}`;

  it.each<[string, () => string, ErrorCode]>([
    [
      'two different Content-Length headers',
      () =>
        `POST /v1/items HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${key()}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
      'BAD_REQUEST',
    ],
    [
      'Content-Length beside Transfer-Encoding: chunked',
      () =>
        `POST /v1/items HTTP/1.1\r\nHost: localhost\r\nAuthorization: ${key()}\r\nContent-Type: application/json\r\n` +
        'Content-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      'BAD_REQUEST',
    ],
    [
      'a NUL in a header value',
      () => `GET /v1/me HTTP/1.1\r\nHost: localhost\r\nX-Note: a\u0000b\r\n\r\n`,
      'BAD_REQUEST',
    ],
    ['a header name with a space', () => 'GET /v1/me HTTP/1.1\r\nHost: localhost\r\nX Note: a\r\n\r\n', 'BAD_REQUEST'],
    ['a malformed request line', () => 'GET /v1/me HTTP/9.Z\r\nHost: localhost\r\n\r\n', 'BAD_REQUEST'],
    ['a method with a bad character', () => 'G@T /v1/me HTTP/1.1\r\nHost: localhost\r\n\r\n', 'BAD_REQUEST'],
    [
      'a header block over 16 KB',
      () => `GET /v1/me HTTP/1.1\r\nHost: localhost\r\nX-Padding: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
      'REQUEST_HEADER_FIELDS_TOO_LARGE',
    ],
  ])('%s → %s as JSON', async (_name, request, code) => {
    const response = await exchange(raw.port, [request()]);
    expectErrorResponse(response, code);
    expect(response.headers.connection).toBe('close');
    expect(Number(response.headers['content-length'])).toBe(Buffer.byteLength(response.text));
    expect(raw.capture.errors()).toEqual([]);
  });

  const chunkedHead = () =>
    head('POST /v1/items HTTP/1.1', [
      ['Host', 'localhost'],
      ['Authorization', `Bearer ${raw.organization.key}`],
      ['Content-Type', 'application/json'],
      ['Transfer-Encoding', 'chunked'],
    ]);

  it('bad chunking in the first packet, with a valid key → 400 as JSON, logged at warn, not error', async () => {
    const response = await exchange(raw.port, [`${chunkedHead()}zz\r\n{}\r\n0\r\n\r\n`]);
    expectErrorResponse(response, 'BAD_REQUEST');
    // The app still works on the request whose connection is gone (it reads the key first): it must not call the
    // body it can no longer read a server failure.
    expect((await raw.capture.waitFor('request body could not be read')).level).toBe(WARN_LEVEL);
    expect(raw.capture.errors()).toEqual([]);
  });

  it('bad chunking after the request reached the app → 400 as JSON, logged at warn, not error', async () => {
    const response = await exchange(raw.port, [chunkedHead(), '2\r\n{}\r\n', 'zz\r\n\r\n'], { pauseMs: 150 });
    expectErrorResponse(response, 'BAD_REQUEST');
    expect((await raw.capture.waitFor('request body could not be read')).level).toBe(WARN_LEVEL);
    expect(raw.capture.errors()).toEqual([]);
  });
});
