/**
 * Every number, enumeration, code and message of the Coinventory API, defined once.
 * Server, SDK, CLI and docs import these; nothing restates them.
 */

export const API_VERSION = 'v1' as const;
/** The OpenAPI document's `info.version`. */
export const OPENAPI_DOCUMENT_VERSION = '1.0.0' as const;
/** Base URL used when nothing else is configured (the embedded server's default address). */
export const DEFAULT_BASE_URL = `http://localhost:3000/${API_VERSION}` as const;

/** Requests one key may make per window. */
export const RATE_LIMIT = { maxRequests: 120, windowSeconds: 60 } as const;

/**
 * Live and test mode. A key's prefix says which it is: a live key reaches the workspace, a test key the workspace's
 * sandbox, a copy kept apart from live stock whose changes never leave the building. Every answer to a request made
 * with a test key carries `header: value`; answers to live keys carry no such header.
 */
export const KEY_MODES = ['live', 'test'] as const;
export type KeyMode = (typeof KEY_MODES)[number];
export const TEST_MODE = {
  keyPrefixes: { live: 'cvk_live_', test: 'cvk_test_' },
  header: 'Coinventory-Mode',
  value: 'test',
} as const satisfies { keyPrefixes: Record<KeyMode, string>; header: string; value: KeyMode };

/**
 * A request id a caller may choose by sending `X-Request-Id`: short and plain, so it is safe to log and echo.
 * Anything else is ignored, and the server makes one up.
 */
export const CALLER_REQUEST_ID_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

/** Largest JSON request body the API accepts, in MiB: the unit its 413 message states it in. */
const MAX_BODY_MIB = 1;
/** Largest JSON request body the API accepts, in bytes. */
export const MAX_BODY_BYTES = MAX_BODY_MIB * 1024 * 1024;

export const SCOPES = ['read', 'write'] as const;
export type Scope = (typeof SCOPES)[number];

const listLimit = { min: 1, max: 100, default: 20 } as const;

/** Every bound from the specification's endpoint tables and Limits table. */
export const LIMITS = {
  /** The upper bound only keeps `(page - 1) * limit` an exact integer; any real page number is far below it. */
  page: { min: 1, max: Math.floor(Number.MAX_SAFE_INTEGER / listLimit.max), default: 1 },
  listLimit,
  valuationLimit: { min: 1, max: 50, default: 10 },
  q: { min: 1, max: 200 },
  sku: { min: 1, max: 100 },
  title: { min: 1, max: 300 },
  description: { max: 20_000 },
  acquiredFrom: { max: 200 },
  acquisitionNotes: { max: 2_000 },
  gradingNotes: { max: 2_000 },
  gradingService: { max: 50 },
  grade: { max: 50 },
  certificateNumber: { max: 50 },
  locationDetails: { max: 500 },
  /** Quantities are stored as 32-bit integers; larger numbers are rejected rather than overflowing. */
  quantity: { min: 0, max: 2_147_483_647, default: 1 },
  /** A signed change of an item's quantity by an adjustment: as far as a quantity can move either way. */
  quantityDelta: { min: -2_147_483_647, max: 2_147_483_647 },
  /** An order, receipt or cart number an adjustment or a reservation is made for. */
  reference: { min: 1, max: 200 },
  /** Cents are stored as 64-bit integers; the bound keeps every amount exact in a JavaScript number. */
  cents: { min: 0, max: Number.MAX_SAFE_INTEGER },
  valueInCents: { default: 0 },
  /** Item attributes: a flat map, bounded so one item cannot hold unbounded data. */
  attributes: { maxKeys: 100, keyMax: 100, stringValueMax: 2_000 },
  /** Changes per page of the changes feed: a consumer catching up wants as many as a page holds. */
  changesLimit: { min: 1, max: 100, default: 100 },
  /** A changes cursor as sent back: opaque, and never longer than this. */
  cursor: { min: 1, max: 200 },
} as const;

/**
 * What the changes feed reports. Each type names the resource and what happened to it; `data` is the object as its
 * GET returns it at that change, or null for a deletion. Items change through the API; consignments, invoices and
 * valuations through the operator's imports and the valuation engine.
 */
export const CHANGE_TYPES = [
  'item.created',
  'item.updated',
  'item.deleted',
  'valuation.created',
  'consignment.created',
  'consignment.updated',
  'invoice.created',
  'invoice.updated',
  'reservation.created',
  'reservation.committed',
  'reservation.released',
  'reservation.expired',
] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];

/**
 * Webhooks (Standard Webhooks 1.0): each change is POSTed to the organization's endpoints that subscribe to its type,
 * signed with the endpoint's secret. Receivers verify with the SDK's `verifyWebhook` or any Standard Webhooks library.
 */
export const WEBHOOKS = {
  /** Subscribes an endpoint to every change type, including those added later. */
  allEvents: '*',
  /** The request headers of every delivery. `webhook-id` is the change id: the same on every retry of it. */
  headers: {
    id: 'webhook-id',
    timestamp: 'webhook-timestamp',
    signature: 'webhook-signature',
    /** Coinventory's own: the changes-feed cursor just after this change, to resume the feed from it. */
    changesCursor: 'coinventory-changes-cursor',
  },
  /** A signature is `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`; several are space-separated. */
  signatureVersion: 'v1',
  /** A signing secret is `whsec_` + the base64 of its random bytes. */
  secretPrefix: 'whsec_',
  secretBytes: 32,
  /** How far a delivery's timestamp may be from the receiver's clock before it is refused as a possible replay. */
  toleranceSeconds: 300,
  /** Endpoints one organization may have. */
  maxEndpoints: 16,
  /** After a rotation, the old secret keeps signing (a second signature) for this long. */
  previousSecretHours: 24,
  /** A delivery is retried, with backoff, for this long after its first attempt before it is given up. */
  retryHours: 72,
  /** An endpoint whose deliveries have failed for this long without one success is disabled. */
  disableAfterFailingHours: 72,
  /** Default time a receiver has to answer one delivery. */
  timeoutMs: 10_000,
  /** At most this much of a receiver's answer is read (the rest is discarded). */
  maxResponseBytes: 65_536, // 64 KiB; a literal, so bundlers can drop the object when it is unused
  url: { min: 1, max: 2_048 },
  description: { max: 500 },
  /** The test event `POST /webhook-endpoints/{id}/test` sends. */
  pingType: 'ping',
} as const;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export type WebhookDeliveryStatus = (typeof WEBHOOK_DELIVERY_STATUSES)[number];

/** `POST /items/batch`: many items in one request, each checked on its own, all applied in one transaction. */
export const BATCH = {
  maxItems: 100,
  modes: ['create', 'upsert'],
} as const satisfies { maxItems: number; modes: readonly string[] };
export type BatchMode = (typeof BATCH.modes)[number];

/**
 * `GET /exports/items`: every item of an organization in one answer, from one snapshot, in NDJSON (one Item per line, then
 * a last line with the count and the changes cursor at that snapshot) or CSV. The server reads the snapshot into a
 * temporary file first, then sends it with its length, its ETag and the same facts in response headers.
 */
export const EXPORTS = {
  mediaTypes: { ndjson: 'application/x-ndjson', csv: 'text/csv' },
  /** Response headers of every export answer (200, 304 and HEAD): the snapshot's changes cursor and its item count. */
  headers: { cursor: 'Coinventory-Changes-Cursor', count: 'Coinventory-Export-Count' },
  /** @deprecated No export sends trailers any more: the same names are response headers, `EXPORTS.headers`. */
  trailers: { cursor: 'Coinventory-Changes-Cursor', count: 'Coinventory-Export-Count' },
  /**
   * How long reading the snapshot may take, in place of the request deadline (REQUEST_TIMEOUT_MS): a large export
   * takes seconds (about 5 for 100,000 items); beyond it the read is rolled back and answered 500.
   */
  readTimeoutMs: 120_000,
  /** A reader that takes nothing for this long is dropped (the answer is cut short), freeing its export slot. */
  stallTimeoutMs: 30_000,
  /**
   * Exports one API key may have under way at once in one server process (reading the snapshot, or sending it); one
   * more is answered 429.
   */
  maxPerKey: 2,
  /**
   * Exports one organization may have under way at once in one server process, all its keys together; one more is
   * answered 429. Half the process's: no one organization can take every export of a process from the others.
   */
  maxPerOrganization: 4,
  /** Exports one server process has under way at once, all organizations together; one more is answered 503. */
  maxPerProcess: 8,
  /** The `Retry-After` (seconds) of an export refused for either cap. */
  busyRetryAfterSeconds: 5,
  /** The largest answer one export may be (it is written to a temporary file before it is sent); beyond it, 400. */
  maxBytes: 1024 ** 3,
} as const;
export type ExportFormat = keyof typeof EXPORTS.mediaTypes;

/** How long the changes feed keeps a change (and so how long a cursor stays valid), unless configured otherwise. */
export const DEFAULT_CHANGES_RETENTION_DAYS = 30;

/**
 * Safe retries of writes (draft-ietf-httpapi-idempotency-key-header): a POST, PATCH or DELETE that carries
 * `Idempotency-Key` is done once; a retry with the same key and the same request gets the first answer again, marked
 * `Idempotent-Replayed: true`. Keys belong to the API key that sent them.
 */
export const IDEMPOTENCY = {
  header: 'Idempotency-Key',
  replayedHeader: 'Idempotent-Replayed',
  /** Printable ASCII (space to `~`), 1 to 255 characters. */
  keyPattern: /^[\x20-\x7E]{1,255}$/,
  key: { min: 1, max: 255 },
  /** How long the first answer is kept and replayed. */
  retentionHours: 24,
} as const;

/** Conditional requests: strong ETags on every GET's 200, `If-None-Match` on GETs, `If-Match` on PATCH and DELETE. */
export const CONDITIONAL = {
  etagHeader: 'ETag',
  ifNoneMatchHeader: 'If-None-Match',
  ifMatchHeader: 'If-Match',
  /**
   * The 412 message when a PATCH or DELETE fails its If-None-Match (RFC 9110 §13.1.2); If-Match's failure has
   * PRECONDITION_FAILED's own message.
   */
  noneMatchFailedMessage: 'The resource still has a version named in If-None-Match (or exists, for *)',
} as const;

/**
 * Cross-origin requests from the origins an operator allows (`CORS_ALLOWED_ORIGINS`, off by default): the request
 * headers a browser may send and the response headers its script may read.
 */
export const CORS = {
  allowedMethods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
  allowedHeaders: [
    'Authorization',
    'Content-Type',
    'Content-Encoding',
    'Accept',
    IDEMPOTENCY.header,
    CONDITIONAL.ifMatchHeader,
    CONDITIONAL.ifNoneMatchHeader,
    'X-Request-Id',
  ],
  exposedHeaders: [
    CONDITIONAL.etagHeader,
    'RateLimit',
    'RateLimit-Policy',
    'Retry-After',
    'X-Request-Id',
    IDEMPOTENCY.replayedHeader,
    'Location',
    'Allow',
    'WWW-Authenticate',
    TEST_MODE.header,
    ...Object.values(EXPORTS.headers),
  ],
  /** How long a browser may keep a preflight's answer. */
  maxAgeSeconds: 600,
} as const;

export const ITEM_STATUSES = ['in_stock', 'out_of_stock', 'sold', 'at_auction'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/**
 * What each item `status` filter value selects, stated from the item's fields.
 * The four values partition every item: each item matches exactly one.
 */
export const ITEM_STATUS_RULES: Record<ItemStatus, string> = {
  at_auction: '`isAtAuction` is true (whatever the quantities).',
  in_stock: '`quantity.available` > 0 and `isAtAuction` is false.',
  sold: '`quantity.available` = 0, `quantity.sold` > 0 and `isAtAuction` is false.',
  out_of_stock: '`quantity.available` = 0, `quantity.sold` = 0 and `isAtAuction` is false.',
};

export const ITEM_SORTS = ['newest', 'oldest', 'title', 'value_desc', 'value_asc', 'sku'] as const;
export type ItemSort = (typeof ITEM_SORTS)[number];
export const DEFAULT_ITEM_SORT: ItemSort = 'newest';

/** The order each item sort produces; every sort ends with `id` so pages never skip or repeat a row. */
export const ITEM_SORT_RULES: Record<ItemSort, string> = {
  newest: '`createdAt` descending, then `id` descending.',
  oldest: '`createdAt` ascending, then `id` ascending.',
  title: '`title` ascending (case-insensitive), then `id` ascending.',
  value_desc: '`valueInCents` descending, then `id` ascending.',
  value_asc: '`valueInCents` ascending, then `id` ascending.',
  sku: '`sku` ascending, then `id` ascending.',
};

/** Fields `q` matches on each list, case-insensitively, as a substring. */
export const SEARCH_FIELDS = {
  items: ['sku', 'title', 'description', 'grading.certificateNumber'],
  consignments: ['number', 'name', 'consignor.name', 'consignor.email'],
  invoices: ['number', 'customer.name', 'customer.email', 'source'],
} as const;

export const CONSIGNMENT_STATUSES = [
  'intake',
  'cataloging',
  'listed',
  'partially_sold',
  'sold',
  'settled',
  'withdrawn',
  'returned',
] as const;
export type ConsignmentStatus = (typeof CONSIGNMENT_STATUSES)[number];

export const INVOICE_STATUSES = ['draft', 'sent', 'paid', 'partially_paid', 'overdue', 'void', 'cancelled'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export const INVOICE_SORTS = ['newest', 'oldest'] as const;
export type InvoiceSort = (typeof INVOICE_SORTS)[number];
export const DEFAULT_INVOICE_SORT: InvoiceSort = 'newest';

/** Known values of `Valuation.basis`; the field is a plain string and may hold others later. */
export const VALUATION_BASES = ['comps', 'price_guide', 'melt', 'model_knowledge'] as const;
export type ValuationBasis = (typeof VALUATION_BASES)[number];

/** Why an item's quantity was adjusted (`POST /items/{id}/adjustments`). */
export const ADJUSTMENT_REASONS = [
  'sale',
  'return',
  'restock',
  'received',
  'correction',
  'damaged',
  'lost',
  'other',
] as const;
export type AdjustmentReason = (typeof ADJUSTMENT_REASONS)[number];

/**
 * Reservations: units of an item held for a customer (a cart, a checkout) until they are committed (sold), released
 * (back to available), or expire (back to available, by the server, within seconds of `expiresAt`).
 */
export const RESERVATIONS = {
  statuses: ['held', 'committed', 'released', 'expired'],
  expiresInSeconds: { min: 60, max: 604_800, default: 900 },
} as const;
export type ReservationStatus = (typeof RESERVATIONS.statuses)[number];

/**
 * What moved an item's quantities, as its ledger (`GET /items/{id}/movements`) records it: `opening` is the quantity
 * an item already had when the ledger began; the rest name the write that moved it.
 */
export const MOVEMENT_KINDS = [
  'opening',
  'create',
  'set',
  'adjustment',
  'reserve',
  'commit',
  'release',
  'expire',
  'batch',
  'import',
  'operator',
] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/** Who made a change or a movement: an API key, the operator (commands and imports), or the server's own workers. */
export const ACTOR_TYPES = ['key', 'operator', 'system'] as const;
export type ActorType = (typeof ACTOR_TYPES)[number];

/** Every error the API returns: its HTTP status, `code` and exact `message`. */
export const ERRORS = {
  BAD_REQUEST: { status: 400, message: 'Invalid input data' },
  UNAUTHORIZED: { status: 401, message: 'Authorization not provided' },
  FORBIDDEN: { status: 403, message: 'Insufficient access' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  REQUEST_TIMEOUT: { status: 408, message: 'Request not received in time' },
  CONFLICT: { status: 409, message: 'An item with this SKU already exists in the workspace' },
  INSUFFICIENT_QUANTITY: { status: 409, message: 'Not enough quantity available' },
  RESERVATION_NOT_HELD: {
    status: 409,
    message: 'The reservation is no longer held: it was committed, released or has expired',
  },
  IDEMPOTENCY_KEY_IN_USE: {
    status: 409,
    message: 'A request with this Idempotency-Key is still in progress; retry it once that one has finished',
  },
  PRECONDITION_FAILED: { status: 412, message: 'The resource has changed since the version named in If-Match' },
  PAYLOAD_TOO_LARGE: { status: 413, message: `Request body exceeds ${MAX_BODY_MIB} MiB` },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Request body must be sent as application/json' },
  TOO_MANY_REQUESTS: { status: 429, message: 'Too many requests' },
  REQUEST_HEADER_FIELDS_TOO_LARGE: { status: 431, message: 'Request header fields too large' },
  INTERNAL_SERVER_ERROR: { status: 500, message: 'Internal server error' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Server busy; retry after the Retry-After delay' },
} as const;

export type ErrorCode = keyof typeof ERRORS;
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];
export type ErrorStatus = (typeof ERRORS)[ErrorCode]['status'];

/** Invoice states whose lines count as sales in consignment totals: issued, and not voided or cancelled. */
export const SOLD_INVOICE_STATUSES = [
  'sent',
  'paid',
  'partially_paid',
  'overdue',
] as const satisfies readonly InvoiceStatus[];

/** The payment status that counts towards an invoice's `paidInCents`. */
export const SETTLED_PAYMENT_STATUS = 'succeeded' as const;
