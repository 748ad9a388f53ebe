import { contractRoutes, MAX_BODY_BYTES } from '@coinventory/contract';
import express, { type NextFunction, type Request, type Response } from 'express';
import { ApiError, badRequest } from '../../errors.js';
import type { ContractRequest } from '../../modules/access/index.js';
import { announcesBody, BODY_METHODS, type InFlightRequests } from './lifecycle.js';

/**
 * Beyond the queue limit a request is refused before it costs anything (no key lookup, no pool slot): 503 with
 * Retry-After, which the SDK retries whatever the method, since nothing was done.
 */
export function shedWhenBusy(inFlight: InFlightRequests) {
  return (_req: Request, _res: Response, next: NextFunction) => {
    if (inFlight.size <= inFlight.queueLimit) return next();
    next(new ApiError('SERVICE_UNAVAILABLE', undefined, { 'Retry-After': '1' }));
  };
}

/** Methods each contract path answers, for 405's Allow header (HEAD comes with GET). */
export function allowedMethodsByPath(): Map<string, string[]> {
  const byPath = new Map<string, string[]>();
  for (const { route } of contractRoutes) {
    const methods = byPath.get(route.path) ?? [];
    methods.push(route.method);
    if (route.method === 'GET') methods.push('HEAD');
    byPath.set(route.path, methods);
  }
  return byPath;
}

/**
 * 405 for a method a literal path (one without parameters) does not take, as the router's own matching would find
 * the path: case-sensitive, with one trailing slash allowed.
 */
export function refuseMethodsOfLiteralPaths() {
  const literal = new Map(
    [...allowedMethodsByPath()]
      .filter(([path]) => !path.includes(':'))
      .map(([path, methods]) => [path, { methods, allow: methods.join(', ') }]),
  );
  return (req: Request, _res: Response, next: NextFunction) => {
    const { path } = req;
    const entry = literal.get(path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path);
    if (entry === undefined || entry.methods.includes(req.method)) return next();
    next(new ApiError('METHOD_NOT_ALLOWED', undefined, { Allow: entry.allow }));
  };
}

/** A request that carries a body must say it is JSON; others are refused rather than silently read as empty. */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction) {
  if (!BODY_METHODS.has(req.method)) return next();
  if (announcesBody(req) && !req.is('application/json')) return next(new ApiError('UNSUPPORTED_MEDIA_TYPE'));
  next();
}

const jsonParser = express.json({ limit: MAX_BODY_BYTES, strict: true, type: 'application/json' });
export const parseJsonBody = (req: Request, res: Response, next: NextFunction) =>
  BODY_METHODS.has(req.method) ? jsonParser(req, res, next) : next();

/**
 * Routes without query parameters refuse any, as routes with them refuse unknown ones: a mistyped parameter
 * must not be silently ignored (a DELETE with `?dry_run=1` would still delete).
 */
export function refuseUnexpectedQuery(req: ContractRequest, _res: Response, next: NextFunction) {
  if ('query' in req.tsRestRoute) return next();
  const keys = Object.keys(req.query);
  if (keys.length === 0) return next();
  next(badRequest(`query: Unrecognized key(s) in object: ${keys.map((key) => `'${key}'`).join(', ')}`));
}
