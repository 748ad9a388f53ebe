import { z } from 'zod';
import { CHANGE_TYPES, type ChangeType, DEFAULT_CHANGES_RETENTION_DAYS, LIMITS } from '../constants.js';
import { dateTime, queryInteger, text, uuid } from '../primitives.js';
import { ConsignmentSchema } from './consignment.js';
import { codeList, strictObject } from './fields.js';
import { ActorSchema, ReservationSchema } from './inventory.js';
import { InvoiceSchema } from './invoice.js';
import { ItemSchema } from './item.js';
import { ValuationSchema } from './valuation.js';

const changeFields = <Type extends ChangeType, Data extends z.ZodTypeAny>(
  type: Type,
  description: string,
  data: Data,
  occurredAt = "When the change was made (its transaction's start). The feed's order is commit order, which this need not follow.",
) =>
  strictObject(description, {
    id: uuid.describe('Change id: stable, and the same in every page and webhook that carries this change.'),
    type: z.literal(type).describe('What happened.'),
    objectId: uuid.describe('Id of the object that changed.'),
    occurredAt: dateTime.describe(occurredAt),
    actor: ActorSchema,
    data,
  });

const itemOccurredAt =
  "When the change was made (its transaction's start, which is also the object's `createdAt` or `updatedAt`). The feed's order is commit order, which this need not follow.";

// What the created and updated changes of an object carry: the object as its GET returned it right after the change.
const itemData = ItemSchema.describe('The item as `GET /items/{id}` returned it right after this change.');
const consignmentData = ConsignmentSchema.describe(
  'The consignment as `GET /consignments/{id}` returned it right after this change.',
);
const invoiceData = InvoiceSchema.describe('The invoice as `GET /invoices/{id}` returned it right after this change.');

export const ItemCreatedChangeSchema = changeFields('item.created', 'An item was created.', itemData, itemOccurredAt);
export const ItemUpdatedChangeSchema = changeFields('item.updated', 'An item was changed.', itemData, itemOccurredAt);
export const ItemDeletedChangeSchema = changeFields(
  'item.deleted',
  'An item was deleted.',
  z.null().describe('Always null: the item no longer exists.'),
  itemOccurredAt,
);
export const ValuationCreatedChangeSchema = changeFields(
  'valuation.created',
  "The valuation engine valued an item (`objectId` is the valuation's id, `data.itemId` the item's). When the estimate was applied as the item's value, an `item.updated` change of the same transaction follows.",
  ValuationSchema.describe('The valuation as `GET /items/{id}/valuations` lists it right after this change.'),
  "When the change was made (its transaction's start, which is also the valuation's `createdAt`). The feed's order is commit order, which this need not follow.",
);
export const ConsignmentCreatedChangeSchema = changeFields(
  'consignment.created',
  'A consignment was created (by an import: consignments are managed in the application, not through the API).',
  consignmentData,
);
export const ConsignmentUpdatedChangeSchema = changeFields(
  'consignment.updated',
  "A consignment changed as `GET /consignments/{id}` shows it: its own fields or which items it holds (by an import), or its totals, which move with its items' values and sales.",
  consignmentData,
);
export const InvoiceCreatedChangeSchema = changeFields(
  'invoice.created',
  'An invoice was created (by an import: invoices are managed in the application, not through the API).',
  invoiceData,
);
export const InvoiceUpdatedChangeSchema = changeFields(
  'invoice.updated',
  'An invoice, its lines or its payments were changed by an import.',
  invoiceData,
);

const reservationData = ReservationSchema.describe(
  'The reservation as `GET /reservations/{id}` returned it right after this change.',
);
const beside = "An `item.updated` change of the same transaction follows, with the item's quantities after it.";
export const ReservationCreatedChangeSchema = changeFields(
  'reservation.created',
  `Units of an item were reserved (moved from \`available\` to \`reserved\`). ${beside}`,
  reservationData,
);
export const ReservationCommittedChangeSchema = changeFields(
  'reservation.committed',
  `A reservation was committed: its units moved from \`reserved\` to \`sold\`. ${beside}`,
  reservationData,
);
export const ReservationReleasedChangeSchema = changeFields(
  'reservation.released',
  `A reservation was released: its units went back from \`reserved\` to \`available\`. ${beside}`,
  reservationData,
);
export const ReservationExpiredChangeSchema = changeFields(
  'reservation.expired',
  `A reservation expired, and the server gave its units back to \`available\`. ${beside}`,
  reservationData,
);

/** One entry of the changes feed; `type` tells what `data` holds. */
export const ChangeSchema = z
  .discriminatedUnion('type', [
    ItemCreatedChangeSchema,
    ItemUpdatedChangeSchema,
    ItemDeletedChangeSchema,
    ValuationCreatedChangeSchema,
    ConsignmentCreatedChangeSchema,
    ConsignmentUpdatedChangeSchema,
    InvoiceCreatedChangeSchema,
    InvoiceUpdatedChangeSchema,
    ReservationCreatedChangeSchema,
    ReservationCommittedChangeSchema,
    ReservationReleasedChangeSchema,
    ReservationExpiredChangeSchema,
  ])
  .describe('One change, as the changes feed reports it. `type` tells what `data` holds.');

const cursorText = `An opaque cursor from \`nextCursor\` (or \`GET /changes/cursor\`). Cursors stay valid while the changes after them are kept (${DEFAULT_CHANGES_RETENTION_DAYS} days unless the server is configured otherwise); an expired one, or one of another workspace, is refused with 400: start again from a full read.`;

const changeTypeAlternatives = `(?:${CHANGE_TYPES.map((type) => type.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`;

/**
 * What `types` accepts: change types separated by commas, white space around each allowed. The schema checks with it,
 * so the pattern the document publishes is the check itself.
 */
export const CHANGE_TYPE_LIST_PATTERN = new RegExp(
  `^\\s*${changeTypeAlternatives}\\s*(?:,\\s*${changeTypeAlternatives}\\s*)*$`,
);

/** Names the first part of a refused `types` that is not a change type. */
function changeTypesMessage(value: unknown): string {
  const parts = typeof value === 'string' ? value.split(',').map((part) => part.trim()) : [];
  const unknown = parts.find((part) => !(CHANGE_TYPES as readonly string[]).includes(part)) ?? '';
  return `${JSON.stringify(unknown)} is not a change type; expected a comma-separated list of ${codeList(CHANGE_TYPES)}`;
}

/** `a,b,c` in a query string: a comma-separated list of change types, each listed once at most. */
const changeTypesQuery = z
  .string({
    errorMap: (issue, ctx) => ({
      message: issue.code === z.ZodIssueCode.invalid_string ? changeTypesMessage(ctx.data) : ctx.defaultError,
    }),
  })
  .regex(CHANGE_TYPE_LIST_PATTERN)
  .transform((value) => [...new Set(value.split(',').map((part) => part.trim()))] as ChangeType[])
  .describe(`Only changes of these types, comma-separated: ${codeList(CHANGE_TYPES)}. All types when absent.`);

export const ListChangesQuerySchema = z
  .object({
    after: text(LIMITS.cursor)
      .optional()
      .describe(`${cursorText} Without it the feed starts at its oldest kept change.`),
    limit: queryInteger(LIMITS.changesLimit).describe(
      `Changes per page, ${LIMITS.changesLimit.min} to ${LIMITS.changesLimit.max}.`,
    ),
    types: changeTypesQuery.optional(),
  })
  .strict();

export const ChangeListSchema = strictObject('A page of the changes feed, in commit order.', {
  items: z.array(ChangeSchema).describe('The changes after the cursor, oldest commit first.'),
  nextCursor: z
    .string()
    .describe(
      'Where the next page starts: store it, and pass it as `after`. When `hasMore` is false it is the end of the feed right now (past any changes the `types` filter left out).',
    ),
  hasMore: z
    .boolean()
    .describe('True when more changes follow at once; false when this page reached the end of the feed.'),
});

export const ChangesCursorSchema = strictObject("The feed's end, right now.", {
  cursor: z
    .string()
    .describe(
      'The cursor after the last committed change. Take it before a full read, then follow the feed from it: no change made during or after the read is missed.',
    ),
});
