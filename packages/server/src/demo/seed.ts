import {
  type ConsignmentStatus,
  type InvoiceStatus,
  type Scope,
  SETTLED_PAYMENT_STATUS,
  type ValuationBasis,
} from '@coinventory/contract';
import { addMember, createOrganization, createUser, type Plan, type Role } from '../modules/workspaces/store.js';
import type { Sql, TransactionSql } from '../db/types.js';
import { type IssuedKey, issueApiKey } from '../modules/access/issue-key.js';

/**
 * The demo workspace: one coin shop with enough varied data that every list, filter, sort and status of the API
 * returns something worth looking at.
 *
 * - Run it on a database that holds no demo workspace yet: the organization's slug and the users' emails are
 *   unique, so a second run fails on the first insert and its transaction leaves nothing behind.
 * - Everything but the API key and the organization and user ids is the same on every run: values come from
 *   tables below and a seeded PRNG, tenant row ids from a second seeded PRNG, and dates are offsets from a fixed
 *   anchor (`options.now` moves them all, e.g. to today).
 * - All URLs and emails use the reserved `.example` domains, so nothing points at a real site or inbox.
 */

export interface DemoWorkspace {
  organizationId: string;
  name: string;
  slug: string;
  key: IssuedKey;
  ownerEmail: string;
  counts: { items: number; valuations: number; consignments: number; invoices: number };
}

export interface SeedOptions {
  /** The moment the data is "as of"; every date is this minus some days. Defaults to DEMO_ANCHOR. */
  now?: Date;
}

/** A fixed "now", so the data (and so every API answer but ids and the key) is identical run after run. */
export const DEMO_ANCHOR = new Date('2026-11-16T17:00:00.000Z');

/** The demo workspace's slug; seeding refuses to run twice. */
export const DEMO_SLUG = 'liberty-coin';
const ORGANIZATION = { name: 'Liberty Coin & Bullion', slug: DEMO_SLUG, plan: 'business' satisfies Plan } as const;

const PEOPLE: ReadonlyArray<{ email: string; name: string; role: Role }> = [
  { email: 'owner@liberty-coin.example', name: 'Dana Whitfield', role: 'owner' },
  { email: 'marcus@liberty-coin.example', name: 'Marcus Reyes', role: 'admin' },
  { email: 'jamie@liberty-coin.example', name: 'Jamie Chen', role: 'member' },
];

const KEY_SCOPES: Scope[] = ['read', 'write'];

// ---------------------------------------------------------------------------------------------------------------
// Deterministic randomness
// ---------------------------------------------------------------------------------------------------------------

/** mulberry32: tiny, fast and good enough to vary demo data; never for anything secret. */
class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** A float in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(choices: readonly T[]): T {
    const choice = choices[Math.floor(this.next() * choices.length)];
    if (choice === undefined) throw new Error('pick from an empty list');
    return choice;
  }

  /** A version 4 UUID made of PRNG output, so ids repeat from run to run. */
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16));
    hex[12] = '4';
    hex[16] = ((this.int(0, 15) & 0x3) | 0x8).toString(16);
    const s = hex.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------------------------

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

const addHours = (date: Date, hours: number): Date => new Date(date.getTime() + hours * HOUR_MS);
const addDays = (date: Date, days: number): Date => new Date(date.getTime() + days * DAY_MS);
const dollars = (cents: number): string => `$${(cents / 100).toLocaleString('en-US', { maximumFractionDigits: 0 })}`;
/** Estimates and comps are quoted to the dollar. */
const roundToDollar = (cents: number): number => Math.round(cents / 100) * 100;

function required<K, V>(map: ReadonlyMap<K, V>, key: K, what: string): V {
  const value = map.get(key);
  if (value === undefined) throw new Error(`demo seed: unknown ${what} ${String(key)}`);
  return value;
}

// ---------------------------------------------------------------------------------------------------------------
// The shop's structure: warehouses, zones, categories
// ---------------------------------------------------------------------------------------------------------------

type PlaceKey = 'receiving' | 'vault' | 'showcase' | 'caseA' | 'caseB';

/** Zones besides the default warehouse's first zone ('Receiving', made with the organization). */
const EXTRA_ZONES: ReadonlyArray<{ key: PlaceKey; warehouse: 'main' | 'show'; name: string; position: number }> = [
  { key: 'vault', warehouse: 'main', name: 'Vault A', position: 2 },
  { key: 'showcase', warehouse: 'main', name: 'Showcase', position: 3 },
  { key: 'caseA', warehouse: 'show', name: 'Travel case A (slabs)', position: 1 },
  { key: 'caseB', warehouse: 'show', name: 'Travel case B (bullion & sets)', position: 2 },
];

type CategoryKey = 'morgan' | 'gold' | 'bullion' | 'ancient' | 'proof';

const CATEGORIES: ReadonlyArray<{ key: CategoryKey; name: string }> = [
  { key: 'morgan', name: 'Morgan Dollars' },
  { key: 'gold', name: 'Gold Eagles' },
  { key: 'bullion', name: 'Bullion' },
  { key: 'ancient', name: 'Ancient Coins' },
  { key: 'proof', name: 'Proof Sets' },
];

// ---------------------------------------------------------------------------------------------------------------
// Consignors, consignments, customers
// ---------------------------------------------------------------------------------------------------------------

type ConsignorKey = 'hartwell' | 'marsh' | 'okafor' | 'brandt';

const CONSIGNORS: ReadonlyArray<{ key: ConsignorKey; name: string; email: string | null }> = [
  { key: 'hartwell', name: 'Hartwell Family Trust', email: 'trustee@hartwell-trust.example' },
  { key: 'marsh', name: 'Dr. Evelyn Marsh', email: 'emarsh@marsh-numismatics.example' },
  { key: 'okafor', name: 'Raymond Okafor', email: 'r.okafor@mail.example' },
  // An estate handled by a lawyer by post: no email on file.
  { key: 'brandt', name: 'Estate of Walter Brandt', email: null },
];

type ConsignmentKey =
  | 'brandt-1'
  | 'marsh-1'
  | 'hartwell-1'
  | 'okafor-1'
  | 'hartwell-2'
  | 'marsh-2'
  | 'okafor-2'
  | 'brandt-2';

interface ConsignmentSpec {
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

// Dates line up with the items and invoices below: items arrive after their consignment is received and sell on
// the invoices dated before soldDaysAgo.
const CONSIGNMENTS: readonly ConsignmentSpec[] = [
  {
    key: 'brandt-1',
    seq: 2,
    name: 'Brandt estate: New Orleans Morgans',
    status: 'returned',
    consignor: 'brandt',
    paymentStatus: null,
    commissionBps: 1500,
    buyerPremiumBps: 2000,
    receivedDaysAgo: 470,
    soldDaysAgo: null,
    settledDaysAgo: null,
  },
  {
    key: 'marsh-1',
    seq: 9,
    name: 'Marsh collection: Mercury dimes',
    status: 'withdrawn',
    consignor: 'marsh',
    paymentStatus: null,
    commissionBps: 1200,
    buyerPremiumBps: 2000,
    receivedDaysAgo: 410,
    soldDaysAgo: null,
    settledDaysAgo: null,
  },
  {
    key: 'hartwell-1',
    seq: 14,
    name: 'Hartwell collection, part 1: Carson City & prooflike Morgans',
    status: 'settled',
    consignor: 'hartwell',
    paymentStatus: 'paid',
    commissionBps: 1000,
    buyerPremiumBps: 2000,
    receivedDaysAgo: 360,
    soldDaysAgo: 330,
    settledDaysAgo: 300,
  },
  {
    key: 'okafor-1',
    seq: 6,
    name: 'Okafor gold and key dates',
    status: 'sold',
    consignor: 'okafor',
    paymentStatus: 'unpaid',
    commissionBps: 1500,
    buyerPremiumBps: 1750,
    receivedDaysAgo: 160,
    soldDaysAgo: 100,
    settledDaysAgo: null,
  },
  {
    key: 'hartwell-2',
    seq: 8,
    name: 'Hartwell collection, part 2: gem Morgans',
    status: 'partially_sold',
    consignor: 'hartwell',
    paymentStatus: 'unpaid',
    commissionBps: 1000,
    buyerPremiumBps: 2000,
    receivedDaysAgo: 130,
    soldDaysAgo: null,
    settledDaysAgo: null,
  },
  {
    key: 'marsh-2',
    seq: 11,
    name: 'Marsh collection: key date silver and gold',
    status: 'listed',
    consignor: 'marsh',
    paymentStatus: null,
    // Commission still being negotiated with the consignor.
    commissionBps: null,
    buyerPremiumBps: 2000,
    receivedDaysAgo: 75,
    soldDaysAgo: null,
    settledDaysAgo: null,
  },
  {
    key: 'okafor-2',
    seq: 14,
    name: 'Okafor ancients',
    status: 'cataloging',
    consignor: 'okafor',
    paymentStatus: null,
    commissionBps: 1500,
    buyerPremiumBps: 1750,
    receivedDaysAgo: 25,
    soldDaysAgo: null,
    settledDaysAgo: null,
  },
  {
    key: 'brandt-2',
    seq: 15,
    name: 'Brandt estate: proof sets (unopened boxes)',
    status: 'intake',
    consignor: 'brandt',
    paymentStatus: null,
    commissionBps: 1500,
    buyerPremiumBps: null,
    receivedDaysAgo: 6,
    soldDaysAgo: null,
    settledDaysAgo: null,
  },
];

type CustomerKey = 'jennings' | 'natarajan' | 'coastal' | 'okonkwo';

const CUSTOMERS: ReadonlyArray<{ key: CustomerKey; name: string; email: string | null }> = [
  { key: 'jennings', name: 'Harold Jennings', email: 'hjennings@mail.example' },
  { key: 'natarajan', name: 'Priya Natarajan', email: 'priya@natarajan-numismatics.example' },
  { key: 'coastal', name: 'Coastal Bullion Exchange', email: 'orders@coastal-bullion.example' },
  { key: 'okonkwo', name: 'Thomas Okonkwo', email: null },
];

// ---------------------------------------------------------------------------------------------------------------
// Items
// ---------------------------------------------------------------------------------------------------------------

type GradingService = 'PCGS' | 'NGC' | 'ANACS';
type AttributeValue = string | number | boolean | null;

interface CoinAttributes {
  year: number;
  mint: string | null;
  metal: string;
  weightGrams: number | null;
  fineness: number | null;
  country: string;
  toned: boolean;
  pedigree: string | null;
}

interface Quantity {
  available: number;
  sold: number;
  reserved: number;
}

interface ItemSpec {
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

const stock = (available: number, sold = 0, reserved = 0): Quantity => ({ available, sold, reserved });
const SOLD = stock(0, 1);
const NONE = stock(0, 0);

/** Attribute defaults; the caller states what differs. */
function coin(
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

// Standard weights (grams) and finenesses.
const MORGAN = { grams: 26.73, fineness: 0.9 } as const;
const DOUBLE_EAGLE = { grams: 33.436, fineness: 0.9 } as const;
const EAGLE = { grams: 16.718, fineness: 0.9 } as const;
const GOLD_EAGLE_1OZ = { grams: 33.931, fineness: 0.9167 } as const;

// Statuses by design: 28 in stock, 12 sold, 7 at auction, 6 out of stock (the item status filter's four values).
const ITEMS: readonly ItemSpec[] = [
  // Morgan dollars
  {
    sku: 'MOR-1881-S-65',
    name: '1881-S Morgan Dollar',
    category: 'morgan',
    description: 'Blast-white, well-struck San Francisco Morgan: the classic gem type coin.',
    service: 'PCGS',
    grade: 'MS65',
    valueInCents: 25_500,
    acquiredFrom: 'Long Beach Expo',
    qty: stock(1, 0, 1),
    place: 'vault',
    details: 'Slab box 3, row 2',
    addedDaysAgo: 402,
    attributes: coin(1881, 'San Francisco', 'silver', MORGAN.grams, MORGAN.fineness),
  },
  {
    sku: 'MOR-1881-S-64',
    name: '1881-S Morgan Dollar',
    category: 'morgan',
    description: null,
    service: 'NGC',
    grade: 'MS64',
    valueInCents: 11_000,
    acquiredFrom: 'Walk-in (counter purchase)',
    qty: SOLD,
    place: 'vault',
    addedDaysAgo: 290,
    attributes: coin(1881, 'San Francisco', 'silver', MORGAN.grams, MORGAN.fineness),
  },
  {
    sku: 'MOR-1878-CC-63',
    name: '1878-CC Morgan Dollar',
    category: 'morgan',
    description: 'First-year Carson City Morgan with frosty luster.',
    service: 'PCGS',
    grade: 'MS63',
    valueInCents: 45_000,
    costInCents: null,
    acquiredFrom: 'Hartwell Family Trust (consignment)',
    qty: SOLD,
    place: 'vault',
    addedDaysAgo: 354,
    consignment: 'hartwell-1',
    attributes: coin(1878, 'Carson City', 'silver', MORGAN.grams, MORGAN.fineness, { pedigree: 'Hartwell Collection' }),
  },
  {
    sku: 'MOR-1893-S-30',
    name: '1893-S Morgan Dollar',
    category: 'morgan',
    description: 'The key to the Morgan series. Even wear, no problems, original gray surfaces.',
    service: 'PCGS',
    grade: 'VF30',
    gradingNotes: 'CAC approved.',
    valueInCents: 650_000,
    costInCents: null,
    acquiredFrom: 'Dr. Evelyn Marsh (consignment)',
    qty: stock(1),
    atAuction: true,
    place: 'vault',
    details: 'With Heritage for the January FUN signature sale',
    addedDaysAgo: 70,
    consignment: 'marsh-2',
    attributes: coin(1893, 'San Francisco', 'silver', MORGAN.grams, MORGAN.fineness, { cac: true }),
  },
  {
    sku: 'MOR-1884-CC-65',
    name: '1884-CC Morgan Dollar GSA Hoard',
    category: 'morgan',
    description: 'In the original black GSA box with card.',
    service: 'NGC',
    grade: 'MS65',
    valueInCents: 79_500,
    costInCents: null,
    acquiredFrom: 'Hartwell Family Trust (consignment)',
    qty: stock(1),
    place: 'showcase',
    details: 'Front case, top shelf',
    addedDaysAgo: 124,
    consignment: 'hartwell-2',
    attributes: coin(1884, 'Carson City', 'silver', MORGAN.grams, MORGAN.fineness, {
      pedigree: 'Hartwell Collection',
      gsa: true,
    }),
  },
  {
    sku: 'MOR-1896-P-66',
    name: '1896 Morgan Dollar',
    category: 'morgan',
    description: null,
    service: 'PCGS',
    grade: 'MS66',
    valueInCents: 35_000,
    costInCents: null,
    acquiredFrom: 'Hartwell Family Trust (consignment)',
    qty: SOLD,
    place: 'vault',
    addedDaysAgo: 125,
    consignment: 'hartwell-2',
    attributes: coin(1896, 'Philadelphia', 'silver', MORGAN.grams, MORGAN.fineness, {
      pedigree: 'Hartwell Collection',
    }),
  },
  {
    sku: 'MOR-1904-O-64',
    name: '1904-O Morgan Dollar',
    category: 'morgan',
    description: 'Older ANACS small-format holder.',
    service: 'ANACS',
    grade: 'MS64',
    valueInCents: 9_500,
    acquiredFrom: 'Estate purchase, Boulder CO',
    qty: stock(1),
    place: 'caseA',
    addedDaysAgo: 213,
    attributes: coin(1904, 'New Orleans', 'silver', MORGAN.grams, MORGAN.fineness),
  },
  {
    sku: 'MOR-1880-S-67',
    name: '1880-S Morgan Dollar',
    category: 'morgan',
    description: 'Superb gem with vivid rainbow crescent toning on the obverse.',
    service: 'PCGS',
    grade: 'MS67',
    gradingNotes: 'Vivid obverse toning; CAC green sticker.',
    valueInCents: 120_000,
    costInCents: null,
    acquiredFrom: 'Hartwell Family Trust (consignment)',
    qty: stock(1),
    place: 'showcase',
    details: 'Front case, center',
    addedDaysAgo: 123,
    consignment: 'hartwell-2',
    attributes: coin(1880, 'San Francisco', 'silver', MORGAN.grams, MORGAN.fineness, {
      toned: true,
      pedigree: 'Hartwell Collection',
      cac: true,
    }),
  },
  {
    sku: 'MOR-1921-D-63',
    name: '1921-D Morgan Dollar',
    category: 'morgan',
    description: 'Last-year Morgan from Denver.',
    service: 'NGC',
    grade: 'MS63',
    valueInCents: 8_900,
    acquiredFrom: 'GreatCollections',
    qty: stock(2, 3),
    place: 'caseA',
    addedDaysAgo: 96,
    attributes: coin(1921, 'Denver', 'silver', MORGAN.grams, MORGAN.fineness),
  },
  {
    sku: 'MOR-1895-O-45',
    name: '1895-O Morgan Dollar',
    category: 'morgan',
    description: 'Scarce New Orleans date; light even wear.',
    service: 'PCGS',
    grade: 'XF45',
    valueInCents: 90_000,
    costInCents: null,
    acquiredFrom: 'Estate of Walter Brandt (consignment)',
    qty: NONE,
    place: 'vault',
    details: 'Returned to the Brandt estate by insured mail',
    addedDaysAgo: 465,
    consignment: 'brandt-1',
    attributes: coin(1895, 'New Orleans', 'silver', MORGAN.grams, MORGAN.fineness),
  },
  {
    sku: 'MOR-1883-O-64PL',
    name: '1883-O Morgan Dollar',
    category: 'morgan',
    description: 'Reflective prooflike fields with frosted devices.',
    service: 'PCGS',
    grade: 'MS64 PL',
    valueInCents: 32_500,
    costInCents: null,
    acquiredFrom: 'Hartwell Family Trust (consignment)',
    qty: SOLD,
    place: 'vault',
    addedDaysAgo: 355,
    consignment: 'hartwell-1',
    attributes: coin(1883, 'New Orleans', 'silver', MORGAN.grams, MORGAN.fineness, {
      pedigree: 'Hartwell Collection',
      prooflike: true,
    }),
  },
  {
    sku: 'MOR-1921-P-VF30',
    name: '1921 Morgan Dollar',
    category: 'morgan',
    description: 'Circulated common-date Morgans, sold individually from rolls.',
    service: null,
    grade: 'VF30',
    valueInCents: 4_500,
    acquiredFrom: 'Walk-in (counter purchase)',
    acquisitionNotes: 'Bought as three rolls of 20; culled cleaned and damaged coins.',
    qty: stock(18, 52, 4),
    place: 'receiving',
    details: 'Bulk bin 2, tubes of 20',
    addedDaysAgo: 510,
    attributes: coin(1921, 'Philadelphia', 'silver', MORGAN.grams, MORGAN.fineness),
  },

  // Gold eagles
  {
    sku: 'SGE-1924-P-65',
    name: '1924 Saint-Gaudens Double Eagle',
    category: 'gold',
    description: 'Lustrous, original gem; the most available Saint in gem.',
    service: 'PCGS',
    grade: 'MS65',
    valueInCents: 420_000,
    acquiredFrom: "Stack's Bowers",
    qty: stock(1, 0, 1),
    place: 'vault',
    details: 'Gold drawer 1',
    addedDaysAgo: 250,
    attributes: coin(1924, 'Philadelphia', 'gold', DOUBLE_EAGLE.grams, DOUBLE_EAGLE.fineness),
  },
  {
    sku: 'SGE-1908-NM-64',
    name: '1908 No Motto Saint-Gaudens Double Eagle',
    category: 'gold',
    description: null,
    service: 'NGC',
    grade: 'MS64',
    valueInCents: 395_000,
    costInCents: null,
    acquiredFrom: 'Raymond Okafor (consignment)',
    qty: SOLD,
    place: 'vault',
    addedDaysAgo: 155,
    consignment: 'okafor-1',
    attributes: coin(1908, 'Philadelphia', 'gold', DOUBLE_EAGLE.grams, DOUBLE_EAGLE.fineness, { variety: 'No Motto' }),
  },
  {
    sku: 'LIB-1904-P-63',
    name: '1904 Liberty Head Double Eagle',
    category: 'gold',
    description: 'Choice Type 3 Liberty double eagle.',
    service: 'PCGS',
    grade: 'MS63',
    valueInCents: 372_000,
    acquiredFrom: 'FUN Show, Orlando',
    qty: stock(1),
    atAuction: true,
    place: 'vault',
    details: "With Stack's Bowers for the March Baltimore auction",
    addedDaysAgo: 320,
    attributes: coin(1904, 'Philadelphia', 'gold', DOUBLE_EAGLE.grams, DOUBLE_EAGLE.fineness),
  },
  {
    sku: 'IND-1932-P-64',
    name: '1932 Indian Head Eagle',
    category: 'gold',
    description: 'Satiny near-gem; the last circulating-year ten-dollar Indian.',
    service: 'NGC',
    grade: 'MS64',
    valueInCents: 185_000,
    acquiredFrom: 'Private collector, Denver CO',
    qty: stock(1, 0, 1),
    place: 'showcase',
    details: 'Gold case, left',
    addedDaysAgo: 60,
    attributes: coin(1932, 'Philadelphia', 'gold', EAGLE.grams, EAGLE.fineness),
  },
  {
    sku: 'AGE-2024-1OZ',
    name: '2024 American Gold Eagle 1 oz',
    category: 'gold',
    description: 'Brilliant uncirculated bullion coins from sealed mint tubes.',
    service: null,
    grade: 'BU',
    valueInCents: 345_000,
    acquiredFrom: 'A-Mark Precious Metals',
    qty: stock(6, 14, 2),
    place: 'vault',
    details: 'Bullion safe, tube 1',
    addedDaysAgo: 170,
    bullion: true,
    attributes: coin(2024, 'West Point', 'gold', GOLD_EAGLE_1OZ.grams, GOLD_EAGLE_1OZ.fineness),
  },
  {
    sku: 'AGE-1986-W-PF69',
    name: '1986-W $50 Proof American Gold Eagle',
    category: 'gold',
    description: 'First-year proof gold eagle with deep cameo contrast.',
    service: 'PCGS',
    grade: 'PF69 DCAM',
    valueInCents: 365_000,
    acquiredFrom: 'GreatCollections',
    qty: stock(1),
    place: 'showcase',
    details: 'Gold case, right',
    addedDaysAgo: 380,
    attributes: coin(1986, 'West Point', 'gold', GOLD_EAGLE_1OZ.grams, GOLD_EAGLE_1OZ.fineness, { proof: true }),
  },
  {
    sku: 'AGE-2021-T1-70',
    name: '2021 Type 1 American Gold Eagle 1 oz',
    category: 'gold',
    description: 'Final-year Type 1 design, perfect grade.',
    service: 'NGC',
    grade: 'MS70',
    valueInCents: 395_000,
    acquiredFrom: 'A-Mark Precious Metals',
    qty: SOLD,
    place: 'vault',
    addedDaysAgo: 180,
    attributes: coin(2021, 'West Point', 'gold', GOLD_EAGLE_1OZ.grams, GOLD_EAGLE_1OZ.fineness, { variety: 'Type 1' }),
  },
  {
    sku: 'LIB-1882-S-10-58',
    name: '1882-S Liberty Head Eagle',
    category: 'gold',
    description: null,
    service: 'ANACS',
    grade: 'AU58',
    valueInCents: 172_000,
    costInCents: null,
    acquiredFrom: 'Dr. Evelyn Marsh (consignment)',
    qty: stock(1),
    atAuction: true,
    place: 'vault',
    details: 'With Heritage for the January FUN signature sale',
    addedDaysAgo: 69,
    consignment: 'marsh-2',
    attributes: coin(1882, 'San Francisco', 'gold', EAGLE.grams, EAGLE.fineness),
  },
  {
    sku: 'SGE-1927-P-66',
    name: '1927 Saint-Gaudens Double Eagle',
    category: 'gold',
    description: 'Premium gem with full mint bloom.',
    service: 'PCGS',
    grade: 'MS66',
    gradingNotes: 'CAC approved.',
    valueInCents: 465_000,
    acquiredFrom: 'Heritage Auctions',
    acquisitionNotes: 'Won at the Central States sale; buyer premium included in cost.',
    qty: stock(1),
    atAuction: true,
    place: 'vault',
    details: 'Listed on GreatCollections, lot closes Sunday',
    addedDaysAgo: 275,
    attributes: coin(1927, 'Philadelphia', 'gold', DOUBLE_EAGLE.grams, DOUBLE_EAGLE.fineness, { cac: true }),
  },

  // Bullion
  {
    sku: 'ASE-2024-BU',
    name: '2024 American Silver Eagle 1 oz',
    category: 'bullion',
    description: 'Brilliant uncirculated, from monster boxes.',
    service: null,
    grade: 'BU',
    valueInCents: 4_450,
    acquiredFrom: 'A-Mark Precious Metals',
    qty: stock(120, 380, 20),
    place: 'vault',
    details: 'Monster box 7',
    addedDaysAgo: 500,
    bullion: true,
    attributes: coin(2024, 'West Point', 'silver', 31.103, 0.999),
  },
  {
    sku: 'ASE-1996-P-69',
    name: '1996 American Silver Eagle',
    category: 'bullion',
    description: 'The key-date business-strike silver eagle.',
    service: 'PCGS',
    grade: 'MS69',
    valueInCents: 11_500,
    acquiredFrom: 'eBay',
    qty: stock(1),
    place: 'caseA',
    addedDaysAgo: 150,
    attributes: coin(1996, 'Philadelphia', 'silver', 31.103, 0.999),
  },
  {
    sku: 'MPL-2024-1OZ-AU',
    name: '2024 Canadian Gold Maple Leaf 1 oz',
    category: 'bullion',
    description: null,
    service: null,
    grade: 'BU',
    valueInCents: 342_000,
    acquiredFrom: 'Dillon Gage',
    qty: stock(4, 9),
    place: 'vault',
    details: 'Bullion safe, tube 2',
    addedDaysAgo: 95,
    bullion: true,
    attributes: coin(2024, 'Royal Canadian Mint', 'gold', 31.11, 0.9999, { country: 'Canada' }),
  },
  {
    sku: 'KRU-2023-1OZ',
    name: '2023 South African Krugerrand 1 oz',
    category: 'bullion',
    description: null,
    service: null,
    grade: 'BU',
    valueInCents: 341_000,
    acquiredFrom: 'Dillon Gage',
    qty: NONE,
    place: 'vault',
    details: 'Backordered from Dillon Gage',
    addedDaysAgo: 140,
    bullion: true,
    attributes: coin(2023, 'South African Mint', 'gold', 33.93, 0.9167, { country: 'South Africa' }),
  },
  {
    sku: 'BRI-2024-1OZ-AG',
    name: '2024 British Silver Britannia 1 oz',
    category: 'bullion',
    description: 'First Britannia with the King Charles III effigy.',
    service: null,
    grade: 'BU',
    valueInCents: 4_350,
    acquiredFrom: 'A-Mark Precious Metals',
    qty: stock(45, 12),
    place: 'caseB',
    details: 'Tubes of 25',
    addedDaysAgo: 300,
    bullion: true,
    attributes: coin(2024, 'Royal Mint', 'silver', 31.21, 0.999, { country: 'United Kingdom' }),
  },
  {
    sku: 'BAR-PAMP-10OZ-AG',
    name: 'PAMP Suisse 10 oz Silver Bar',
    category: 'bullion',
    description: 'Cast bar with assay stamp and serial number.',
    service: null,
    grade: null,
    valueInCents: 41_500,
    acquiredFrom: 'Walk-in (counter purchase)',
    qty: stock(8, 3, 1),
    place: 'vault',
    details: 'Bullion safe, bottom shelf',
    addedDaysAgo: 232,
    bullion: true,
    attributes: coin(2025, 'PAMP Suisse', 'silver', 311.035, 0.999, { country: 'Switzerland', form: 'bar' }),
  },
  {
    sku: 'BAR-VAL-1OZ-AU',
    name: 'Valcambi 1 oz Gold Bar',
    category: 'bullion',
    description: 'Minted bar in assay card.',
    service: null,
    grade: null,
    valueInCents: 338_000,
    acquiredFrom: 'A-Mark Precious Metals',
    qty: stock(0, 15),
    place: 'vault',
    addedDaysAgo: 520,
    bullion: true,
    attributes: coin(2025, 'Valcambi', 'gold', 31.1035, 0.9999, { country: 'Switzerland', form: 'bar' }),
  },
  {
    sku: 'SOV-1912-GB',
    name: '1912 Great Britain Gold Sovereign',
    category: 'bullion',
    description: 'George V sovereigns, London mint.',
    service: null,
    grade: 'XF40',
    valueInCents: 82_000,
    acquiredFrom: 'Estate purchase, Boulder CO',
    qty: stock(5, 7),
    place: 'caseB',
    addedDaysAgo: 440,
    bullion: true,
    attributes: coin(1912, 'London', 'gold', 7.988, 0.9167, { country: 'United Kingdom' }),
  },
  {
    sku: 'MEX-1947-50P',
    name: '1947 Mexico Gold 50 Pesos',
    category: 'bullion',
    description: 'Official restrikes, 1.2057 oz of gold each.',
    service: null,
    grade: 'BU',
    valueInCents: 412_000,
    acquiredFrom: null,
    qty: stock(2, 1),
    place: 'vault',
    details: 'Gold drawer 2',
    addedDaysAgo: 360,
    bullion: true,
    attributes: coin(1947, 'Mexico City', 'gold', 41.666, 0.9, { country: 'Mexico', restrike: true }),
  },
  {
    sku: 'PHI-2024-1OZ-AU',
    name: '2024 Austrian Gold Philharmonic 1 oz',
    category: 'bullion',
    description: null,
    service: null,
    grade: 'BU',
    valueInCents: 342_500,
    acquiredFrom: 'Dillon Gage',
    qty: stock(0, 4),
    place: 'vault',
    addedDaysAgo: 200,
    bullion: true,
    attributes: coin(2024, 'Austrian Mint', 'gold', 31.103, 0.9999, { country: 'Austria' }),
  },

  // Ancient coins (years are negative for BC)
  {
    sku: 'ANC-ATH-OWL-01',
    name: 'Athens AR Tetradrachm (Owl), c. 454-404 BC',
    category: 'ancient',
    description: 'Classic Athenian owl: helmeted Athena / owl, olive sprig and AΘE.',
    service: 'NGC',
    grade: 'Ch XF',
    gradingNotes: 'Strike 5/5, Surface 4/5.',
    valueInCents: 245_000,
    acquiredFrom: 'CNG auction',
    qty: stock(1),
    place: 'showcase',
    details: 'Ancients case',
    addedDaysAgo: 330,
    attributes: coin(-440, 'Athens', 'silver', 17.2, null, { country: 'Greece (Attica)', era: 'c. 454-404 BC' }),
  },
  {
    sku: 'ANC-ALX-TET-02',
    name: 'Alexander III AR Tetradrachm, Amphipolis',
    category: 'ancient',
    description: 'Lifetime issue: Herakles in lion skin / Zeus enthroned.',
    service: 'NGC',
    grade: 'Ch VF',
    gradingNotes: 'Strike 4/5, Surface 4/5.',
    valueInCents: 69_500,
    acquiredFrom: 'Private collector, Denver CO',
    qty: SOLD,
    place: 'caseA',
    addedDaysAgo: 230,
    attributes: coin(-325, 'Amphipolis', 'silver', 17.1, null, { country: 'Macedon', era: 'c. 336-323 BC' }),
  },
  {
    sku: 'ANC-ROM-DEN-03',
    name: 'Roman Republic AR Denarius, L. Calpurnius Piso Frugi',
    category: 'ancient',
    description: 'Apollo / horseman with palm; control marks visible.',
    service: null,
    grade: 'VF',
    valueInCents: 18_500,
    acquiredFrom: 'Long Beach Expo',
    qty: stock(1),
    place: 'caseA',
    addedDaysAgo: 270,
    attributes: coin(-90, 'Rome', 'silver', 3.9, null, { country: 'Roman Republic', era: '90 BC' }),
  },
  {
    sku: 'ANC-AUG-DEN-04',
    name: 'Augustus AR Denarius, Lugdunum (Gaius & Lucius)',
    category: 'ancient',
    description: 'Augustus / Gaius and Lucius Caesars standing with shields and spears.',
    service: 'NGC',
    grade: 'XF',
    valueInCents: 125_000,
    acquiredFrom: 'Heritage Auctions',
    qty: stock(1),
    atAuction: true,
    place: 'vault',
    details: 'With Heritage for the World & Ancient coins sale',
    addedDaysAgo: 190,
    attributes: coin(-2, 'Lugdunum', 'silver', 3.8, null, { country: 'Roman Empire', era: '2 BC-AD 4' }),
  },
  {
    sku: 'ANC-CON-AE3-05',
    name: 'Constantine I AE3 Follis',
    category: 'ancient',
    description: 'Assorted reverses; affordable late Roman bronzes for new collectors.',
    service: null,
    grade: 'F',
    valueInCents: 2_500,
    costInCents: 900,
    acquiredFrom: 'Uncleaned lot, eBay',
    acquisitionNotes: 'Cleaned and attributed in house.',
    qty: stock(12, 6),
    place: 'caseA',
    details: 'Flip page 4',
    addedDaysAgo: 340,
    attributes: coin(325, null, 'bronze', 2.9, null, { country: 'Roman Empire', era: 'AD 307-337' }),
  },
  {
    sku: 'ANC-SEL-TET-06',
    name: 'Antiochus III AR Tetradrachm, Seleucid Kingdom',
    category: 'ancient',
    description: null,
    service: null,
    grade: null,
    valueInCents: 85_000,
    costInCents: null,
    acquiredFrom: 'Raymond Okafor (consignment)',
    qty: stock(1),
    place: 'receiving',
    details: 'Cataloging tray 1: awaiting photos and attribution',
    addedDaysAgo: 20,
    consignment: 'okafor-2',
    attributes: coin(-210, 'Antioch', 'silver', 16.9, null, { country: 'Seleucid Kingdom', era: '223-187 BC' }),
  },
  {
    sku: 'ANC-BYZ-SOL-07',
    name: 'Justinian I AV Solidus, Constantinople',
    category: 'ancient',
    description: 'Facing helmeted bust / angel with cross and globus.',
    service: 'NGC',
    grade: 'Ch AU',
    gradingNotes: 'Strike 5/5, Surface 3/5, light graffito.',
    valueInCents: 145_000,
    // Old stock from the previous owner of the shop: no purchase record.
    costInCents: null,
    acquiredFrom: null,
    qty: stock(1),
    place: 'vault',
    details: 'Ancients tray B',
    addedDaysAgo: 110,
    attributes: coin(545, 'Constantinople', 'gold', 4.45, null, { country: 'Byzantine Empire', era: 'AD 527-565' }),
  },

  // Proof sets
  {
    sku: 'PRF-1964-SET',
    name: '1964 U.S. Mint Proof Set',
    category: 'proof',
    description: 'Original flat pack with envelope; 90% silver dime through half.',
    service: null,
    grade: null,
    valueInCents: 6_500,
    acquiredFrom: 'Walk-in (counter purchase)',
    qty: stock(9, 21),
    place: 'caseB',
    addedDaysAgo: 530,
    attributes: coin(1964, 'Philadelphia', 'silver', null, null, { pieces: 5 }),
  },
  {
    sku: 'PRF-1983-S-PRES',
    name: '1983-S U.S. Mint Prestige Proof Set',
    category: 'proof',
    description: 'Complete with box and certificate, includes the Olympic silver dollar.',
    service: null,
    grade: null,
    valueInCents: 7_500,
    acquiredFrom: 'Estate purchase, Boulder CO',
    qty: stock(0, 3),
    place: 'caseB',
    addedDaysAgo: 260,
    attributes: coin(1983, 'San Francisco', 'mixed', null, null, { pieces: 6 }),
  },
  {
    sku: 'PRF-2024-S-SILVER',
    name: '2024-S U.S. Mint Silver Proof Set',
    category: 'proof',
    description: null,
    service: null,
    grade: null,
    valueInCents: 10_500,
    acquiredFrom: null,
    qty: NONE,
    place: 'receiving',
    details: 'Awaiting shipment from the U.S. Mint',
    addedDaysAgo: 45,
    attributes: coin(2024, 'San Francisco', 'silver', null, 0.999, { pieces: 10 }),
  },
  {
    sku: 'PRF-1955-FLAT',
    name: '1955 U.S. Mint Proof Set (Flat Pack)',
    category: 'proof',
    description: 'Original cellophane, lightly toned.',
    service: null,
    grade: null,
    valueInCents: 27_500,
    acquiredFrom: 'FUN Show, Orlando',
    qty: stock(2),
    place: 'showcase',
    addedDaysAgo: 415,
    attributes: coin(1955, 'Philadelphia', 'silver', null, 0.9, { pieces: 5, toned: true }),
  },
  {
    sku: 'PRF-1936-5PC',
    name: '1936 U.S. Proof Set, 5 coins',
    category: 'proof',
    description: 'First year of modern proof set sales; each coin individually certified.',
    service: 'PCGS',
    grade: 'PF64-PF65',
    valueInCents: 950_000,
    acquiredFrom: 'Heritage Auctions',
    qty: stock(1),
    atAuction: true,
    place: 'vault',
    details: 'With Heritage for the Platinum Night sale',
    addedDaysAgo: 305,
    attributes: coin(1936, 'Philadelphia', 'mixed', null, null, { pieces: 5, pedigree: 'Eliasberg' }),
  },
  {
    sku: 'PRF-1999-S-SILVER',
    name: '1999-S U.S. Mint Silver Proof Set',
    category: 'proof',
    description: null,
    service: null,
    grade: null,
    valueInCents: 19_000,
    acquiredFrom: 'eBay',
    acquisitionNotes: 'Arrived with a cracked lens; claim open with the seller.',
    qty: NONE,
    place: 'receiving',
    details: 'Set aside for return to the seller',
    addedDaysAgo: 85,
    attributes: coin(1999, 'San Francisco', 'silver', null, 0.9, { pieces: 9 }),
  },

  // Other US and world coins, not in a category
  {
    sku: 'PEA-1928-P-64',
    name: '1928 Peace Dollar',
    category: null,
    description: 'Lowest-mintage Philadelphia Peace dollar.',
    service: 'PCGS',
    grade: 'MS64',
    valueInCents: 72_500,
    acquiredFrom: 'GreatCollections',
    qty: stock(1),
    place: 'showcase',
    details: 'Front case, bottom shelf',
    addedDaysAgo: 480,
    attributes: coin(1928, 'Philadelphia', 'silver', MORGAN.grams, MORGAN.fineness),
  },
  {
    sku: 'WLH-1941-S-65',
    name: '1941-S Walking Liberty Half Dollar',
    category: null,
    description: null,
    service: 'NGC',
    grade: 'MS65',
    valueInCents: 45_000,
    acquiredFrom: 'Long Beach Expo',
    qty: SOLD,
    place: 'caseA',
    addedDaysAgo: 390,
    attributes: coin(1941, 'San Francisco', 'silver', 12.5, 0.9),
  },
  {
    sku: 'IHC-1877-P-30',
    name: '1877 Indian Head Cent',
    category: null,
    description: 'The key date of the series, with full LIBERTY.',
    service: 'ANACS',
    grade: 'VF30',
    valueInCents: 240_000,
    acquiredFrom: 'Estate purchase, Boulder CO',
    qty: stock(1),
    atAuction: true,
    place: 'vault',
    details: 'Listed on eBay auction, ends Thursday',
    addedDaysAgo: 420,
    attributes: coin(1877, 'Philadelphia', 'bronze', 3.11, null),
  },
  {
    sku: 'LIN-1909-S-VDB',
    name: '1909-S VDB Lincoln Cent',
    category: null,
    description: 'The most famous Lincoln cent, light brown.',
    service: 'PCGS',
    grade: 'AU58',
    valueInCents: 195_000,
    acquiredFrom: 'Private collector, Denver CO',
    qty: stock(1),
    place: 'showcase',
    details: 'Front case, center',
    addedDaysAgo: 350,
    attributes: coin(1909, 'San Francisco', 'bronze', 3.11, null, { variety: 'VDB' }),
  },
  {
    sku: 'BUF-1937-D-3L-58',
    name: '1937-D 3-Legged Buffalo Nickel',
    category: null,
    description: 'Popular die-polishing error.',
    service: 'PCGS',
    grade: 'AU58',
    valueInCents: 130_000,
    costInCents: null,
    acquiredFrom: 'Raymond Okafor (consignment)',
    qty: SOLD,
    place: 'vault',
    addedDaysAgo: 154,
    consignment: 'okafor-1',
    attributes: coin(1937, 'Denver', 'copper-nickel', 5, null, { variety: '3-Legged' }),
  },
  {
    sku: 'CAN-1967-20D',
    name: '1967 Canada $20 Gold Centennial Proof',
    category: null,
    description: 'In the original black leather presentation case.',
    service: null,
    grade: null,
    valueInCents: 182_000,
    acquiredFrom: 'Walk-in (counter purchase)',
    qty: stock(1),
    place: 'caseB',
    addedDaysAgo: 262,
    attributes: coin(1967, 'Royal Canadian Mint', 'gold', 18.27, 0.9, { country: 'Canada', proof: true }),
  },
  {
    sku: 'SWF-1935-B-20F',
    name: '1935-B Switzerland 20 Francs Gold (Vreneli)',
    category: null,
    description: null,
    service: null,
    grade: 'BU',
    valueInCents: 66_000,
    acquiredFrom: 'Dillon Gage',
    qty: stock(3, 5),
    place: 'caseB',
    addedDaysAgo: 205,
    bullion: true,
    attributes: coin(1935, 'Bern', 'gold', 6.45, 0.9, { country: 'Switzerland', restrike: true }),
  },
  {
    sku: 'MER-1916-D-08',
    name: '1916-D Mercury Dime',
    category: null,
    description: 'The key to the Mercury dime series.',
    service: 'PCGS',
    grade: 'VG8',
    valueInCents: 185_000,
    costInCents: null,
    acquiredFrom: 'Dr. Evelyn Marsh (consignment)',
    qty: NONE,
    place: 'vault',
    details: 'Withdrawn by the consignor, picked up in person',
    addedDaysAgo: 405,
    consignment: 'marsh-1',
    attributes: coin(1916, 'Denver', 'silver', 2.5, 0.9),
  },
  {
    sku: 'SLQ-1917-P-T1',
    name: '1917 Type 1 Standing Liberty Quarter',
    category: null,
    description: null,
    service: null,
    grade: 'AU55',
    valueInCents: 35_000,
    acquiredFrom: 'Walk-in (counter purchase)',
    qty: NONE,
    place: 'receiving',
    details: 'At PCGS for grading, submission 8812345',
    addedDaysAgo: 30,
    attributes: coin(1917, 'Philadelphia', 'silver', 6.25, 0.9, { variety: 'Type 1' }),
  },
];

const ACQUISITION_NOTES_FALLBACK = [
  'Paid cash; seller provided ID.',
  'Part of a larger deal; cost allocated by value.',
  'Reviewed against the auction photos before purchase.',
] as const;

const titleOf = (spec: ItemSpec): string =>
  spec.service !== null && spec.grade !== null
    ? `${spec.name} ${spec.service} ${spec.grade}`
    : spec.grade !== null
      ? `${spec.name} ${spec.grade}`
      : spec.name;

/** Certificate numbers in each service's format; raw coins have none. */
function certificateNumber(random: Random, service: GradingService | null): string | null {
  switch (service) {
    case 'PCGS':
      return String(random.int(10_000_000, 49_999_999));
    case 'NGC':
      return `${random.int(1_000_000, 6_999_999)}-${String(random.int(1, 40)).padStart(3, '0')}`;
    case 'ANACS':
      return String(random.int(1_000_000, 8_999_999));
    case null:
      return null;
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Valuations
// ---------------------------------------------------------------------------------------------------------------

type Basis = ValuationBasis;

/** Spot prices the melt values use (cents per troy ounce). */
const SPOT_CENTS_PER_OZ: Readonly<Record<string, number>> = { gold: 330_000, silver: 3_800 };
const GRAMS_PER_TROY_OUNCE = 31.1034768;

interface ValuationPlan {
  sku: string;
  /** Oldest first. */
  bases: readonly Basis[];
  /** The newest valuation was applied: its estimate is the item's value. */
  applied: boolean;
}

// Only items still held (in stock or at auction): a valuation after the sale would make no sense.
const VALUATION_PLANS: readonly ValuationPlan[] = [
  { sku: 'MOR-1881-S-65', bases: ['price_guide', 'comps'], applied: true },
  { sku: 'MOR-1921-D-63', bases: ['comps'], applied: true },
  { sku: 'MOR-1893-S-30', bases: ['comps', 'model_knowledge', 'comps'], applied: true },
  { sku: 'MOR-1880-S-67', bases: ['comps', 'comps'], applied: false },
  { sku: 'MOR-1884-CC-65', bases: ['price_guide'], applied: false },
  { sku: 'SGE-1924-P-65', bases: ['price_guide', 'comps'], applied: true },
  { sku: 'AGE-2024-1OZ', bases: ['melt', 'melt'], applied: true },
  { sku: 'ASE-2024-BU', bases: ['melt'], applied: true },
  { sku: 'MPL-2024-1OZ-AU', bases: ['melt'], applied: false },
  { sku: 'BAR-PAMP-10OZ-AG', bases: ['melt', 'comps'], applied: false },
  { sku: 'MEX-1947-50P', bases: ['melt', 'comps'], applied: true },
  { sku: 'LIB-1904-P-63', bases: ['price_guide', 'comps'], applied: false },
  { sku: 'IND-1932-P-64', bases: ['comps'], applied: true },
  { sku: 'ANC-ATH-OWL-01', bases: ['model_knowledge', 'comps'], applied: true },
  { sku: 'ANC-AUG-DEN-04', bases: ['model_knowledge'], applied: false },
  { sku: 'ANC-BYZ-SOL-07', bases: ['model_knowledge', 'model_knowledge'], applied: false },
  { sku: 'PRF-1936-5PC', bases: ['price_guide', 'comps'], applied: false },
  { sku: 'PRF-1964-SET', bases: ['price_guide'], applied: true },
  { sku: 'PEA-1928-P-64', bases: ['comps'], applied: true },
  { sku: 'LIN-1909-S-VDB', bases: ['price_guide', 'comps', 'comps'], applied: true },
  { sku: 'SOV-1912-GB', bases: ['melt'], applied: false },
  { sku: 'IHC-1877-P-30', bases: ['comps'], applied: false },
];

const VENUES: ReadonlyArray<{ venue: string; host: string; source: string }> = [
  { venue: 'Heritage', host: 'heritage.example', source: 'auction_archive' },
  { venue: "Stack's Bowers", host: 'stacksbowers.example', source: 'auction_archive' },
  { venue: 'GreatCollections', host: 'greatcollections.example', source: 'auction_archive' },
  { venue: 'eBay', host: 'ebay.example', source: 'marketplace_sold_listing' },
];

/** Pure metal value of one unit, or null for coins without a known fineness. */
function meltValue(attributes: CoinAttributes): number | null {
  const spot = SPOT_CENTS_PER_OZ[attributes.metal];
  if (spot === undefined || attributes.weightGrams === null || attributes.fineness === null) return null;
  return Math.round(((attributes.weightGrams * attributes.fineness) / GRAMS_PER_TROY_OUNCE) * spot);
}

/** A neighbouring Sheldon grade (MS/PF 60-70) for comparable sales, with the price step that goes with it. */
function nearbyGrade(random: Random, grade: string | null): { grade: string | null; priceFactor: number } {
  const match = grade === null ? null : /^(MS|PF)(\d{2})(.*)$/.exec(grade);
  if (match === null || !random.chance(0.4)) return { grade, priceFactor: 1 };
  const [, prefix = '', number = '', suffix = ''] = match;
  const step = random.chance(0.5) ? 1 : -1;
  const next = Number(number) + step;
  if (next < 60 || next > 70) return { grade, priceFactor: 1 };
  return { grade: `${prefix}${next}${suffix}`, priceFactor: step > 0 ? 1.3 : 0.78 };
}

/** Comparable sales reported as either a day or just a month, as the venues do. */
function soldAtText(random: Random, date: Date): string {
  return random.chance(0.6)
    ? date.toISOString().slice(0, 10)
    : `${MONTHS[date.getUTCMonth()] ?? 'January'} ${date.getUTCFullYear()}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Invoices
// ---------------------------------------------------------------------------------------------------------------

type PaymentMethod = 'card' | 'wire' | 'cash' | 'check';

interface LineSpec {
  /** Null for a line that sells no inventory item (supplies, fees). */
  sku: string | null;
  description?: string;
  quantity: number;
  unitPriceInCents: number;
}

interface PaymentSpec {
  /** 'balance' pays what the succeeded payments before it left open. */
  amount: number | 'balance';
  method: PaymentMethod;
  /** Only SETTLED_PAYMENT_STATUS counts towards what the invoice has collected. */
  status: typeof SETTLED_PAYMENT_STATUS | 'failed' | 'pending';
  daysAfterInvoice: number;
}

interface InvoiceSpec {
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

const TERMS_DAYS = 30;

// Payments follow the status: paid → succeeded payments equal the total; partially_paid → some, less than the
// total; sent and overdue → less than the total; draft, void and cancelled → none succeeded.
const INVOICES: readonly InvoiceSpec[] = [
  {
    number: 1001,
    status: 'paid',
    source: 'Heritage Auctions',
    customer: 'jennings',
    createdDaysAgo: 330,
    lines: [
      { sku: 'MOR-1883-O-64PL', quantity: 1, unitPriceInCents: 34_000 },
      { sku: 'MOR-1878-CC-63', quantity: 1, unitPriceInCents: 46_500 },
    ],
    shippingInCents: 2_500,
    payments: [{ amount: 'balance', method: 'wire', status: 'succeeded', daysAfterInvoice: 5 }],
  },
  {
    number: 1002,
    status: 'paid',
    source: 'manual',
    customer: 'coastal',
    createdDaysAgo: 300,
    lines: [{ sku: 'BAR-VAL-1OZ-AU', quantity: 5, unitPriceInCents: 336_500 }],
    payments: [{ amount: 'balance', method: 'wire', status: 'succeeded', daysAfterInvoice: 1 }],
  },
  {
    number: 1003,
    status: 'cancelled',
    source: 'manual',
    customer: 'natarajan',
    createdDaysAgo: 270,
    lines: [{ sku: 'PEA-1928-P-64', quantity: 1, unitPriceInCents: 74_500 }],
    payments: [],
  },
  {
    number: 1004,
    status: 'paid',
    source: 'eBay',
    customer: 'okonkwo',
    createdDaysAgo: 240,
    lines: [
      { sku: 'ASE-2024-BU', quantity: 20, unitPriceInCents: 4_600 },
      { sku: 'BRI-2024-1OZ-AG', quantity: 10, unitPriceInCents: 4_500 },
    ],
    shippingInCents: 1_850,
    payments: [
      // The first card was declined; the buyer paid with another the next day.
      { amount: 'balance', method: 'card', status: 'failed', daysAfterInvoice: 0 },
      { amount: 'balance', method: 'card', status: 'succeeded', daysAfterInvoice: 1 },
    ],
  },
  {
    number: 1005,
    status: 'void',
    source: 'manual',
    customer: 'jennings',
    createdDaysAgo: 210,
    lines: [
      { sku: 'PRF-1964-SET', quantity: 2, unitPriceInCents: 6_800 },
      { sku: null, description: 'Written appraisal letter', quantity: 1, unitPriceInCents: 2_500 },
    ],
    payments: [],
  },
  {
    number: 1006,
    status: 'paid',
    source: 'manual',
    customer: 'walk-in',
    createdDaysAgo: 180,
    lines: [
      { sku: 'SOV-1912-GB', quantity: 2, unitPriceInCents: 84_000 },
      { sku: 'PRF-1983-S-PRES', quantity: 1, unitPriceInCents: 7_900 },
    ],
    taxBps: 290,
    payments: [{ amount: 'balance', method: 'cash', status: 'succeeded', daysAfterInvoice: 0 }],
  },
  {
    number: 1007,
    status: 'paid',
    source: 'Heritage Auctions',
    customer: 'natarajan',
    createdDaysAgo: 150,
    lines: [
      { sku: 'WLH-1941-S-65', quantity: 1, unitPriceInCents: 46_500 },
      { sku: 'ANC-ALX-TET-02', quantity: 1, unitPriceInCents: 72_000 },
    ],
    shippingInCents: 3_500,
    payments: [
      { amount: 50_000, method: 'wire', status: 'succeeded', daysAfterInvoice: 3 },
      { amount: 'balance', method: 'wire', status: 'succeeded', daysAfterInvoice: 10 },
    ],
  },
  {
    number: 1008,
    status: 'partially_paid',
    source: 'manual',
    customer: 'jennings',
    createdDaysAgo: 120,
    lines: [{ sku: 'SGE-1908-NM-64', quantity: 1, unitPriceInCents: 405_000 }],
    discountInCents: 5_000,
    payments: [{ amount: 200_000, method: 'wire', status: 'succeeded', daysAfterInvoice: 2 }],
  },
  {
    number: 1009,
    status: 'overdue',
    source: 'eBay',
    customer: 'coastal',
    createdDaysAgo: 100,
    lines: [{ sku: 'BUF-1937-D-3L-58', quantity: 1, unitPriceInCents: 134_500 }],
    shippingInCents: 1_500,
    payments: [],
  },
  {
    number: 1010,
    status: 'paid',
    source: 'manual',
    customer: 'okonkwo',
    createdDaysAgo: 80,
    lines: [
      { sku: 'MOR-1896-P-66', quantity: 1, unitPriceInCents: 36_000 },
      { sku: 'PHI-2024-1OZ-AU', quantity: 2, unitPriceInCents: 344_000 },
    ],
    payments: [{ amount: 'balance', method: 'check', status: 'succeeded', daysAfterInvoice: 6 }],
  },
  {
    number: 1011,
    status: 'partially_paid',
    source: 'manual',
    customer: 'natarajan',
    createdDaysAgo: 60,
    lines: [
      { sku: 'AGE-2021-T1-70', quantity: 1, unitPriceInCents: 399_000 },
      { sku: 'MOR-1921-P-VF30', quantity: 10, unitPriceInCents: 4_700 },
      { sku: null, description: 'Insured shipping upgrade', quantity: 1, unitPriceInCents: 1_500 },
    ],
    payments: [{ amount: 100_000, method: 'card', status: 'succeeded', daysAfterInvoice: 0 }],
  },
  {
    number: 1012,
    status: 'overdue',
    source: 'Heritage Auctions',
    customer: 'jennings',
    createdDaysAgo: 45,
    lines: [
      { sku: 'MOR-1881-S-64', quantity: 1, unitPriceInCents: 11_500 },
      { sku: 'ANC-CON-AE3-05', quantity: 6, unitPriceInCents: 2_600 },
    ],
    shippingInCents: 1_200,
    payments: [{ amount: 5_000, method: 'check', status: 'succeeded', daysAfterInvoice: 5 }],
  },
  {
    number: 1013,
    status: 'sent',
    source: 'manual',
    customer: 'coastal',
    createdDaysAgo: 20,
    lines: [
      { sku: 'BRI-2024-1OZ-AG', quantity: 12, unitPriceInCents: 4_400 },
      { sku: 'ASE-2024-BU', quantity: 25, unitPriceInCents: 4_550 },
    ],
    shippingInCents: 2_200,
    // A check received but not yet cleared.
    payments: [{ amount: 'balance', method: 'check', status: 'pending', daysAfterInvoice: 3 }],
  },
  {
    number: 1014,
    status: 'sent',
    source: 'eBay',
    customer: 'okonkwo',
    createdDaysAgo: 10,
    lines: [{ sku: 'MPL-2024-1OZ-AU', quantity: 1, unitPriceInCents: 345_000 }],
    shippingInCents: 3_500,
    payments: [],
  },
  {
    number: 1015,
    status: 'draft',
    source: 'manual',
    customer: 'natarajan',
    createdDaysAgo: 4,
    lines: [
      { sku: 'MOR-1881-S-65', quantity: 1, unitPriceInCents: 26_500 },
      { sku: 'SGE-1924-P-65', quantity: 1, unitPriceInCents: 425_000 },
    ],
    discountInCents: 10_000,
    payments: [],
  },
  {
    number: 1016,
    status: 'draft',
    source: 'manual',
    customer: 'jennings',
    createdDaysAgo: 2,
    lines: [
      { sku: 'IND-1932-P-64', quantity: 1, unitPriceInCents: 189_000 },
      { sku: null, description: 'Archival album with 2x2 holders', quantity: 1, unitPriceInCents: 4_500 },
    ],
    taxBps: 825,
    payments: [],
  },
];

const MARKETPLACE_LISTINGS: ReadonlyArray<{ sku: string; listingId: string }> = [
  { sku: 'MOR-1881-S-65', listingId: 'mkt-100234' },
  { sku: 'ASE-2024-BU', listingId: 'mkt-100251' },
  { sku: 'PEA-1928-P-64', listingId: 'mkt-100287' },
];

// ---------------------------------------------------------------------------------------------------------------
// Rows, keyed by column name (generated columns left out)
// ---------------------------------------------------------------------------------------------------------------

interface ItemRow {
  organization_id: string;
  id: string;
  sku: string;
  title: string;
  description: string | null;
  category_id: string | null;
  quantity_available: number;
  quantity_sold: number;
  quantity_reserved: number;
  value_in_cents: number;
  acquisition_price_in_cents: number | null;
  acquisition_date: Date | null;
  acquired_from: string | null;
  acquisition_notes: string | null;
  grading_service: string | null;
  grade: string | null;
  certificate_number: string | null;
  grading_notes: string | null;
  attributes: Record<string, AttributeValue>;
  warehouse_id: string;
  zone_id: string;
  location_details: string | null;
  consignment_id: string | null;
  is_at_auction: boolean;
  created_at: Date;
  updated_at: Date | null;
}

interface ItemImageRow {
  organization_id: string;
  id: string;
  item_id: string;
  position: number;
  url: string;
  width: number | null;
  height: number | null;
}

interface ValuationRow {
  organization_id: string;
  id: string;
  item_id: string;
  estimate_low_in_cents: number | null;
  estimate_in_cents: number | null;
  estimate_high_in_cents: number | null;
  confidence_percent: number | null;
  basis: Basis;
  price_guide_value_in_cents: number | null;
  melt_value_in_cents: number | null;
  summary: string | null;
  applied_at: Date | null;
  created_at: Date;
}

interface ValuationCompRow {
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

interface ConsignmentRow {
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

interface InvoiceRow {
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

interface InvoiceLineRow {
  organization_id: string;
  id: string;
  invoice_id: string;
  position: number;
  item_id: string | null;
  description: string | null;
  quantity: number;
  unit_price_in_cents: number;
}

interface InvoicePaymentRow {
  organization_id: string;
  id: string;
  invoice_id: string;
  amount_in_cents: number;
  method: PaymentMethod;
  status: PaymentSpec['status'];
  paid_at: Date | null;
  created_at: Date;
}

interface DemoRows {
  warehouses: Array<{ organization_id: string; id: string; name: string; is_default: boolean; created_at: Date }>;
  zones: Array<{ organization_id: string; id: string; warehouse_id: string; name: string; position: number }>;
  categories: Array<{ organization_id: string; id: string; name: string }>;
  consignors: Array<{ organization_id: string; id: string; name: string; email: string | null }>;
  consignments: ConsignmentRow[];
  items: ItemRow[];
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

// ---------------------------------------------------------------------------------------------------------------
// Builders: specs → rows. Pure: the same arguments give the same rows.
// ---------------------------------------------------------------------------------------------------------------

interface BuildContext {
  organizationId: string;
  now: Date;
  /** Data choices (dates within a day, costs, images, comps). */
  random: Random;
  /** Row ids, on their own stream so adding a row does not reshuffle the data. */
  ids: Random;
}

/** A moment during shop hours (US Mountain) on the day `daysAgo` days before now. */
function dayBefore(context: BuildContext, daysAgo: number): Date {
  const base = addDays(context.now, -daysAgo);
  base.setUTCHours(context.random.int(15, 23), context.random.int(0, 59), context.random.int(0, 59), 0);
  return base;
}

function buildStructure(context: BuildContext, main: { warehouseId: string; receivingZoneId: string }) {
  const { organizationId } = context;
  const showWarehouseId = context.ids.uuid();
  const warehouses: DemoRows['warehouses'] = [
    {
      organization_id: organizationId,
      id: showWarehouseId,
      name: 'Show inventory',
      is_default: false,
      created_at: dayBefore(context, 540),
    },
  ];
  const zoneIds = new Map<PlaceKey, { warehouseId: string; zoneId: string }>([
    ['receiving', { warehouseId: main.warehouseId, zoneId: main.receivingZoneId }],
  ]);
  const zones: DemoRows['zones'] = EXTRA_ZONES.map((zone) => {
    const id = context.ids.uuid();
    const warehouseId = zone.warehouse === 'main' ? main.warehouseId : showWarehouseId;
    zoneIds.set(zone.key, { warehouseId, zoneId: id });
    return { organization_id: organizationId, id, warehouse_id: warehouseId, name: zone.name, position: zone.position };
  });
  const categoryIds = new Map<CategoryKey, string>();
  const categories: DemoRows['categories'] = CATEGORIES.map((category) => {
    const id = context.ids.uuid();
    categoryIds.set(category.key, id);
    return { organization_id: organizationId, id, name: category.name };
  });
  return { warehouses, zones, zoneIds, categories, categoryIds };
}

function buildConsignments(context: BuildContext) {
  const { organizationId } = context;
  const consignorIds = new Map<ConsignorKey, string>();
  const consignors: DemoRows['consignors'] = CONSIGNORS.map((consignor) => {
    const id = context.ids.uuid();
    consignorIds.set(consignor.key, id);
    return { organization_id: organizationId, id, name: consignor.name, email: consignor.email };
  });
  const consignmentIds = new Map<ConsignmentKey, string>();
  const consignments: ConsignmentRow[] = CONSIGNMENTS.map((spec) => {
    const id = context.ids.uuid();
    consignmentIds.set(spec.key, id);
    const receivedAt = dayBefore(context, spec.receivedDaysAgo);
    return {
      organization_id: organizationId,
      id,
      number: `C-${receivedAt.getUTCFullYear()}-${String(spec.seq).padStart(3, '0')}`,
      name: spec.name,
      status: spec.status,
      payment_status: spec.paymentStatus,
      consignor_id: required(consignorIds, spec.consignor, 'consignor'),
      commission_bps: spec.commissionBps,
      buyer_premium_bps: spec.buyerPremiumBps,
      received_at: receivedAt,
      sold_at: spec.soldDaysAgo === null ? null : dayBefore(context, spec.soldDaysAgo),
      settled_at: spec.settledDaysAgo === null ? null : dayBefore(context, spec.settledDaysAgo),
      // The agreement is entered a little before the coins arrive.
      created_at: addHours(receivedAt, -context.random.int(2, 30)),
    };
  });
  return { consignors, consignments, consignmentIds };
}

function buildItem(
  context: BuildContext,
  spec: ItemSpec,
  lookups: {
    zoneIds: ReadonlyMap<PlaceKey, { warehouseId: string; zoneId: string }>;
    categoryIds: ReadonlyMap<CategoryKey, string>;
    consignmentIds: ReadonlyMap<ConsignmentKey, string>;
  },
): ItemRow {
  const { random } = context;
  const createdAt = dayBefore(context, spec.addedDaysAgo);
  const place = required(lookups.zoneIds, spec.place, 'place');
  // Dealers buy at a discount to value; consigned stock has no cost to the shop (costInCents: null).
  const cost =
    spec.costInCents !== undefined
      ? spec.costInCents
      : roundToDollar(spec.valueInCents * (spec.bullion ? random.between(0.93, 0.98) : random.between(0.68, 0.88)));
  const acquired = spec.acquiredFrom !== null || cost !== null;
  const daysOnBooks = Math.max(1, spec.addedDaysAgo - 1);
  return {
    organization_id: context.organizationId,
    id: context.ids.uuid(),
    sku: spec.sku,
    title: titleOf(spec),
    description: spec.description,
    category_id: spec.category === null ? null : required(lookups.categoryIds, spec.category, 'category'),
    quantity_available: spec.qty.available,
    quantity_sold: spec.qty.sold,
    quantity_reserved: spec.qty.reserved,
    value_in_cents: spec.valueInCents,
    acquisition_price_in_cents: cost,
    // Consigned coins are entered within days of arriving; bought ones may wait for a photo session.
    acquisition_date: acquired ? addDays(createdAt, -random.int(0, spec.consignment === undefined ? 12 : 4)) : null,
    acquired_from: spec.acquiredFrom,
    acquisition_notes:
      spec.acquisitionNotes ?? (cost !== null && random.chance(0.15) ? random.pick(ACQUISITION_NOTES_FALLBACK) : null),
    grading_service: spec.service,
    grade: spec.grade,
    certificate_number: certificateNumber(random, spec.service),
    grading_notes: spec.gradingNotes ?? null,
    attributes: spec.attributes,
    warehouse_id: place.warehouseId,
    zone_id: place.zoneId,
    location_details: spec.details ?? null,
    consignment_id:
      spec.consignment === undefined ? null : required(lookups.consignmentIds, spec.consignment, 'consignment'),
    is_at_auction: spec.atAuction ?? false,
    created_at: createdAt,
    // About 40% were edited after intake (repriced, moved, regraded).
    updated_at: random.chance(0.4) ? addHours(createdAt, random.int(2, Math.min(daysOnBooks, 60) * 24)) : null,
  };
}

/** 0-3 photos per item; older uploads have no recorded size. */
function buildImages(context: BuildContext, item: ItemRow): ItemImageRow[] {
  const { random } = context;
  const roll = random.next();
  const count = roll < 0.15 ? 0 : roll < 0.45 ? 1 : roll < 0.8 ? 2 : 3;
  return Array.from({ length: count }, (_, index) => {
    const sized = random.chance(0.75);
    const wide = random.chance(0.2);
    return {
      organization_id: context.organizationId,
      id: context.ids.uuid(),
      item_id: item.id,
      position: index + 1,
      url: `https://images.liberty-coin.example/items/${item.sku}/${index + 1}.jpg`,
      width: sized ? (wide ? 2400 : 1600) : null,
      height: sized ? (wide ? 1200 : 1600) : null,
    };
  });
}

interface ValuationTarget {
  item: ItemRow;
  spec: ItemSpec;
  melt: number | null;
}

function buildComps(
  context: BuildContext,
  target: ValuationTarget,
  valuation: { id: string; createdAt: Date; estimate: number },
  count: number,
): ValuationCompRow[] {
  const { random } = context;
  return Array.from({ length: count }, (_, index) => {
    const venue = random.pick(VENUES);
    const { grade, priceFactor } = nearbyGrade(random, target.spec.grade);
    const soldOn = addDays(valuation.createdAt, -random.int(3, 150));
    // Raw coins compare with raw sales; slabs mostly with the same service.
    const service = target.spec.service === null ? null : random.chance(0.8) ? target.spec.service : 'NGC';
    const lot = random.int(100_000, 999_999);
    return {
      organization_id: context.organizationId,
      id: context.ids.uuid(),
      valuation_id: valuation.id,
      position: index + 1,
      source: venue.source,
      title: [target.spec.name, service, grade].filter((part) => part !== null).join(' '),
      grade,
      grading_service: service,
      price_in_cents: roundToDollar(valuation.estimate * priceFactor * random.between(0.88, 1.12)),
      sold_at: soldAtText(random, soldOn),
      venue: venue.venue,
      url: random.chance(0.25) ? null : `https://${venue.host}/lots/${lot}`,
    };
  });
}

function buildValuations(
  context: BuildContext,
  target: ValuationTarget,
  plan: ValuationPlan,
): { valuations: ValuationRow[]; comps: ValuationCompRow[] } {
  const { random, now } = context;
  const { item } = target;
  const valuations: ValuationRow[] = [];
  const comps: ValuationCompRow[] = [];
  const span = now.getTime() - item.created_at.getTime();
  plan.bases.forEach((basis, index) => {
    const newest = index === plan.bases.length - 1;
    const applied = newest && plan.applied;
    // Spread over the item's time on the books, oldest first; whole minutes apart at least.
    const createdAt = new Date(item.created_at.getTime() + (span * (index + 1)) / (plan.bases.length + 1));
    createdAt.setUTCSeconds(index, 0);
    // An applied estimate is what the item is worth now; older ones were made when the market differed.
    const estimate = applied
      ? item.value_in_cents
      : roundToDollar(item.value_in_cents * random.between(newest ? 0.95 : 0.85, newest ? 1.08 : 1.1));
    const id = context.ids.uuid();
    const [fewest, most] = COMP_COUNTS[basis];
    const valuationComps = buildComps(context, target, { id, createdAt, estimate }, random.int(fewest, most));
    const prices = valuationComps.flatMap((comp) => (comp.price_in_cents === null ? [] : [comp.price_in_cents]));
    const built = valuationFigures(context, target, basis, estimate, prices);
    valuations.push({
      organization_id: context.organizationId,
      id,
      item_id: item.id,
      estimate_low_in_cents: built.low,
      estimate_in_cents: built.estimate,
      estimate_high_in_cents: built.high,
      confidence_percent: built.confidence,
      basis,
      price_guide_value_in_cents: built.priceGuide,
      melt_value_in_cents: target.melt,
      summary: built.summary,
      applied_at: applied ? addHours(createdAt, random.int(1, 48)) : null,
      created_at: createdAt,
    });
    comps.push(...valuationComps);
  });
  return { valuations, comps };
}

interface ValuationFigures {
  low: number | null;
  estimate: number;
  high: number | null;
  confidence: number;
  priceGuide: number | null;
  summary: string | null;
}

/** How many comparable sales each kind of valuation cites (fewest, most). */
const COMP_COUNTS: Readonly<Record<Basis, readonly [number, number]>> = {
  comps: [3, 5],
  price_guide: [0, 2],
  melt: [0, 0],
  model_knowledge: [0, 1],
};

/** The numbers of one valuation; low ≤ estimate ≤ high whenever they are present. */
function valuationFigures(
  context: BuildContext,
  target: ValuationTarget,
  basis: Basis,
  estimate: number,
  compPrices: readonly number[],
): ValuationFigures {
  const { random } = context;
  const grade = target.spec.grade;
  switch (basis) {
    case 'comps': {
      // The range is what the comparable sales paid, widened to take in the estimate.
      const cheapest = Math.min(...compPrices);
      const dearest = Math.max(...compPrices);
      return {
        low: Math.min(cheapest, estimate),
        estimate,
        high: Math.max(dearest, estimate),
        confidence: random.int(68, 92),
        priceGuide: random.chance(0.3) ? roundToDollar(estimate * random.between(0.95, 1.1)) : null,
        summary: `${compPrices.length} comparable sales${grade === null ? '' : ` near ${grade}`} in the last five months, ${dollars(cheapest)} to ${dollars(dearest)}.`,
      };
    }
    case 'price_guide': {
      const guide = roundToDollar(estimate * random.between(0.97, 1.08));
      return {
        low: Math.min(roundToDollar(estimate * 0.9), estimate),
        estimate,
        high: Math.max(roundToDollar(estimate * 1.1), estimate),
        confidence: random.int(55, 75),
        priceGuide: guide,
        summary: random.chance(0.2)
          ? null
          : `Price guide lists ${dollars(guide)}${grade === null ? '' : ` in ${grade}`}; estimate follows current dealer bids.`,
      };
    }
    case 'melt': {
      // Bullion trades at a premium over its metal: never value it below melt plus a minimal dealer premium.
      const melt = target.melt ?? estimate;
      const floored = Math.max(estimate, roundToDollar(melt * 1.02));
      const premiumPercent = Math.round(((floored - melt) / melt) * 100);
      return {
        low: melt,
        estimate: floored,
        high: Math.max(roundToDollar(floored * 1.03), floored),
        confidence: random.int(88, 95),
        priceGuide: null,
        summary: `Melt value ${dollars(melt)} at ${target.spec.attributes.metal} spot ${dollars(SPOT_CENTS_PER_OZ[target.spec.attributes.metal] ?? 0)}/oz; estimate carries a ${premiumPercent}% premium over melt.`,
      };
    }
    case 'model_knowledge': {
      // Thin markets: a wide range, and sometimes no range at all.
      const ranged = random.chance(0.6);
      return {
        low: ranged ? Math.min(roundToDollar(estimate * 0.75), estimate) : null,
        estimate,
        high: ranged ? Math.max(roundToDollar(estimate * 1.3), estimate) : null,
        confidence: random.int(40, 58),
        priceGuide: null,
        summary: 'Few recent comparable sales; estimate from general knowledge of the type, grade and eye appeal.',
      };
    }
  }
}

function buildInvoices(
  context: BuildContext,
  itemsBySku: ReadonlyMap<string, ItemRow>,
): Pick<DemoRows, 'customers' | 'invoices' | 'invoiceLines' | 'invoicePayments'> {
  const { organizationId, random } = context;
  const customerRows = new Map<CustomerKey, DemoRows['customers'][number]>();
  const customers: DemoRows['customers'] = CUSTOMERS.map((customer) => {
    const row = { organization_id: organizationId, id: context.ids.uuid(), name: customer.name, email: customer.email };
    customerRows.set(customer.key, row);
    return row;
  });
  const invoices: InvoiceRow[] = [];
  const invoiceLines: InvoiceLineRow[] = [];
  const invoicePayments: InvoicePaymentRow[] = [];
  for (const spec of INVOICES) {
    const id = context.ids.uuid();
    const createdAt = dayBefore(context, spec.createdDaysAgo);
    const customer = spec.customer === 'walk-in' ? null : required(customerRows, spec.customer, 'customer');
    spec.lines.forEach((line, index) => {
      const item = line.sku === null ? null : required(itemsBySku, line.sku, 'item');
      invoiceLines.push({
        organization_id: organizationId,
        id: context.ids.uuid(),
        invoice_id: id,
        position: index + 1,
        item_id: item?.id ?? null,
        description: line.description ?? item?.title ?? null,
        quantity: line.quantity,
        unit_price_in_cents: line.unitPriceInCents,
      });
    });
    const subtotal = spec.lines.reduce((sum, line) => sum + line.quantity * line.unitPriceInCents, 0);
    const discount = Math.min(spec.discountInCents ?? 0, subtotal);
    const tax = Math.round(((subtotal - discount) * (spec.taxBps ?? 0)) / 10_000);
    const total = subtotal - discount + (spec.shippingInCents ?? 0) + tax;
    let paid = 0;
    let lastPaidAt: Date | null = null;
    for (const payment of spec.payments) {
      const amount = payment.amount === 'balance' ? total - paid : payment.amount;
      const at = addHours(createdAt, payment.daysAfterInvoice * 24 + random.int(1, 6));
      invoicePayments.push({
        organization_id: organizationId,
        id: context.ids.uuid(),
        invoice_id: id,
        amount_in_cents: amount,
        method: payment.method,
        status: payment.status,
        // A pending payment has not cleared, so it has no paid date yet.
        paid_at: payment.status === 'pending' ? null : at,
        created_at: at,
      });
      if (payment.status === SETTLED_PAYMENT_STATUS) {
        paid += amount;
        lastPaidAt = at;
      }
    }
    invoices.push({
      organization_id: organizationId,
      id,
      number: spec.number,
      status: spec.status,
      source: spec.source,
      customer_id: customer?.id ?? null,
      customer_name: customer?.name ?? 'Walk-in customer',
      customer_email: customer?.email ?? null,
      discount_in_cents: discount,
      shipping_in_cents: spec.shippingInCents ?? 0,
      tax_in_cents: tax,
      // Drafts have no terms yet; everything issued is due in 30 days.
      due_at: spec.status === 'draft' || spec.status === 'cancelled' ? null : addDays(createdAt, TERMS_DAYS),
      paid_at: spec.status === 'paid' ? lastPaidAt : null,
      created_at: createdAt,
    });
  }
  return { customers, invoices, invoiceLines, invoicePayments };
}

function buildDemoRows(context: BuildContext, main: { warehouseId: string; receivingZoneId: string }): DemoRows {
  const structure = buildStructure(context, main);
  const { consignors, consignments, consignmentIds } = buildConsignments(context);
  const lookups = { zoneIds: structure.zoneIds, categoryIds: structure.categoryIds, consignmentIds };

  const items = ITEMS.map((spec) => buildItem(context, spec, lookups));
  const itemsBySku = new Map(items.map((item) => [item.sku, item]));
  const specsBySku = new Map(ITEMS.map((spec) => [spec.sku, spec]));
  const itemImages = items.flatMap((item) => buildImages(context, item));

  const valuations: ValuationRow[] = [];
  const valuationComps: ValuationCompRow[] = [];
  for (const plan of VALUATION_PLANS) {
    const spec = required(specsBySku, plan.sku, 'item');
    const target = {
      item: required(itemsBySku, plan.sku, 'item'),
      spec,
      // Melt values only for bullion: for numismatic coins the metal is beside the point.
      melt: spec.bullion ? meltValue(spec.attributes) : null,
    };
    const built = buildValuations(context, target, plan);
    valuations.push(...built.valuations);
    valuationComps.push(...built.comps);
  }

  const marketplaceListings: DemoRows['marketplaceListings'] = MARKETPLACE_LISTINGS.map((listing) => {
    const item = required(itemsBySku, listing.sku, 'item');
    return {
      organization_id: context.organizationId,
      id: context.ids.uuid(),
      item_id: item.id,
      marketplace_listing_id: listing.listingId,
      external_url: `https://marketplace.example/listings/${listing.listingId}`,
      status: 'active',
      // In sync: the last quantity pushed is what is available now.
      last_synced_quantity: item.quantity_available,
      created_at: addDays(item.created_at, context.random.int(1, 5)),
    };
  });

  return {
    warehouses: structure.warehouses,
    zones: structure.zones,
    categories: structure.categories,
    consignors,
    consignments,
    items,
    itemImages,
    valuations,
    valuationComps,
    ...buildInvoices(context, itemsBySku),
    marketplaceListings,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------------------------

/** The organization with its default warehouse and first zone, dated back to when the demo business "opened". */
async function insertOrganization(tx: TransactionSql, now: Date) {
  const created = await createOrganization(tx, ORGANIZATION);
  const createdAt = addDays(now, -548);
  await tx`UPDATE organizations SET created_at = ${createdAt} WHERE id = ${created.id}`;
  await tx`UPDATE warehouses SET created_at = ${createdAt} WHERE organization_id = ${created.id}`;
  return {
    organizationId: created.id,
    warehouseId: created.defaultWarehouseId,
    receivingZoneId: created.defaultZoneId,
  };
}

type Table =
  | 'warehouses'
  | 'zones'
  | 'categories'
  | 'consignors'
  | 'consignments'
  | 'items'
  | 'item_images'
  | 'valuations'
  | 'valuation_comps'
  | 'customers'
  | 'invoices'
  | 'invoice_lines'
  | 'invoice_payments'
  | 'marketplace_listings';

/** One multi-row INSERT; the demo tables stay far below PostgreSQL's 65,535 parameters per statement. */
async function insertRows(tx: TransactionSql, table: Table, rows: readonly object[]): Promise<void> {
  if (rows.length === 0) return;
  await tx`INSERT INTO ${tx(table)} ${tx(rows)}`;
}

/**
 * Creates the demo workspace (organization, people, stock, valuations, consignments, invoices) in one transaction
 * and returns a read/write API key for it. Meant for an empty database: a second run fails on the unique slug and
 * rolls back completely.
 */
export async function seedDemoWorkspace(sql: Sql, options: SeedOptions = {}): Promise<DemoWorkspace> {
  const now = options.now ?? DEMO_ANCHOR;
  return sql.begin(async (tx) => {
    const { organizationId, warehouseId, receivingZoneId } = await insertOrganization(tx, now);

    let owner: { id: string; email: string } | null = null;
    for (const person of PEOPLE) {
      const user = await createUser(tx, { email: person.email, name: person.name });
      await addMember(tx, organizationId, user.id, person.role);
      if (person.role === 'owner') owner = { id: user.id, email: person.email };
    }
    if (owner === null) throw new Error('demo seed: no owner among PEOPLE');

    const rows = buildDemoRows(
      { organizationId, now, random: new Random(0x5eed_c011), ids: new Random(0x1d5_2026) },
      { warehouseId, receivingZoneId },
    );
    // Parents before children, in foreign key order.
    await insertRows(tx, 'warehouses', rows.warehouses);
    await insertRows(tx, 'zones', rows.zones);
    await insertRows(tx, 'categories', rows.categories);
    await insertRows(tx, 'consignors', rows.consignors);
    await insertRows(tx, 'consignments', rows.consignments);
    await insertRows(
      tx,
      'items',
      rows.items.map((item) => ({ ...item, attributes: tx.json(item.attributes) })),
    );
    await insertRows(tx, 'item_images', rows.itemImages);
    await insertRows(tx, 'valuations', rows.valuations);
    await insertRows(tx, 'valuation_comps', rows.valuationComps);
    await insertRows(tx, 'customers', rows.customers);
    await insertRows(tx, 'invoices', rows.invoices);
    await insertRows(tx, 'invoice_lines', rows.invoiceLines);
    await insertRows(tx, 'invoice_payments', rows.invoicePayments);
    await insertRows(tx, 'marketplace_listings', rows.marketplaceListings);

    const key = await issueApiKey(tx, {
      organizationId,
      createdBy: owner.id,
      name: 'Demo key',
      scopes: KEY_SCOPES,
    });

    return {
      organizationId,
      name: ORGANIZATION.name,
      slug: ORGANIZATION.slug,
      key,
      ownerEmail: owner.email,
      counts: {
        items: rows.items.length,
        valuations: rows.valuations.length,
        consignments: rows.consignments.length,
        invoices: rows.invoices.length,
      },
    };
  });
}
