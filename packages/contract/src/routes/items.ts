import { z } from 'zod';
import { BATCH, EXPORTS } from '../constants.js';
import {
  BatchItemsBodySchema,
  BatchItemsQuerySchema,
  BatchItemsResultSchema,
  DryRunQuerySchema,
} from '../schemas/batch.js';
import { ExportItemsQuerySchema } from '../schemas/export.js';
import { AdjustItemBodySchema, ListMovementsQuerySchema, MovementListSchema } from '../schemas/inventory.js';
import {
  CreateItemBodySchema,
  DeletedItemSchema,
  ItemListSchema,
  ItemSchema,
  ListItemsQuerySchema,
  UpdateItemBodySchema,
} from '../schemas/item.js';
import { ListValuationsQuerySchema, ValuationListSchema } from '../schemas/valuation.js';
import {
  byId,
  c,
  conditionalWrite,
  IdParams,
  listAndGet,
  meta,
  notModified,
  validated,
  withBody,
  write,
} from './common.js';

const itemReads = listAndGet(
  'Items',
  '/items',
  {
    summary: 'List items',
    description: "Lists the workspace's inventory items, a page at a time.",
    operationId: 'listItems',
    query: ListItemsQuerySchema,
    page: ItemListSchema,
  },
  {
    summary: 'Get an item',
    description: 'Returns one item. An unknown id, or an id of another organization, is 404.',
    operationId: 'getItem',
    entry: ItemSchema,
  },
);

/** The items routes: `/items`, its batch, each item's valuations, and the streamed export. */
export const items = c.router({
  list: itemReads.list,
  create: {
    method: 'POST',
    path: '/items',
    summary: 'Create an item',
    description:
      'Adds an item. Without `warehouseId` and `zoneId` it is placed in the default warehouse and its first zone. A SKU already used in the workspace is refused with 409. With `dryRun=true` it is checked and answered as it would be, and nothing is written.',
    query: DryRunQuerySchema,
    body: CreateItemBodySchema,
    responses: { 200: ItemSchema, ...validated, ...withBody, ...write },
    metadata: meta({ scope: 'write', operationId: 'createItem', tag: 'Items', conflict: 'CONFLICT' }),
  },
  batch: {
    method: 'POST',
    path: '/items/batch',
    summary: 'Create or upsert items in a batch',
    description: `Creates (\`mode: "create"\`) or upserts by SKU (\`mode: "upsert"\`) 1 to ${BATCH.maxItems} items in one request and one transaction. Each entry is checked on its own, by the rules of the single-item route, and answered at its position: the item, or the error body that route would give (400 with issues, 409 for a SKU already used, also by an earlier entry of the batch). The entries that pass are applied together, with their change events, webhook deliveries and marketplace sync jobs, exactly as the single-item routes write them. With \`dryRun=true\` nothing is written. One request for the rate limit.`,
    query: BatchItemsQuerySchema,
    body: BatchItemsBodySchema,
    responses: { 200: BatchItemsResultSchema, ...validated, ...withBody, ...write },
    metadata: meta({ scope: 'write', operationId: 'batchItems', tag: 'Items' }),
  },
  get: itemReads.get,
  update: {
    method: 'PATCH',
    path: '/items/:id',
    summary: 'Update an item',
    description:
      'Changes only the fields sent and sets `updatedAt`. Changing `quantity` also updates a linked listing on the related marketplace. Changing `sku` to one already used in the workspace is refused with 409. With `dryRun=true` it is checked and answered as it would be, and nothing is written.',
    pathParams: IdParams,
    query: DryRunQuerySchema,
    body: UpdateItemBodySchema,
    responses: { 200: ItemSchema, ...byId, ...withBody, ...conditionalWrite },
    metadata: meta({ scope: 'write', operationId: 'updateItem', tag: 'Items', conflict: 'CONFLICT' }),
  },
  delete: {
    method: 'DELETE',
    path: '/items/:id',
    summary: 'Delete an item',
    description:
      'Removes the item and any marketplace listing made from it. With `dryRun=true` it is checked and answered as it would be, and nothing is written.',
    pathParams: IdParams,
    query: DryRunQuerySchema,
    body: c.noBody(),
    responses: { 200: DeletedItemSchema, ...byId, ...conditionalWrite },
    metadata: meta({ scope: 'write', operationId: 'deleteItem', tag: 'Items' }),
  },
  adjust: {
    method: 'POST',
    path: '/items/:id/adjustments',
    summary: "Adjust an item's quantities",
    description:
      'Adds signed numbers of units to `quantity.available` and `quantity.sold`, together and under the item\'s lock: `{ "available": -1, "sold": 1, "reason": "sale", "reference": "ORD-1" }` sells one. Two sellers of the last unit never both succeed: a change that would take either quantity below 0 is refused with 409 `INSUFFICIENT_QUANTITY`, and nothing is written. A linked marketplace listing follows `available`, as after a `PATCH` of `quantity`; the item\'s ledger (`GET /items/{id}/movements`) records the movement with its reason and reference. Takes `If-Match` as `PATCH` does. With `dryRun=true` it is checked and answered as it would be, and nothing is written.',
    pathParams: IdParams,
    query: DryRunQuerySchema,
    body: AdjustItemBodySchema,
    responses: { 200: ItemSchema, ...byId, ...withBody, ...conditionalWrite },
    metadata: meta({ scope: 'write', operationId: 'adjustItem', tag: 'Items', conflict: 'INSUFFICIENT_QUANTITY' }),
  },
  movements: {
    method: 'GET',
    path: '/items/:id/movements',
    summary: "List an item's movements",
    description:
      "The item's ledger, newest first: every change of its quantities (its creation, a `PATCH` of `quantity`, an adjustment, each step of a reservation, a batch, an import, an operator's command, an expiry), with how much each quantity moved, what they were after it, and who made it. The deltas of all of an item's movements add up to its quantities. Kept for the item's life.",
    pathParams: IdParams,
    query: ListMovementsQuerySchema,
    responses: { 200: MovementListSchema, ...byId, ...notModified },
    metadata: meta({ scope: 'read', operationId: 'listItemMovements', tag: 'Items' }),
  },
  valuations: {
    method: 'GET',
    path: '/items/:id/valuations',
    summary: "List an item's valuations",
    description: "Returns the item's automated valuations, newest first, each with the comparable sales it used.",
    pathParams: IdParams,
    query: ListValuationsQuerySchema,
    responses: { 200: ValuationListSchema, ...byId, ...notModified },
    metadata: meta({ scope: 'read', operationId: 'listItemValuations', tag: 'Items' }),
  },
  export: {
    method: 'GET',
    path: '/exports/items',
    summary: 'Export items',
    description: `Every item of the workspace (narrowed by the list's filters), oldest first, in one answer read from one snapshot of the database: NDJSON (\`${EXPORTS.mediaTypes.ndjson}\`, the default), one Item per line, then a last line \`{ count, nextCursor }\`; or CSV (\`Accept: ${EXPORTS.mediaTypes.csv}\`, parameters such as \`charset\` and q-values allowed), the columns of \`coinventory items list --output csv\`. Both carry \`count\` and \`nextCursor\` in the response headers \`${EXPORTS.headers.count}\` and \`${EXPORTS.headers.cursor}\`, a \`Content-Length\` and a strong \`ETag\` (\`If-None-Match\` gets 304). Following \`GET /changes\` from \`nextCursor\` gives every change made since the snapshot and none already in the export. An answer shorter than its \`Content-Length\` (or, in NDJSON, without its last line) was cut short: read it again. The snapshot is read whole before the first byte is sent, so a failure then is an ordinary error answer. One request for the rate limit; at most ${EXPORTS.maxPerKey} exports per key and ${EXPORTS.maxPerOrganization} per workspace at once (one more: 429), and ${EXPORTS.maxPerProcess} per server process (one more: 503), each with \`Retry-After\`.`,
    query: ExportItemsQuerySchema,
    responses: {
      200: c.otherResponse({ contentType: EXPORTS.mediaTypes.ndjson, body: z.string() }),
      ...validated,
      ...notModified,
    },
    metadata: meta({ scope: 'read', operationId: 'exportItems', tag: 'Items', streamed: true }),
  },
});
