import type { z } from 'zod';
import type { BatchItemsQuerySchema, DryRunQuerySchema } from './schemas/batch.js';
import type { ListCategoriesQuerySchema } from './schemas/category.js';
import type { ListChangesQuerySchema } from './schemas/changes.js';
import type { COMPONENTS } from './schemas/components.js';
import type { ListConsignmentsQuerySchema } from './schemas/consignment.js';
import type { ExportItemsQuerySchema } from './schemas/export.js';
import type { ListMovementsQuerySchema, ListReservationsQuerySchema } from './schemas/inventory.js';
import type { ListInvoicesQuerySchema } from './schemas/invoice.js';
import type { ListItemsQuerySchema } from './schemas/item.js';
import type { ListValuationsQuerySchema } from './schemas/valuation.js';
import type { ListWarehousesQuerySchema } from './schemas/warehouse.js';
import type {
  ListWebhookDeliveriesQuerySchema,
  ListWebhookEndpointsQuerySchema,
  WebhookEventSchema,
} from './schemas/webhook.js';

/** Each request query's schema (see Schemas). */
interface QuerySchemas {
  ListItems: typeof ListItemsQuerySchema;
  ListValuations: typeof ListValuationsQuerySchema;
  ListConsignments: typeof ListConsignmentsQuerySchema;
  ListInvoices: typeof ListInvoicesQuerySchema;
  ListCategories: typeof ListCategoriesQuerySchema;
  ListWarehouses: typeof ListWarehousesQuerySchema;
  ListChanges: typeof ListChangesQuerySchema;
  BatchItems: typeof BatchItemsQuerySchema;
  DryRun: typeof DryRunQuerySchema;
  ExportItems: typeof ExportItemsQuerySchema;
  ListWebhookEndpoints: typeof ListWebhookEndpointsQuerySchema;
  ListWebhookDeliveries: typeof ListWebhookDeliveriesQuerySchema;
  ListMovements: typeof ListMovementsQuerySchema;
  ListReservations: typeof ListReservationsQuerySchema;
}

/**
 * Every named schema: the API's objects by their names in the OpenAPI document (schemas/components.ts), and each
 * request's query by the name its two types share (`ListItems`: `ListItemsParams`, `ListItemsQuery`).
 */
type Schemas = typeof COMPONENTS & QuerySchemas;
/** A named schema's type as a caller writes it: defaults not yet applied (`…Input`, `…Params`). */
type Input<Name extends keyof Schemas> = z.input<Schemas[Name]>;
/** A named schema's type as the API answers with it, or the server receives it: validated, defaults applied. */
type Output<Name extends keyof Schemas> = z.output<Schemas[Name]>;

// Response objects, exactly as the API returns them.
export type Organization = Output<'Organization'>;
export type ApiKeySummary = Output<'ApiKeySummary'>;
export type RateLimitInfo = Output<'RateLimitInfo'>;
export type Me = Output<'Me'>;
export type Item = Output<'Item'>;
export type ItemImage = Output<'ItemImage'>;
export type ItemList = Output<'ItemList'>;
export type DeletedItem = Output<'DeletedItem'>;
export type Valuation = Output<'Valuation'>;
export type ComparableSale = Output<'ComparableSale'>;
export type ValuationList = Output<'ValuationList'>;
export type Consignment = Output<'Consignment'>;
export type Consignor = Output<'Consignor'>;
export type ConsignmentList = Output<'ConsignmentList'>;
export type Invoice = Output<'Invoice'>;
export type InvoiceCustomer = Output<'InvoiceCustomer'>;
export type InvoiceLine = Output<'InvoiceLine'>;
export type InvoicePayment = Output<'InvoicePayment'>;
export type InvoiceList = Output<'InvoiceList'>;
export type Category = Output<'Category'>;
export type CategoryList = Output<'CategoryList'>;
export type Warehouse = Output<'Warehouse'>;
export type Zone = Output<'Zone'>;
export type WarehouseList = Output<'WarehouseList'>;
export type Change = Output<'Change'>;
export type ItemCreatedChange = Output<'ItemCreatedChange'>;
export type ItemUpdatedChange = Output<'ItemUpdatedChange'>;
export type ItemDeletedChange = Output<'ItemDeletedChange'>;
export type ValuationCreatedChange = Output<'ValuationCreatedChange'>;
export type ConsignmentCreatedChange = Output<'ConsignmentCreatedChange'>;
export type ConsignmentUpdatedChange = Output<'ConsignmentUpdatedChange'>;
export type InvoiceCreatedChange = Output<'InvoiceCreatedChange'>;
export type InvoiceUpdatedChange = Output<'InvoiceUpdatedChange'>;
export type ReservationCreatedChange = Output<'ReservationCreatedChange'>;
export type ReservationCommittedChange = Output<'ReservationCommittedChange'>;
export type ReservationReleasedChange = Output<'ReservationReleasedChange'>;
export type ReservationExpiredChange = Output<'ReservationExpiredChange'>;
export type ChangeList = Output<'ChangeList'>;
export type Actor = Output<'Actor'>;
export type Movement = Output<'Movement'>;
export type MovementList = Output<'MovementList'>;
export type Reservation = Output<'Reservation'>;
export type ReservationList = Output<'ReservationList'>;
export type BatchItemResult = Output<'BatchItemResult'>;
export type BatchItemsResult = Output<'BatchItemsResult'>;
export type ItemsExportEnd = Output<'ItemsExportEnd'>;
export type WebhookEndpoint = Output<'WebhookEndpoint'>;
export type WebhookEndpointWithSecret = Output<'WebhookEndpointWithSecret'>;
export type WebhookEndpointList = Output<'WebhookEndpointList'>;
export type DeletedWebhookEndpoint = Output<'DeletedWebhookEndpoint'>;
export type WebhookDelivery = Output<'WebhookDelivery'>;
export type WebhookDeliveryList = Output<'WebhookDeliveryList'>;
export type WebhookReplay = Output<'WebhookReplay'>;
export type WebhookTestResult = Output<'WebhookTestResult'>;
export type WebhookPing = Output<'WebhookPing'>;
/** A webhook delivery's body: a Change, or a test ping. */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
export type ChangesCursor = Output<'ChangesCursor'>;
export type ErrorBody = Output<'Error'>;
export type ErrorIssue = Output<'ErrorIssue'>;

// Each request's body and query twice: as a caller writes them (`…Input`, `…Params`: defaults not yet applied), and
// as the server receives them (`…Body`, `…Query`: validated, defaults applied).

export type CreateItemInput = Input<'CreateItemBody'>;
export type CreateItemBody = Output<'CreateItemBody'>;
export type UpdateItemInput = Input<'UpdateItemBody'>;
export type UpdateItemBody = Output<'UpdateItemBody'>;
export type ListItemsParams = Input<'ListItems'>;
export type ListItemsQuery = Output<'ListItems'>;
export type ListValuationsParams = Input<'ListValuations'>;
export type ListValuationsQuery = Output<'ListValuations'>;
export type ListConsignmentsParams = Input<'ListConsignments'>;
export type ListConsignmentsQuery = Output<'ListConsignments'>;
export type ListInvoicesParams = Input<'ListInvoices'>;
export type ListInvoicesQuery = Output<'ListInvoices'>;
export type ListCategoriesParams = Input<'ListCategories'>;
export type ListCategoriesQuery = Output<'ListCategories'>;
export type ListWarehousesParams = Input<'ListWarehouses'>;
export type ListWarehousesQuery = Output<'ListWarehouses'>;
export type ListChangesParams = Input<'ListChanges'>;
export type ListChangesQuery = Output<'ListChanges'>;
export type BatchItemsInput = Input<'BatchItemsBody'>;
export type BatchItemsBody = Output<'BatchItemsBody'>;
export type BatchItemsParams = Input<'BatchItems'>;
export type BatchItemsQuery = Output<'BatchItems'>;
export type DryRunParams = Input<'DryRun'>;
export type DryRunQuery = Output<'DryRun'>;
export type ExportItemsParams = Input<'ExportItems'>;
export type ExportItemsQuery = Output<'ExportItems'>;
export type CreateWebhookEndpointInput = Input<'CreateWebhookEndpointBody'>;
export type CreateWebhookEndpointBody = Output<'CreateWebhookEndpointBody'>;
export type UpdateWebhookEndpointInput = Input<'UpdateWebhookEndpointBody'>;
export type UpdateWebhookEndpointBody = Output<'UpdateWebhookEndpointBody'>;
export type ReplayWebhookInput = Input<'ReplayWebhookBody'>;
export type ListWebhookEndpointsParams = Input<'ListWebhookEndpoints'>;
export type ListWebhookEndpointsQuery = Output<'ListWebhookEndpoints'>;
export type ListWebhookDeliveriesParams = Input<'ListWebhookDeliveries'>;
export type ListWebhookDeliveriesQuery = Output<'ListWebhookDeliveries'>;
export type AdjustItemInput = Input<'AdjustItemBody'>;
export type AdjustItemBody = Output<'AdjustItemBody'>;
export type ListMovementsParams = Input<'ListMovements'>;
export type ListMovementsQuery = Output<'ListMovements'>;
export type CreateReservationInput = Input<'CreateReservationBody'>;
export type CreateReservationBody = Output<'CreateReservationBody'>;
export type ListReservationsParams = Input<'ListReservations'>;
export type ListReservationsQuery = Output<'ListReservations'>;
