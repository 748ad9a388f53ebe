import { API_VERSION, contract, contractRoutes, MAX_BODY_BYTES, RATE_LIMIT, WEBHOOKS } from '@coinventory/contract';
import { createExpressEndpoints } from '@ts-rest/express';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Logger } from 'pino';
import type { Sql } from '../db/types.js';
import { ApiError, badRequest } from '../errors.js';
import {
  authMiddleware,
  type ContractRequest,
  type FailedAuthLimiter,
  protectedResourceMetadata,
  type RatePolicy,
  rateLimitPolicyHeader,
} from '../modules/access/index.js';
import { idempotentWrites } from '../modules/idempotency/index.js';
import { METRICS_PATH, type Metrics, metricsRoute } from '../modules/metrics/index.js';
import { addressPolicy, type WebhookSettings } from '../modules/webhooks/index.js';
import { requestContext } from '../request/context.js';
import { METADATA_PATH, publicUrls } from '../request/public-urls.js';
import { docsRouter } from './docs.js';
import { errorHandler } from './error-handler.js';
import { crossOrigin } from './middleware/cors.js';
import { entityTags } from './middleware/etag.js';
import { announcesBody, BODY_METHODS, InFlightRequests, requestLifecycle } from './middleware/lifecycle.js';
import { createRouter, gatedReads } from './router.js';

export interface AppDependencies {
  sql: Sql;
  logger: Logger;
  /** The rate limit every key is held to (RATE_LIMIT unless configured otherwise). */
  policy?: RatePolicy;
  /** The API's public base URL when the server sits behind a proxy. */
  publicBaseUrl?: string | undefined;
  /** Told when an item change queued marketplace sync jobs (the in-process worker's kick). */
  onSyncQueued?: () => void;
  /**
   * Where webhook endpoints may point and how long a test ping waits, and the webhook worker's kick. Absent: https
   * to public addresses only, the default timeout, and no worker to wake.
   */
  webhooks?: WebhookSettings;
  /** Longest a request may take before its work is rolled back and it is answered 500. */
  requestTimeoutMs?: number;
  /** Longest a request body may take to arrive (or the request timeout, if shorter) before it is answered 408. */
  requestBodyTimeoutMs?: number;
  /** The process's in-flight requests (the server passes its own, to drain them on shutdown). */
  inFlight?: InFlightRequests;
  /** Requests held at once when `inFlight` is not given; beyond it they are answered 503 at once. */
  queueLimit?: number;
  /** Whether a given-up request's running statements are cancelled (PostgreSQL: yes; embedded: no). */
  cancelStatements?: boolean;
  /** Refuses addresses that keep failing to authenticate before their keys are looked up; absent, none is. */
  failedAuth?: FailedAuthLimiter | undefined;
  /** The process's metrics, served at /metrics (behind `token` when given); absent, none are kept. */
  metrics?: { metrics: Metrics; token?: string | undefined } | undefined;
  /** Origins whose pages may call the API from a browser (CORS_ALLOWED_ORIGINS); absent or empty, none. */
  corsOrigins?: readonly string[];
}

/**
 * Beyond the queue limit a request is refused before it costs anything (no key lookup, no pool slot): 503 with
 * Retry-After, which the SDK retries whatever the method, since nothing was done.
 */
function shedWhenBusy(inFlight: InFlightRequests) {
  return (_req: Request, _res: Response, next: NextFunction) => {
    if (inFlight.size <= inFlight.queueLimit) return next();
    next(new ApiError('SERVICE_UNAVAILABLE', undefined, { 'Retry-After': '1' }));
  };
}

/** Methods each contract path answers, for 405's Allow header (HEAD comes with GET). */
function allowedMethodsByPath(): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const { route } of contractRoutes) {
    const methods = byPath.get(route.path) ?? [];
    methods.push(route.method);
    if (route.method === 'GET') methods.push('HEAD');
    byPath.set(route.path, methods);
  }
  return byPath;
}

/** A request that carries a body must say it is JSON; others are refused rather than silently read as empty. */
function requireJsonBody(req: Request, _res: Response, next: NextFunction) {
  if (!BODY_METHODS.has(req.method)) return next();
  if (announcesBody(req) && !req.is('application/json')) return next(new ApiError('UNSUPPORTED_MEDIA_TYPE'));
  next();
}

const jsonParser = express.json({ limit: MAX_BODY_BYTES, strict: true, type: 'application/json' });
const parseJsonBody = (req: Request, res: Response, next: NextFunction) =>
  BODY_METHODS.has(req.method) ? jsonParser(req, res, next) : next();

/**
 * Routes without query parameters refuse any, as routes with them refuse unknown ones: a mistyped parameter
 * must not be silently ignored (a DELETE with `?dry_run=1` would still delete).
 */
function refuseUnexpectedQuery(req: ContractRequest, _res: Response, next: NextFunction) {
  if ('query' in req.tsRestRoute) return next();
  const keys = Object.keys(req.query);
  if (keys.length === 0) return next();
  next(badRequest(`query: Unrecognized key(s) in object: ${keys.map((key) => `'${key}'`).join(', ')}`));
}

/** The HTTP application, without a listening socket (tests and the entry point add that). */
export function createApp({
  sql,
  logger,
  policy = RATE_LIMIT,
  publicBaseUrl,
  onSyncQueued = () => {},
  webhooks = { policy: addressPolicy(''), timeoutMs: WEBHOOKS.timeoutMs, queued: () => {} },
  requestTimeoutMs = 12_000,
  requestBodyTimeoutMs = Math.min(10_000, requestTimeoutMs),
  queueLimit = 256,
  inFlight = new InFlightRequests(logger, queueLimit),
  cancelStatements = true,
  failedAuth,
  metrics,
  corsOrigins = [],
}: AppDependencies): express.Express {
  const urls = publicUrls(publicBaseUrl);
  const app = express();
  app.disable('x-powered-by');
  // Repeated parameters become arrays (and fail validation); no nested objects from `a[b]=`.
  app.set('query parser', 'simple');
  app.set('etag', false);
  // First, so every answer is counted, the ones refused before any route too.
  if (metrics) app.use(metrics.metrics.http);
  app.use(requestContext(logger));
  app.use(
    requestLifecycle({
      sql,
      inFlight,
      requestTimeoutMs,
      bodyTimeoutMs: requestBodyTimeoutMs,
      cancelStatements,
    }),
  );
  // Before every route, so errors carry it too and preflights are answered before a key is asked for.
  if (corsOrigins.length > 0) app.use(crossOrigin(corsOrigins));

  app.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  app.get('/readyz', async (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      await sql`SELECT 1`;
      res.json({ status: 'ok', database: 'reachable' });
    } catch (error) {
      logger.warn({ err: error }, 'readiness check failed');
      res.status(503).json({ status: 'unavailable', database: 'unreachable' });
    }
  });

  // Off the API's base path: no key, no rate limit (a scraper is not a client of the API).
  if (metrics) app.get(METRICS_PATH, metricsRoute(metrics.metrics, { token: metrics.token }));

  app.get(METADATA_PATH, (req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(protectedResourceMetadata(urls, req));
  });
  app.use(docsRouter(urls));

  const api = express.Router({ caseSensitive: true, strict: false });
  api.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('RateLimit-Policy', rateLimitPolicyHeader(policy));
    next();
  });
  api.use(shedWhenBusy(inFlight));
  // A literal path is answered 405 for the methods it does not take before the routes are matched: otherwise
  // `GET /items/batch` would be taken for `GET /items/{id}` with the id "batch".
  for (const [path, methods] of allowedMethodsByPath()) {
    if (path.includes(':')) continue;
    const allow = methods.join(', ');
    api.all(path, (req, _res, next) =>
      methods.includes(req.method) ? next() : next(new ApiError('METHOD_NOT_ALLOWED', undefined, { Allow: allow })),
    );
  }
  createExpressEndpoints(
    contract,
    createRouter(policy, { syncQueued: onSyncQueued, webhooksQueued: webhooks.queued }, webhooks, logger),
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
  app.use(`/${API_VERSION}`, api);

  app.use((_req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    next(new ApiError('NOT_FOUND'));
  });
  app.use(errorHandler(logger));
  return app;
}
