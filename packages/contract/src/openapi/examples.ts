import { ERRORS, LIMITS, RATE_LIMIT } from '../constants.js';
import type {
  BatchItemsInput,
  BatchItemsResult,
  Category,
  CategoryList,
  ChangeList,
  ChangesCursor,
  ConsignmentList,
  CreateItemInput,
  DeletedItem,
  ErrorBody,
  Invoice,
  InvoiceList,
  Item,
  ItemList,
  ItemsExportEnd,
  Me,
  UpdateItemInput,
  ValuationList,
  Warehouse,
  WarehouseList,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
  WebhookPing,
  WebhookReplay,
  WebhookTestResult,
} from '../types.js';

// Examples published in the OpenAPI document and the docs' reference. They are typed as the contract's own
// response types, and a test parses each one with its schema, so an example can never show a field the API
// does not return. Values follow the demo workspace (a dealer of US coins).

const item: Item = {
  id: '48598b4b-d2c9-4717-9dce-06fa221cd81f',
  sku: 'MOR-1921-D-63',
  title: '1921-D Morgan Dollar NGC MS63',
  description: 'Last-year Morgan from Denver. Bright, lightly toned obverse.',
  category: { id: 'a2c350ac-4fea-4686-988f-4a5571a2c04c', name: 'Morgan Dollars' },
  quantity: { available: 2, sold: 3, reserved: 0 },
  valueInCents: 8900,
  acquisition: {
    priceInCents: 7100,
    date: '2026-07-31T16:19:58.000Z',
    from: 'GreatCollections',
    notes: null,
  },
  grading: { service: 'NGC', grade: 'MS63', certificateNumber: '4478793-027', notes: null },
  attributes: { year: 1921, mint: 'Denver', metal: 'silver', fineness: 0.9, weightGrams: 26.73, toned: false },
  location: {
    warehouseId: '08c64068-d708-46e9-88b3-3e2321cba8ae',
    zoneId: '8198ea1b-6384-4b09-b8aa-24f1d9dd1470',
    details: 'Case 2, tray B',
  },
  consignmentId: null,
  isAtAuction: false,
  images: [{ url: 'https://images.liberty-coin.example/items/MOR-1921-D-63/1.jpg', width: 1600, height: 1600 }],
  createdAt: '2026-07-31T16:19:58.000Z',
  updatedAt: '2026-11-02T09:12:44.000Z',
};

const createItemBody: CreateItemInput = {
  sku: 'MOR-1921-D-63',
  title: '1921-D Morgan Dollar NGC MS63',
  quantity: 2,
  valueInCents: 8900,
  acquisitionPriceInCents: 7100,
  acquisitionDate: '2026-07-31T16:19:58Z',
  acquiredFrom: 'GreatCollections',
  gradingService: 'NGC',
  grade: 'MS63',
  certificateNumber: '4478793-027',
  attributes: { year: 1921, mint: 'Denver', metal: 'silver' },
  locationDetails: 'Case 2, tray B',
};

const updateItemBody: UpdateItemInput = { quantity: 1, valueInCents: 9400, locationDetails: null };

const me: Me = {
  organization: { id: 'e6bcc96b-4261-492c-b981-7866aa71b487', name: 'Liberty Coin & Bullion', slug: 'liberty-coin' },
  apiKey: {
    id: 'ac788dd2-1306-4252-b428-40c4cf8e20ee',
    name: 'Website sync',
    expiresAt: null,
    scopes: ['read', 'write'],
  },
  rateLimit: { ...RATE_LIMIT },
};

/** The first page of a list, at the default page size. */
const firstPage = <T>(items: T[], hasMore: boolean) => ({ items, page: 1, limit: LIMITS.listLimit.default, hasMore });

const itemList: ItemList = firstPage([item], true);

const deletedItem: DeletedItem = { id: item.id, deleted: true };

const valuationList: ValuationList = {
  items: [
    {
      id: '180bfa15-90c1-43e9-84bb-623c677049ad',
      itemId: item.id,
      estimateLowInCents: 8400,
      estimateInCents: 8900,
      estimateHighInCents: 11800,
      confidencePercent: 91,
      basis: 'comps',
      priceGuideValueInCents: null,
      meltValueInCents: null,
      summary: '3 comparable sales near MS63 in the last five months, $84 to $118.',
      comps: [
        {
          source: 'auction_archive',
          title: '1921-D Morgan Dollar NGC MS63',
          grade: 'MS63',
          gradingService: 'NGC',
          priceInCents: 8400,
          soldAt: '2026-08-25',
          venue: 'Heritage',
          url: 'https://heritage.example/lots/927081',
        },
        {
          source: 'marketplace_sold_listing',
          title: '1921-D Morgan Dollar NGC MS64',
          grade: 'MS64',
          gradingService: 'NGC',
          priceInCents: 11800,
          soldAt: 'July 2026',
          venue: 'eBay',
          url: null,
        },
        {
          source: 'auction_archive',
          title: '1921-D Morgan Dollar PCGS MS63',
          grade: 'MS63',
          gradingService: 'PCGS',
          priceInCents: 9700,
          soldAt: 'May 2026',
          venue: 'GreatCollections',
          url: null,
        },
      ],
      appliedAt: '2026-09-30T16:39:00.000Z',
      createdAt: '2026-09-29T16:39:00.000Z',
    },
  ],
};

const consignmentList: ConsignmentList = firstPage(
  [
    {
      id: '66554938-d071-4ea1-b0d4-0f9508991957',
      number: 'C-2026-011',
      name: 'Marsh collection: Morgan and Peace dollars',
      status: 'sold',
      paymentStatus: 'unpaid',
      consignor: { id: '5b5b6e9f-4ef1-4445-98cf-507363856acd', name: 'Dr. Evelyn Marsh', email: 'emarsh@mail.example' },
      commissionBps: 1500,
      buyerPremiumBps: 2000,
      numItems: 4,
      numItemsSold: 4,
      totalValueInCents: 1240000,
      totalSoldInCents: 1315000,
      totalCommissionInCents: 197250,
      totalPayoutInCents: 1117750,
      receivedAt: '2026-08-30T14:00:00.000Z',
      soldAt: '2026-10-18T20:30:00.000Z',
      settledAt: null,
      createdAt: '2026-08-30T13:45:12.000Z',
    },
  ],
  false,
);

const invoice: Invoice = {
  id: '2bb12c9d-e553-4756-938b-7cd17618129b',
  number: 1016,
  status: 'partially_paid',
  source: 'manual',
  customer: { id: 'c0e87d62-f012-43fd-bf75-c836488183d3', name: 'Harold Jennings', email: 'hjennings@mail.example' },
  subtotalInCents: 193500,
  discountInCents: 0,
  shippingInCents: 1500,
  taxInCents: 15964,
  totalInCents: 210964,
  paidInCents: 100000,
  dueInCents: 110964,
  lines: [
    {
      id: '75baa4a8-95ac-498f-97d5-e3a9c421fd4d',
      itemId: 'df52a9d7-c6b7-42df-ab64-e0f9e06bc516',
      description: '1932 Indian Head Eagle NGC MS64',
      quantity: 1,
      unitPriceInCents: 189000,
      totalPriceInCents: 189000,
    },
    {
      id: '5ba6bb3a-161c-49a3-9637-ac10abd53727',
      itemId: null,
      description: 'Archival album with 2x2 holders',
      quantity: 1,
      unitPriceInCents: 4500,
      totalPriceInCents: 4500,
    },
  ],
  payments: [
    {
      id: 'f3b1c0de-2f4e-4a51-9a0c-6d1c2b7e9a10',
      amountInCents: 100000,
      method: 'wire',
      status: 'succeeded',
      paidAt: '2026-11-15T10:02:00.000Z',
    },
  ],
  dueAt: '2026-11-28T00:00:00.000Z',
  paidAt: null,
  createdAt: '2026-11-14T17:41:46.000Z',
};

const invoiceList: InvoiceList = firstPage([invoice], true);

/** The error body of a request that failed validation. */
export const VALIDATION_ERROR_EXAMPLE: ErrorBody = {
  code: 'BAD_REQUEST',
  message: ERRORS.BAD_REQUEST.message,
  issues: [{ message: `body.sku: String must contain at most ${LIMITS.sku.max} character(s)` }],
};

/** A list's first entry: the examples of the nested schemas are the ones their parents show. */
function first<T>(entries: readonly T[] | undefined): T {
  const [head] = entries ?? [];
  if (head === undefined) throw new Error('an example list is empty');
  return head;
}

function present<T>(value: T | null): T {
  if (value === null) throw new Error('an example field is null');
  return value;
}

const consignment = first(consignmentList.items);
const valuation = first(valuationList.items);

/** The example of each component schema, by component name. */
const category: Category = present(item.category);
const categoryList: CategoryList = { items: [category], page: 1, limit: LIMITS.listLimit.default, hasMore: false };

const warehouse: Warehouse = {
  id: item.location.warehouseId,
  name: 'Main store',
  isDefault: true,
  zones: [
    { id: item.location.zoneId, name: 'Showroom cases' },
    { id: '3c0f1f0e-51d6-4d8f-a7b2-9a1c2b7c0d55', name: 'Vault' },
  ],
};
const warehouseList: WarehouseList = { items: [warehouse], page: 1, limit: LIMITS.listLimit.default, hasMore: false };

// Cursors are opaque; these only look like what the server sends.
const cursor = 'Y2hnXzQ4NTk4YjRiOjEwNDI';
const changesCursor: ChangesCursor = { cursor };
const itemUpdated = {
  id: '0b7c6f0e-3f8a-4f7e-9b65-0c3e4b6f9d21',
  type: 'item.updated',
  objectId: item.id,
  occurredAt: present(item.updatedAt),
  data: item,
} as const;
const itemCreated = { ...itemUpdated, id: '5d0e9a3b-0f6c-4a57-8e37-2f9a1d6c4b10', type: 'item.created' } as const;
const itemDeleted = {
  id: 'c2f4a9d1-7e3b-4c1a-9f0d-8b6e5a4c3d21',
  type: 'item.deleted',
  objectId: '9a4e1c2b-5d6f-4e7a-8b9c-0d1e2f3a4b5c',
  occurredAt: '2026-11-02T09:15:03.000Z',
  data: null,
} as const;
const valuationCreated = {
  id: '1e8b3c5d-7f9a-4b2c-8d4e-6f0a1b2c3d4e',
  type: 'valuation.created',
  objectId: valuation.id,
  occurredAt: valuation.createdAt,
  data: valuation,
} as const;
const consignmentCreated = {
  id: '2f9c4d6e-8a0b-4c3d-9e5f-7a1b2c3d4e5f',
  type: 'consignment.created',
  objectId: consignment.id,
  occurredAt: '2026-11-02T09:20:00.000Z',
  data: consignment,
} as const;
const consignmentUpdated = {
  ...consignmentCreated,
  id: '3a0d5e7f-9b1c-4d4e-8f6a-8b2c3d4e5f60',
  type: 'consignment.updated',
} as const;
const invoiceCreated = {
  id: '4b1e6f80-0c2d-4e5f-9a7b-9c3d4e5f6071',
  type: 'invoice.created',
  objectId: invoice.id,
  occurredAt: '2026-11-02T09:25:00.000Z',
  data: invoice,
} as const;
const invoiceUpdated = {
  ...invoiceCreated,
  id: '5c2f7091-1d3e-4f60-8b8c-0d4e5f607182',
  type: 'invoice.updated',
} as const;
const changeList: ChangeList = {
  items: [itemUpdated, itemDeleted],
  nextCursor: 'Y2hnXzQ4NTk4YjRiOjEwNDQ',
  hasMore: false,
};

const webhookEndpoint: WebhookEndpoint = {
  id: '7c1d2e3f-4a5b-4c6d-8e7f-901a2b3c4d5e',
  url: 'https://shop.liberty-coin.example/hooks/coinventory',
  description: 'Storefront stock levels',
  events: ['item.created', 'item.updated', 'item.deleted'],
  enabled: true,
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  previousSecretExpiresAt: null,
  createdAt: '2026-11-02T09:00:00.000Z',
  updatedAt: null,
};
const webhookEndpointWithSecret: WebhookEndpointWithSecret = {
  ...webhookEndpoint,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw6Ydh2+5fKwI=',
};
const webhookEndpointList: WebhookEndpointList = firstPage([webhookEndpoint], false);
const webhookDelivery: WebhookDelivery = {
  id: '0f9e8d7c-6b5a-4f3e-9d2c-1b0a9f8e7d6c',
  endpointId: webhookEndpoint.id,
  changeId: itemUpdated.id,
  changeType: itemUpdated.type,
  status: 'succeeded',
  attempts: 2,
  lastAttemptAt: '2026-11-02T09:13:10.000Z',
  lastResponseStatus: 200,
  lastDurationMs: 84,
  lastError: null,
  nextAttemptAt: null,
  createdAt: '2026-11-02T09:12:44.000Z',
  deliveredAt: '2026-11-02T09:13:10.000Z',
};
const webhookDeliveryList: WebhookDeliveryList = firstPage([webhookDelivery], false);
const webhookReplay: WebhookReplay = { queued: 12, nextCursor: cursor };
const webhookTestResult: WebhookTestResult = {
  webhookId: 'b1d7c2a4-3e5f-4a6b-8c9d-0e1f2a3b4c5d',
  succeeded: true,
  responseStatus: 204,
  durationMs: 63,
  error: null,
};
const webhookPing: WebhookPing = {
  id: webhookTestResult.webhookId,
  type: 'ping',
  occurredAt: '2026-11-02T09:01:00.000Z',
  data: null,
};

const batchItemsBody: BatchItemsInput = {
  mode: 'upsert',
  items: [
    { sku: item.sku, quantity: 1 },
    { sku: 'MOR-1881-S-65', title: '1881-S Morgan Dollar PCGS MS65', valueInCents: 21500 },
    { sku: 'MOR-1904-O', title: '' },
  ],
};
const batchItemsResult: BatchItemsResult = {
  mode: 'upsert',
  dryRun: false,
  created: 1,
  updated: 1,
  failed: 1,
  results: [
    {
      index: 0,
      status: 200,
      action: 'updated',
      item: { ...item, quantity: { ...item.quantity, available: 1 } },
      error: null,
    },
    {
      index: 1,
      status: 200,
      action: 'created',
      item: {
        ...item,
        id: '0b6f3c2e-9d4a-4e1b-8c7f-5a2d1e0f9b8c',
        sku: 'MOR-1881-S-65',
        title: '1881-S Morgan Dollar PCGS MS65',
        valueInCents: 21500,
        updatedAt: null,
      },
      error: null,
    },
    {
      index: 2,
      status: 400,
      action: null,
      item: null,
      error: {
        code: 'BAD_REQUEST',
        message: ERRORS.BAD_REQUEST.message,
        issues: [{ message: 'body.items.2.title: must be at least 1 character' }],
      },
    },
  ],
};

export const COMPONENT_EXAMPLES = {
  Error: VALIDATION_ERROR_EXAMPLE,
  ErrorIssue: first(VALIDATION_ERROR_EXAMPLE.issues),
  Organization: me.organization,
  ApiKeySummary: me.apiKey,
  RateLimitInfo: me.rateLimit,
  Me: me,
  Item: item,
  ItemImage: first(item.images),
  ItemList: itemList,
  CreateItemBody: createItemBody,
  UpdateItemBody: updateItemBody,
  DeletedItem: deletedItem,
  BatchItemsBody: batchItemsBody,
  BatchItemResult: batchItemsResult.results[0],
  BatchItemsResult: batchItemsResult,
  ItemsExportEnd: { count: 1, nextCursor: changeList.nextCursor } satisfies ItemsExportEnd,
  Valuation: valuation,
  ComparableSale: first(valuation.comps),
  ValuationList: valuationList,
  Consignor: present(consignment.consignor),
  Consignment: consignment,
  ConsignmentList: consignmentList,
  InvoiceCustomer: invoice.customer,
  InvoiceLine: first(invoice.lines),
  InvoicePayment: first(invoice.payments),
  Invoice: invoice,
  InvoiceList: invoiceList,
  Category: category,
  CategoryList: categoryList,
  Zone: first(warehouse.zones),
  Warehouse: warehouse,
  WarehouseList: warehouseList,
  ItemCreatedChange: itemCreated,
  ItemUpdatedChange: itemUpdated,
  ItemDeletedChange: itemDeleted,
  ValuationCreatedChange: valuationCreated,
  ConsignmentCreatedChange: consignmentCreated,
  ConsignmentUpdatedChange: consignmentUpdated,
  InvoiceCreatedChange: invoiceCreated,
  InvoiceUpdatedChange: invoiceUpdated,
  Change: itemUpdated,
  ChangeList: changeList,
  ChangesCursor: changesCursor,
  WebhookEndpoint: webhookEndpoint,
  WebhookEndpointWithSecret: webhookEndpointWithSecret,
  WebhookEndpointList: webhookEndpointList,
  CreateWebhookEndpointBody: {
    url: webhookEndpoint.url,
    events: webhookEndpoint.events,
    description: 'Storefront stock levels',
  },
  UpdateWebhookEndpointBody: { enabled: true },
  DeletedWebhookEndpoint: { id: webhookEndpoint.id, deleted: true },
  WebhookDelivery: webhookDelivery,
  WebhookDeliveryList: webhookDeliveryList,
  ReplayWebhookBody: { after: cursor },
  WebhookReplay: webhookReplay,
  WebhookTestResult: webhookTestResult,
  WebhookPing: webhookPing,
} as const;

/**
 * Example values of path and query parameters, by name; each parameter shows the first candidate its own schema
 * accepts (`status` is an item, consignment or invoice state depending on the operation).
 */
export const PARAMETER_EXAMPLES: Record<string, readonly (string | number)[]> = {
  id: [item.id],
  q: ['morgan'],
  status: ['in_stock', 'sold', 'paid', 'failed'],
  categoryId: [present(item.category).id],
  consignorId: [present(consignment.consignor).id],
  gradingService: [present(item.grading.service)],
  grade: [present(item.grading.grade)],
  sku: [item.sku],
  sort: ['value_desc', 'newest'],
  page: [1],
  limit: [LIMITS.listLimit.default, LIMITS.valuationLimit.default],
  after: [cursor],
  dryRun: ['true'],
  types: ['item.created,item.updated'],
};
