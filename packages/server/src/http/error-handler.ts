import { RequestValidationError } from '@ts-rest/express';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError, issuesOf } from '../errors.js';
import { maybeRequestStateOf } from '../request/state.js';

export function validationIssues(error: RequestValidationError): string[] {
  return [
    ...issuesOf('path', error.pathParams),
    ...issuesOf('query', error.query),
    ...issuesOf('body', error.body),
    ...issuesOf('header', error.headers),
  ];
}

const incompleteBody = () => new ApiError('BAD_REQUEST', ['body: the request body was incomplete']);

/** A framework error the client caused, as the API answers it; with why, when the client's connection failed. */
interface ClientError {
  error: ApiError;
  lostConnection?: string;
}

/**
 * What the client did wrong, for errors raised by express, body-parser, raw-body or send; null for the server's own
 * failures. body-parser's errors carry a `type`; the others are marked as the client's the http-errors way: a 4xx
 * `status` with `expose` set.
 */
function clientErrorOf(error: unknown, req: Request): ClientError | null {
  // Express could not decode a path parameter (`/items/%E0%A4%A`): the request line itself is malformed.
  if (error instanceof URIError && 'status' in error && error.status === 400) {
    return { error: new ApiError('BAD_REQUEST', ['path: malformed percent-encoding']) };
  }
  if (typeof error !== 'object' || error === null) return null;
  switch ('type' in error ? error.type : undefined) {
    case 'entity.parse.failed':
      return { error: new ApiError('BAD_REQUEST', ['body: not valid JSON']) };
    case 'entity.too.large':
      return { error: new ApiError('PAYLOAD_TOO_LARGE') };
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return { error: new ApiError('UNSUPPORTED_MEDIA_TYPE') };
    case 'request.size.invalid':
      return { error: incompleteBody() };
    case 'request.aborted':
      return { error: incompleteBody(), lostConnection: 'request aborted' };
    case 'stream.not.readable':
      // raw-body (with a 500) found the request already destroyed: its connection failed (malformed chunking, a
      // reset) before the body was read. A live request whose stream is unreadable would be our own bug.
      return req.destroyed ? { error: incompleteBody(), lostConnection: 'connection closed' } : null;
  }
  const status = 'status' in error ? error.status : undefined;
  const exposed = 'expose' in error && error.expose === true;
  if (typeof status !== 'number' || status < 400 || status > 499 || !exposed) return null;
  const code = 'code' in error ? error.code : undefined;
  // zlib's errors (Z_DATA_ERROR, Z_BUF_ERROR), passed on by body-parser, which inflates only gzip and deflate.
  if (typeof code === 'string' && code.startsWith('Z_')) {
    const encoding = (req.get('content-encoding') ?? '').toLowerCase();
    return { error: new ApiError('BAD_REQUEST', [`body: could not be decoded (Content-Encoding ${encoding})`]) };
  }
  if (code === 'ECONNRESET' || code === 'ECONNABORTED') return { error: incompleteBody(), lostConnection: code };
  if (status === 404) return { error: new ApiError('NOT_FOUND') };
  if (status === 413) return { error: new ApiError('PAYLOAD_TOO_LARGE') };
  if (status === 415) return { error: new ApiError('UNSUPPORTED_MEDIA_TYPE') };
  // Any other client error (a static file's failed precondition, an unsatisfiable range) is still the client's.
  return { error: new ApiError('BAD_REQUEST') };
}

/**
 * The one place errors become responses: errors we raised, framework errors (validation, JSON parsing), and
 * everything else, which is logged with the request id and answered with a bare 500.
 */
export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction) => {
    // Already answered (the request deadline fired first): nothing more can be said to this caller.
    if (res.headersSent) {
      // A request that was given up (deadline, slow body, shutdown) fails its remaining work by design; that was
      // logged when it was given up.
      const level = maybeRequestStateOf(res)?.work?.abandoned ? 'debug' : 'warn';
      logger[level](
        { err: error, requestId: maybeRequestStateOf(res)?.requestId },
        'error after the response was sent',
      );
      return;
    }
    let apiError: ApiError;
    if (error instanceof ApiError) apiError = error;
    else if (error instanceof RequestValidationError) apiError = new ApiError('BAD_REQUEST', validationIssues(error));
    else {
      const clientError = clientErrorOf(error, req);
      if (clientError) {
        apiError = clientError.error;
        // The client's failure, not ours; its answer reaches it only if the connection still stands.
        if (clientError.lostConnection) {
          const requestId = maybeRequestStateOf(res)?.requestId;
          logger.warn({ requestId, reason: clientError.lostConnection }, 'request body could not be read');
        }
      } else {
        logger.error({ err: error, requestId: maybeRequestStateOf(res)?.requestId }, 'unhandled error');
        apiError = new ApiError('INTERNAL_SERVER_ERROR');
      }
    }
    for (const [name, value] of Object.entries(apiError.headers)) res.setHeader(name, value);
    res.status(apiError.status).json(apiError.body);
  };
}
