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

/** Length in characters (Unicode code points), as the spec, JSON Schema and PostgreSQL count them. */
export const characterLength = (value: string): number => {
  let length = 0;
  for (const _ of value) length += 1;
  return length;
};

/**
 * The bounds of every `text()` schema, keyed by its refinement function (which survives `.describe()`), so the
 * OpenAPI generator can publish them as minLength/maxLength.
 */
export const textBounds = new WeakMap<object, { min?: number; max: number }>();

/** An input string of `min` to `max` characters that PostgreSQL can store unchanged. */
export function text(bounds: { min?: number; max: number }) {
  const { min, max } = bounds;
  const check = (value: string, ctx: z.RefinementCtx) => {
    const length = characterLength(value);
    if (min !== undefined && length < min) {
      ctx.addIssue({
        code: z.ZodIssueCode.too_small,
        minimum: min,
        type: 'string',
        inclusive: true,
        message: `must be at least ${min} character${min === 1 ? '' : 's'}`,
      });
    } else if (length > max) {
      ctx.addIssue({
        code: z.ZodIssueCode.too_big,
        maximum: max,
        type: 'string',
        inclusive: true,
        message: `must be at most ${max} characters`,
      });
    } else if (!isStorableText(value)) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: STORABLE_MESSAGE });
    }
  };
  textBounds.set(check, bounds);
  return z.string().superRefine(check);
}

export const uuid = z.string().uuid();

/** Money: integer cents, USD, never negative. */
export const cents = z.number().int().min(LIMITS.cents.min).max(LIMITS.cents.max);

/** A response date-time: ISO 8601 in UTC (`Z`). */
export const dateTime = z.string().datetime();

/**
 * Years an input date-time may fall in, once converted to UTC. PostgreSQL and JavaScript disagree on years below
 * 100 (JavaScript reads them as 19xx), and an offset can push 9999-12-31 into year 10000: both would change or
 * lose the value, so the range is bounded where every layer agrees.
 */
export const DATE_TIME_YEARS = { min: 1000, max: 9999 } as const;

function isWithinStorableYears(value: string): boolean {
  const year = new Date(value).getUTCFullYear();
  // Not a date at all: the format check reports that, once.
  if (Number.isNaN(year)) return true;
  return year >= DATE_TIME_YEARS.min && year <= DATE_TIME_YEARS.max;
}

/**
 * An input date-time: ISO 8601 that must carry `Z` or a numeric offset such as `+02:00`, on a real calendar day
 * (zod's check knows month lengths and leap years, so PostgreSQL never sees 30 February).
 */
export const dateTimeInput = z
  .string()
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time on a real date, with Z or a numeric offset' })
  .refine(isWithinStorableYears, {
    message: `must fall between the years ${DATE_TIME_YEARS.min} and ${DATE_TIME_YEARS.max} (UTC)`,
  });

const DIGITS = /^[0-9]+$/;

/**
 * A query parameter holding a whole number, with bounds and a default. Query values arrive as text: only plain
 * digits are read as a number (`1e1`, `0x10`, ` 5` and `1.0` are refused), so what is accepted is what is meant.
 */
export function queryInteger(bounds: { min: number; max?: number; default: number }) {
  let number = z.number({ invalid_type_error: 'must be a whole number written in digits' }).int().min(bounds.min);
  if (bounds.max !== undefined) number = number.max(bounds.max);
  const parsed = z.preprocess(
    (value) => (typeof value === 'string' && DIGITS.test(value) ? Number(value) : value),
    number,
  );
  // Typed as the number schema it wraps, so callers (and the SDK) pass numbers; at run time it also reads digits.
  return (parsed as unknown as typeof number).default(bounds.default);
}
