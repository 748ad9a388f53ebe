import { randomUUID } from 'node:crypto';
import { CALLER_REQUEST_ID_PATTERN } from '@coinventory/contract';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { startRequestState } from './state.js';

/**
 * The first middleware: gives every request its id (echoed as X-Request-Id) and its state (request/state.ts), and
 * logs one line when the response is sent.
 */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('x-request-id');
    const requestId = incoming && CALLER_REQUEST_ID_PATTERN.test(incoming) ? incoming : `req_${randomUUID()}`;
    const state = startRequestState(res, requestId);
    res.setHeader('X-Request-Id', requestId);
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      // The Authorization header and query strings (which may carry search text) are never logged.
      logger.info(
        {
          requestId,
          method: req.method,
          // The full path (a router sees only its own part), without the query string.
          path: req.originalUrl.split('?')[0],
          status: res.statusCode,
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
          organizationId: state.caller?.organization.id,
          keyId: state.caller?.apiKey.id,
        },
        'request',
      );
    });
    next();
  };
}
