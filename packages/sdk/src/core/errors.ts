import type { ErrorIssue } from '@coinventory/contract';
import type { ErrorCode } from '@coinventory/contract/constants';
import { forbiddenHint, rateLimitHint, unauthorizedHint } from './auth-hints.js';
import {
  type AddressedResource,
  addressedResource,
  type FailedRequest,
  failureSummary,
  notFoundHint,
  withHint,
} from './failed-request.js';

/**
 * Errors thrown by the SDK.
 *
 * `instanceof` works across copies of the SDK (its ESM and CJS builds loaded side by side, or two installed
 * versions): every class answers `instanceof` by a brand, `Symbol.for('coinventory.error.<Name>')`, set on its
 * prototype, rather than by prototype identity.
 */

const BRAND = Symbol.for('coinventory.error.brand');

type Branded = { [BRAND]?: symbol };

/** Marks `cls` (and, through its prototype, every instance of it and its subclasses) with its brand. SDK-internal. */
export function brand(cls: abstract new (...args: never[]) => Error, name: string): void {
  const symbol = Symbol.for(`coinventory.error.${name}`);
  Object.defineProperty(cls, BRAND, { value: symbol });
  Object.defineProperty(cls.prototype, symbol, { value: true });
  // Set explicitly rather than read from the class, so minifiers that rename classes cannot change it.
  Object.defineProperty(cls.prototype, 'name', { value: name, writable: true, configurable: true });
}

/**
 * `instanceof` for every SDK error class: true when `value` carries the class's brand. A user's own subclass has no
 * brand of its own, so it falls back to the ordinary prototype check.
 */
function hasBrand(this: abstract new (...args: never[]) => unknown, value: unknown): boolean {
  const symbol = Object.hasOwn(this, BRAND) ? (this as Branded)[BRAND] : undefined;
  if (symbol === undefined) return Function.prototype[Symbol.hasInstance].call(this, value);
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[symbol] === true;
}

/** The base of every error the SDK throws. */
export class CoinventoryError extends Error {
  static {
    brand(CoinventoryError, 'CoinventoryError');
    // Inherited by every subclass, as static members are.
    Object.defineProperty(CoinventoryError, Symbol.hasInstance, { value: hasBrand });
  }
}

/** A machine-readable error code: one of the API's codes, or any other string a future server may send. */
export type APIErrorCode = ErrorCode | (string & {});

interface APIErrorInit {
  status: number;
  code: APIErrorCode | undefined;
  /** The API's message, as the body gave it. */
  message: string;
  issues: ErrorIssue[] | undefined;
  headers: Headers;
  body: unknown;
  /** The request answered; without it the message says only what the body says. */
  request?: FailedRequest | undefined;
  /** What a 404 did not find, in words, when the request's path does not say it (a lookup by SKU). */
  missing?: string | undefined;
  /** The hint, when the SDK knows better than the status and the request tell (a lookup by SKU). */
  hint?: string | undefined;
}

/**
 * The API answered with a non-2xx status. Subclasses name the common statuses.
 *
 * `message` is written for people: the API's message, then what the answer and the request add to it (the first
 * issues of a 400, the object a 404 did not find, a hint when the base URL looks wrong). The API's own message, fixed
 * per code, is `apiMessage`.
 */
export class APIError extends CoinventoryError {
  static {
    brand(APIError, 'APIError');
  }

  /** The HTTP status. */
  readonly status: number;
  /** The error body's `code`, for example `NOT_FOUND`; undefined when the body was not a Coinventory error. */
  readonly code: APIErrorCode | undefined;
  /** One entry per failing field on validation errors (400); otherwise undefined. */
  readonly issues: ErrorIssue[] | undefined;
  /** The `X-Request-Id` response header: quote it when asking for support. */
  readonly requestId: string | undefined;
  /**
   * The error body's `message`, exactly as the API sent it (`Not found`, `Invalid input data`…: fixed per code); the
   * body's text when it was not a Coinventory error, or `<status> status code` when it was empty.
   */
  readonly apiMessage: string;
  /** The response headers. */
  declare readonly headers: Headers;
  /** The parsed response body (or its text when it was not JSON). */
  declare readonly body: unknown;
  /** The request that failed: its method, its URL as sent, and the client's base URL. Undefined when not given. */
  declare readonly request: FailedRequest | undefined;
  /**
   * The API object the request named by its path, read from the route: `{ type: 'item', id }` for `/items/{id}` and
   * `/items/{id}/valuations`; undefined for routes without an id.
   */
  declare readonly resource: AddressedResource | undefined;
  /**
   * What a 404 did not find, in words, as `message` names it: `item 48598b4b-…` (read from the request's path),
   * `item with SKU "MOR-1921"` (`items.getBySku`). Undefined for other statuses, and when the hint puts the base URL
   * in doubt.
   */
  declare readonly missing: string | undefined;
  /**
   * What happened, in plain words, where the API's fixed message cannot say it; also the last sentence of
   * `message`. A 401: whether a key was sent, and then that the API refused it (named by its first characters,
   * never the whole key). A 403: the scope the key lacks, read from the `WWW-Authenticate` challenge, or that the key
   * lost access. A 404 that looks like a setup mistake: a base URL without `/v1`, a path that is no route of the API.
   * A 429: when to retry. Otherwise undefined.
   */
  declare readonly hint: string | undefined;

  constructor(init: APIErrorInit) {
    const { request } = init;
    const resource = request ? addressedResource(request) : undefined;
    const hint = init.hint ?? hintFor(init);
    // With a 404's own hint the base URL is in doubt, so the object is not said to be missing.
    const named = init.status === 404 && !hint && resource ? `${resource.type} ${resource.id}` : undefined;
    const missing = init.missing ?? named;
    super(
      withHint(failureSummary(init.message, init.issues, missing, init.status === 404 ? request : undefined), hint),
    );
    this.status = init.status;
    this.code = init.code;
    this.issues = init.issues;
    this.requestId = init.headers.get('x-request-id') ?? undefined;
    this.apiMessage = init.message;
    // Not enumerable, so a logged error shows what the API answered (status, code, issues, request id, its message)
    // without a wall of headers, or the parts of `message` again.
    Object.defineProperty(this, 'headers', { value: init.headers, enumerable: false });
    Object.defineProperty(this, 'body', { value: init.body, enumerable: false });
    Object.defineProperty(this, 'request', { value: request, enumerable: false });
    Object.defineProperty(this, 'resource', { value: resource, enumerable: false });
    Object.defineProperty(this, 'missing', { value: missing, enumerable: false });
    Object.defineProperty(this, 'hint', { value: hint, enumerable: false });
  }

  /**
   * Builds the error for a response, choosing the subclass by its code where one has its own, else by status.
   * `request`, when given, lets the message name what failed.
   */
  static from(status: number, body: unknown, headers: Headers, request?: FailedRequest): APIError {
    const parsed = readErrorBody(body);
    const init: APIErrorInit = {
      status,
      code: parsed.code,
      message: parsed.message ?? (typeof body === 'string' && body.trim() ? body.trim() : `${status} status code`),
      issues: parsed.issues,
      headers,
      body,
      request,
    };
    const ErrorClass =
      CLASS_BY_CODE.get(parsed.code ?? '') ??
      CLASS_BY_STATUS[status] ??
      (status >= 500 ? InternalServerError : APIError);
    return new ErrorClass(init);
  }
}

/** 400: the request failed validation; `issues` names each failing field. */
export class BadRequestError extends APIError {
  static {
    brand(BadRequestError, 'BadRequestError');
  }
}

/** 401: the key is missing, unknown, expired or revoked. */
export class AuthenticationError extends APIError {
  static {
    brand(AuthenticationError, 'AuthenticationError');
  }
}

/** 403: the key lacks the scope, or its organization's plan or its creator's role no longer allows the API. */
export class PermissionDeniedError extends APIError {
  static {
    brand(PermissionDeniedError, 'PermissionDeniedError');
  }
}

/** 404: the resource does not exist, or belongs to another organization. */
export class NotFoundError extends APIError {
  static {
    brand(NotFoundError, 'NotFoundError');
  }
}

/**
 * 409: the write conflicts with the data, and nothing was written. `CONFLICT` (this class itself): the SKU is already
 * used by another item of the organization. Its subclasses name the other conflicts: `InsufficientQuantityError` and
 * `ReservationNotHeldError`; check `code`, or `instanceof` a subclass, to tell them apart.
 */
export class ConflictError extends APIError {
  static {
    brand(ConflictError, 'ConflictError');
  }
}

/**
 * 409 `INSUFFICIENT_QUANTITY`: the item does not have the units the write would take (an adjustment would take
 * `quantity.available` or `quantity.sold` below 0, or a reservation asks for more than is available), so nothing was
 * written. Read the item again for what it has; retrying the same call gets the same answer.
 */
export class InsufficientQuantityError extends ConflictError {
  static {
    brand(InsufficientQuantityError, 'InsufficientQuantityError');
  }
}

/**
 * 409 `RESERVATION_NOT_HELD`: the reservation was already committed, released or has expired, so nothing moved.
 * `client.reservations.get(id)` tells which.
 */
export class ReservationNotHeldError extends ConflictError {
  static {
    brand(ReservationNotHeldError, 'ReservationNotHeldError');
  }
}

/**
 * 409 `IDEMPOTENCY_KEY_IN_USE`: a request with the same Idempotency-Key is still running. The SDK retries it after
 * `Retry-After`; this is thrown once its retries are used up. Not a `ConflictError`: nothing conflicts with the data,
 * and the same call can be repeated (with the same `idempotencyKey`) once the first one has finished.
 */
export class IdempotencyKeyInUseError extends APIError {
  static {
    brand(IdempotencyKeyInUseError, 'IdempotencyKeyInUseError');
  }
}

/**
 * 412 `PRECONDITION_FAILED`: the object no longer has the ETag given as `ifMatch` (someone changed it since you read
 * it), so nothing was written. Read it again, decide, and retry with the new ETag.
 */
export class PreconditionFailedError extends APIError {
  static {
    brand(PreconditionFailedError, 'PreconditionFailedError');
  }
}

/** 413: the request body exceeds the API's 1 MiB limit. */
export class PayloadTooLargeError extends APIError {
  static {
    brand(PayloadTooLargeError, 'PayloadTooLargeError');
  }
}

/** 429: the key's rate limit is exhausted. Thrown once the SDK's retries are used up (or not allowed). */
export class RateLimitError extends APIError {
  static {
    brand(RateLimitError, 'RateLimitError');
  }

  /** Seconds to wait before the next request would be admitted, from `Retry-After`; undefined when absent. */
  readonly retryAfter: number | undefined;

  constructor(init: APIErrorInit) {
    super(init);
    this.retryAfter = parseRetryAfter(init.headers.get('retry-after'));
  }
}

/** 500 or above: the server failed. */
export class InternalServerError extends APIError {
  static {
    brand(InternalServerError, 'InternalServerError');
  }
}

/** No response arrived: DNS, refused or reset connection, TLS failure… `cause` holds the underlying error. */
export class APIConnectionError extends CoinventoryError {
  static {
    brand(APIConnectionError, 'APIConnectionError');
  }

  constructor(message = 'Connection error.', options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** No complete response arrived within `timeoutMs`. */
export class APIConnectionTimeoutError extends APIConnectionError {
  static {
    brand(APIConnectionTimeoutError, 'APIConnectionTimeoutError');
  }

  constructor(timeoutMs: number) {
    super(`Request timed out after ${timeoutMs} ms.`);
  }
}

/** The caller's `signal` aborted the request (or the wait before a retry). Never retried. */
export class APIUserAbortError extends CoinventoryError {
  static {
    brand(APIUserAbortError, 'APIUserAbortError');
  }

  constructor(options?: { cause?: unknown }) {
    super('Request was aborted.', options);
  }
}

type APIErrorClass = new (init: APIErrorInit) => APIError;

/** The subclass `APIError.from` builds for each status that has one; any other 5xx is an `InternalServerError`. */
const CLASS_BY_STATUS: Readonly<Record<number, APIErrorClass>> = {
  400: BadRequestError,
  401: AuthenticationError,
  403: PermissionDeniedError,
  404: NotFoundError,
  409: ConflictError,
  412: PreconditionFailedError,
  413: PayloadTooLargeError,
  429: RateLimitError,
};

/** Codes that share their status with another meaning, and so have a subclass of their own. */
const CLASS_BY_CODE: ReadonlyMap<string, APIErrorClass> = new Map([
  ['IDEMPOTENCY_KEY_IN_USE' satisfies ErrorCode, IdempotencyKeyInUseError],
  ['INSUFFICIENT_QUANTITY' satisfies ErrorCode, InsufficientQuantityError],
  ['RESERVATION_NOT_HELD' satisfies ErrorCode, ReservationNotHeldError],
]);

/** The hint for an answer: see `APIError.hint`. */
function hintFor({ status, code, headers, request }: APIErrorInit): string | undefined {
  if (status === 401) return request ? unauthorizedHint(request.keyPrefix, headers) : undefined;
  if (status === 403) return forbiddenHint(request?.keyPrefix, headers);
  if (status === 404) return request ? notFoundHint(request, code) : undefined;
  if (status === 429) return rateLimitHint(parseRetryAfter(headers.get('retry-after')), headers.has('ratelimit'));
  return undefined;
}

/**
 * `Retry-After` in seconds: delay-seconds, or an HTTP date (counted from now). Undefined when absent or unreadable.
 */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}

function readErrorBody(body: unknown): { code?: string; message?: string; issues?: ErrorIssue[] } {
  if (typeof body !== 'object' || body === null) return {};
  const { code, message, issues } = body as Record<string, unknown>;
  return {
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof message === 'string' ? { message } : {}),
    ...(Array.isArray(issues)
      ? {
          issues: issues.filter(
            (issue): issue is ErrorIssue =>
              typeof issue === 'object' && issue !== null && typeof (issue as ErrorIssue).message === 'string',
          ),
        }
      : {}),
  };
}
