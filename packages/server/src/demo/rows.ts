import type { ConsignmentStatus, InvoiceStatus, ValuationBasis } from '@coinventory/contract';
import type { StoredItemRow } from '../modules/items/index.js';
import type { PaymentMethod, PaymentSpec } from './catalog/shapes.js';

/**
 * The rows the demo inserts, keyed by column name (generated columns left out). An item's row is the items
 * module's own (StoredItemRow), declared once with the table.
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

export interface ValuationRow {
  organization_id: string;
  id: string;
  item_id: string;
  estimate_low_in_cents: number | null;
  estimate_in_cents: number | null;
  estimate_high_in_cents: number | null;
  confidence_percent: number | null;
  basis: ValuationBasis;
  price_guide_value_in_cents: number | null;
  melt_value_in_cents: number | null;
  summary: string | null;
  applied_at: Date | null;
  created_at: Date;
}

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

export interface ConsignmentRow {
  organization_id: string;
  id: string;
  number: string;
  name: string;
  status: ConsignmentStatus;
  payment_status: string | null;
  consignor_id: string;
  commission_bps: number | null;
  buyer_premium_bps: number | null;
  received_at: Date | null;
  sold_at: Date | null;
  settled_at: Date | null;
  created_at: Date;
}

export interface InvoiceRow {
  organization_id: string;
  id: string;
  number: number;
  status: InvoiceStatus;
  source: string;
  customer_id: string | null;
  customer_name: string | null;
  customer_email: string | null;
  discount_in_cents: number;
  shipping_in_cents: number;
  tax_in_cents: number;
  due_at: Date | null;
  paid_at: Date | null;
  created_at: Date;
}

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
