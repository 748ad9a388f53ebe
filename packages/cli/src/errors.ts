import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  AuthenticationError,
  BadRequestError,
  CoinventoryError,
  ConflictError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  PreconditionFailedError,
  RateLimitError,
} from '@coinventory/sdk';

/** The CLI's exit codes: documented in `coinventory --help` and the README. */
export const EXIT = {
  OK: 0,
  /** Anything else: an unexpected error, an aborted prompt, an unusual API status (405, 415…). */
  ERROR: 1,
  /** Bad usage: unknown command or option, a bad option value, or a 400 from the API. */
  USAGE: 2,
  /** No key, or the API refused it: 401, 403. */
  AUTH: 3,
  /** 404. */
  NOT_FOUND: 4,
  /**
   * 409: the write conflicts with the data (a SKU already used, not enough quantity, a reservation no longer held); or
   * 412: the item changed since the ETag given as `--if-match`.
   */
  CONFLICT: 5,
  /** 429, still refused after the retries (or Retry-After too long to wait for). */
  RATE_LIMITED: 6,
  /** 5xx. */
  SERVER: 7,
  /** No answer: connection refused or reset, DNS, timeout. */
  NETWORK: 8,
  /** `items import` ran to the end, and the API refused some rows (each is in the rejects file). */
  ROWS_REFUSED: 9,
  /** Ctrl-C (128 + SIGINT), as shells report it. */
  INTERRUPTED: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The table printed by `coinventory --help` and kept in step with the README. */
export const EXIT_CODE_HELP: ReadonlyArray<readonly [ExitCode, string]> = [
  [EXIT.OK, 'success'],
  [EXIT.ERROR, 'other or unexpected error'],
  [EXIT.USAGE, 'usage: unknown command or option, bad value (also a 400 from the API)'],
  [EXIT.AUTH, 'authentication: no key, key refused (401) or not allowed (403)'],
  [EXIT.NOT_FOUND, 'not found (404)'],
  [EXIT.CONFLICT, 'conflict (409: SKU in use, not enough quantity, reservation not held; 412)'],
  [EXIT.RATE_LIMITED, 'rate limited (429) after the retries'],
  [EXIT.SERVER, 'server error (5xx)'],
  [EXIT.NETWORK, 'network: no connection or timeout'],
  [EXIT.ROWS_REFUSED, 'items import: some rows refused (listed in the rejects file)'],
  [EXIT.INTERRUPTED, 'interrupted (Ctrl-C)'],
];

/** A usage error found by the CLI itself, before any request: exit 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  /** The command path whose `--help` to suggest, e.g. `items create`. */
  readonly command: string | undefined;

  constructor(message: string, command?: string) {
    super(message);
    this.command = command;
  }
}

/** No API key from any source: exit 3. */
export class MissingKeyError extends Error {
  override readonly name = 'MissingKeyError';
}

/** A failure with a chosen message and exit code (config file unreadable, prompt aborted, no item with a SKU…). */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly exitCode: ExitCode;
  /** Lines printed after the message: what to do about it. */
  readonly hints: readonly string[];

  constructor(message: string, exitCode: ExitCode = EXIT.ERROR, hints: readonly string[] = []) {
    super(message);
    this.exitCode = exitCode;
    this.hints = hints;
  }
}

/**
 * An API error with what the CLI read after it to explain it (how many units the item has, what became of a
 * reservation): `detail` is said after the API's message, as a 404 names its object; `hints` are lines under it. It is
 * reported, and exits, as the API error itself.
 */
export class ExplainedError extends Error {
  override readonly name = 'ExplainedError';
  readonly error: APIError;
  readonly detail: string | undefined;
  readonly hints: readonly string[];

  constructor(error: APIError, explanation: { detail?: string; hints?: readonly string[] }) {
    super(error.message, { cause: error });
    this.error = error;
    this.detail = explanation.detail;
    this.hints = explanation.hints ?? [];
  }
}

/** Whether a file system error has this code (`ENOENT`). */
export function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}

/** An error's message, for a line that says what failed. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export interface ErrorReport {
  /** Lines to print on stderr, without the `Error:` prefix on the first. */
  lines: string[];
  exitCode: ExitCode;
}

/** The exit code for an error the SDK threw (or any other). */
export function exitCodeFor(error: unknown): ExitCode {
  if (error instanceof UsageError) return EXIT.USAGE;
  if (error instanceof MissingKeyError) return EXIT.AUTH;
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof ExplainedError) return exitCodeFor(error.error);
  if (error instanceof APIError) {
    if (error instanceof BadRequestError || error instanceof PayloadTooLargeError) return EXIT.USAGE;
    if (error instanceof AuthenticationError || error instanceof PermissionDeniedError) return EXIT.AUTH;
    if (error instanceof NotFoundError) return EXIT.NOT_FOUND;
    if (error instanceof ConflictError || error instanceof PreconditionFailedError) return EXIT.CONFLICT;
    if (error instanceof RateLimitError) return EXIT.RATE_LIMITED;
    if (error.status >= 500) return EXIT.SERVER;
    return EXIT.ERROR;
  }
  if (error instanceof APIConnectionError) return EXIT.NETWORK;
  return EXIT.ERROR;
}

/**
 * What to tell the user about an error: the API's message with the object it did not find, code and status, every
 * issue, the request id, and hints. Built from the same parts as the SDK's `message`, laid out in lines rather than
 * quoted in it.
 */
export function reportError(error: unknown): ErrorReport {
  const exitCode = exitCodeFor(error);
  if (error instanceof ExplainedError)
    return { lines: apiErrorLines(error.error, error.detail, error.hints), exitCode };
  if (error instanceof APIError) return { lines: apiErrorLines(error), exitCode };
  if (error instanceof APIConnectionTimeoutError) {
    return { lines: [`${error.message} Is the API reachable? (check --base-url)`], exitCode };
  }
  if (error instanceof APIConnectionError) {
    return { lines: [`Could not reach the API: ${error.message}`, 'Check --base-url and your connection.'], exitCode };
  }
  if (error instanceof UsageError) {
    const lines = [error.message];
    if (error.command) lines.push(`(run 'coinventory ${error.command} --help' for usage and examples)`);
    return { lines, exitCode };
  }
  if (error instanceof CliError) return { lines: [error.message, ...error.hints], exitCode };
  if (error instanceof MissingKeyError || error instanceof CoinventoryError) {
    return { lines: [error.message], exitCode };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { lines: [`Unexpected error: ${message}`], exitCode };
}

/** An API error's lines: its message (with `detail`, or the object a 404 did not find), issues, request id, hints. */
function apiErrorLines(error: APIError, detail?: string, hints: readonly string[] = []): string[] {
  const code = error.code ? `${error.code}, ` : '';
  // As the SDK's message does: a 404 names what was not found (`missing`, unless the base URL is in doubt).
  const subject = detail ? `: ${detail}` : error.missing ? `: ${error.missing}` : '';
  const lines = [`${error.apiMessage}${subject} (${code}HTTP ${error.status})`];
  for (const issue of error.issues ?? []) lines.push(`  - ${issue.message}`);
  if (error.requestId) lines.push(`Request ID: ${error.requestId}`);
  // The SDK's hint says what happened (the key refused, the scope missing, when to retry); the CLI adds its commands.
  for (const hint of [error.hint, commandHint(error), ...hints]) if (hint) lines.push(hint);
  return lines;
}

/** The CLI command that helps with an API error, after the SDK's hint. */
function commandHint(error: APIError): string | undefined {
  if (error instanceof AuthenticationError) return 'To save a new key: coinventory login (or set COINVENTORY_API_KEY).';
  if (error instanceof PermissionDeniedError) return "To see the key's scopes: coinventory me";
  return undefined;
}
