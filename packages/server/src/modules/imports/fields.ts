import { LIMITS } from '@coinventory/contract';
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

/** A day (`2026-05-01`, taken as midnight UTC) or an ISO 8601 date-time with Z or an offset; kept as written too. */
export const dateText = z
  .string({ required_error: 'is required', invalid_type_error: 'must be text' })
  .trim()
  .refine(
    (value) =>
      /^\d{4}-\d{2}-\d{2}$/.test(value)
        ? !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
          new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
        : z.string().datetime({ offset: true }).safeParse(value).success,
    'must be a date (2026-05-01) or an ISO 8601 date-time with Z or an offset',
  )
  .transform((value) => ({
    text: value,
    at: new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value),
  }));

/** An optional moment (dateText), as a Date or null. */
export const optionalDate = dateText.optional().transform((value) => value?.at ?? null);

/** An optional email address: at most 254 characters, as addresses are. */
export const optionalEmail = requiredText(254)
  .email('must be an email address')
  .optional()
  .transform((value) => value ?? null);

/** One of a fixed list of values, as the API filters on them. */
export const oneOf = <Value extends string>(values: readonly [Value, ...Value[]]) =>
  z.enum(values, {
    errorMap: (issue, context) => ({
      message:
        issue.code === 'invalid_type' && context.data === undefined
          ? 'is required'
          : `must be one of ${values.join(', ')}`,
    }),
  });

/** The id of a record in the system the dealer is leaving: what a re-import finds the record by. */
export const externalId = requiredText(200);

/** An item's SKU, as the API bounds it (kept exactly as written: SKUs are compared byte for byte). */
export const sku = z
  .string({ required_error: 'is required', invalid_type_error: 'must be text' })
  .min(LIMITS.sku.min, 'must not be empty')
  .max(LIMITS.sku.max, `must be at most ${LIMITS.sku.max} characters`);

/** A consignor or a customer: their id in the system the dealer is leaving, and a name or an email (or both). */
export const PersonRow = z
  .object({ externalId, name: optionalText(200), email: optionalEmail })
  .strict()
  .refine((row) => row.name !== null || row.email !== null, 'needs a name or an email');
export type PersonRow = z.infer<typeof PersonRow>;
export const PERSON_FIELDS = ['externalId', 'name', 'email'] as const;
