import type { Contract } from '@coinventory/contract';
import type { TsRestRequest } from '@ts-rest/express';
import type { NextFunction, Response } from 'express';
import type { Logger } from 'pino';
import type { Queryable } from '../../db/types.js';
import { ApiError } from '../../errors.js';
import type { GatedRead } from '../../request/gated-read.js';
import type { PublicUrls } from '../../request/public-urls.js';
import { requestStateOf } from '../../request/state.js';
import { authenticateKey, type KeyAuthentication, readBearerKey } from './authenticate.js';
import { bearerChallenge, type ChallengeReason } from './challenge.js';
import type { FailedAuthLimiter } from './failed-auth-limiter.js';
import { keyUsageRecorder } from './key-usage.js';
import { type RatePolicy, rateLimitHeader, seconds } from './rate-limit.js';
import type { ReadWithGrant } from './store.js';

export type ContractRequest = TsRestRequest<Contract>;

export interface AuthOptions {
  sql: Queryable;
  logger: Logger;
  policy: RatePolicy;
  urls: PublicUrls;
  /** Refuses, without a lookup, addresses that keep failing to authenticate; absent, none is refused. */
  failedAuth?: FailedAuthLimiter | undefined;
  /** Routes whose resource is read in the authentication statement itself (request/gated-read.ts). */
  gatedReads?: ReadonlyArray<GatedRead<unknown>>;
}

/**
 * Runs before validation on every contract route: resolves the bearer key and counts the request against the
 * key's rate limit (one database round trip), then checks the scope the route declares in the contract. On a route
 * with a gated read (every `GET /…/{id}`), that same round trip also reads the object for an admitted caller, and
 * the handler answers from it (request/gated-read.ts).
 * Unauthenticated callers learn nothing about the request itself. An address that has spent its budget of failed
 * authentications is answered 429 before its key is looked up, unless the key is one this process recently
 * verified; requests without a key, or with a malformed one, cost no lookup and are answered 401 as always.
 */
export function authMiddleware({ sql, logger, policy, urls, failedAuth, gatedReads = [] }: AuthOptions) {
  const recordUse = keyUsageRecorder(sql, logger);
  const readsByRoute = new Map(gatedReads.map((read) => [read.operationId, read]));
  /** The route's gated read with this request's path parameters, when it has one and they are valid. */
  const readFor = (req: ContractRequest): (ReadWithGrant & { operationId: string }) | undefined => {
    const { operationId, scope } = req.tsRestRoute.metadata;
    const query = readsByRoute.get(operationId)?.queryFor(req.params);
    if (!query) return undefined;
    return { operationId, scope, query: (organizationId) => query(sql, organizationId) };
  };
  const handle = async (req: ContractRequest, res: Response) => {
    const challenge = (reason: ChallengeReason) => ({
      'WWW-Authenticate': bearerChallenge(reason, urls.metadataUrl(req)),
    });
    const bearer = readBearerKey(req.get('authorization'));
    if (bearer.kind === 'missing') throw new ApiError('UNAUTHORIZED', undefined, challenge({ kind: 'missing' }));
    if (bearer.kind === 'malformed') {
      throw new ApiError('UNAUTHORIZED', undefined, challenge({ kind: 'invalid_request' }));
    }
    if (bearer.kind === 'invalid') throw new ApiError('UNAUTHORIZED', undefined, challenge({ kind: 'invalid_token' }));
    const attempt = failedAuth?.attempt(req.socket.remoteAddress, bearer.hash);
    if (attempt?.throttled) {
      throw new ApiError('TOO_MANY_REQUESTS', undefined, {
        'Retry-After': String(Math.max(1, seconds(attempt.retryAfterMs))),
      });
    }
    const read = readFor(req);
    let result: KeyAuthentication;
    try {
      result = await authenticateKey(sql, bearer.hash, policy, read);
    } catch (error) {
      // A lookup that failed (the database unreachable) says nothing about the key.
      attempt?.settle('other');
      throw error;
    }
    attempt?.settle(result.kind === 'authenticated' ? 'valid' : result.kind === 'invalid' ? 'invalid' : 'other');
    if (result.kind === 'invalid') {
      throw new ApiError('UNAUTHORIZED', undefined, challenge({ kind: 'invalid_token' }));
    }
    if (result.kind === 'forbidden') throw new ApiError('FORBIDDEN', undefined, challenge({ kind: 'access_revoked' }));
    const { context, rate } = result;
    res.setHeader('RateLimit', rateLimitHeader(rate));
    if (!rate.admitted) {
      throw new ApiError('TOO_MANY_REQUESTS', undefined, {
        'Retry-After': String(Math.max(1, seconds(rate.retryAfterMs))),
      });
    }
    const state = requestStateOf(res);
    state.caller = context;
    recordUse(context.apiKey);
    const needed = req.tsRestRoute.metadata.scope;
    if (!context.apiKey.scopes.includes(needed)) {
      throw new ApiError('FORBIDDEN', undefined, challenge({ kind: 'insufficient_scope', scope: needed }));
    }
    if (read && result.resource !== undefined)
      state.gatedRead = { operationId: read.operationId, json: result.resource };
  };
  return (req: ContractRequest, res: Response, next: NextFunction) => {
    handle(req, res).then(() => next(), next);
  };
}
