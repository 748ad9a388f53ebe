import { contract, RATE_LIMIT, WEBHOOKS } from '@coinventory/contract';
import { createExpressEndpoints } from '@ts-rest/express';
import express from 'express';
import type { Logger } from 'pino';
import type { Sql } from '../db/types.js';
import { ApiError } from '../errors.js';
import {
  authMiddleware,
  type FailedAuthLimiter,
  markTestMode,
  type RatePolicy,
  rateLimitPolicyHeader,
} from '../modules/access/index.js';
import { idempotentWrites } from '../modules/idempotency/index.js';
import { ExportSlots } from '../modules/items/index.js';
import { addressPolicy, type WebhookSettings } from '../modules/webhooks/index.js';
import type { PublicUrls } from '../request/public-urls.js';
import { entityTags } from './middleware/etag.js';
import type { InFlightRequests } from './middleware/lifecycle.js';
import {
  allowedMethodsByPath,
  parseJsonBody,
  refuseMethodsOfLiteralPaths,
  refuseUnexpectedQuery,
  requireJsonBody,
  shedWhenBusy,
} from './middleware/request-shape.js';
import { createRouter, gatedReads } from './router.js';

export interface ApiOptions {
  sql: Sql;
  logger: Logger;
  urls: PublicUrls;
  inFlight: InFlightRequests;
  policy?: RatePolicy | undefined;
  onSyncQueued?: (() => void) | undefined;
  webhooks?: WebhookSettings | undefined;
  failedAuth?: FailedAuthLimiter | undefined;
  /** How long an export's reader may take nothing before it is dropped (EXPORTS.stallTimeoutMs unless given). */
  exportStallTimeoutMs?: number | undefined;
}

/**
 * The contract's routes under the API's base path. A request reaches its handler through, in order: cache and
 * rate-limit policy headers, shedding when the process is full, 405 for a method its path does not take, then
 * ts-rest's route with its middleware (authentication and the rate limit, unexpected query parameters, the JSON body,
 * Idempotency-Key, ETags), validation, and the handler (request/pipeline.ts).
 */
export function apiRouter({
  sql,
  logger,
  urls,
  inFlight,
  policy = RATE_LIMIT,
  onSyncQueued = () => {},
  webhooks = { policy: addressPolicy(''), timeoutMs: WEBHOOKS.timeoutMs, queued: () => {} },
  failedAuth,
  exportStallTimeoutMs,
}: ApiOptions): express.Router {
  const api = express.Router({ caseSensitive: true, strict: false });
  const policyHeader = rateLimitPolicyHeader(policy);
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('RateLimit-Policy', policyHeader);
    next();
  });
  api.use(markTestMode);
  api.use(shedWhenBusy(inFlight));
  // A literal path is answered 405 for the methods it does not take before the routes are matched: otherwise
  // `GET /items/batch` would be taken for `GET /items/{id}` with the id "batch". One lookup, not a layer per path.
  api.use(refuseMethodsOfLiteralPaths());
  createExpressEndpoints(
    contract,
    createRouter(
      policy,
      { syncQueued: onSyncQueued, webhooksQueued: webhooks.queued },
      webhooks,
      logger,
      new ExportSlots(exportStallTimeoutMs),
    ),
    api,
    {
      logInitialization: false,
      jsonQuery: false,
      responseValidation: false,
      // Authentication first: a caller without a valid key learns nothing about its request (not even that the
      // body is malformed), and no body is read for it.
      globalMiddleware: [
        authMiddleware({ sql, logger, policy, urls, failedAuth, gatedReads }),
        refuseUnexpectedQuery,
        requireJsonBody,
        parseJsonBody,
        // After the body is read (a retry is the same request only with the same body), before validation.
        idempotentWrites(),
        entityTags,
      ],
      // Validation errors go to the shared error handler, which shapes them as the spec's 400 body.
      requestValidationErrorHandler: (error, _req, _res, next) => next(error),
    },
  );
  for (const [path, methods] of allowedMethodsByPath()) {
    const allow = methods.join(', ');
    api.all(path, (_req, _res, next) => next(new ApiError('METHOD_NOT_ALLOWED', undefined, { Allow: allow })));
  }
  return api;
}
