import { z } from 'zod';
import { LIMITS } from './constants.js';
import { DATE_TIME_YEARS_MESSAGE, isDigits, isStorableYear, type TextBounds, textProblem } from './text-rules.js';

/**
 * Building blocks shared by every schema. Each carries its OpenAPI description through `.describe()`,
 * so the generated document and the runtime validation cannot disagree. The rules themselves are plain functions in
 * `text-rules.ts`, which small clients import without zod.
 */

export { characterLength, DATE_TIME_YEARS, isStorableText } from './text-rules.js';

/**
 * The bounds of every `text()` schema, keyed by its refinement function (which survives `.describe()`), so the
 * OpenAPI generator can publish them as minLength/maxLength.
 */
export const textBounds = new WeakMap<object, TextBounds>();

/** An input string of `min` to `max` characters that PostgreSQL can store unchanged. */
export function text(bounds: TextBounds) {
  const check = (value: string, ctx: z.RefinementCtx) => {
    const problem = textProblem(value, bounds);
    if (!problem) return;
    const { message } = problem;
    if (problem.kind === 'too_short') {
      ctx.addIssue({ code: z.ZodIssueCode.too_small, minimum: problem.min, type: 'string', inclusive: true, message });
    } else if (problem.kind === 'too_long') {
      ctx.addIssue({ code: z.ZodIssueCode.too_big, maximum: problem.max, type: 'string', inclusive: true, message });
    } else {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message });
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

function isWithinStorableYears(value: string): boolean {
  const year = new Date(value).getUTCFullYear();
  // Not a date at all: the format check reports that, once.
  return Number.isNaN(year) || isStorableYear(year);
}

/**
 * An input date-time: ISO 8601 that must carry `Z` or a numeric offset such as `+02:00`, on a real calendar day
 * (zod's check knows month lengths and leap years, so PostgreSQL never sees 30 February).
 */
export const dateTimeInput = z
  .string()
  .datetime({ offset: true, message: 'must be an ISO 8601 date-time on a real date, with Z or a numeric offset' })
  .refine(isWithinStorableYears, { message: DATE_TIME_YEARS_MESSAGE });

/**
 * A query parameter holding a whole number, with bounds and a default. Query values arrive as text: only plain
 * digits are read as a number (`1e1`, `0x10`, ` 5` and `1.0` are refused), so what is accepted is what is meant.
 */
export function queryInteger(bounds: { min: number; max?: number; default: number }) {
  let number = z.number({ invalid_type_error: 'must be a whole number written in digits' }).int().min(bounds.min);
  if (bounds.max !== undefined) number = number.max(bounds.max);
  const parsed = z.preprocess(
    (value) => (typeof value === 'string' && isDigits(value) ? Number(value) : value),
    number,
  );
  // Typed as the number schema it wraps, so callers (and the SDK) pass numbers; at run time it also reads digits.
  return (parsed as unknown as typeof number).default(bounds.default);
}
