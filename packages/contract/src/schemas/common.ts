import { z } from 'zod';
import { ERROR_CODES } from '../constants.js';
import { codeList, strictObject } from './fields.js';

export { listLimitQuery, pageQuery } from './fields.js';

/** One failing field of a validation error. */
export const ErrorIssueSchema = strictObject('One validation failure.', {
  message: z.string().describe('What is wrong, starting with the location of the field, for example `body.sku: …`.'),
});

/** The body of every error response. */
export const ErrorBodySchema = strictObject('Error body returned with every non-2xx status.', {
  code: z.string().describe(`Machine-readable error code. One of: ${codeList(ERROR_CODES)}.`),
  message: z.string().describe('Human-readable message, fixed for each code.'),
  issues: z
    .array(ErrorIssueSchema)
    .optional()
    .describe('Present on validation failures (400): one entry per failing field.'),
});

/** The envelope shared by every paginated list. */
export function listEnvelope<T extends z.ZodTypeAny>(entry: T, description: string) {
  return strictObject(description, {
    items: z.array(entry).describe('The entries of this page, in the requested order.'),
    page: z.number().int().min(1).describe('The page number returned.'),
    limit: z.number().int().min(1).describe('The page size used.'),
    hasMore: z.boolean().describe('True when another page follows this one.'),
  });
}
