import type { StoredRowOf } from '../db/table.js';
import type { CategoryRow } from '../modules/categories/index.js';
import type { ConsignmentRow, ConsignorRow } from '../modules/consignments/index.js';
import type { CustomerRow, InvoiceLineRow, InvoicePaymentRow, InvoiceRow } from '../modules/invoices/index.js';
import type { ItemImageRow, StoredItemRow, VALUATIONS } from '../modules/items/index.js';
import type { MarketplaceListingRow } from '../modules/marketplace/index.js';
import type { ComparableSaleRow, PriceGuideEntryRow, SpotPriceRow } from '../modules/valuations/index.js';
import type { WarehouseRow, ZoneRow } from '../modules/warehouses/index.js';

/**
 * The rows the demo inserts, keyed by column name (generated columns left out). Each table's row is its owning
 * module's, declared with the bulk insert the seed writes it with; those of the valuation engine's sources (sales,
 * price guide, spot prices) are as its imports and `spot set` write them.
 */

export type {
  ComparableSaleRow,
  ConsignmentRow,
  InvoiceLineRow,
  InvoicePaymentRow,
  InvoiceRow,
  ItemImageRow,
  PriceGuideEntryRow,
  SpotPriceRow,
};

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

export interface DemoRows {
  warehouses: WarehouseRow[];
  zones: ZoneRow[];
  categories: CategoryRow[];
  consignors: ConsignorRow[];
  consignments: ConsignmentRow[];
  items: StoredItemRow[];
  itemImages: ItemImageRow[];
  comparableSales: ComparableSaleRow[];
  priceGuideEntries: PriceGuideEntryRow[];
  spotPrices: SpotPriceRow[];
  valuations: ValuationRow[];
  valuationComps: ValuationCompRow[];
  customers: CustomerRow[];
  invoices: InvoiceRow[];
  invoiceLines: InvoiceLineRow[];
  invoicePayments: InvoicePaymentRow[];
  marketplaceListings: MarketplaceListingRow[];
}
