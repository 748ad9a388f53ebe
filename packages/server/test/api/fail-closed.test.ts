import { type ContractRoute, contractRoutes } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY } from '../support/errors.js';
import { expectHealth, expectInternalError } from '../support/fail-closed.js';
import { call } from '../support/http.js';
import { createTestOrganization, type TestOrganization } from '../support/organization.js';
import { requestFor, type SeededResources, seedResources, send } from '../support/routes.js';
import { startTestServer, type TestServer } from '../support/server.js';

const everyRoute = contractRoutes.map((entry) => [entry.key, entry] as const);

describe('the database pool is closed under a running server', () => {
  let server: TestServer;
  let organization: TestOrganization;
  let data: SeededResources;

  const sendWith = (entry: ContractRoute, key: string | null) => send(server.baseUrl, requestFor(entry, data), { key });

  beforeAll(async () => {
    server = await startTestServer();
    organization = await createTestOrganization(server.database.sql);
    data = await seedResources(server.database.sql, server.baseUrl, organization, 'FAIL');
    // Reachable first: the same request succeeds.
    expect((await call(server.baseUrl, 'GET', '/me', { key: organization.key })).status).toBe(200);
    await expectHealth(server, true);
    await server.database.sql.end({ timeout: 1 });
  });
  afterAll(() => server.close());

  it.each(everyRoute)('%s with a read/write key → 500 Internal server error', async (_key, entry) => {
    expectInternalError(await sendWith(entry, organization.key), entry.key);
  });

  it.each(everyRoute)('%s with a read-only key → 500 (the key cannot be checked)', async (_key, entry) => {
    expectInternalError(await sendWith(entry, organization.readKey), entry.key);
  });

  it('many requests in a row: every one fails closed, none is admitted', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => call(server.baseUrl, 'GET', '/me', { key: organization.key })),
    );
    for (const response of responses) expectInternalError(response, 'GET /me');
  });

  it('a request without a key is still 401 (no store needed to refuse it)', async () => {
    const response = await call(server.baseUrl, 'GET', '/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(ERROR_BODY.UNAUTHORIZED);
  });

  it('GET /readyz → 503 while GET /healthz → 200', async () => {
    await expectHealth(server, false);
  });
});

// The store refusing connections, then coming back: only a real PostgreSQL can be told to refuse them.
