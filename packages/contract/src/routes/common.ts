import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import type { ErrorCode, Scope } from '../constants.js';
import { uuid } from '../primitives.js';
import { ErrorBodySchema } from '../schemas/common.js';

/** The one ts-rest builder every resource's routes are declared with (typed by name: its own type is not exported). */
export const c: ReturnType<typeof initContract> = initContract();

/** The groups of the documentation, in order, each with the line that introduces it. */
export const ROUTE_TAGS = {
  Account: 'Who the request is authenticated as.',
  Items: 'Inventory items and their valuations.',
  Reservations:
    'Units of an item held for a customer while they pay: committed when sold, released when not, and given back by the server when they expire.',
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
  /**
   * The 409 the write can answer besides a busy Idempotency-Key (`IDEMPOTENCY_KEY_IN_USE`, which every write can):
   * `CONFLICT` for a SKU already used, `INSUFFICIENT_QUANTITY`, or `RESERVATION_NOT_HELD`.
   */
  conflict?: Extract<ErrorCode, 'CONFLICT' | 'INSUFFICIENT_QUANTITY' | 'RESERVATION_NOT_HELD'>;
  /**
   * The answer is a file of lines (NDJSON or CSV, by `Accept`), not one JSON body: it is read whole into a temporary
   * file, then sent with its length and ETag; a failure while it is sent cuts it short instead of answering an error.
   */
  streamed?: true;
}

export const meta = (metadata: RouteMetadata) => metadata;

export const IdParams = z.object({ id: uuid.describe('Resource id (UUID).') }).strict();

// Every route can fail authentication, authorization, the rate limit or the server, or find the server too busy.
const always = {
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  429: ErrorBodySchema,
  500: ErrorBodySchema,
  503: ErrorBodySchema,
} as const;
export const validated = { ...always, 400: ErrorBodySchema } as const;
export const byId = { ...validated, 404: ErrorBodySchema } as const;
// Every GET answers with a strong ETag; `If-None-Match` naming it gets 304 with no body.
export const notModified = { 304: c.noBody() } as const;
// Requests with a JSON body can also be too slow to arrive, too large or sent with the wrong media type.
export const withBody = { 408: ErrorBodySchema, 413: ErrorBodySchema, 415: ErrorBodySchema } as const;
// Every write takes `Idempotency-Key`: a retry while the first request with that key is still running is 409.
export const write = { 409: ErrorBodySchema } as const;
// PATCH and DELETE take `If-Match` and `If-None-Match` (RFC 9110 §13.1): 412 when one fails, and nothing is written.
export const conditionalWrite = { ...write, 412: ErrorBodySchema } as const;

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
export function listAndGet<Query extends z.AnyZodObject, Page extends z.ZodTypeAny, Entry extends z.ZodTypeAny>(
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
