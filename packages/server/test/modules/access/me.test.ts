import { MeSchema, RATE_LIMIT } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { ERROR_BODY } from '../../support/errors.js';
import { client } from '../../support/http.js';
import { serverWithOrganization } from '../../support/server.js';

const suite = serverWithOrganization();

describe('GET /me', () => {
  it('returns the organization, the key and the rate limit, exactly as the contract shapes them', async () => {
    const response = await client(suite.server.baseUrl, suite.organization.key).get('/me');
    expect(response.status).toBe(200);
    expect(MeSchema.strict().parse(response.body)).toEqual({
      organization: {
        id: suite.organization.organizationId,
        name: suite.organization.name,
        slug: suite.organization.slug,
      },
      apiKey: { id: suite.organization.keyId, name: 'test read/write', expiresAt: null, scopes: ['read', 'write'] },
      rateLimit: { maxRequests: RATE_LIMIT.maxRequests, windowSeconds: RATE_LIMIT.windowSeconds },
    });
    expect(response.body).toMatchObject({ rateLimit: { maxRequests: 120, windowSeconds: 60 } });
  });

  it('shows a read-only key its single scope', async () => {
    const response = await client(suite.server.baseUrl, suite.organization.readKey).get<{
      apiKey: { scopes: string[] };
    }>('/me');
    expect(response.status).toBe(200);
    expect(response.body.apiKey.scopes).toEqual(['read']);
  });

  it('answers 401 without a key', async () => {
    const response = await client(suite.server.baseUrl, null).get('/me');
    expect(response.status).toBe(401);
    expect(response.body).toEqual(ERROR_BODY.UNAUTHORIZED);
  });
});
