import type { ConsignmentStatus, InvoiceStatus, SETTLED_PAYMENT_STATUS } from '@coinventory/contract';

/**
 * The shapes of the demo catalog's entries: the keys that tie one table's entries to another's (an item's place,
 * category and consignment; an invoice's customer) and what each entry states. The builder turns them into rows.
 */

export type PlaceKey = 'receiving' | 'vault' | 'showcase' | 'caseA' | 'caseB';
export type CategoryKey = 'morgan' | 'gold' | 'bullion' | 'ancient' | 'proof';
export type ConsignorKey = 'hartwell' | 'marsh' | 'okafor' | 'brandt';
export type CustomerKey = 'jennings' | 'natarajan' | 'coastal' | 'okonkwo';
export type ConsignmentKey =
  | 'brandt-1'
  | 'marsh-1'
  | 'hartwell-1'
  | 'okafor-1'
  | 'hartwell-2'
  | 'marsh-2'
  | 'okafor-2'
  | 'brandt-2';

export interface ConsignmentSpec {
  key: ConsignmentKey;
  /** Sequence within the year received; the number reads C-<year>-<seq>. */
  seq: number;
  name: string;
  status: ConsignmentStatus;
  consignor: ConsignorKey;
  paymentStatus: 'unpaid' | 'paid' | null;
  commissionBps: number | null;
  buyerPremiumBps: number | null;
  receivedDaysAgo: number;
  /** Set once every item is sold (sold, settled). */
  soldDaysAgo: number | null;
  settledDaysAgo: number | null;
}

export type GradingService = 'PCGS' | 'NGC' | 'ANACS';
export type AttributeValue = string | number | boolean | null;

export interface CoinAttributes {
  year: number;
  mint: string | null;
  metal: string;
  weightGrams: number | null;
  fineness: number | null;
  country: string;
  toned: boolean;
  pedigree: string | null;
}

export interface Quantity {
  available: number;
  sold: number;
  reserved: number;
}

export interface ItemSpec {
  sku: string;
  /** The coin without its grade; the title adds service and grade, and comparable sales reuse it. */
  name: string;
  category: CategoryKey | null;
  description: string | null;
  service: GradingService | null;
  /** Raw coins may still carry the dealer's grade. */
  grade: string | null;
  gradingNotes?: string;
  valueInCents: number;
  /** Omitted: derived from the value; null: cost unknown (consigned or inherited stock). */
  costInCents?: number | null;
  acquiredFrom: string | null;
  acquisitionNotes?: string;
  qty: Quantity;
  atAuction?: boolean;
  place: PlaceKey;
  details?: string;
  /** Distinct per item, so created_at is distinct too. */
  addedDaysAgo: number;
  consignment?: ConsignmentKey;
  /** Traded on metal content: gets melt values. */
  bullion?: boolean;
  attributes: CoinAttributes & Record<string, AttributeValue>;
}

/** An item's units: available, sold and reserved. */
export const stock = (available: number, sold = 0, reserved = 0): Quantity => ({ available, sold, reserved });

/** Attribute defaults; the caller states what differs. */
export function coin(
  year: number,
  mint: string | null,
  metal: string,
  weightGrams: number | null,
  fineness: number | null,
  extra: Partial<CoinAttributes> & Record<string, AttributeValue> = {},
): CoinAttributes & Record<string, AttributeValue> {
  return {
    year,
    mint,
    metal,
    weightGrams,
    fineness,
    country: 'United States',
    toned: false,
    pedigree: null,
    ...extra,
  };
}

/**
 * Where comparable sales come from: the venue a sale shows and the `source` its record is imported under. An auction
 * archive reports the day of the sale and numbers its records by sale and lot; a marketplace reports the moment the
 * listing ended and numbers its records by listing. `prefix` starts the record's `externalId`; `host` its URL.
 */
export interface VenueSpec {
  venue: string;
  source: 'auction_archive' | 'marketplace_sold_listing';
  prefix: string;
  host: string;
}

/**
 * The recent sales of one coin graded by one service: what a coin of each grade typically fetches, and when each sale
 * happened (days before now) at which grade. Prices vary around the typical one; the venues are drawn at random.
 */
export interface MarketSpec {
  /** The coin as the items name it (an item's name without service and grade): the sales' `coin`. */
  coin: string;
  service: GradingService;
  /** Typical price in cents, by grade. */
  typicalInCents: Readonly<Record<string, number>>;
  /** One entry per sale: its grade (a key of typicalInCents) and how many days before now it sold. */
  sales: ReadonlyArray<readonly [grade: string, daysAgo: number]>;
}

/** A price guide's value of a coin in a grade. */
export interface GuideSpec {
  coin: string;
  grade: string;
  valueInCents: number;
}

/**
 * When the valuation engine valued an item, and whether its newest estimate became the item's value. What each
 * valuation says is the engine's, from the sales and guide values known on that day.
 */
export interface ValuationPlan {
  sku: string;
  /** The days before now the engine ran for this item, oldest first; 0 is now. */
  runsDaysAgo: readonly number[];
  /** The newest valuation was applied (as `valuate --apply` does): its estimate is the item's value. */
  applied: boolean;
}

export type PaymentMethod = 'card' | 'wire' | 'cash' | 'check';

export interface LineSpec {
  /** Null for a line that sells no inventory item (supplies, fees). */
  sku: string | null;
  description?: string;
  quantity: number;
  unitPriceInCents: number;
}

export interface PaymentSpec {
  /** 'balance' pays what the succeeded payments before it left open. */
  amount: number | 'balance';
  method: PaymentMethod;
  /** Only SETTLED_PAYMENT_STATUS counts towards what the invoice has collected. */
  status: typeof SETTLED_PAYMENT_STATUS | 'failed' | 'pending';
  daysAfterInvoice: number;
}

export interface InvoiceSpec {
  number: number;
  status: InvoiceStatus;
  source: 'manual' | 'Heritage Auctions' | 'eBay';
  /** 'walk-in': no customer row, only a name on the invoice. */
  customer: CustomerKey | 'walk-in';
  createdDaysAgo: number;
  lines: readonly LineSpec[];
  discountInCents?: number;
  shippingInCents?: number;
  /** Sales tax on (subtotal − discount). */
  taxBps?: number;
  payments: readonly PaymentSpec[];
}
