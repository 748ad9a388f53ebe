import { z } from 'zod';
import { LIMITS, SEARCH_FIELDS } from '../constants.js';
import { cents, dateTime, queryInteger, text, uuid } from '../primitives.js';

/**
 * Shapes the resource schemas share, each taking the description the reference shows. Internal: the package
 * exports the schemas built from them, not these.
 */

/** `a`, `b`, `c`: a list of values as the descriptions quote them. */
export const codeList = (values: readonly string[]): string => values.map((value) => `\`${value}\``).join(', ');

/** An object that refuses unknown keys. */
export const strictObject = <Shape extends z.ZodRawShape>(description: string, shape: Shape) =>
  z.object(shape).strict().describe(description);

/** Fields that are always present, and hold null when empty. */
export const nullable = {
  string: (description: string) => z.string().nullable().describe(description),
  integer: (description: string) => z.number().int().nullable().describe(description),
  cents: (description: string) => cents.nullable().describe(description),
  dateTime: (description: string) => dateTime.nullable().describe(description),
  uuid: (description: string) => uuid.nullable().describe(description),
};

/** A person a resource names (`who`): an id, and a name and email address either of which may be unknown. */
export const person = <Id extends z.ZodTypeAny>(who: string, description: string, id: Id) =>
  strictObject(description, {
    id,
    name: nullable.string(`${who}'s name.`),
    email: nullable.string(`${who}'s email address.`),
  });

/** A number of units or entries: a whole number, never negative. */
export const count = (description: string) => z.number().int().min(0).describe(description);

export const pageQuery = queryInteger(LIMITS.page).describe('Page number, starting at 1.');
export const listLimitQuery = queryInteger(LIMITS.listLimit).describe(
  `Page size, ${LIMITS.listLimit.min} to ${LIMITS.listLimit.max}.`,
);

/** Spreads the properties of an intersection into one object type, as a shape written out by hand has. */
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * The query of a paginated list: `q`, matching the list's `SEARCH_FIELDS`, then the list's own filters, then
 * `page` and `limit`.
 */
export function listQuery<Filters extends z.ZodRawShape>(list: keyof typeof SEARCH_FIELDS, filters: Filters) {
  const q = text(LIMITS.q)
    .optional()
    .describe(
      `Search text, ${LIMITS.q.min} to ${LIMITS.q.max} chars: ${list} whose ${codeList(SEARCH_FIELDS[list])} contain it, case-insensitively.`,
    );
  const shape = { q, ...filters, page: pageQuery, limit: listLimitQuery } as Flat<
    { q: typeof q } & Filters & { page: typeof pageQuery; limit: typeof listLimitQuery }
  >;
  return z.object(shape).strict();
}
