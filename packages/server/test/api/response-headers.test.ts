import { CALLER_REQUEST_ID_PATTERN, type ContractRoute, contractRoutes, RATE_LIMIT } from '@coinventory/contract';
import openApiDocument, { type HeaderObject, type ResponseObject } from '@coinventory/contract/openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiResponse } from '../support/http.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import {
  requestFor,
  routesTakingId,
  type SeededResources,
  seedResources,
  send,
  writeRoutes,
} from '../support/routes.js';
import { startTestServer, type TestServer } from '../support/server.js';

/**
 * The OpenAPI document tells integrators which headers each response carries. These tests hold the server to it:
 * every header the document marks required is on the real response, and no header it leaves out for that status
 * (such as RateLimit on a 401) is.
 */

/** The headers the document describes for the operation's response with this status. */
function documentedHeaders(entry: ContractRoute, status: number): Record<string, HeaderObject> {
  const path = entry.route.path.replace(/:(\w+)/g, '{$1}');
  const response = openApiDocument.paths[path]?.[entry.route.method.toLowerCase()]?.responses[String(status)];
  if (!response) throw new Error(`${entry.key} does not document status ${status}`);
  const resolved: ResponseObject | undefined =
    '$ref' in response
      ? openApiDocument.components.responses[response.$ref.replace('#/components/responses/', '')]
      : response;
  if (!resolved) throw new Error(`${entry.key} ${status}: dangling reference`);
  return resolved.headers ?? {};
}

/** Every header the document names for any response: those it leaves out of one status must be absent there. */
const DESCRIBED = ['X-Request-Id', 'RateLimit-Policy', 'RateLimit', 'WWW-Authenticate', 'Retry-After'];

function expectDocumentedHeaders(entry: ContractRoute, response: ApiResponse, expectedStatus: number) {
  const label = `${entry.key} ${response.status}`;
  expect(response.status, `${label}: ${response.text}`).toBe(expectedStatus);
  const documented = documentedHeaders(entry, response.status);
  for (const [name, header] of Object.entries(documented)) {
    if (header.required) expect(response.headers.get(name), `${label} ${name}`).not.toBeNull();
  }
  for (const name of DESCRIBED) {
    if (response.headers.get(name) !== null) expect(Object.keys(documented), label).toContain(name);
  }
  const rateLimit = response.headers.get('RateLimit');
  if (rateLimit !== null) expect(rateLimit, label).toMatch(/^"default";r=\d+;t=\d+$/);
  const retryAfter = response.headers.get('Retry-After');
  if (retryAfter !== null) expect(Number(retryAfter), label).toBeGreaterThanOrEqual(1);
}

describe('response headers, as the OpenAPI document describes them', () => {
  let server: TestServer;
  let organization: TestOrganization;
  let data: SeededResources;

  beforeAll(async () => {
    server = await startTestServer();
    organization = await createTestOrganization(server.database.sql);
    data = await seedResources(server.database.sql, server.baseUrl, organization, 'HEADERS');
  });
  afterAll(() => server.close());

  // A DELETE removes what it names: each is sent to a victim of its own, so the other routes still find theirs.
  const others = contractRoutes.filter((entry) => entry.route.method !== 'DELETE');
  const deleteRoutes = contractRoutes.filter((entry) => entry.route.method === 'DELETE');

  it.each(others.map((entry) => [entry.key, entry] as const))(
    '%s: 200 with the request id the caller chose, the policy and the key’s standing',
    async (_key, entry) => {
      const requestId = `headers-${entry.key}`;
      expect(requestId).toMatch(CALLER_REQUEST_ID_PATTERN);
      const response = await send(server.baseUrl, requestFor(entry, data), {
        key: organization.key,
        headers: { 'X-Request-Id': requestId },
      });
      expectDocumentedHeaders(entry, response, 200);
      expect(response.headers.get('X-Request-Id')).toBe(requestId);
      expect(response.headers.get('RateLimit-Policy')).toBe(
        `"default";q=${RATE_LIMIT.maxRequests};w=${RATE_LIMIT.windowSeconds}`,
      );
    },
  );

  it.each(deleteRoutes.map((entry) => [entry.key, entry] as const))(
    '%s: 200 with the documented headers',
    async (_key, entry) => {
      const victim = await seedResources(server.database.sql, server.baseUrl, organization, `DEL-${entry.key}`);
      const response = await send(server.baseUrl, requestFor(entry, victim), { key: organization.key });
      expectDocumentedHeaders(entry, response, 200);
      // A request id the caller did not choose is the server's own.
      expect(response.headers.get('X-Request-Id')).toMatch(/^req_[0-9a-f-]{36}$/);
    },
  );

  it.each(contractRoutes.map((entry) => [entry.key, entry] as const))(
    '%s: 401 with a challenge and the policy, but nothing about a key it does not know',
    async (_key, entry) => {
      const response = await send(server.baseUrl, requestFor(entry, data), {
        headers: { 'X-Request-Id': 'not a valid id!' },
      });
      expectDocumentedHeaders(entry, response, 401);
      expect(response.headers.get('RateLimit')).toBeNull();
      expect(response.headers.get('X-Request-Id')).toMatch(/^req_/);
    },
  );

  it.each(writeRoutes.map((entry) => [entry.key, entry] as const))(
    '%s: 403 for a read-only key, with the challenge and the key’s standing',
    async (_key, entry) => {
      const response = await send(server.baseUrl, requestFor(entry, data), { key: organization.readKey });
      expectDocumentedHeaders(entry, response, 403);
      expect(response.headers.get('RateLimit')).not.toBeNull();
    },
  );

  it.each(routesTakingId.map((entry) => [entry.key, entry] as const))(
    '%s: 404 and 400 with the documented headers',
    async (_key, entry) => {
      const missing = await send(server.baseUrl, requestFor(entry, '00000000-0000-4000-8000-000000000000'), {
        key: organization.key,
      });
      expectDocumentedHeaders(entry, missing, 404);
      const malformed = await send(server.baseUrl, requestFor(entry, 'not-a-uuid'), { key: organization.key });
      expectDocumentedHeaders(entry, malformed, 400);
    },
  );

  describe('over the rate limit', () => {
    let limited: TestServer;
    let limitedOrganization: TestOrganization;
    beforeAll(async () => {
      limited = await startTestServer({ policy: { maxRequests: 2, windowSeconds: 60 } });
      limitedOrganization = await createTestOrganization(limited.database.sql);
    });
    afterAll(() => limited.close());

    it('429 with Retry-After, the key’s standing and the policy', async () => {
      const me = contractRoutes.find((entry) => entry.key === 'me');
      if (!me) throw new Error('the contract has no me route');
      const responses: ApiResponse[] = [];
      for (let i = 0; i < 3; i++) {
        responses.push(await send(limited.baseUrl, requestFor(me, 'unused'), { key: limitedOrganization.key }));
      }
      expect(responses.map((response) => response.status)).toEqual([200, 200, 429]);
      const [, , refused] = responses;
      if (!refused) throw new Error('no third response');
      expectDocumentedHeaders(me, refused, 429);
      expect(refused.headers.get('RateLimit')).toMatch(/^"default";r=0;t=\d+$/);
      expect(refused.headers.get('RateLimit-Policy')).toBe('"default";q=2;w=60');
    });
  });
});
