import type { ConsignmentStatus, InvoiceStatus, SETTLED_PAYMENT_STATUS, ValuationBasis } from '@coinventory/contract';

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

/** Oldest first; the newest may have been applied (its estimate is then the item's value). */
export interface ValuationPlan {
  sku: string;
  /** Oldest first. */
  bases: readonly ValuationBasis[];
  /** The newest valuation was applied: its estimate is the item's value. */
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
