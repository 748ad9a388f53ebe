import { z } from 'zod';
import { ERROR_CODES, LIMITS } from '../constants.js';
import { queryInteger } from '../primitives.js';

/** One failing field of a validation error. */
export const ErrorIssueSchema = z
  .object({
    message: z.string().describe('What is wrong, starting with the location of the field, for example `body.sku: …`.'),
  })
  .strict()
  .describe('One validation failure.');

/** The body of every error response. */
export const ErrorBodySchema = z
  .object({
    code: z.string().describe(`Machine-readable error code. One of: ${ERROR_CODES.map((c) => `\`${c}\``).join(', ')}.`),
    message: z.string().describe('Human-readable message, fixed for each code.'),
    issues: z
      .array(ErrorIssueSchema)
      .optional()
      .describe('Present on validation failures (400): one entry per failing field.'),
  })
  .strict()
  .describe('Error body returned with every non-2xx status.');

export const pageQuery = queryInteger(LIMITS.page).describe('Page number, starting at 1.');
export const listLimitQuery = queryInteger(LIMITS.listLimit).describe(
  `Page size, ${LIMITS.listLimit.min} to ${LIMITS.listLimit.max}.`,
);

/** The envelope shared by every paginated list. */
export function listEnvelope<T extends z.ZodTypeAny>(entry: T, description: string) {
  return z
    .object({
      items: z.array(entry).describe('The entries of this page, in the requested order.'),
      page: z.number().int().min(1).describe('The page number returned.'),
      limit: z.number().int().min(1).describe('The page size used.'),
      hasMore: z.boolean().describe('True when another page follows this one.'),
    })
    .strict()
    .describe(description);
}
