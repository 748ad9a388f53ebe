import { LIMITS } from '../constants.js';
import type { ItemsExportEnd } from '../types.js';
import { category, categoryList } from './examples/categories.js';
import {
  changeList,
  changesCursor,
  consignmentCreated,
  consignmentUpdated,
  cursor,
  invoiceCreated,
  invoiceUpdated,
  itemCreated,
  itemDeleted,
  itemUpdated,
  reservationCommitted,
  reservationCreated,
  reservationExpired,
  reservationReleased,
  valuationCreated,
} from './examples/changes.js';
import { first, present, VALIDATION_ERROR_EXAMPLE } from './examples/common.js';
import { consignment, consignmentList } from './examples/consignments.js';
import {
  adjustItemBody,
  createReservationBody,
  keyActor,
  movement,
  movementList,
  reservation,
  reservationList,
} from './examples/inventory.js';
import { invoice, invoiceList } from './examples/invoices.js';
import {
  batchItemsBody,
  batchItemsResult,
  createItemBody,
  deletedItem,
  item,
  itemList,
  updateItemBody,
} from './examples/items.js';
import { me } from './examples/me.js';
import { valuation, valuationList } from './examples/valuations.js';
import { warehouse, warehouseList } from './examples/warehouses.js';
import {
  webhookDelivery,
  webhookDeliveryList,
  webhookEndpoint,
  webhookEndpointList,
  webhookEndpointWithSecret,
  webhookPing,
  webhookReplay,
  webhookTestResult,
} from './examples/webhooks.js';

// Examples published in the OpenAPI document and the docs' reference. They are typed as the contract's own
// response types, and a test parses each one with its schema, so an example can never show a field the API
// does not return. Values follow the demo organization (a dealer of US coins). Each resource's examples are in
// examples/<resource>.ts; this file names them by component schema and by parameter.

export { VALIDATION_ERROR_EXAMPLE };

/** The example of each component schema, by component name. */
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
  AdjustItemBody: adjustItemBody,
  Actor: keyActor,
  MovementDelta: movement.delta,
  MovementAfter: movement.after,
  Movement: movement,
  MovementList: movementList,
  Reservation: reservation,
  ReservationList: reservationList,
  CreateReservationBody: createReservationBody,
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
  ReservationCreatedChange: reservationCreated,
  ReservationCommittedChange: reservationCommitted,
  ReservationReleasedChange: reservationReleased,
  ReservationExpiredChange: reservationExpired,
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
  status: ['in_stock', 'sold', 'paid', 'failed', 'held'],
  categoryId: [present(item.category).id],
  itemId: [item.id],
  reference: [reservation.reference ?? ''],
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
