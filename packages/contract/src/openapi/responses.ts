import { ERROR_CODES, ERRORS, type ErrorCode, MAX_BODY_BYTES, RATE_LIMIT, TEST_MODE } from '../constants.js';
import { VALIDATION_ERROR_EXAMPLE } from './examples.js';
import { ETAG_HEADER } from './headers.js';
import type { HeaderObject, ResponseObject } from './types.js';

/**
 * What each error the operations can return means, by code. Its status, message and response name (`BAD_REQUEST`
 * becomes `BadRequest`) come from `ERRORS`.
 */
const ERROR_DESCRIPTIONS: Partial<Record<ErrorCode, string>> = {
  BAD_REQUEST:
    'The request failed validation: a bad parameter, body field or id, or a bound violated. `issues` lists each failing field.',
  UNAUTHORIZED: 'The API key is missing, unknown, expired or revoked.',
  FORBIDDEN:
    "The key lacks the scope the operation needs, the workspace's plan no longer includes API access, or the key's creator is no longer an owner or admin.",
  NOT_FOUND: 'The resource does not exist, or belongs to another organization.',
  REQUEST_TIMEOUT:
    "The request body did not arrive in full within the server's body timeout. Nothing was done; the connection is closed.",
  CONFLICT:
    'The SKU is already used by another item of the workspace (code `CONFLICT`); or a request with the same `Idempotency-Key` is still running (code `IDEMPOTENCY_KEY_IN_USE`, with `Retry-After`): retry once it has finished, and get its answer.',
  INSUFFICIENT_QUANTITY:
    'The item does not have the units the write would take (`quantity.available` or `quantity.sold` would go below 0), and nothing was written (code `INSUFFICIENT_QUANTITY`); or a request with the same `Idempotency-Key` is still running (code `IDEMPOTENCY_KEY_IN_USE`, with `Retry-After`): retry once it has finished, and get its answer.',
  RESERVATION_NOT_HELD:
    'The reservation was already committed, released or expired, and nothing moved (code `RESERVATION_NOT_HELD`; `GET /reservations/{id}` shows its status); or a request with the same `Idempotency-Key` is still running (code `IDEMPOTENCY_KEY_IN_USE`, with `Retry-After`): retry once it has finished, and get its answer.',
  IDEMPOTENCY_KEY_IN_USE:
    'A request with the same `Idempotency-Key` is still running: retry after `Retry-After` seconds, and get its answer.',
  PRECONDITION_FAILED:
    'A precondition failed (RFC 9110 §13.1), and nothing was written: the object no longer has any of the ETags sent in `If-Match` (someone changed it since you read it: read it again, and decide), or it still has one named in `If-None-Match` (any, for `*`), with its own message.',
  PAYLOAD_TOO_LARGE: `The request body is larger than ${MAX_BODY_BYTES} bytes (${MAX_BODY_BYTES / 2 ** 20} MiB).`,
  UNSUPPORTED_MEDIA_TYPE: 'The request has a body that is not sent as `Content-Type: application/json`.',
  TOO_MANY_REQUESTS: `More than ${RATE_LIMIT.maxRequests} requests in ${RATE_LIMIT.windowSeconds} seconds with this key; or too many failed authentications from this address, and a key the server has not recently verified. Wait the number of seconds in \`Retry-After\`.`,
  INTERNAL_SERVER_ERROR:
    'The server failed, or did not finish within its request deadline. Nothing was changed: the request may be retried.',
  SERVICE_UNAVAILABLE:
    'The server is busy (too many requests waiting in this server process) or shutting down, and refused the request before doing anything. Retry it after `Retry-After` seconds, whatever its method.',
};

/**
 * The error code that documents `status` for an operation: the first code of that status, except that a 409 is the
 * write's own `conflict` (a SKU already used, not enough quantity, a reservation no longer held) where it has one;
 * any other write's 409 is a request with the same Idempotency-Key still running.
 */
export function documentedCode(status: number, conflict?: ErrorCode): ErrorCode {
  if (status === ERRORS.IDEMPOTENCY_KEY_IN_USE.status) return conflict ?? 'IDEMPOTENCY_KEY_IN_USE';
  const code = ERROR_CODES.find((candidate) => ERRORS[candidate].status === status);
  if (!code) throw new Error(`No error code has status ${status}`);
  return code;
}

function describedError(code: ErrorCode): { status: number; description: string } {
  const description = ERROR_DESCRIPTIONS[code];
  if (!description) throw new Error(`No error response is described for ${code}`);
  return { status: ERRORS[code].status, description };
}

/** The name of the shared response (`components.responses`) that documents an error code. */
export function errorResponseName(code: ErrorCode): string {
  describedError(code);
  return code.toLowerCase().replace(/(?:^|_)([a-z])/g, (_match, letter: string) => letter.toUpperCase());
}

/**
 * Whether a response to an API operation carries `RateLimit`: the server sends it once the key is verified and the
 * request counted. Never on a 401; on a 403 only for a missing scope (not for a key that may not call at all); on a
 * 500 only if the failure came after the count (not when the database cannot be reached); on a 429 only for a key over
 * its limit (not for an address refused for failed authentications, whose key is not looked up).
 */
const RATE_LIMIT_SENT: Partial<Record<number, 'always' | 'sometimes'>> = {
  200: 'always',
  400: 'always',
  403: 'sometimes',
  404: 'always',
  304: 'always',
  409: 'always',
  412: 'always',
  413: 'always',
  415: 'always',
  408: 'sometimes',
  429: 'sometimes',
  500: 'sometimes',
  503: 'sometimes',
};

/** The response headers the server sends with `status` on every API operation. */
export function responseHeaders(status: number): Record<string, HeaderObject> {
  const headers: Record<string, HeaderObject> = {
    'X-Request-Id': {
      description:
        "Identifies the request in the server's logs: the caller's own `X-Request-Id` if it sent a valid one, otherwise `req_` and a UUID. Quote it when asking for support.",
      required: true,
      schema: { type: 'string' },
      example: 'req_9367a14e-3f64-426a-b140-c661c5e51606',
    },
    'RateLimit-Policy': {
      description:
        'The rate limit every key is held to (IETF draft RateLimit header fields): `q` requests per `w` seconds.',
      required: true,
      schema: { type: 'string' },
      example: `"default";q=${RATE_LIMIT.maxRequests};w=${RATE_LIMIT.windowSeconds}`,
    },
    [TEST_MODE.header]: {
      description: `Sent as \`${TEST_MODE.value}\` on every answer to a request made with a test key (\`${TEST_MODE.keyPrefixes.test}…\`), which reaches the workspace's sandbox instead of its live data. Absent on answers to live keys (\`${TEST_MODE.keyPrefixes.live}…\`).`,
      required: false,
      schema: { type: 'string', enum: [TEST_MODE.value] },
      example: TEST_MODE.value,
    },
  };
  const rateLimit = RATE_LIMIT_SENT[status];
  if (rateLimit) {
    headers.RateLimit = {
      description:
        'Where the key stands: `r` requests it may still make in the window, and `t` seconds until the count next goes down.' +
        (rateLimit === 'sometimes' ? ' Sent only once the key was verified and this request counted.' : ''),
      required: rateLimit === 'always',
      schema: { type: 'string' },
      example: `"default";r=${RATE_LIMIT.maxRequests - 1};t=${RATE_LIMIT.windowSeconds}`,
    };
  }
  if (status === 401 || status === 403) {
    headers['WWW-Authenticate'] = {
      description:
        'A Bearer challenge (RFC 6750) whose `error` says why (none when no key was sent), pointing at the protected-resource metadata (RFC 9728) in `resource_metadata`.',
      required: true,
      schema: { type: 'string' },
      example:
        status === 401
          ? 'Bearer error="invalid_token", error_description="The API key is unknown, expired or revoked", resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/v1"'
          : 'Bearer error="insufficient_scope", error_description="The API key lacks the write scope", scope="write", resource_metadata="https://api.example.com/.well-known/oauth-protected-resource/v1"',
    };
  }
  if (status === 503) {
    headers['Retry-After'] = {
      description: 'Whole seconds to wait before retrying.',
      required: true,
      schema: { type: 'integer', minimum: 1 },
      example: 1,
    };
  }
  if (status === 429) {
    headers['Retry-After'] = {
      description:
        'Whole seconds to wait before one more request with this key (or, refused for failed authentications, from this address) would be admitted (at least 1).',
      required: true,
      schema: { type: 'integer', minimum: 1 },
      example: 12,
    };
  }
  return headers;
}

/** The shared response that documents an error status: the error body, with an example of that error. */
export function errorResponse(code: ErrorCode): ResponseObject {
  const { status, description } = describedError(code);
  const example: Record<string, unknown> = { code, message: ERRORS[code].message };
  if (status === 400) example.issues = VALIDATION_ERROR_EXAMPLE.issues;
  const headers = responseHeaders(status);
  if (status === ERRORS.IDEMPOTENCY_KEY_IN_USE.status) {
    const always = code === 'IDEMPOTENCY_KEY_IN_USE';
    headers['Retry-After'] = {
      description: `Whole seconds to wait before retrying${always ? '' : '; sent with `IDEMPOTENCY_KEY_IN_USE` only'}.`,
      required: always,
      schema: { type: 'integer', minimum: 1 },
      example: 1,
    };
  }
  return {
    description,
    headers,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, example } },
  };
}

/** 304: the answer would carry an ETag the request named in `If-None-Match`; no body is sent. */
export function notModifiedResponse(): ResponseObject {
  return {
    description:
      'Not modified: the answer would have an ETag named in `If-None-Match`. No body; keep using the copy you have.',
    headers: { ...responseHeaders(304), ETag: ETAG_HEADER },
  };
}
