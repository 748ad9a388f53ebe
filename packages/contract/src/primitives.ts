import { z } from 'zod';
import { LIMITS } from './constants.js';

/**
 * Building blocks shared by every schema. Each carries its OpenAPI description through `.describe()`,
 * so the generated document and the runtime validation cannot disagree.
 */

// PostgreSQL text and jsonb cannot hold U+0000, and unpaired surrogates cannot be encoded as UTF-8:
// accepting either would fail later or silently change the stored text.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const isStorableText = (value: string): boolean => !value.includes('\u0000') && !UNPAIRED_SURROGATE.test(value);

const STORABLE_MESSAGE = 'must not contain NUL characters or unpaired surrogates';

/** An input string with length bounds that PostgreSQL can store unchanged. */
export function text(bounds: { min?: number; max: number }) {
  let schema = z.string();
  if (bounds.min !== undefined) schema = schema.min(bounds.min);
  return schema.max(bounds.max).refine(isStorableText, STORABLE_MESSAGE);
}

export const uuid = z.string().uuid();

/** Money: integer cents, USD, never negative. */
export const cents = z.number().int().min(LIMITS.cents.min).max(LIMITS.cents.max);

/** A response date-time: ISO 8601 in UTC (`Z`). */
export const dateTime = z.string().datetime();

const CALENDAR_DATE = /^(\d{4})-(\d{2})-(\d{2})T/;

/** True when the date part names a real calendar day (no 30 February). */
function isRealCalendarDate(value: string): boolean {
  const match = CALENDAR_DATE.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** An input date-time: ISO 8601 that must carry `Z` or a numeric offset such as `+02:00`. */
export const dateTimeInput = z
  .string()
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time with Z or a numeric offset' })
  .refine(isRealCalendarDate, 'must name a real calendar date');

/** A query parameter holding a whole number, with bounds and a default. */
export function queryInteger(bounds: { min: number; max?: number; default: number }) {
  let schema = z.coerce.number().int().min(bounds.min);
  if (bounds.max !== undefined) schema = schema.max(bounds.max);
  return schema.default(bounds.default);
}
