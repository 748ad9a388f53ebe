import { z } from 'zod';

/**
 * The rules import rows share, with the messages an operator reads in the rejects report. A CSV gives every value as
 * text, NDJSON as JSON: a whole number may come as digits or as a number.
 */

export const requiredText = (max: number) =>
  z
    .string({ required_error: 'is required', invalid_type_error: 'must be text' })
    .trim()
    .min(1, 'must not be empty')
    .max(max, `must be at most ${max} characters`);

export const optionalText = (max: number) =>
  requiredText(max)
    .optional()
    .transform((value) => value ?? null);

/** A whole number from `min` to `max`: digits in CSV, a number in NDJSON. */
export const wholeNumber = (min: number, max: number, what: string) =>
  z.preprocess(
    (value) => (typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value),
    z
      .number({ required_error: 'is required', invalid_type_error: `must be ${what} (digits only)` })
      .int(`must be ${what} (digits only)`)
      .min(min, `must be at least ${min}`)
      .max(max, `must be at most ${max}`),
  );

/** Money: whole cents from 0 to 2^53 − 1, as the API's. */
export const cents = wholeNumber(0, Number.MAX_SAFE_INTEGER, 'whole cents');

/** An address of a record or an image: http or https, at most 2048 characters. */
export const httpUrl = z
  .string({ required_error: 'is required', invalid_type_error: 'must be text' })
  .trim()
  .max(2048, 'must be at most 2048 characters')
  .url('must be a URL')
  .refine((value) => /^https?:\/\//i.test(value), 'must be an http or https URL');
