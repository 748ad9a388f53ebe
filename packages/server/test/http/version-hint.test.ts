// A request that forgot the /v1 prefix (`curl localhost:3000/items`) gets the spec's 404 unchanged, with a header
// and a log line saying where the route is; a path that has no route under /v1 either gets no hint.
import { ERRORS } from '@coinventory/contract';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERSION_HINT_HEADER } from '../../src/http/version-hint.js';
import { call } from '../support/http.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The spec's 404 body, byte for byte as the API sends it. */
const NOT_FOUND_BODY = JSON.stringify({ code: 'NOT_FOUND', message: ERRORS.NOT_FOUND.message });

let server: TestServer;
const logLines: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  const logger = pino({ level: 'info' }, { write: (line: string) => logLines.push(JSON.parse(line)) });
  server = await startTestServer({ logger });
});
afterAll(() => server.close());

const hintLogs = () => logLines.filter((line) => String(line.msg).includes('did you mean'));

describe('a path without /v1', () => {
  it.each([
    ['GET', '/items', '/v1/items'],
    ['GET', '/me', '/v1/me'],
    ['POST', '/items/batch', '/v1/items/batch'],
    [
      'GET',
      '/items/0b5cb2c4-4b8e-4a44-a6a5-0e0c2b0f8d11/valuations',
      '/v1/items/0b5cb2c4-4b8e-4a44-a6a5-0e0c2b0f8d11/valuations',
    ],
    ['DELETE', '/webhook-endpoints/abc', '/v1/webhook-endpoints/abc'],
  ])('%s %s → the spec 404, byte for byte, with a hint to %s', async (method, path, meant) => {
    const before = hintLogs().length;
    const response = await call(server.origin, method, `${path}?limit=5`);
    expect(response.status).toBe(404);
    expect(response.text).toBe(NOT_FOUND_BODY);
    expect(response.headers.get(VERSION_HINT_HEADER)).toBe(
      `no route ${path}; API paths start with /v1: did you mean ${meant}?`,
    );
    const logged = hintLogs().slice(before);
    expect(logged).toEqual([
      expect.objectContaining({ level: 30, method, path, msg: response.headers.get(VERSION_HINT_HEADER) }),
    ]);
    // The request the hint names exists: without a key it is refused for that, not unknown.
    expect((await call(server.origin, method, meant)).status).toBe(401);
  });

  it.each([['/nothing-here'], ['/items/a/b/c'], ['/v1/nothing-here'], ['/v1/v1/items'], ['/item']])(
    '%s, which has no route under /v1 either → the same 404 without a hint',
    async (path) => {
      const before = hintLogs().length;
      const response = await call(server.origin, 'GET', path);
      expect(response.status).toBe(404);
      expect(response.text).toBe(NOT_FOUND_BODY);
      expect(response.headers.get(VERSION_HINT_HEADER)).toBeNull();
      expect(hintLogs().length).toBe(before);
    },
  );
});
