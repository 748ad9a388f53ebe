import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { BATCH, CHANGE_TYPES, EXPORTS, type Scope, WEBHOOKS } from './constants.js';
import { uuid } from './primitives.js';
import {
  BatchItemsBodySchema,
  BatchItemsQuerySchema,
  BatchItemsResultSchema,
  DryRunQuerySchema,
} from './schemas/batch.js';
import { CategoryListSchema, CategorySchema, ListCategoriesQuerySchema } from './schemas/category.js';
import { ChangeListSchema, ChangesCursorSchema, ListChangesQuerySchema } from './schemas/changes.js';
import { ErrorBodySchema } from './schemas/common.js';
import { ConsignmentListSchema, ConsignmentSchema, ListConsignmentsQuerySchema } from './schemas/consignment.js';
import { ExportItemsQuerySchema } from './schemas/export.js';
import { codeList } from './schemas/fields.js';
import { InvoiceListSchema, InvoiceSchema, ListInvoicesQuerySchema } from './schemas/invoice.js';
import {
  CreateItemBodySchema,
  DeletedItemSchema,
  ItemListSchema,
  ItemSchema,
  ListItemsQuerySchema,
  UpdateItemBodySchema,
} from './schemas/item.js';
import { MeSchema } from './schemas/me.js';
import { ListValuationsQuerySchema, ValuationListSchema } from './schemas/valuation.js';
import { ListWarehousesQuerySchema, WarehouseListSchema, WarehouseSchema } from './schemas/warehouse.js';
import {
  CreateWebhookEndpointBodySchema,
  DeletedWebhookEndpointSchema,
  ListWebhookDeliveriesQuerySchema,
  ListWebhookEndpointsQuerySchema,
  ReplayWebhookBodySchema,
  UpdateWebhookEndpointBodySchema,
  WebhookDeliveryListSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookReplaySchema,
  WebhookTestResultSchema,
} from './schemas/webhook.js';

const c = initContract();

/** The groups of the documentation, in order, each with the line that introduces it. */
export const ROUTE_TAGS = {
  Account: 'Who the request is authenticated as.',
  Items: 'Inventory items and their valuations.',
  Consignments: 'Consignments, read-only.',
  Invoices: 'Sales invoices with lines and payments, read-only.',
  Categories: 'The categories items are filed under: the ids `categoryId` takes.',
  Warehouses: 'Warehouses and their zones: the ids `warehouseId` and `zoneId` take.',
  Changes:
    'Every change to the workspace, in commit order: how a copy of it stays in sync without reading it all again.',
  Webhooks:
    'Endpoints the changes are pushed to as they happen, signed (Standard Webhooks), retried, and replayable from a changes cursor.',
} as const;

/** What the contract records about each route beyond ts-rest's own fields. */
export interface RouteMetadata {
  /** The scope a key needs to call the route. */
  scope: Scope;
  /** Stable operation id, used by the OpenAPI document, the SDK and the docs. */
  operationId: string;
  /** Group the route belongs to in the documentation. */
  tag: keyof typeof ROUTE_TAGS;
  /** The write can be refused with 409 `CONFLICT` for a SKU already used (its other 409 is a busy Idempotency-Key). */
  skuConflict?: true;
  /**
   * The answer is a file of lines (NDJSON or CSV, by `Accept`), not one JSON body: it is read whole into a temporary
   * file, then sent with its length and ETag; a failure while it is sent cuts it short instead of answering an error.
   */
  streamed?: true;
}

const meta = (metadata: RouteMetadata) => metadata;

const IdParams = z.object({ id: uuid.describe('Resource id (UUID).') }).strict();

// Every route can fail authentication, authorization, the rate limit or the server, or find the server too busy.
const always = {
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  429: ErrorBodySchema,
  500: ErrorBodySchema,
  503: ErrorBodySchema,
} as const;
const validated = { ...always, 400: ErrorBodySchema } as const;
const byId = { ...validated, 404: ErrorBodySchema } as const;
// Every GET answers with a strong ETag; `If-None-Match` naming it gets 304 with no body.
const notModified = { 304: c.noBody() } as const;
// Requests with a JSON body can also be too slow to arrive, too large or sent with the wrong media type.
const withBody = { 408: ErrorBodySchema, 413: ErrorBodySchema, 415: ErrorBodySchema } as const;
// Every write takes `Idempotency-Key`: a retry while the first request with that key is still running is 409.
const write = { 409: ErrorBodySchema } as const;
// PATCH and DELETE take `If-Match` and `If-None-Match` (RFC 9110 §13.1): 412 when one fails, and nothing is written.
const conditionalWrite = { ...write, 412: ErrorBodySchema } as const;

/** How a route presents itself in the reference. */
interface RouteText {
  summary: string;
  description: string;
  operationId: string;
}

/**
 * The two reads every resource offers, both with the `read` scope: its collection at `path`, a page at a time,
 * and one entry by id at `path/:id` (404 when the id is unknown or another organization's).
 */
function listAndGet<Query extends z.AnyZodObject, Page extends z.ZodTypeAny, Entry extends z.ZodTypeAny>(
  tag: RouteMetadata['tag'],
  path: string,
  list: RouteText & { query: Query; page: Page },
  get: RouteText & { entry: Entry },
) {
  const { operationId: listId, query, page, ...listText } = list;
  const { operationId: getId, entry, ...getText } = get;
  return {
    list: {
      method: 'GET' as const,
      path,
      ...listText,
      query,
      responses: { 200: page, ...validated, ...notModified },
      metadata: meta({ scope: 'read', operationId: listId, tag }),
    },
    get: {
      method: 'GET' as const,
      path: `${path}/:id`,
      ...getText,
      pathParams: IdParams,
      responses: { 200: entry, ...byId, ...notModified },
      metadata: meta({ scope: 'read', operationId: getId, tag }),
    },
  };
}

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

export const contract = c.router(
  {
    me: {
      method: 'GET',
      path: '/me',
      summary: 'Get the caller',
      description:
        'Returns the organization and API key the request is authenticated as, and the rate limit that applies.',
      // 400: the route takes no parameters, and an unexpected one is refused rather than ignored.
      responses: { 200: MeSchema, ...validated, ...notModified },
      metadata: meta({ scope: 'read', operationId: 'getMe', tag: 'Account' }),
    },
    items: c.router({
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
        metadata: meta({ scope: 'write', operationId: 'createItem', tag: 'Items', skuConflict: true }),
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
        metadata: meta({ scope: 'write', operationId: 'updateItem', tag: 'Items', skuConflict: true }),
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
        description: `Every item of the workspace (narrowed by the list's filters), oldest first, in one answer read from one snapshot of the database: NDJSON (\`${EXPORTS.mediaTypes.ndjson}\`, the default), one Item per line, then a last line \`{ count, nextCursor }\`; or CSV (\`Accept: ${EXPORTS.mediaTypes.csv}\`, parameters such as \`charset\` and q-values allowed), the columns of \`coinventory items list --output csv\`. Both carry \`count\` and \`nextCursor\` in the response headers \`${EXPORTS.headers.count}\` and \`${EXPORTS.headers.cursor}\`, a \`Content-Length\` and a strong \`ETag\` (\`If-None-Match\` gets 304). Following \`GET /changes\` from \`nextCursor\` gives every change made since the snapshot and none already in the export. An answer shorter than its \`Content-Length\` (or, in NDJSON, without its last line) was cut short: read it again. The snapshot is read whole before the first byte is sent, so a failure then is an ordinary error answer. One request for the rate limit; at most ${EXPORTS.maxPerKey} exports per key and ${EXPORTS.maxPerWorkspace} per workspace at once (one more: 429), and ${EXPORTS.maxPerProcess} per server process (one more: 503), each with \`Retry-After\`.`,
        query: ExportItemsQuerySchema,
        responses: {
          200: c.otherResponse({ contentType: EXPORTS.mediaTypes.ndjson, body: z.string() }),
          ...validated,
          ...notModified,
        },
        metadata: meta({ scope: 'read', operationId: 'exportItems', tag: 'Items', streamed: true }),
      },
    }),
    consignments: c.router(
      listAndGet(
        'Consignments',
        '/consignments',
        {
          summary: 'List consignments',
          description: 'Lists consignments, newest first (`createdAt` descending, then `id` descending).',
          operationId: 'listConsignments',
          query: ListConsignmentsQuerySchema,
          page: ConsignmentListSchema,
        },
        {
          summary: 'Get a consignment',
          description: 'Returns one consignment with its totals and consignor.',
          operationId: 'getConsignment',
          entry: ConsignmentSchema,
        },
      ),
    ),
    invoices: c.router(
      listAndGet(
        'Invoices',
        '/invoices',
        {
          summary: 'List invoices',
          description: 'Lists sales invoices with their lines and payments.',
          operationId: 'listInvoices',
          query: ListInvoicesQuerySchema,
          page: InvoiceListSchema,
        },
        {
          summary: 'Get an invoice',
          description: 'Returns one sales invoice with its lines and payments.',
          operationId: 'getInvoice',
          entry: InvoiceSchema,
        },
      ),
    ),
    categories: c.router(
      listAndGet(
        'Categories',
        '/categories',
        {
          summary: 'List categories',
          description: "Lists the workspace's item categories, by name (byte order), then id.",
          operationId: 'listCategories',
          query: ListCategoriesQuerySchema,
          page: CategoryListSchema,
        },
        {
          summary: 'Get a category',
          description: 'Returns one category.',
          operationId: 'getCategory',
          entry: CategorySchema,
        },
      ),
    ),
    warehouses: c.router(
      listAndGet(
        'Warehouses',
        '/warehouses',
        {
          summary: 'List warehouses',
          description:
            "Lists the workspace's warehouses with their zones: the default warehouse first, then by name (byte order), then id.",
          operationId: 'listWarehouses',
          query: ListWarehousesQuerySchema,
          page: WarehouseListSchema,
        },
        {
          summary: 'Get a warehouse',
          description: 'Returns one warehouse with its zones.',
          operationId: 'getWarehouse',
          entry: WarehouseSchema,
        },
      ),
    ),
    changes: c.router({
      list: {
        method: 'GET',
        path: '/changes',
        summary: 'List changes',
        description: `Every change to the workspace after a cursor, in the order the changes were committed: items created, updated and deleted, valuations created, consignments and invoices created and updated. Each carries the object as the API returned it right after the change (null for a deleted item); \`type\` tells which, one of ${codeList(CHANGE_TYPES)}, and \`types\` keeps only the ones listed. A consumer that stores \`nextCursor\` and passes it as \`after\` sees every change exactly once, in commit order. Follow it from \`GET /changes/cursor\` taken before a full read.`,
        query: ListChangesQuerySchema,
        responses: { 200: ChangeListSchema, ...validated, ...notModified },
        metadata: meta({ scope: 'read', operationId: 'listChanges', tag: 'Changes' }),
      },
      cursor: {
        method: 'GET',
        path: '/changes/cursor',
        summary: "Get the feed's current cursor",
        description:
          'The cursor at the end of the changes feed right now. Take it before a full read (of the items, or of whatever you keep a copy of), then follow the feed from it.',
        responses: { 200: ChangesCursorSchema, ...validated, ...notModified },
        metadata: meta({ scope: 'read', operationId: 'getChangesCursor', tag: 'Changes' }),
      },
    }),
    webhookEndpoints: c.router({
      list: {
        method: 'GET',
        path: '/webhook-endpoints',
        summary: 'List webhook endpoints',
        description: "Lists the workspace's webhook endpoints, oldest first. Their secrets are never shown again.",
        query: ListWebhookEndpointsQuerySchema,
        responses: { 200: WebhookEndpointListSchema, ...validated, ...notModified },
        metadata: meta({ scope: 'read', operationId: 'listWebhookEndpoints', tag: 'Webhooks' }),
      },
      create: {
        method: 'POST',
        path: '/webhook-endpoints',
        summary: 'Create a webhook endpoint',
        description: `Adds an endpoint: from the next committed change, every change of the types it subscribes to is POSTed to its URL, signed with its secret (Standard Webhooks: \`webhook-id\` is the change id, \`webhook-timestamp\`, \`webhook-signature\`). The answer carries the secret, shown this once. A workspace has at most ${WEBHOOKS.maxEndpoints} endpoints; one more is refused with 400.`,
        body: CreateWebhookEndpointBodySchema,
        responses: { 200: WebhookEndpointWithSecretSchema, ...validated, ...withBody, ...write },
        metadata: meta({ scope: 'write', operationId: 'createWebhookEndpoint', tag: 'Webhooks' }),
      },
      get: {
        method: 'GET',
        path: '/webhook-endpoints/:id',
        summary: 'Get a webhook endpoint',
        description: 'Returns one endpoint, with why it is disabled or since when it is failing, if it is.',
        pathParams: IdParams,
        responses: { 200: WebhookEndpointSchema, ...byId, ...notModified },
        metadata: meta({ scope: 'read', operationId: 'getWebhookEndpoint', tag: 'Webhooks' }),
      },
      update: {
        method: 'PATCH',
        path: '/webhook-endpoints/:id',
        summary: 'Update a webhook endpoint',
        description:
          'Changes the fields sent: its URL, the change types it subscribes to, its description, or whether it is enabled. Enabling a disabled endpoint resumes its pending deliveries.',
        pathParams: IdParams,
        body: UpdateWebhookEndpointBodySchema,
        responses: { 200: WebhookEndpointSchema, ...byId, ...withBody, ...conditionalWrite },
        metadata: meta({ scope: 'write', operationId: 'updateWebhookEndpoint', tag: 'Webhooks' }),
      },
      delete: {
        method: 'DELETE',
        path: '/webhook-endpoints/:id',
        summary: 'Delete a webhook endpoint',
        description: 'Removes the endpoint and its deliveries, pending ones included: nothing more is sent to it.',
        pathParams: IdParams,
        body: c.noBody(),
        responses: { 200: DeletedWebhookEndpointSchema, ...byId, ...conditionalWrite },
        metadata: meta({ scope: 'write', operationId: 'deleteWebhookEndpoint', tag: 'Webhooks' }),
      },
      rotateSecret: {
        method: 'POST',
        path: '/webhook-endpoints/:id/rotate-secret',
        summary: "Rotate a webhook endpoint's secret",
        description: `Gives the endpoint a new signing secret, shown this once. For ${WEBHOOKS.previousSecretHours} hours the previous secret also signs every delivery (two \`v1,\` signatures), so receivers can switch without missing one.`,
        pathParams: IdParams,
        body: c.noBody(),
        responses: { 200: WebhookEndpointWithSecretSchema, ...byId, ...write },
        metadata: meta({ scope: 'write', operationId: 'rotateWebhookEndpointSecret', tag: 'Webhooks' }),
      },
      deliveries: {
        method: 'GET',
        path: '/webhook-endpoints/:id/deliveries',
        summary: "List a webhook endpoint's deliveries",
        description:
          "Lists the deliveries to one endpoint, newest first: each one's state, attempts, last response status, time and error, and next attempt. Deliveries are kept as long as the changes feed keeps their change.",
        pathParams: IdParams,
        query: ListWebhookDeliveriesQuerySchema,
        responses: { 200: WebhookDeliveryListSchema, ...byId, ...notModified },
        metadata: meta({ scope: 'read', operationId: 'listWebhookDeliveries', tag: 'Webhooks' }),
      },
      replay: {
        method: 'POST',
        path: '/webhook-endpoints/:id/replay',
        summary: 'Replay changes to a webhook endpoint',
        description:
          'Sends again every change after a changes cursor that the endpoint subscribes to (and that the feed still keeps), whatever became of it before: each is queued as pending again, with the same `webhook-id` (its change id) as before, and sent in the background. A cursor the feed no longer keeps is refused with 400.',
        pathParams: IdParams,
        body: ReplayWebhookBodySchema,
        responses: { 200: WebhookReplaySchema, ...byId, ...withBody, ...write },
        metadata: meta({ scope: 'write', operationId: 'replayWebhookEndpoint', tag: 'Webhooks' }),
      },
      test: {
        method: 'POST',
        path: '/webhook-endpoints/:id/test',
        summary: 'Send a test ping',
        description: `Sends one signed \`ping\` event to the endpoint now, whether or not it is enabled, and answers with the outcome (it is not retried). The receiver has the server's delivery timeout (${WEBHOOKS.timeoutMs / 1000} seconds unless configured otherwise) to answer.`,
        pathParams: IdParams,
        body: c.noBody(),
        responses: { 200: WebhookTestResultSchema, ...byId, ...write },
        metadata: meta({ scope: 'write', operationId: 'testWebhookEndpoint', tag: 'Webhooks' }),
      },
    }),
  },
  { strictStatusCodes: true },
);

export type Contract = typeof contract;
