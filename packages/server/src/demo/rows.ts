import type { StoredRowOf } from '../db/table.js';
import type { CONSIGNMENTS } from '../modules/consignments/index.js';
import type { INVOICES } from '../modules/invoices/index.js';
import type { StoredItemRow, VALUATIONS } from '../modules/items/index.js';
import type { PaymentMethod, PaymentSpec } from './catalog/shapes.js';

/**
 * The rows the demo inserts, keyed by column name (generated columns left out). The rows of the tables the API shows
 * (items, valuations, consignments, invoices) are their modules' own, declared once with the table; those of the
 * valuation engine's sources (sales, price guide, spot prices) are as its imports and `spot set` write them.
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

/** A comparable sale, as `import sales` writes it (modules/valuations/imports.ts). */
export interface ComparableSaleRow {
  organization_id: string;
  id: string;
  source: string;
  external_id: string;
  coin: string;
  coin_identity: string;
  title: string | null;
  grading_service: string | null;
  grade: string | null;
  price_in_cents: number;
  sold_at: Date;
  sold_at_text: string;
  venue: string | null;
  url: string | null;
  created_at: Date;
}

/** A price guide value, as `import price-guide` writes it. */
export interface PriceGuideEntryRow {
  organization_id: string;
  coin_identity: string;
  grade_key: string;
  coin: string;
  grade: string;
  value_in_cents: number;
  updated_at: Date;
}

/** A spot price: the deployment's, not the workspace's (the seed adds only the metals it has no price for). */
export interface SpotPriceRow {
  metal: string;
  cents_per_oz: number;
  updated_at: Date;
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
  comparableSales: ComparableSaleRow[];
  priceGuideEntries: PriceGuideEntryRow[];
  spotPrices: SpotPriceRow[];
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
