import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { authOf } from '../../request/context.js';
import type { RatePolicy } from './rate-limit.js';

const s = initServer();

/** GET /me: the caller's workspace, its key and the rate limit it is held to. */
export const meRoute = (policy: RatePolicy) =>
  s.route(contract.me, async ({ res }) => {
    const { organization, apiKey } = authOf(res);
    return {
      status: 200,
      body: {
        organization,
        apiKey: {
          id: apiKey.id,
          name: apiKey.name,
          expiresAt: apiKey.expiresAt?.toISOString() ?? null,
          scopes: apiKey.scopes,
        },
        rateLimit: { maxRequests: policy.maxRequests, windowSeconds: policy.windowSeconds },
      },
    };
  });
