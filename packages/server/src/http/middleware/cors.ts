import { CORS } from '@coinventory/contract';
import type { NextFunction, Request, Response } from 'express';

const ALLOW_METHODS = CORS.allowedMethods.join(', ');
const ALLOW_HEADERS = CORS.allowedHeaders.join(', ');
const EXPOSE_HEADERS = CORS.exposedHeaders.join(', ');

/**
 * Cross-origin requests from the origins an operator listed (CORS_ALLOWED_ORIGINS), for a dealer's own trusted pages:
 * a request whose `Origin` is one of them gets `Access-Control-Allow-Origin` naming it (never `*`) and the headers its
 * script may read, and its preflight (`OPTIONS` with `Access-Control-Request-Method`) is answered 204 here, before the
 * routes: a browser sends no key with a preflight, so it is not counted against any key's rate limit, and it costs
 * no database work. Any other origin gets no CORS header, so its browser refuses the answer to its script. Every
 * response says `Vary: Origin`, since what it carries depends on it. With no origin listed this is not installed.
 */
export function crossOrigin(allowedOrigins: readonly string[]) {
  const allowed: ReadonlySet<string> = new Set(allowedOrigins);
  return (req: Request, res: Response, next: NextFunction) => {
    res.vary('Origin');
    const origin = req.get('origin');
    if (origin === undefined || !allowed.has(origin)) return next();
    res.setHeader('Access-Control-Allow-Origin', origin);
    if (req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined) {
      res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
      res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
      res.setHeader('Access-Control-Max-Age', String(CORS.maxAgeSeconds));
      res.setHeader('Cache-Control', 'no-store');
      res.status(204).end();
      return;
    }
    res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    next();
  };
}
