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

type Components = typeof COMPONENTS;
/** The type of one of the API's named objects, by its name in the OpenAPI document (schemas/components.ts). */
type Component<Name extends keyof Components> = z.infer<Components[Name]>;

// Response objects, exactly as the API returns them.
export type Organization = Component<'Organization'>;
export type ApiKeySummary = Component<'ApiKeySummary'>;
export type RateLimitInfo = Component<'RateLimitInfo'>;
export type Me = Component<'Me'>;
export type Item = Component<'Item'>;
export type ItemImage = Component<'ItemImage'>;
export type ItemList = Component<'ItemList'>;
export type DeletedItem = Component<'DeletedItem'>;
export type Valuation = Component<'Valuation'>;
export type ComparableSale = Component<'ComparableSale'>;
export type ValuationList = Component<'ValuationList'>;
export type Consignment = Component<'Consignment'>;
export type Consignor = Component<'Consignor'>;
export type ConsignmentList = Component<'ConsignmentList'>;
export type Invoice = Component<'Invoice'>;
export type InvoiceCustomer = Component<'InvoiceCustomer'>;
export type InvoiceLine = Component<'InvoiceLine'>;
export type InvoicePayment = Component<'InvoicePayment'>;
export type InvoiceList = Component<'InvoiceList'>;
export type Category = Component<'Category'>;
export type CategoryList = Component<'CategoryList'>;
export type Warehouse = Component<'Warehouse'>;
export type Zone = Component<'Zone'>;
export type WarehouseList = Component<'WarehouseList'>;
export type Change = Component<'Change'>;
export type ItemCreatedChange = Component<'ItemCreatedChange'>;
export type ItemUpdatedChange = Component<'ItemUpdatedChange'>;
export type ItemDeletedChange = Component<'ItemDeletedChange'>;
export type ValuationCreatedChange = Component<'ValuationCreatedChange'>;
export type ConsignmentCreatedChange = Component<'ConsignmentCreatedChange'>;
export type ConsignmentUpdatedChange = Component<'ConsignmentUpdatedChange'>;
export type InvoiceCreatedChange = Component<'InvoiceCreatedChange'>;
export type InvoiceUpdatedChange = Component<'InvoiceUpdatedChange'>;
export type ReservationCreatedChange = Component<'ReservationCreatedChange'>;
export type ReservationCommittedChange = Component<'ReservationCommittedChange'>;
export type ReservationReleasedChange = Component<'ReservationReleasedChange'>;
export type ReservationExpiredChange = Component<'ReservationExpiredChange'>;
export type ChangeList = Component<'ChangeList'>;
export type Actor = Component<'Actor'>;
export type Movement = Component<'Movement'>;
export type MovementList = Component<'MovementList'>;
export type Reservation = Component<'Reservation'>;
export type ReservationList = Component<'ReservationList'>;
export type BatchItemResult = Component<'BatchItemResult'>;
export type BatchItemsResult = Component<'BatchItemsResult'>;
export type ItemsExportEnd = Component<'ItemsExportEnd'>;
export type WebhookEndpoint = Component<'WebhookEndpoint'>;
export type WebhookEndpointWithSecret = Component<'WebhookEndpointWithSecret'>;
export type WebhookEndpointList = Component<'WebhookEndpointList'>;
export type DeletedWebhookEndpoint = Component<'DeletedWebhookEndpoint'>;
export type WebhookDelivery = Component<'WebhookDelivery'>;
export type WebhookDeliveryList = Component<'WebhookDeliveryList'>;
export type WebhookReplay = Component<'WebhookReplay'>;
export type WebhookTestResult = Component<'WebhookTestResult'>;
export type WebhookPing = Component<'WebhookPing'>;
/** A webhook delivery's body: a Change, or a test ping. */
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;
export type ChangesCursor = Component<'ChangesCursor'>;
export type ErrorBody = Component<'Error'>;
export type ErrorIssue = Component<'ErrorIssue'>;

// Each request's body and query twice: as a caller writes them (`…Input`, `…Params`: defaults not yet applied), and
// as the server receives them (`…Body`, `…Query`: validated, defaults applied).
export type CreateItemInput = z.input<Components['CreateItemBody']>;
export type CreateItemBody = Component<'CreateItemBody'>;
export type UpdateItemInput = z.input<Components['UpdateItemBody']>;
export type UpdateItemBody = Component<'UpdateItemBody'>;
export type ListItemsParams = z.input<typeof ListItemsQuerySchema>;
export type ListItemsQuery = z.output<typeof ListItemsQuerySchema>;
export type ListValuationsParams = z.input<typeof ListValuationsQuerySchema>;
export type ListValuationsQuery = z.output<typeof ListValuationsQuerySchema>;
export type ListConsignmentsParams = z.input<typeof ListConsignmentsQuerySchema>;
export type ListConsignmentsQuery = z.output<typeof ListConsignmentsQuerySchema>;
export type ListInvoicesParams = z.input<typeof ListInvoicesQuerySchema>;
export type ListInvoicesQuery = z.output<typeof ListInvoicesQuerySchema>;
export type ListCategoriesParams = z.input<typeof ListCategoriesQuerySchema>;
export type ListCategoriesQuery = z.output<typeof ListCategoriesQuerySchema>;
export type ListWarehousesParams = z.input<typeof ListWarehousesQuerySchema>;
export type ListWarehousesQuery = z.output<typeof ListWarehousesQuerySchema>;
export type ListChangesParams = z.input<typeof ListChangesQuerySchema>;
export type ListChangesQuery = z.output<typeof ListChangesQuerySchema>;
export type BatchItemsInput = z.input<Components['BatchItemsBody']>;
export type BatchItemsBody = Component<'BatchItemsBody'>;
export type BatchItemsParams = z.input<typeof BatchItemsQuerySchema>;
export type BatchItemsQuery = z.output<typeof BatchItemsQuerySchema>;
export type DryRunParams = z.input<typeof DryRunQuerySchema>;
export type DryRunQuery = z.output<typeof DryRunQuerySchema>;
export type ExportItemsParams = z.input<typeof ExportItemsQuerySchema>;
export type ExportItemsQuery = z.output<typeof ExportItemsQuerySchema>;
export type CreateWebhookEndpointInput = z.input<Components['CreateWebhookEndpointBody']>;
export type CreateWebhookEndpointBody = Component<'CreateWebhookEndpointBody'>;
export type UpdateWebhookEndpointInput = z.input<Components['UpdateWebhookEndpointBody']>;
export type UpdateWebhookEndpointBody = Component<'UpdateWebhookEndpointBody'>;
export type ReplayWebhookInput = z.input<Components['ReplayWebhookBody']>;
export type ListWebhookEndpointsParams = z.input<typeof ListWebhookEndpointsQuerySchema>;
export type ListWebhookEndpointsQuery = z.output<typeof ListWebhookEndpointsQuerySchema>;
export type ListWebhookDeliveriesParams = z.input<typeof ListWebhookDeliveriesQuerySchema>;
export type ListWebhookDeliveriesQuery = z.output<typeof ListWebhookDeliveriesQuerySchema>;
export type AdjustItemInput = z.input<Components['AdjustItemBody']>;
export type AdjustItemBody = Component<'AdjustItemBody'>;
export type ListMovementsParams = z.input<typeof ListMovementsQuerySchema>;
export type ListMovementsQuery = z.output<typeof ListMovementsQuerySchema>;
export type CreateReservationInput = z.input<Components['CreateReservationBody']>;
export type CreateReservationBody = Component<'CreateReservationBody'>;
export type ListReservationsParams = z.input<typeof ListReservationsQuerySchema>;
export type ListReservationsQuery = z.output<typeof ListReservationsQuerySchema>;
