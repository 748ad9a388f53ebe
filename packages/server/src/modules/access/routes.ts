import { contract } from '@coinventory/contract';
import { read } from '../../request/pipeline.js';
import { routeFor } from '../../request/routes.js';
import type { RatePolicy } from './rate-limit.js';

/** GET /me: the caller's organization, its key and the rate limit it is held to. */
export const meRoute = (policy: RatePolicy) =>
  routeFor(
    contract.me,
    read(async ({ caller: { organization, apiKey } }) => ({
      organization,
      apiKey: {
        id: apiKey.id,
        name: apiKey.name,
        expiresAt: apiKey.expiresAt?.toISOString() ?? null,
        scopes: apiKey.scopes,
      },
      rateLimit: { maxRequests: policy.maxRequests, windowSeconds: policy.windowSeconds },
    })),
  );
