import type { z } from 'zod';
import type {
  BatchItemResultSchema,
  BatchItemsBodySchema,
  BatchItemsQuerySchema,
  BatchItemsResultSchema,
  DryRunQuerySchema,
} from './schemas/batch.js';
import type { CategoryListSchema, CategorySchema, ListCategoriesQuerySchema } from './schemas/category.js';
import type {
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
  ListChangesQuerySchema,
  ValuationCreatedChangeSchema,
} from './schemas/changes.js';
import type { ErrorBodySchema, ErrorIssueSchema } from './schemas/common.js';
import type {
  ConsignmentListSchema,
  ConsignmentSchema,
  ConsignorSchema,
  ListConsignmentsQuerySchema,
} from './schemas/consignment.js';
import type { ExportItemsQuerySchema, ItemsExportEndSchema } from './schemas/export.js';
import type {
  InvoiceCustomerSchema,
  InvoiceLineSchema,
  InvoiceListSchema,
  InvoicePaymentSchema,
  InvoiceSchema,
  ListInvoicesQuerySchema,
} from './schemas/invoice.js';
import type {
  CreateItemBodySchema,
  DeletedItemSchema,
  ItemImageSchema,
  ItemListSchema,
  ItemSchema,
  ListItemsQuerySchema,
  UpdateItemBodySchema,
} from './schemas/item.js';
import type { ApiKeySummarySchema, MeSchema, RateLimitInfoSchema } from './schemas/me.js';
import type { OrganizationSchema } from './schemas/organization.js';
import type {
  ComparableSaleSchema,
  ListValuationsQuerySchema,
  ValuationListSchema,
  ValuationSchema,
} from './schemas/valuation.js';
import type {
  ListWarehousesQuerySchema,
  WarehouseListSchema,
  WarehouseSchema,
  ZoneSchema,
} from './schemas/warehouse.js';
import type {
  CreateWebhookEndpointBodySchema,
  DeletedWebhookEndpointSchema,
  ListWebhookDeliveriesQuerySchema,
  ListWebhookEndpointsQuerySchema,
  ReplayWebhookBodySchema,
  UpdateWebhookEndpointBodySchema,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookEndpointWithSecretSchema,
  WebhookEventSchema,
  WebhookPingSchema,
  WebhookReplaySchema,
  WebhookTestResultSchema,
} from './schemas/webhook.js';

// Response objects, exactly as the API returns them.
export type Organization = z.infer<typeof OrganizationSchema>;
export type ApiKeySummary = z.infer<typeof ApiKeySummarySchema>;
export type RateLimitInfo = z.infer<typeof RateLimitInfoSchema>;
export type Me = z.infer<typeof MeSchema>;
export type Item = z.infer<typeof ItemSchema>;
export type ItemImage = z.infer<typeof ItemImageSchema>;
export type ItemList = z.infer<typeof ItemListSchema>;
export type DeletedItem = z.infer<typeof DeletedItemSchema>;
export type Valuation = z.infer<typeof ValuationSchema>;
export type ComparableSale = z.infer<typeof ComparableSaleSchema>;
export type ValuationList = z.infer<typeof ValuationListSchema>;
export type Consignment = z.infer<typeof ConsignmentSchema>;
export type Consignor = z.infer<typeof ConsignorSchema>;
export type ConsignmentList = z.infer<typeof ConsignmentListSchema>;
export type Invoice = z.infer<typeof InvoiceSchema>;
export type InvoiceCustomer = z.infer<typeof InvoiceCustomerSchema>;
export type InvoiceLine = z.infer<typeof InvoiceLineSchema>;
export type InvoicePayment = z.infer<typeof InvoicePaymentSchema>;
export type InvoiceList = z.infer<typeof InvoiceListSchema>;
export type Category = z.infer<typeof CategorySchema>;
export type CategoryList = z.infer<typeof CategoryListSchema>;
export type Warehouse = z.infer<typeof WarehouseSchema>;
export type Zone = z.infer<typeof ZoneSchema>;
export type WarehouseList = z.infer<typeof WarehouseListSchema>;
export type Change = z.infer<typeof ChangeSchema>;
export type ItemCreatedChange = z.infer<typeof ItemCreatedChangeSchema>;
export type ItemUpdatedChange = z.infer<typeof ItemUpdatedChangeSchema>;
export type ItemDeletedChange = z.infer<typeof ItemDeletedChangeSchema>;
export type ValuationCreatedChange = z.infer<typeof ValuationCreatedChangeSchema>;
export type ConsignmentCreatedChange = z.infer<typeof ConsignmentCreatedChangeSchema>;
export type ConsignmentUpdatedChange = z.infer<typeof ConsignmentUpdatedChangeSchema>;
export type InvoiceCreatedChange = z.infer<typeof InvoiceCreatedChangeSchema>;
export type InvoiceUpdatedChange = z.infer<typeof InvoiceUpdatedChangeSchema>;
export type ChangeList = z.infer<typeof ChangeListSchema>;
export type BatchItemResult = z.infer<typeof BatchItemResultSchema>;
export type BatchItemsResult = z.infer<typeof BatchItemsResultSchema>;
export type ItemsExportEnd = z.infer<typeof ItemsExportEndSchema>;
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecretSchema>;
export type WebhookEndpointList = z.infer<typeof WebhookEndpointListSchema>;
export type DeletedWebhookEndpoint = z.infer<typeof DeletedWebhookEndpointSchema>;
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;
export type WebhookReplay = z.infer<typeof WebhookReplaySchema>;
export type WebhookTestResult = z.infer<typeof WebhookTestResultSchema>;
export type WebhookPing = z.infer<typeof WebhookPingSchema>;
/** A webhook delivery's body: a Change, or a test ping. */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
export type ChangesCursor = z.infer<typeof ChangesCursorSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
export type ErrorIssue = z.infer<typeof ErrorIssueSchema>;

// Inputs as a caller writes them (defaults not yet applied) ...
export type CreateItemInput = z.input<typeof CreateItemBodySchema>;
export type UpdateItemInput = z.input<typeof UpdateItemBodySchema>;
export type ListItemsParams = z.input<typeof ListItemsQuerySchema>;
export type ListValuationsParams = z.input<typeof ListValuationsQuerySchema>;
export type ListConsignmentsParams = z.input<typeof ListConsignmentsQuerySchema>;
export type ListInvoicesParams = z.input<typeof ListInvoicesQuerySchema>;
export type ListCategoriesParams = z.input<typeof ListCategoriesQuerySchema>;
export type ListWarehousesParams = z.input<typeof ListWarehousesQuerySchema>;
export type ListChangesParams = z.input<typeof ListChangesQuerySchema>;
export type BatchItemsInput = z.input<typeof BatchItemsBodySchema>;
export type BatchItemsParams = z.input<typeof BatchItemsQuerySchema>;
export type DryRunParams = z.input<typeof DryRunQuerySchema>;
export type ExportItemsParams = z.input<typeof ExportItemsQuerySchema>;
export type CreateWebhookEndpointInput = z.input<typeof CreateWebhookEndpointBodySchema>;
export type UpdateWebhookEndpointInput = z.input<typeof UpdateWebhookEndpointBodySchema>;
export type ReplayWebhookInput = z.input<typeof ReplayWebhookBodySchema>;
export type ListWebhookEndpointsParams = z.input<typeof ListWebhookEndpointsQuerySchema>;
export type ListWebhookDeliveriesParams = z.input<typeof ListWebhookDeliveriesQuerySchema>;

// ... and as the server receives them (validated, defaults applied).
export type CreateItemBody = z.output<typeof CreateItemBodySchema>;
export type UpdateItemBody = z.output<typeof UpdateItemBodySchema>;
export type ListItemsQuery = z.output<typeof ListItemsQuerySchema>;
export type ListValuationsQuery = z.output<typeof ListValuationsQuerySchema>;
export type ListConsignmentsQuery = z.output<typeof ListConsignmentsQuerySchema>;
export type ListInvoicesQuery = z.output<typeof ListInvoicesQuerySchema>;
export type ListCategoriesQuery = z.output<typeof ListCategoriesQuerySchema>;
export type ListWarehousesQuery = z.output<typeof ListWarehousesQuerySchema>;
export type ListChangesQuery = z.output<typeof ListChangesQuerySchema>;
export type BatchItemsBody = z.output<typeof BatchItemsBodySchema>;
export type BatchItemsQuery = z.output<typeof BatchItemsQuerySchema>;
export type DryRunQuery = z.output<typeof DryRunQuerySchema>;
export type ExportItemsQuery = z.output<typeof ExportItemsQuerySchema>;
export type CreateWebhookEndpointBody = z.output<typeof CreateWebhookEndpointBodySchema>;
export type UpdateWebhookEndpointBody = z.output<typeof UpdateWebhookEndpointBodySchema>;
export type ListWebhookEndpointsQuery = z.output<typeof ListWebhookEndpointsQuerySchema>;
export type ListWebhookDeliveriesQuery = z.output<typeof ListWebhookDeliveriesQuerySchema>;
