import { Coinventory } from './client.js';

// The API's types and enumerations, exactly as the contract defines them.
export type {
  ApiKeySummary,
  BatchItemResult,
  BatchItemsInput,
  BatchItemsResult,
  Category,
  CategoryList,
  Change,
  ChangeList,
  ChangesCursor,
  ComparableSale,
  Consignment,
  ConsignmentCreatedChange,
  ConsignmentList,
  ConsignmentUpdatedChange,
  Consignor,
  CreateItemInput,
  CreateWebhookEndpointInput,
  DeletedItem,
  DeletedWebhookEndpoint,
  ErrorBody,
  ErrorIssue,
  ExportItemsParams,
  Invoice,
  InvoiceCreatedChange,
  InvoiceCustomer,
  InvoiceLine,
  InvoiceList,
  InvoicePayment,
  InvoiceUpdatedChange,
  Item,
  ItemCreatedChange,
  ItemDeletedChange,
  ItemImage,
  ItemList,
  ItemsExportEnd,
  ItemUpdatedChange,
  ListCategoriesParams,
  ListConsignmentsParams,
  ListInvoicesParams,
  ListItemsParams,
  ListValuationsParams,
  ListWarehousesParams,
  ListWebhookDeliveriesParams,
  ListWebhookEndpointsParams,
  Me,
  Organization,
  RateLimitInfo,
  ReplayWebhookInput,
  UpdateItemInput,
  UpdateWebhookEndpointInput,
  Valuation,
  ValuationCreatedChange,
  ValuationList,
  Warehouse,
  WarehouseList,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookEndpoint,
  WebhookEndpointList,
  WebhookEndpointWithSecret,
  WebhookEvent,
  WebhookEventType,
  WebhookPing,
  WebhookReplay,
  WebhookTestResult,
  Zone,
} from '@coinventory/contract';
export {
  CHANGE_TYPES,
  type ChangeType,
  CONSIGNMENT_STATUSES,
  type ConsignmentStatus,
  DEFAULT_BASE_URL,
  type ErrorCode,
  INVOICE_SORTS,
  INVOICE_STATUSES,
  type InvoiceSort,
  type InvoiceStatus,
  ITEM_SORTS,
  ITEM_STATUSES,
  type ItemSort,
  type ItemStatus,
  type Scope,
  VALUATION_BASES,
  type ValuationBasis,
  WEBHOOK_DELIVERY_STATUSES,
  WEBHOOKS,
  type WebhookDeliveryStatus,
} from '@coinventory/contract/constants';
export { type ClientOptions, Coinventory } from './client.js';
export { APIPromise, type APIResponse, NOT_MODIFIED, type NotModified } from './core/api-promise.js';
export { ChangeFeed, type ChangeFeedParams, type ChangePageParams } from './core/change-feed.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  type APIErrorCode,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  CoinventoryError,
  ConflictError,
  IdempotencyKeyInUseError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  PreconditionFailedError,
  RateLimitError,
} from './core/errors.js';
export type { Fetch } from './core/http.js';
export { ItemsExport } from './core/items-export.js';
export { type CollectedItems, Page, type PageParams, PagePromise, type PageResponse } from './core/pagination.js';
export { RETRY } from './core/retry.js';
// Every option and request type a method's signature names, including Transport (a resource's constructor takes one).
export type * from './core/transport.js';
export { Categories } from './resources/categories.js';
export { Changes } from './resources/changes.js';
export { Consignments } from './resources/consignments.js';
export { Invoices } from './resources/invoices.js';
export { Items } from './resources/items.js';
export { Warehouses } from './resources/warehouses.js';
export { WebhookEndpoints } from './resources/webhook-endpoints.js';
export { VERSION } from './version.js';
export {
  generateWebhookSecret,
  type SignWebhookInput,
  signWebhook,
  type VerifyWebhookOptions,
  verifyWebhook,
  type WebhookBody,
  type WebhookHeaders,
  type WebhookSignatureHeaders,
  WebhookVerificationError,
  type WebhookVerificationReason,
} from './webhooks.js';

export default Coinventory;
