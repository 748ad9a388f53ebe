import { CoinventoryError } from './errors.js';

// What the client tells about its requests: log lines at a level, and the onRequest/onResponse hooks. Neither can
// break a request: a hook or logger that throws (or rejects) is caught, and a hook's failure is logged. The API key
// is in neither: the hooks get no headers, and the debug log shows Authorization redacted.

/** How much the client logs: nothing, then each level adds to the one before it. */
export type LogLevel = 'off' | 'error' | 'warn' | 'info' | 'debug';

/** The levels, least to most verbose. */
export const LOG_LEVELS: readonly LogLevel[] = Object.freeze(['off', 'error', 'warn', 'info', 'debug']);

/** Where log lines go: `console`, or any logger with its four methods (pino, winston, a test double…). */
export interface Logger {
  error(message: string, ...details: unknown[]): void;
  warn(message: string, ...details: unknown[]): void;
  info(message: string, ...details: unknown[]): void;
  debug(message: string, ...details: unknown[]): void;
}

/** One attempt of a call, about to be sent: what `onRequest` gets. */
export interface RequestEvent {
  /** The HTTP method, e.g. `GET`. */
  method: string;
  /** The path under the base URL, with its query: `/items?sku=MOR-1921`. */
  path: string;
  /** This attempt's number, from 1. */
  attempt: number;
  /** How many attempts the call may make: its `maxRetries` + 1. */
  maxAttempts: number;
  /** The `Idempotency-Key` of a write (the same on each of its attempts); undefined for a GET. */
  idempotencyKey: string | undefined;
}

/** Why the client waits and tries again. */
export type RetryReason = 'rate_limited' | 'not_applied' | 'server_error' | 'connection_error' | 'timeout';

/** A wait before the next attempt, told with the answer that caused it. */
export interface RetryWait {
  /** How long the client waits before the next attempt, in milliseconds (`Retry-After` or the backoff). */
  delayMs: number;
  /** `rate_limited` for a 429; `not_applied` when the server says it did nothing (503, 408, 409 IDEMPOTENCY_KEY_IN_USE). */
  reason: RetryReason;
  /** The attempt that follows the wait. */
  nextAttempt: number;
}

/** How one attempt ended: what `onResponse` gets, for every attempt, the retried ones included. */
export interface ResponseEvent extends RequestEvent {
  /** The HTTP status; undefined when no answer came (connection error, timeout, abort). */
  status: number | undefined;
  /** From sending the request to reading the body (to the headers, for an export), in milliseconds. */
  durationMs: number;
  /** The `X-Request-Id` response header: quote it when asking for support. */
  requestId: string | undefined;
  /** The error this attempt ended with: an `APIError` for a non-2xx answer, or why no answer came. */
  error: CoinventoryError | undefined;
  /** Set when the client will wait and try again: how long, and why. */
  retry: RetryWait | undefined;
}

/** What the client is told to report with: `logLevel`, `logger`, `onRequest`, `onResponse`. */
export interface ObserveOptions {
  logLevel: LogLevel;
  logger: Logger | undefined;
  onRequest: ((event: RequestEvent) => void) | undefined;
  onResponse: ((event: ResponseEvent) => void) | undefined;
}

const REASONS: Record<RetryReason, string> = {
  rate_limited: 'rate limited',
  not_applied: 'server busy',
  server_error: 'server error',
  connection_error: 'connection error',
  timeout: 'timed out',
};

/** Sends the client's log lines and hook events; one per client. */
export class Observer {
  readonly #rank: number;
  readonly #logger: Logger | undefined;
  readonly #options: ObserveOptions;

  constructor(options: ObserveOptions) {
    this.#options = options;
    this.#rank = LOG_LEVELS.indexOf(options.logLevel);
    // Not every runtime has a console (a sandbox with fetch's globals only): then nothing is logged.
    this.#logger = options.logger ?? (globalThis as { console?: Logger }).console;
  }

  /** Logs `message` at `level` when the client's level includes it. Never throws. */
  log(level: Exclude<LogLevel, 'off'>, message: string, details?: object): void {
    if (this.#logger === undefined || LOG_LEVELS.indexOf(level) > this.#rank) return;
    try {
      const line = `coinventory: ${message}`;
      if (details === undefined) this.#logger[level](line);
      else this.#logger[level](line, details);
    } catch {
      // A logger that fails must not fail the request; there is nowhere left to say so.
    }
  }

  /** An attempt is about to be sent; `headers` are shown at debug, Authorization redacted. */
  request(event: RequestEvent, headers: Headers): void {
    if (LOG_LEVELS.indexOf('debug') <= this.#rank) {
      const shown: Record<string, string> = {};
      headers.forEach((value, name) => {
        shown[name] = name === 'authorization' ? '[redacted]' : value;
      });
      this.log('debug', `${event.method} ${event.path} sent (${attemptOf(event)})`, {
        headers: shown,
      });
    }
    this.#call('onRequest', event);
  }

  /** An attempt ended: one line at info (a retry's wait at warn), and the `onResponse` event. */
  response(event: ResponseEvent): void {
    const { method, path, status, durationMs, requestId, error, retry } = event;
    const outcome = status !== undefined ? String(status) : `failed (${error?.message ?? 'no answer'})`;
    const id = requestId ? `, request ${requestId}` : '';
    this.log('info', `${method} ${path} ${outcome} in ${durationMs} ms (${attemptOf(event)}${id})`);
    if (retry) {
      const cause = status !== undefined ? ` (${status})` : '';
      this.log(
        'warn',
        `${method} ${path}: ${REASONS[retry.reason]}${cause}; waiting ${seconds(retry.delayMs)} (attempt ${retry.nextAttempt} of ${event.maxAttempts})`,
      );
    }
    this.#call('onResponse', event);
  }

  /** Calls a hook, catching what it throws or rejects with. */
  #call(name: 'onRequest' | 'onResponse', event: RequestEvent | ResponseEvent): void {
    const hook = this.#options[name] as ((event: RequestEvent | ResponseEvent) => unknown) | undefined;
    if (hook === undefined) return;
    const failed = (error: unknown) =>
      this.log('error', `the ${name} hook threw; the request went on: ${describe(error)}`, { error });
    try {
      const result = hook(event);
      // A hook may be async: its rejection is caught too, not left unhandled.
      if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') {
        (result as PromiseLike<unknown>).then(undefined, failed);
      }
    } catch (error) {
      failed(error);
    }
  }
}

function attemptOf(event: RequestEvent): string {
  return `attempt ${event.attempt} of ${event.maxAttempts}`;
}

/** A wait in words: `0.5 s`, `12 s`. */
function seconds(ms: number): string {
  const s = ms / 1000;
  return `${s < 10 ? Math.round(s * 10) / 10 : Math.round(s)} s`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The log level from `logLevel`, else from COINVENTORY_LOG, else `warn`. A bad `logLevel` throws, as other bad
 * options do; a bad COINVENTORY_LOG is warned about and ignored, so a typo in an environment cannot stop a service.
 */
export function resolveLogLevel(
  given: LogLevel | undefined,
  fromEnv: string | undefined,
): { level: LogLevel; warning?: string } {
  const names = LOG_LEVELS.join(', ');
  if (given !== undefined) {
    if (!LOG_LEVELS.includes(given)) {
      throw new CoinventoryError(`logLevel must be one of ${names}; got ${JSON.stringify(given)}.`);
    }
    return { level: given };
  }
  if (fromEnv === undefined) return { level: DEFAULT_LOG_LEVEL };
  const level = fromEnv.toLowerCase() as LogLevel;
  if (LOG_LEVELS.includes(level)) return { level };
  return {
    level: DEFAULT_LOG_LEVEL,
    warning: `COINVENTORY_LOG=${JSON.stringify(fromEnv)} is not a log level (${names}); logging at ${DEFAULT_LOG_LEVEL}.`,
  };
}

export const DEFAULT_LOG_LEVEL: LogLevel = 'warn';
