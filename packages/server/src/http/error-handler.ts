import { RequestValidationError } from '@ts-rest/express';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import type { ZodError } from 'zod';
import { ApiError, errorBody } from '../errors.js';
import { localsOf } from './request-context.js';

/** `query.limit: Number must be less than or equal to 100`: one message per failing field (its first issue). */
function issuesOf(location: string, error: ZodError | null): string[] {
  if (!error) return [];
  const byField = new Map<string, string>();
  for (const issue of error.issues) {
    const path = [location, ...issue.path.map(String)].join('.');
    if (!byField.has(path)) byField.set(path, `${path}: ${issue.message}`);
  }
  return [...byField.values()];
}

export function validationIssues(error: RequestValidationError): string[] {
  return [
    ...issuesOf('path', error.pathParams),
    ...issuesOf('query', error.query),
    ...issuesOf('body', error.body),
    ...issuesOf('header', error.headers),
  ];
}

/** body-parser's errors carry a `type`; these are the ones a client causes. */
function clientErrorOf(error: unknown): ApiError | null {
  // Express could not decode a path parameter (`/items/%E0%A4%A`): the request line itself is malformed.
  if (error instanceof URIError && 'status' in error && error.status === 400) {
    return new ApiError('BAD_REQUEST', ['path: malformed percent-encoding']);
  }
  if (typeof error !== 'object' || error === null || !('type' in error)) return null;
  switch (error.type) {
    case 'entity.parse.failed':
      return new ApiError('BAD_REQUEST', ['body: not valid JSON']);
    case 'entity.too.large':
      return new ApiError('PAYLOAD_TOO_LARGE');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE');
    case 'request.aborted':
    case 'request.size.invalid':
      return new ApiError('BAD_REQUEST', ['body: the request body was incomplete']);
    default:
      return null;
  }
}

/**
 * The one place errors become responses: errors we raised, framework errors (validation, JSON parsing), and
 * everything else, which is logged with the request id and answered with a bare 500.
 */
export function errorHandler(logger: Logger) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    // Already answered (the request deadline fired first): nothing more can be said to this caller.
    if (res.headersSent) {
      logger.warn({ err: error, requestId: localsOf(res).requestId }, 'error after the response was sent');
      return;
    }
    let apiError: ApiError;
    if (error instanceof ApiError) apiError = error;
    else if (error instanceof RequestValidationError) apiError = new ApiError('BAD_REQUEST', validationIssues(error));
    else {
      const clientError = clientErrorOf(error);
      if (clientError) apiError = clientError;
      else {
        logger.error({ err: error, requestId: localsOf(res).requestId }, 'unhandled error');
        apiError = new ApiError('INTERNAL_SERVER_ERROR');
      }
    }
    for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
    res.status(apiError.status).json(errorBody(apiError.code, apiError.issues));
  };
}
