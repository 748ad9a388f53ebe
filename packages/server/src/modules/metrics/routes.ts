import { timingSafeEqual } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../../errors.js';
import { sha256 } from '../../sha256.js';
import { clusterMetrics, inClusterWorker } from './cluster.js';
import type { Metrics } from './registry.js';

export const METRICS_PATH = '/metrics';

const digest = (value: string) => sha256(value, 'buffer');

/** Whether the Authorization header carries the metrics token (compared in constant time). */
function carriesToken(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+)$/i.exec(header ?? '');
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), digest(token));
}

/**
 * `GET /metrics`: the Prometheus text format, outside the API's base path and its rate limit. With a token, only a
 * scraper that sends it is answered. In a cluster's worker the answer is every worker's metrics, aggregated by the
 * primary: a scrape through the shared port reaches any one worker, and must not see only that one.
 */
export function metricsRoute(metrics: Metrics, { token }: { token?: string | undefined }) {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    if (token !== undefined && !carriesToken(req.get('authorization'), token)) {
      return next(new ApiError('UNAUTHORIZED', undefined, { 'WWW-Authenticate': 'Bearer realm="metrics"' }));
    }
    try {
      const text = inClusterWorker() ? await clusterMetrics() : await metrics.registry.metrics();
      res.setHeader('Content-Type', metrics.registry.contentType);
      res.send(text);
    } catch (error) {
      next(error);
    }
  };
}
