import { z } from 'zod';
import { BATCH } from '../constants.js';
import { ErrorBodySchema } from './common.js';
import { codeList, count, strictObject } from './fields.js';
import { ItemSchema } from './item.js';

/** `dryRun=true`: everything a real request would check and answer, with nothing written. */
export const dryRunQuery = z
  .enum(['true', 'false'], { errorMap: () => ({ message: 'must be true or false' }) })
  .optional()
  .transform((value) => value === 'true')
  .describe(
    '`true`: check everything the request would (validation, SKU conflicts, ids) and answer what would result, writing nothing: no item, no change event, no sync job, no webhook delivery, no Idempotency-Key answer.',
  );

/** The query of every item write: `POST`, `PATCH` and `DELETE /items…` and the batch. */
export const DryRunQuerySchema = z.object({ dryRun: dryRunQuery }).strict();
export const BatchItemsQuerySchema = DryRunQuerySchema;

export const BatchItemsBodySchema = z
  .object({
    mode: z
      .enum(BATCH.modes)
      .describe(
        `\`create\`: each entry is a new item, as \`POST /items\` takes it (a SKU already used is 409). \`upsert\`: an entry whose \`sku\` an item of the workspace has changes that item as \`PATCH /items/{id}\` would (only the fields sent); any other entry is created. One of ${codeList(BATCH.modes)}.`,
      ),
    items: z
      .array(z.record(z.unknown()))
      .min(1, `must hold at least 1 item`)
      .max(BATCH.maxItems, `must hold at most ${BATCH.maxItems} items`)
      .describe(
        `1 to ${BATCH.maxItems} items, each a JSON object checked on its own by the rules of \`POST /items\` (or, for an existing SKU in upsert mode, \`PATCH /items/{id}\`): one that fails is reported at its position and the others are still applied.`,
      ),
  })
  .strict()
  .describe('Items to create or upsert in one request.');

export const BatchItemResultSchema = strictObject("One entry's outcome, at its position in the request.", {
  index: count('Its position in `items`, from 0.'),
  status: z
    .number()
    .int()
    .describe('The status the single-item route would have answered: 200, 400 (with `error.issues`), 404 or 409.'),
  action: z
    .enum(['created', 'updated'])
    .nullable()
    .describe('What was done (or, in a dry run, would be done); null when the entry was refused.'),
  item: ItemSchema.nullable().describe(
    'The item as `GET /items/{id}` would show it after the batch; null when refused. In a dry run, what it would be.',
  ),
  error: ErrorBodySchema.nullable().describe(
    'The error body the single-item route would have answered with; null when applied.',
  ),
});

export const BatchItemsResultSchema = strictObject('The outcome of every entry, in the order sent.', {
  mode: z.enum(BATCH.modes).describe('The mode the batch ran in.'),
  dryRun: z.boolean().describe('True when nothing was written.'),
  created: count('Entries created (or that would be).'),
  updated: count('Entries that changed an existing item (or would).'),
  failed: count('Entries refused.'),
  results: z.array(BatchItemResultSchema).describe('One per entry of `items`, in the same order.'),
});
