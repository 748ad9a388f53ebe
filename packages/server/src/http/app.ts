import { API_VERSION } from '@coinventory/contract';
import express from 'express';
import type { Logger } from 'pino';
import type { Sql } from '../db/types.js';
import { ApiError } from '../errors.js';
import { type FailedAuthLimiter, protectedResourceMetadata, type RatePolicy } from '../modules/access/index.js';
import { METRICS_PATH, type Metrics, metricsRoute } from '../modules/metrics/index.js';
import type { WebhookSettings } from '../modules/webhooks/index.js';
import { requestContext } from '../request/context.js';
import { METADATA_PATH, publicUrls } from '../request/public-urls.js';
import { apiRouter } from './api.js';
import { docsRouter } from './docs.js';
import { errorHandler } from './error-handler.js';
import { crossOrigin } from './middleware/cors.js';
import { InFlightRequests, requestLifecycle } from './middleware/lifecycle.js';
import { hintMissingVersion } from './version-hint.js';

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
  /** How long an export's reader may take nothing before it is dropped (EXPORTS.stallTimeoutMs unless given). */
  exportStallTimeoutMs?: number | undefined;
}

/** /healthz (the process answers) and /readyz (and reaches its database): what a load balancer or an orchestrator asks. */
function addProbes(app: express.Express, sql: Sql, logger: Logger): void {
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
}

/** The HTTP application, without a listening socket (tests and the entry point add that). */
export function createApp({
  sql,
  logger,
  policy,
  publicBaseUrl,
  onSyncQueued,
  webhooks,
  requestTimeoutMs = 12_000,
  requestBodyTimeoutMs = Math.min(10_000, requestTimeoutMs),
  queueLimit = 256,
  inFlight = new InFlightRequests(logger, queueLimit),
  cancelStatements = true,
  failedAuth,
  metrics,
  corsOrigins = [],
  exportStallTimeoutMs,
}: AppDependencies): express.Express {
  const urls = publicUrls(publicBaseUrl);
  const app = express();
  app.disable('x-powered-by');
  // Repeated parameters become arrays (and fail validation); no nested objects from `a[b]=`.
  app.set('query parser', 'simple');
  app.set('etag', false);
  // First, so every answer is counted, the ones refused before any route too.
  if (metrics) app.use(metrics.metrics.http(app.request));
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

  addProbes(app, sql, logger);

  // Off the API's base path: no key, no rate limit (a scraper is not a client of the API).
  if (metrics) app.get(METRICS_PATH, metricsRoute(metrics.metrics, { token: metrics.token }));

  app.get(METADATA_PATH, (req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(protectedResourceMetadata(urls, req));
  });
  app.use(docsRouter(urls));

  app.use(
    `/${API_VERSION}`,
    apiRouter({
      sql,
      logger,
      urls,
      inFlight,
      policy,
      onSyncQueued,
      webhooks,
      failedAuth,
      exportStallTimeoutMs,
    }),
  );

  app.use((req, res, next) => {
    res.setHeader('Cache-Control', 'no-store');
    hintMissingVersion(logger, req, res);
    next(new ApiError('NOT_FOUND'));
  });
  app.use(errorHandler(logger));
  return app;
}
