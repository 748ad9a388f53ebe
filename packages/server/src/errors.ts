import { ERRORS, type ErrorBody, type ErrorCode } from '@coinventory/contract';
import type { ZodError } from 'zod';

/**
 * An error the API answers with: one of the contract's codes, with its fixed message and, for validation
 * failures, one issue per failing field. Services throw these; one handler turns them into responses.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly issues?: string[],
    /** Extra response headers, such as Allow on 405. */
    readonly headers: Record<string, string> = {},
    /** The contract's message for a case its code covers more than one way (a failed If-None-Match's 412). */
    message: string = ERRORS[code].message,
  ) {
    super(message);
    this.status = ERRORS[code].status;
  }

  get body(): ErrorBody {
    return errorBody(this.code, this.issues, this.message);
  }
}

export function errorBody(code: ErrorCode, issues?: string[], message: string = ERRORS[code].message): ErrorBody {
  const body: ErrorBody = { code, message };
  if (issues && issues.length > 0) body.issues = issues.map((message) => ({ message }));
  return body;
}

export const notFound = () => new ApiError('NOT_FOUND');
/** The value, or the API's 404 when there is none. */
export function found<T>(value: T | null): T {
  if (value === null) throw notFound();
  return value;
}

export const badRequest = (...issues: string[]) => new ApiError('BAD_REQUEST', issues);

/** `query.limit: Number must be less than or equal to 100`: one message per failing field (its first issue). */
export function issuesOf(location: string, error: ZodError | null): string[] {
  if (!error) return [];
  const byField = new Map<string, string>();
  for (const issue of error.issues) {
    const path = [location, ...issue.path.map(String)].join('.');
    if (!byField.has(path)) byField.set(path, `${path}: ${issue.message}`);
  }
  return [...byField.values()];
}

/** What an operator command refuses, and why, in words an operator can act on (mapped to exit codes). */
export class ProvisioningError extends Error {
  override name = 'ProvisioningError';
  constructor(
    readonly kind: 'not_found' | 'conflict' | 'refused',
    message: string,
  ) {
    super(message);
  }
}

/** An operator's reference that matches nothing: `No organization with id or slug "acme".` */
export const noSuch = (what: string, ref: string) => new ProvisioningError('not_found', `No ${what} "${ref}".`);
