import type { StoredRowOf } from '../db/table.js';
import type { CONSIGNMENTS } from '../modules/consignments/index.js';
import type { INVOICES } from '../modules/invoices/index.js';
import type { StoredItemRow, VALUATIONS } from '../modules/items/index.js';
import type { PaymentMethod, PaymentSpec } from './catalog/shapes.js';

/**
 * The rows the demo inserts, keyed by column name (generated columns left out). The rows of the tables the API shows
 * (items, valuations, consignments, invoices) are their modules' own, declared once with the table.
 */

export interface ItemImageRow {
  organization_id: string;
  id: string;
  item_id: string;
  position: number;
  url: string;
  width: number | null;
  height: number | null;
}

export type ValuationRow = StoredRowOf<typeof VALUATIONS.columns>;

export interface ValuationCompRow {
  organization_id: string;
  id: string;
  valuation_id: string;
  position: number;
  source: string | null;
  title: string | null;
  grade: string | null;
  grading_service: string | null;
  price_in_cents: number | null;
  sold_at: string | null;
  venue: string | null;
  url: string | null;
}

export type ConsignmentRow = StoredRowOf<typeof CONSIGNMENTS.columns>;

export type InvoiceRow = StoredRowOf<typeof INVOICES.columns>;

export interface InvoiceLineRow {
  organization_id: string;
  id: string;
  invoice_id: string;
  position: number;
  item_id: string | null;
  description: string | null;
  quantity: number;
  unit_price_in_cents: number;
}

export interface InvoicePaymentRow {
  organization_id: string;
  id: string;
  invoice_id: string;
  amount_in_cents: number;
  method: PaymentMethod;
  status: PaymentSpec['status'];
  paid_at: Date | null;
  created_at: Date;
}

export interface DemoRows {
  warehouses: Array<{ organization_id: string; id: string; name: string; is_default: boolean; created_at: Date }>;
  zones: Array<{ organization_id: string; id: string; warehouse_id: string; name: string; position: number }>;
  categories: Array<{ organization_id: string; id: string; name: string }>;
  consignors: Array<{ organization_id: string; id: string; name: string; email: string | null }>;
  consignments: ConsignmentRow[];
  items: StoredItemRow[];
  itemImages: ItemImageRow[];
  valuations: ValuationRow[];
  valuationComps: ValuationCompRow[];
  customers: Array<{ organization_id: string; id: string; name: string; email: string | null }>;
  invoices: InvoiceRow[];
  invoiceLines: InvoiceLineRow[];
  invoicePayments: InvoicePaymentRow[];
  marketplaceListings: Array<{
    organization_id: string;
    id: string;
    item_id: string;
    marketplace_listing_id: string;
    external_url: string;
    status: 'active';
    last_synced_quantity: number;
    created_at: Date;
  }>;
}
