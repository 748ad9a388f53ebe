import { ERRORS, LIMITS } from '../../constants.js';
import type { ErrorBody } from '../../types.js';

/** The first page of a list, at the default page size. */
export const firstPage = <T>(items: T[], hasMore: boolean) => ({
  items,
  page: 1,
  limit: LIMITS.listLimit.default,
  hasMore,
});

/** The error body of a request that failed validation. */
export const VALIDATION_ERROR_EXAMPLE: ErrorBody = {
  code: 'BAD_REQUEST',
  message: ERRORS.BAD_REQUEST.message,
  issues: [{ message: `body.sku: String must contain at most ${LIMITS.sku.max} character(s)` }],
};

/** A list's first entry: the examples of the nested schemas are the ones their parents show. */
export function first<T>(entries: readonly T[] | undefined): T {
  const [head] = entries ?? [];
  if (head === undefined) throw new Error('an example list is empty');
  return head;
}

export function present<T>(value: T | null): T {
  if (value === null) throw new Error('an example field is null');
  return value;
}
