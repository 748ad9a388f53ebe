import { ERRORS, MeSchema, RATE_LIMIT } from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client } from '../../support/http.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { createWorkspace, type TestWorkspace } from '../../support/workspace.js';

let server: TestServer;
let workspace: TestWorkspace;

beforeAll(async () => {
  server = await startTestServer();
  workspace = await createWorkspace(server.database.sql);
});
afterAll(() => server.close());

describe('GET /me', () => {
  it('returns the organization, the key and the rate limit, exactly as the contract shapes them', async () => {
    const response = await client(server.baseUrl, workspace.key).get('/me');
    expect(response.status).toBe(200);
    expect(MeSchema.strict().parse(response.body)).toEqual({
      organization: { id: workspace.organizationId, name: workspace.name, slug: workspace.slug },
      apiKey: { id: workspace.keyId, name: 'test read/write', expiresAt: null, scopes: ['read', 'write'] },
      rateLimit: { maxRequests: RATE_LIMIT.maxRequests, windowSeconds: RATE_LIMIT.windowSeconds },
    });
    expect(response.body).toMatchObject({ rateLimit: { maxRequests: 120, windowSeconds: 60 } });
  });

  it('shows a read-only key its single scope', async () => {
    const response = await client(server.baseUrl, workspace.readKey).get<{ apiKey: { scopes: string[] } }>('/me');
    expect(response.status).toBe(200);
    expect(response.body.apiKey.scopes).toEqual(['read']);
  });

  it('answers 401 without a key', async () => {
    const response = await client(server.baseUrl, null).get('/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: 'UNAUTHORIZED', message: ERRORS.UNAUTHORIZED.message });
  });
});
