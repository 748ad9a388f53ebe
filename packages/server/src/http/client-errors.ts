import { randomUUID } from 'node:crypto';
import { type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ERRORS, type ErrorCode } from '@coinventory/contract';
import type { Logger } from 'pino';
import { errorBody } from '../errors.js';

/** An error of Node's HTTP parser or of the connection (`HPE_*` codes are llhttp's). */
type ClientError = Error & { code?: string };

/** The contract's code for a request Node's parser refused: its headers were too large, or it was malformed. */
const codeOf = (error: ClientError): ErrorCode =>
  error.code === 'HPE_HEADER_OVERFLOW' ? 'REQUEST_HEADER_FIELDS_TOO_LARGE' : 'BAD_REQUEST';

/** A complete response, written to the socket by hand: the request never became one express could answer. */
function rawErrorResponse(code: ErrorCode, requestId: string): string {
  const { status } = ERRORS[code];
  const body = JSON.stringify(errorBody(code));
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Cache-Control: no-store',
    `X-Request-Id: ${requestId}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** How long a refused connection stays open for its client to read the answer and close. */
const LINGER_MS = 2_000;

/**
 * Answers the requests Node's HTTP parser refuses (bad chunking, two Content-Length headers, a NUL or other bad
 * byte in a header, a header block over its limit) with the API's JSON error body instead of Node's empty one.
 * The answer is written only when nothing of a response has been sent on the connection yet; then the connection
 * is closed, since the parser cannot find where the next request would start. These are the client's failures:
 * logged at warn (a reset at debug), never with the raw bytes, which may carry an Authorization header.
 */
export function answerClientErrors(server: Server, logger: Logger): void {
  server.on('clientError', (error: ClientError, socket: Duplex) => {
    // A reset connection cannot be answered; nor can one whose response has already begun.
    const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      logger.debug({ code: error.code }, 'connection failed');
      socket.destroy();
      return;
    }
    const requestId = `req_${randomUUID()}`;
    let response: string;
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
      // Node's headersTimeout or requestTimeout: the request never arrived in full.
      response = rawErrorResponse('REQUEST_TIMEOUT', requestId);
      logger.warn({ requestId, code: error.code }, 'request not received in time');
    } else {
      const code = codeOf(error);
      response = rawErrorResponse(code, requestId);
      logger.warn(
        { requestId, status: ERRORS[code].status, code: error.code, reason: error.message },
        'malformed request refused',
      );
    }
    // Ended, not destroyed: closing with the client's unread bytes pending would reset the connection and could
    // lose the answer. The client closes once it has read it; one that does not is cut off.
    socket.end(response);
    const linger = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once('close', () => clearTimeout(linger));
  });
}
