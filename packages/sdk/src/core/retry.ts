import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  parseRetryAfter,
  RateLimitError,
} from './errors.js';
import type { RetryReason } from './observe.js';

/**
 * The retry rule, in one place.
 *
 * Every write (POST, PATCH, DELETE) carries an `Idempotency-Key`, made once per call and sent again on each of its
 * retries: the server applies one key's request at most once and answers a repeat with the first answer. So writes
 * are retried exactly like reads.
 *
 * - **429**, **503 `SERVICE_UNAVAILABLE`**, **408 `REQUEST_TIMEOUT`** and **409 `IDEMPOTENCY_KEY_IN_USE`** (the
 *   error body's `code` says which) are retried after `max(Retry-After, backoff)`: the server did not do this request
 *   (too many, too busy, the body came too slowly, or the same key's first request is still running). A
 *   `Retry-After` above {@link RETRY.maxRetryAfterSeconds} is not waited for: the error is thrown at once.
 * - **500, 502, 503, 504, connection errors and timeouts** are retried after the backoff. The server keeps no answer
 *   for a 5xx, so the retry is done afresh; after a lost connection, the retry gets the first attempt's answer if
 *   that attempt was applied.
 * - Nothing else is retried: other 4xx (400, 401, 403, 404, 409 `CONFLICT`, 412…), and a caller's abort.
 *
 * Backoff before retry `n` (0-based): `min(0.5 s × 2^n, 8 s)`, scaled by a random factor in (0.75, 1] (jitter).
 */
export const RETRY = Object.freeze({
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  /** The share of each delay that jitter may take away. */
  jitter: 0.25,
  /** A `Retry-After` longer than this (in seconds) is not waited for. */
  maxRetryAfterSeconds: 60,
  /** Statuses retried (for every method in {@link RETRY.idempotentMethods}). */
  statuses: Object.freeze([500, 502, 503, 504]) as readonly number[],
  /**
   * Methods retried on those statuses, connection errors and timeouts: every method the API has, since the SDK
   * sends an `Idempotency-Key` with each write. 429 and {@link RETRY.notAppliedCodes} are retried for every method.
   */
  idempotentMethods: Object.freeze(['GET', 'POST', 'PATCH', 'DELETE']) as readonly string[],
  /**
   * Error codes with which the server says it did not do this request (too busy or shutting down, the body came too
   * slowly, or a request with the same Idempotency-Key is still running): retried after `Retry-After`, like 429.
   */
  notAppliedCodes: Object.freeze([
    'SERVICE_UNAVAILABLE',
    'REQUEST_TIMEOUT',
    'IDEMPOTENCY_KEY_IN_USE',
  ]) as readonly string[],
} as const);

/** The exponential backoff before retry number `retry` (0-based), in milliseconds, with jitter. */
export function backoffMs(retry: number, random: () => number = Math.random): number {
  const base = Math.min(RETRY.initialDelayMs * 2 ** retry, RETRY.maxDelayMs);
  return base * (1 - RETRY.jitter * random());
}

/**
 * How long to wait before retrying after `error`, in milliseconds, or `undefined` when it must not be retried.
 * `retry` counts the retries already made; `maxRetries` bounds them.
 */
export function retryDelayMs(
  method: string,
  error: unknown,
  retry: number,
  maxRetries: number,
  random: () => number = Math.random,
): number | undefined {
  if (retry >= maxRetries || error instanceof APIUserAbortError) return undefined;
  const backoff = backoffMs(retry, random);
  if (isRefusal(error)) {
    const retryAfter = parseRetryAfter(error.headers.get('retry-after'));
    if (retryAfter === undefined) return backoff;
    if (retryAfter > RETRY.maxRetryAfterSeconds) return undefined;
    return Math.max(retryAfter * 1000, backoff);
  }
  if (!RETRY.idempotentMethods.includes(method)) return undefined;
  if (error instanceof APIConnectionError) return backoff;
  if (error instanceof APIError && RETRY.statuses.includes(error.status)) return backoff;
  return undefined;
}

/** A 429, or an answer whose code says the server did not do the request: retried after `Retry-After`. */
function isRefusal(error: unknown): error is APIError {
  return (
    error instanceof RateLimitError || (error instanceof APIError && RETRY.notAppliedCodes.includes(error.code ?? ''))
  );
}

/** Why `error` is retried, for the log and the `onResponse` event. */
export function retryReason(error: unknown): RetryReason {
  if (error instanceof RateLimitError) return 'rate_limited';
  if (isRefusal(error)) return 'not_applied';
  if (error instanceof APIConnectionTimeoutError) return 'timeout';
  if (error instanceof APIConnectionError) return 'connection_error';
  return 'server_error';
}

/** The `Retry-After` (in seconds) of a refusal that is not retried because it is too long to wait; else undefined. */
export function unwaitedRetryAfter(error: unknown): number | undefined {
  if (!isRefusal(error)) return undefined;
  const retryAfter = parseRetryAfter(error.headers.get('retry-after'));
  return retryAfter !== undefined && retryAfter > RETRY.maxRetryAfterSeconds ? retryAfter : undefined;
}

/** Waits `ms`, or rejects with {@link APIUserAbortError} as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new APIUserAbortError({ cause: signal.reason }));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(new APIUserAbortError({ cause: signal?.reason }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
