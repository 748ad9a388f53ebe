import { z } from 'zod';
import {
  DEFAULT_ITEM_SORT,
  ITEM_SORT_RULES,
  ITEM_SORTS,
  ITEM_STATUS_RULES,
  ITEM_STATUSES,
  LIMITS,
  SEARCH_FIELDS,
} from '../constants.js';
import { cents, dateTime, dateTimeInput, text, uuid } from '../primitives.js';
import { listEnvelope, listLimitQuery, pageQuery } from './common.js';

const attributeValue = z
  .union([z.string(), z.number(), z.boolean(), z.null()])
  .describe('A string, number, boolean or null.');

export const ItemCategorySchema = z
  .object({
    id: uuid.describe('Category id.'),
    name: z.string().describe('Category name.'),
  })
  .strict()
  .describe('The category the item is filed under.');

export const ItemQuantitySchema = z
  .object({
    available: z.number().int().min(0).describe('Units on hand and available to sell.'),
    sold: z.number().int().min(0).describe('Units sold.'),
    reserved: z.number().int().min(0).describe('Units held for a customer.'),
  })
  .strict()
  .describe('Unit counts.');

export const ItemAcquisitionSchema = z
  .object({
    priceInCents: cents.nullable().describe('Cost basis: what was paid for the item.'),
    date: dateTime.nullable().describe('When the item was acquired.'),
    from: z.string().nullable().describe('Who the item was acquired from.'),
    notes: z.string().nullable().describe('Notes on the acquisition.'),
  })
  .strict()
  .describe('How and when the item was acquired.');

export const ItemGradingSchema = z
  .object({
    service: z.string().nullable().describe('Grading service, for example `PCGS` or `NGC`.'),
    grade: z.string().nullable().describe('Grade, for example `MS65`.'),
    certificateNumber: z.string().nullable().describe("The grading service's certificate number."),
    notes: z.string().nullable().describe('Notes on the grading.'),
  })
  .strict()
  .describe('Third-party grading.');

export const ItemLocationSchema = z
  .object({
    warehouseId: uuid.describe('Warehouse holding the item.'),
    zoneId: uuid.describe('Zone of that warehouse.'),
    details: z.string().nullable().describe('Free-text position, for example a tray or slot.'),
  })
  .strict()
  .describe('Where the item is stored.');

export const ItemImageSchema = z
  .object({
    url: z.string().describe('Address of the image.'),
    width: z.number().int().nullable().describe('Width in pixels, when known.'),
    height: z.number().int().nullable().describe('Height in pixels, when known.'),
  })
  .strict()
  .describe('A photo of the item. Photos are added in the Coinventory application, not through the API.');

export const ItemSchema = z
  .object({
    id: uuid.describe('Item id.'),
    sku: z.string().describe('Stock-keeping unit, unique within the workspace.'),
    title: z.string().describe('Title.'),
    description: z.string().nullable().describe('Long description.'),
    category: ItemCategorySchema.nullable(),
    quantity: ItemQuantitySchema,
    valueInCents: cents.describe("The owner's current value for the item, in cents."),
    acquisition: ItemAcquisitionSchema,
    grading: ItemGradingSchema,
    attributes: z
      .record(z.string(), attributeValue)
      .describe('Free-form attributes: string keys to string, number, boolean or null values.'),
    location: ItemLocationSchema,
    consignmentId: uuid.nullable().describe('The consignment the item belongs to, when it is consigned.'),
    isAtAuction: z.boolean().describe('True while the item is offered at an auction.'),
    images: z.array(ItemImageSchema).describe('Photos of the item, read-only.'),
    createdAt: dateTime.describe('When the item was created.'),
    updatedAt: dateTime.nullable().describe('When the item was last changed; null when never changed.'),
  })
  .strict()
  .describe('An inventory item.');

const attributes = z
  .record(
    // `__proto__` cannot survive being copied into a plain object: it would be dropped silently, so refuse it.
    text({ min: 1, max: LIMITS.attributes.keyMax }).refine((key) => key !== '__proto__', 'is a reserved key'),
    z.union([text({ max: LIMITS.attributes.stringValueMax }), z.number().finite(), z.boolean(), z.null()]),
  )
  .refine((value) => Object.keys(value).length <= LIMITS.attributes.maxKeys, {
    message: `must have at most ${LIMITS.attributes.maxKeys} keys`,
  })
  .describe(
    `Free-form attributes: string keys (1 to ${LIMITS.attributes.keyMax} chars) to string (at most ${LIMITS.attributes.stringValueMax} chars), number, boolean or null; at most ${LIMITS.attributes.maxKeys} keys. Replaces the whole map when sent.`,
  );

/** Fields that an Item shows as nullable; sending `null` for them clears the stored value. */
const clearable = <T extends z.ZodTypeAny>(schema: T) => schema.nullable();

const itemWriteFields = {
  sku: text(LIMITS.sku).describe(
    `Stock-keeping unit, ${LIMITS.sku.min} to ${LIMITS.sku.max} chars, unique within the workspace.`,
  ),
  title: text(LIMITS.title).describe(`Title, ${LIMITS.title.min} to ${LIMITS.title.max} chars.`),
  description: clearable(text(LIMITS.description)).describe(
    `Long description, at most ${LIMITS.description.max} chars; null clears it.`,
  ),
  quantity: z
    .number()
    .int()
    .min(LIMITS.quantity.min)
    .max(LIMITS.quantity.max)
    .describe(`Units available (sets \`quantity.available\`). Defaults to ${LIMITS.quantity.default} on creation.`),
  valueInCents: cents.describe(`The owner's value in cents. Defaults to ${LIMITS.valueInCents.default} on creation.`),
  acquisitionPriceInCents: clearable(cents).describe('Cost basis in cents; null clears it.'),
  acquisitionDate: clearable(dateTimeInput).describe(
    'When the item was acquired, with `Z` or a numeric offset; null clears it.',
  ),
  acquiredFrom: clearable(text(LIMITS.acquiredFrom)).describe(
    `Acquired from, at most ${LIMITS.acquiredFrom.max} chars; null clears it.`,
  ),
  acquisitionNotes: clearable(text(LIMITS.acquisitionNotes)).describe(
    `Acquisition notes, at most ${LIMITS.acquisitionNotes.max} chars; null clears them.`,
  ),
  gradingService: clearable(text(LIMITS.gradingService)).describe(
    `Grading service, at most ${LIMITS.gradingService.max} chars; null clears it.`,
  ),
  grade: clearable(text(LIMITS.grade)).describe(`Grade, at most ${LIMITS.grade.max} chars; null clears it.`),
  certificateNumber: clearable(text(LIMITS.certificateNumber)).describe(
    `Certificate number, at most ${LIMITS.certificateNumber.max} chars; null clears it.`,
  ),
  gradingNotes: clearable(text(LIMITS.gradingNotes)).describe(
    `Grading notes, at most ${LIMITS.gradingNotes.max} chars; null clears them.`,
  ),
  categoryId: clearable(uuid).describe("A category of the workspace; null removes the item's category."),
  attributes,
  warehouseId: uuid.describe("A warehouse of the workspace. Defaults to the workspace's default warehouse."),
  zoneId: uuid.describe('A zone of the warehouse. Defaults to the first zone of the warehouse.'),
  locationDetails: clearable(text(LIMITS.locationDetails)).describe(
    `Free-text position, at most ${LIMITS.locationDetails.max} chars; null clears it.`,
  ),
};

export const CreateItemBodySchema = z
  .object(itemWriteFields)
  .partial()
  .required({ sku: true, title: true })
  .strict()
  .describe('A new item. Only `sku` and `title` are required.');

export const UpdateItemBodySchema = z
  .object(itemWriteFields)
  .partial()
  .strict()
  .describe('Fields to change. Only the fields sent are changed; `updatedAt` is set.');

const statusDescription = [
  'Only items in this state:',
  ...ITEM_STATUSES.map((status) => `- \`${status}\`: ${ITEM_STATUS_RULES[status]}`),
].join('\n');

const sortDescription = [
  `Order of the list (default \`${DEFAULT_ITEM_SORT}\`):`,
  ...ITEM_SORTS.map((sort) => `- \`${sort}\`: ${ITEM_SORT_RULES[sort]}`),
].join('\n');

export const ListItemsQuerySchema = z
  .object({
    q: text(LIMITS.q)
      .optional()
      .describe(
        `Search text, ${LIMITS.q.min} to ${LIMITS.q.max} chars: items whose ${SEARCH_FIELDS.items.map((f) => `\`${f}\``).join(', ')} contain it, case-insensitively.`,
      ),
    status: z.enum(ITEM_STATUSES).optional().describe(statusDescription),
    categoryId: uuid.optional().describe('Only items in this category.'),
    gradingService: text({ min: 1, max: LIMITS.gradingService.max })
      .optional()
      .describe('Only items graded by this service (exact match, case-insensitive).'),
    grade: text({ min: 1, max: LIMITS.grade.max })
      .optional()
      .describe('Only items with this grade (exact match, case-insensitive).'),
    sku: text(LIMITS.sku).optional().describe('Only the item with this SKU (exact match).'),
    sort: z.enum(ITEM_SORTS).default(DEFAULT_ITEM_SORT).describe(sortDescription),
    page: pageQuery,
    limit: listLimitQuery,
  })
  .strict();

export const ItemListSchema = listEnvelope(ItemSchema, 'A page of items.');

export const DeletedItemSchema = z
  .object({
    id: uuid.describe('Id of the deleted item.'),
    deleted: z.literal(true).describe('Always true.'),
  })
  .strict()
  .describe('Confirmation of a deletion.');
