import type { z } from 'zod';
import { BatchItemResultSchema, BatchItemsBodySchema, BatchItemsResultSchema } from './batch.js';
import { CategoryListSchema, CategorySchema } from './category.js';
import {
  ChangeListSchema,
  ChangeSchema,
  ChangesCursorSchema,
  ConsignmentCreatedChangeSchema,
  ConsignmentUpdatedChangeSchema,
  InvoiceCreatedChangeSchema,
  InvoiceUpdatedChangeSchema,
  ItemCreatedChangeSchema,
  ItemDeletedChangeSchema,
  ItemUpdatedChangeSchema,
  ValuationCreatedChangeSchema,
} from './changes.js';
import { ErrorBodySchema, ErrorIssueSchema } from './common.js';
import { ConsignmentListSchema, ConsignmentSchema, ConsignorSchema } from './consignment.js';
import { ItemsExportEndSchema } from './export.js';
import {
  InvoiceCustomerSchema,
  InvoiceLineSchema,
  InvoiceListSchema,
  InvoicePaymentSchema,
  InvoiceSchema,
} from './invoice.js';
import {
  CreateItemBodySchema,
  DeletedItemSchema,
  ItemImageSchema,
  ItemListSchema,
  ItemSchema,
  UpdateItemBodySchema,
} from './item.js';
import { ApiKeySummarySchema, MeSchema, RateLimitInfoSchema } from './me.js';
import { OrganizationSchema } from './organization.js';
import { ComparableSaleSchema, ValuationListSchema, ValuationSchema } from './valuation.js';
import { WarehouseListSchema, WarehouseSchema, ZoneSchema } from './warehouse.js';
import {
  CreateWebhookEndpointBodySchema,
  DeletedWebhookEndpointSchema,
  ReplayWebhookBodySchema,
  UpdateWebhookEndpointBodySchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookPingSchema,
  WebhookReplaySchema,
  WebhookTestResultSchema,
} from './webhook.js';

/**
 * The API's named objects, each schema by the name it has in the OpenAPI document: published under
 * `components.schemas` (every other use of them there becomes a `$ref`), and the name of its type in types.ts.
 */
export const COMPONENTS = {
  Error: ErrorBodySchema,
  ErrorIssue: ErrorIssueSchema,
  Organization: OrganizationSchema,
  ApiKeySummary: ApiKeySummarySchema,
  RateLimitInfo: RateLimitInfoSchema,
  Me: MeSchema,
  Item: ItemSchema,
  ItemImage: ItemImageSchema,
  ItemList: ItemListSchema,
  CreateItemBody: CreateItemBodySchema,
  UpdateItemBody: UpdateItemBodySchema,
  DeletedItem: DeletedItemSchema,
  BatchItemsBody: BatchItemsBodySchema,
  BatchItemResult: BatchItemResultSchema,
  BatchItemsResult: BatchItemsResultSchema,
  ItemsExportEnd: ItemsExportEndSchema,
  Valuation: ValuationSchema,
  ComparableSale: ComparableSaleSchema,
  ValuationList: ValuationListSchema,
  Consignor: ConsignorSchema,
  Consignment: ConsignmentSchema,
  ConsignmentList: ConsignmentListSchema,
  InvoiceCustomer: InvoiceCustomerSchema,
  InvoiceLine: InvoiceLineSchema,
  InvoicePayment: InvoicePaymentSchema,
  Invoice: InvoiceSchema,
  InvoiceList: InvoiceListSchema,
  Category: CategorySchema,
  CategoryList: CategoryListSchema,
  Zone: ZoneSchema,
  Warehouse: WarehouseSchema,
  WarehouseList: WarehouseListSchema,
  ItemCreatedChange: ItemCreatedChangeSchema,
  ItemUpdatedChange: ItemUpdatedChangeSchema,
  ItemDeletedChange: ItemDeletedChangeSchema,
  ValuationCreatedChange: ValuationCreatedChangeSchema,
  ConsignmentCreatedChange: ConsignmentCreatedChangeSchema,
  ConsignmentUpdatedChange: ConsignmentUpdatedChangeSchema,
  InvoiceCreatedChange: InvoiceCreatedChangeSchema,
  InvoiceUpdatedChange: InvoiceUpdatedChangeSchema,
  Change: ChangeSchema,
  ChangeList: ChangeListSchema,
  ChangesCursor: ChangesCursorSchema,
  WebhookEndpoint: WebhookEndpointSchema,
  WebhookEndpointWithSecret: WebhookEndpointWithSecretSchema,
  WebhookEndpointList: WebhookEndpointListSchema,
  CreateWebhookEndpointBody: CreateWebhookEndpointBodySchema,
  UpdateWebhookEndpointBody: UpdateWebhookEndpointBodySchema,
  DeletedWebhookEndpoint: DeletedWebhookEndpointSchema,
  WebhookDelivery: WebhookDeliverySchema,
  WebhookDeliveryList: WebhookDeliveryListSchema,
  ReplayWebhookBody: ReplayWebhookBodySchema,
  WebhookReplay: WebhookReplaySchema,
  WebhookTestResult: WebhookTestResultSchema,
  WebhookPing: WebhookPingSchema,
} satisfies Record<string, z.ZodTypeAny>;
