import { z } from 'zod';
import {
  DEFAULT_ITEM_SORT,
  ITEM_SORT_RULES,
  ITEM_SORTS,
  ITEM_STATUS_RULES,
  ITEM_STATUSES,
  LIMITS,
} from '../constants.js';
import { cents, dateTime, dateTimeInput, text, uuid } from '../primitives.js';
import { RESERVED_ATTRIBUTE_KEY } from '../text-rules.js';
import { listEnvelope } from './common.js';
import { count, listQuery, nullable, strictObject } from './fields.js';

const attributeValue = z
  .union([z.string(), z.number(), z.boolean(), z.null()])
  .describe('A string, number, boolean or null.');

export const ItemCategorySchema = strictObject('The category the item is filed under.', {
  id: uuid.describe('Category id.'),
  name: z.string().describe('Category name.'),
});

export const ItemQuantitySchema = strictObject('Unit counts.', {
  available: count('Units on hand and available to sell.'),
  sold: count('Units sold.'),
  reserved: count('Units held for a customer.'),
});

export const ItemAcquisitionSchema = strictObject('How and when the item was acquired.', {
  priceInCents: nullable.cents('Cost basis: what was paid for the item.'),
  date: nullable.dateTime('When the item was acquired.'),
  from: nullable.string('Who the item was acquired from.'),
  notes: nullable.string('Notes on the acquisition.'),
});

export const ItemGradingSchema = strictObject('Third-party grading.', {
  service: nullable.string('Grading service, for example `PCGS` or `NGC`.'),
  grade: nullable.string('Grade, for example `MS65`.'),
  certificateNumber: nullable.string("The grading service's certificate number."),
  notes: nullable.string('Notes on the grading.'),
});

export const ItemLocationSchema = strictObject('Where the item is stored.', {
  warehouseId: uuid.describe('Warehouse holding the item.'),
  zoneId: uuid.describe('Zone of that warehouse.'),
  details: nullable.string('Free-text position, for example a tray or slot.'),
});

export const ItemImageSchema = strictObject(
  'A photo of the item. Photos are added in the Coinventory application, not through the API.',
  {
    url: z.string().describe('Address of the image.'),
    width: nullable.integer('Width in pixels, when known.'),
    height: nullable.integer('Height in pixels, when known.'),
  },
);

export const ItemSchema = strictObject('An inventory item.', {
  id: uuid.describe('Item id.'),
  sku: z.string().describe('Stock-keeping unit, unique within the workspace.'),
  title: z.string().describe('Title.'),
  description: nullable.string('Long description.'),
  category: ItemCategorySchema.nullable(),
  quantity: ItemQuantitySchema,
  valueInCents: cents.describe("The owner's current value for the item, in cents."),
  acquisition: ItemAcquisitionSchema,
  grading: ItemGradingSchema,
  attributes: z
    .record(z.string(), attributeValue)
    .describe('Free-form attributes: string keys to string, number, boolean or null values.'),
  location: ItemLocationSchema,
  consignmentId: nullable.uuid('The consignment the item belongs to, when it is consigned.'),
  isAtAuction: z.boolean().describe('True while the item is offered at an auction.'),
  images: z.array(ItemImageSchema).describe('Photos of the item, read-only.'),
  createdAt: dateTime.describe('When the item was created.'),
  updatedAt: nullable.dateTime('When the item was last changed; null when never changed.'),
});

const attributes = z
  .record(
    text({ min: 1, max: LIMITS.attributes.keyMax }).refine(
      (key) => key !== RESERVED_ATTRIBUTE_KEY,
      'is a reserved key',
    ),
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

/** The entries of `LIMITS` that bound a length. */
type MaxLimit = {
  [K in keyof typeof LIMITS]: (typeof LIMITS)[K] extends { max: number } ? K : never;
}[keyof typeof LIMITS];

/** A free-text write field, bounded by the entry of `LIMITS` named as it is, that `null` clears. */
const clearableText = (field: MaxLimit, label: string, clears: 'it' | 'them' = 'it') =>
  clearable(text(LIMITS[field])).describe(`${label}, at most ${LIMITS[field].max} chars; null clears ${clears}.`);

const itemWriteFields = {
  sku: text(LIMITS.sku).describe(
    `Stock-keeping unit, ${LIMITS.sku.min} to ${LIMITS.sku.max} chars, unique within the workspace.`,
  ),
  title: text(LIMITS.title).describe(`Title, ${LIMITS.title.min} to ${LIMITS.title.max} chars.`),
  description: clearableText('description', 'Long description'),
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
  acquiredFrom: clearableText('acquiredFrom', 'Acquired from'),
  acquisitionNotes: clearableText('acquisitionNotes', 'Acquisition notes', 'them'),
  gradingService: clearableText('gradingService', 'Grading service'),
  grade: clearableText('grade', 'Grade'),
  certificateNumber: clearableText('certificateNumber', 'Certificate number'),
  gradingNotes: clearableText('gradingNotes', 'Grading notes', 'them'),
  categoryId: clearable(uuid).describe("A category of the workspace; null removes the item's category."),
  attributes,
  warehouseId: uuid.describe("A warehouse of the workspace. Defaults to the workspace's default warehouse."),
  zoneId: uuid.describe('A zone of the warehouse. Defaults to the first zone of the warehouse.'),
  locationDetails: clearableText('locationDetails', 'Free-text position'),
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

export const ListItemsQuerySchema = listQuery('items', {
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
});

export const ItemListSchema = listEnvelope(ItemSchema, 'A page of items.');

export const DeletedItemSchema = strictObject('Confirmation of a deletion.', {
  id: uuid.describe('Id of the deleted item.'),
  deleted: z.literal(true).describe('Always true.'),
});
