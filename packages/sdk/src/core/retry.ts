import { APIConnectionError, APIError, APIUserAbortError, parseRetryAfter, RateLimitError } from './errors.js';

/**
 * The retry rule, in one place.
 *
 * - **429**, and **503 `SERVICE_UNAVAILABLE`** or **408 `REQUEST_TIMEOUT`** from the Coinventory server (the error
 *   body's `code` says so), are retried for every method: the server refused the request before doing anything
 *   lasting. The wait is `max(Retry-After, backoff)`; a `Retry-After` above {@link RETRY.maxRetryAfterSeconds} is
 *   not waited for, the error is thrown at once.
 * - **500, 502, 503, 504, connection errors and timeouts** are retried for GET and DELETE only. Both are idempotent:
 *   a DELETE that reached the server before the connection failed answers 404 when retried, and the SDK surfaces
 *   that as a `NotFoundError`. POST and PATCH are not retried on these, because the API has no idempotency keys and
 *   the first attempt may have been applied.
 * - Nothing else is retried (other 4xx, and a caller's abort).
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
  /** Statuses retried for GET and DELETE. */
  statuses: Object.freeze([500, 502, 503, 504]) as readonly number[],
  /** Methods retried on those statuses, connection errors and timeouts. 429 is retried for every method. */
  idempotentMethods: Object.freeze(['GET', 'DELETE']) as readonly string[],
  /**
   * Error codes with which the server says it did nothing (it was too busy or shutting down, or the body came too
   * slowly): retried for every method, like 429.
   */
  notAppliedCodes: Object.freeze(['SERVICE_UNAVAILABLE', 'REQUEST_TIMEOUT']) as readonly string[],
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
  const refused =
    error instanceof RateLimitError || (error instanceof APIError && RETRY.notAppliedCodes.includes(error.code ?? ''));
  if (refused) {
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
