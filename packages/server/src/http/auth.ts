import type { Contract } from '@coinventory/contract';
import type { TsRestRequest } from '@ts-rest/express';
import type { NextFunction, Response } from 'express';
import type { Logger } from 'pino';
import { bearerChallenge, type ChallengeReason } from '../auth/challenge.js';
import type { RateDecision, RatePolicy } from '../data/api-keys.js';
import type { Queryable } from '../db/types.js';
import { ApiError } from '../errors.js';
import { authenticate } from '../services/auth.js';
import { keyUsageRecorder } from '../services/key-usage.js';
import type { PublicUrls } from './public-urls.js';
import { localsOf } from './request-context.js';

export type ContractRequest = TsRestRequest<Contract>;

/** draft-ietf-httpapi-ratelimit-headers: the policy every key is held to. */
export const rateLimitPolicyHeader = (policy: RatePolicy) =>
  `"default";q=${policy.maxRequests};w=${policy.windowSeconds}`;

const seconds = (ms: number) => Math.ceil(ms / 1000);

/** The key's current standing: requests left in the window, and seconds until the count next goes down. */
const rateLimitHeader = (rate: RateDecision) =>
  `"default";r=${rate.remaining};t=${seconds(rate.admitted ? rate.resetMs : rate.retryAfterMs)}`;

export interface AuthOptions {
  sql: Queryable;
  logger: Logger;
  policy: RatePolicy;
  urls: PublicUrls;
}

/**
 * Runs before validation on every contract route: resolves the bearer key and counts the request against the
 * key's rate limit (one database round trip), then checks the scope the route declares in the contract.
 * Unauthenticated callers learn nothing about the request itself.
 */
export function authMiddleware({ sql, logger, policy, urls }: AuthOptions) {
  const recordUse = keyUsageRecorder(sql, logger);
  return (req: ContractRequest, res: Response, next: NextFunction) => {
    const challenge = (reason: ChallengeReason) => ({
      'WWW-Authenticate': bearerChallenge(reason, urls.metadataUrl(req)),
    });
    res.setHeader('RateLimit-Policy', rateLimitPolicyHeader(policy));
    authenticate(sql, req.get('authorization'), policy)
      .then((result) => {
        if (result.kind === 'missing') throw new ApiError('UNAUTHORIZED', undefined, challenge({ kind: 'missing' }));
        if (result.kind === 'invalid')
          throw new ApiError('UNAUTHORIZED', undefined, challenge({ kind: 'invalid_token' }));
        if (result.kind === 'forbidden')
          throw new ApiError('FORBIDDEN', undefined, challenge({ kind: 'access_revoked' }));
        const { context, rate } = result;
        res.setHeader('RateLimit', rateLimitHeader(rate));
        if (!rate.admitted) {
          throw new ApiError('TOO_MANY_REQUESTS', undefined, {
            'Retry-After': String(Math.max(1, seconds(rate.retryAfterMs))),
          });
        }
        localsOf(res).auth = context;
        recordUse(context.apiKey);
        const needed = req.tsRestRoute.metadata.scope;
        if (!context.apiKey.scopes.includes(needed)) {
          throw new ApiError('FORBIDDEN', undefined, challenge({ kind: 'insufficient_scope', scope: needed }));
        }
        next();
      })
      .catch(next);
  };
}
