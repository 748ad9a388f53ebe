import { expect } from 'vitest';
import { ERROR_BODY } from './errors.js';
import { type ApiResponse, call } from './http.js';
import type { TestServer } from './server.js';

export const JSON_TYPE = /^application\/json(;|$)/;

export function expectInternalError(response: ApiResponse, label: string) {
  expect(response.status, label).toBe(500);
  expect(response.body, label).toEqual(ERROR_BODY.INTERNAL_SERVER_ERROR);
  expect(response.text, label).toBe(JSON.stringify(ERROR_BODY.INTERNAL_SERVER_ERROR));
  expect(response.headers.get('content-type'), label).toMatch(JSON_TYPE);
  // Nothing was counted, so nothing about the key's standing is reported.
  expect(response.headers.get('ratelimit'), label).toBeNull();
  expect(response.headers.get('retry-after'), label).toBeNull();
}

export async function expectHealth(server: TestServer, ready: boolean) {
  const health = await call(server.origin, 'GET', '/healthz');
  expect(health.status).toBe(200);
  expect(health.body).toEqual({ status: 'ok' });
  const readiness = await call(server.origin, 'GET', '/readyz');
  if (ready) {
    expect(readiness.status).toBe(200);
    expect(readiness.body).toEqual({ status: 'ok', database: 'reachable' });
  } else {
    expect(readiness.status).toBe(503);
    expect(readiness.body).toEqual({ status: 'unavailable', database: 'unreachable' });
  }
  expect(readiness.headers.get('cache-control')).toBe('no-store');
}
