import { API_VERSION, contractRoutes } from '@coinventory/contract';
import type { Request, Response } from 'express';
import type { Logger } from 'pino';

/** The response header that points a request missing the version prefix to the path it probably meant. */
export const VERSION_HINT_HEADER = 'Coinventory-Hint';

/** Each contract route's path as a pattern (`/items/:id` matches `/items/<anything but a slash>`). */
const routePatterns = contractRoutes.map(
  ({ route }) => new RegExp(`^${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:\w+/g, '[^/]+')}/?$`),
);

/**
 * The hint for a path that has no route but would have one under `/v1` (`/items` → `/v1/items`), else undefined.
 * Only printable ASCII paths are echoed back, so the header can never carry what a header may not.
 */
export function versionHint(path: string): string | undefined {
  if (path.startsWith(`/${API_VERSION}/`) || !/^[\x21-\x7e]+$/.test(path)) return undefined;
  if (!routePatterns.some((pattern) => pattern.test(path))) return undefined;
  return `no route ${path}; API paths start with /${API_VERSION}: did you mean /${API_VERSION}${path}?`;
}

/**
 * Before the 404 of a request no route took: when its path lacks only the `/v1` prefix, says so in a header and a
 * log line. The 404's body stays the spec's.
 */
export function hintMissingVersion(logger: Logger, req: Request, res: Response): void {
  const hint = versionHint(req.path);
  if (hint === undefined) return;
  res.setHeader(VERSION_HINT_HEADER, hint);
  logger.info({ method: req.method, path: req.path, requestId: res.getHeader('X-Request-Id') }, hint);
}
