import type { GuideSpec, MarketSpec, ValuationPlan, VenueSpec } from './shapes.js';

/**
 * What the demo's valuations are made from: the comparable sales and price guide values of the coins the shop holds,
 * the spot prices, and when the valuation engine ran for which item. The valuations themselves are the engine's
 * (modules/valuations, `estimate`), as `coinventory-server valuate` makes them.
 */

/** Spot prices (cents per troy ounce) the demo values metal at, and seeds for a deployment that has none. */
export const SPOT_CENTS_PER_OZ: Readonly<Record<'gold' | 'silver', number>> = { gold: 330_000, silver: 3_800 };

/** Where the sales were made; auction houses more often than the marketplace (the weights). */
export const VENUES: ReadonlyArray<readonly [VenueSpec, number]> = [
  [{ venue: 'Heritage', source: 'auction_archive', prefix: 'HA', host: 'heritage.example' }, 4],
  [{ venue: "Stack's Bowers", source: 'auction_archive', prefix: 'SB', host: 'stacksbowers.example' }, 2],
  [{ venue: 'GreatCollections', source: 'auction_archive', prefix: 'GC', host: 'greatcollections.example' }, 3],
  [{ venue: 'eBay', source: 'marketplace_sold_listing', prefix: 'EB', host: 'ebay.example' }, 2],
];

/**
 * The sales of the coins the shop holds, by grading service. Most coins have enough at their own grade; some only
 * with the grades one step away (the engine widens), some too few (the price guide values them); a few sales are
 * older than the engine's two years, and newer sales arrive between the engine's runs.
 */
export const MARKETS: readonly MarketSpec[] = [
  {
    coin: '1881-S Morgan Dollar',
    service: 'PCGS',
    typicalInCents: { MS64: 11_500, MS65: 25_500, MS66: 48_000 },
    sales: [
      ['MS65', 9],
      ['MS65', 33],
      ['MS64', 44],
      ['MS65', 58],
      ['MS66', 71],
      ['MS65', 101],
      ['MS65', 176],
      ['MS64', 230],
      ['MS65', 248],
      ['MS66', 305],
      ['MS65', 395],
      ['MS65', 612],
      ['MS65', 790],
    ],
  },
  // The same coin in NGC holders: never a comparable of a PCGS coin.
  {
    coin: '1881-S Morgan Dollar',
    service: 'NGC',
    typicalInCents: { MS64: 10_500, MS65: 23_500 },
    sales: [
      ['MS64', 37],
      ['MS65', 80],
      ['MS64', 140],
      ['MS64', 260],
      ['MS65', 350],
    ],
  },
  {
    coin: '1893-S Morgan Dollar',
    service: 'PCGS',
    typicalInCents: { VF25: 590_000, VF30: 650_000, VF35: 715_000 },
    // A month ago two VF30 sales were known (VF25 and VF35 ones widened them); two more have sold since.
    sales: [
      ['VF30', 12],
      ['VF30', 26],
      ['VF35', 66],
      ['VF25', 95],
      ['VF30', 160],
      ['VF35', 240],
      ['VF30', 505],
      ['VF30', 820],
    ],
  },
  {
    coin: '1884-CC Morgan Dollar GSA Hoard',
    service: 'NGC',
    typicalInCents: { MS65: 80_000 },
    sales: [
      ['MS65', 54],
      ['MS65', 310],
    ],
  },
  {
    coin: '1880-S Morgan Dollar',
    service: 'PCGS',
    typicalInCents: { MS66: 60_000, MS67: 118_000, MS68: 310_000 },
    sales: [
      ['MS67', 22],
      ['MS66', 48],
      ['MS67', 75],
      ['MS67', 140],
      ['MS68', 200],
      ['MS67', 290],
      ['MS67', 530],
    ],
  },
  {
    coin: '1921-D Morgan Dollar',
    service: 'NGC',
    typicalInCents: { MS62: 6_500, MS63: 8_900, MS64: 13_000 },
    sales: [
      ['MS63', 6],
      ['MS63', 19],
      ['MS64', 28],
      ['MS63', 41],
      ['MS62', 55],
      ['MS63', 77],
      ['MS64', 90],
      ['MS63', 133],
      ['MS63', 201],
      ['MS63', 365],
    ],
  },
  {
    coin: '1904-O Morgan Dollar',
    service: 'ANACS',
    typicalInCents: { MS63: 8_600, MS64: 9_500, MS65: 10_600 },
    sales: [
      ['MS64', 84],
      ['MS63', 150],
      ['MS65', 260],
    ],
  },
  {
    coin: '1924 Saint-Gaudens Double Eagle',
    service: 'PCGS',
    typicalInCents: { MS64: 330_000, MS65: 420_000, MS66: 590_000 },
    sales: [
      ['MS65', 15],
      ['MS65', 62],
      ['MS65', 118],
      ['MS64', 150],
      ['MS65', 330],
      ['MS66', 610],
    ],
  },
  {
    coin: '1927 Saint-Gaudens Double Eagle',
    service: 'PCGS',
    typicalInCents: { MS65: 410_000, MS66: 465_000 },
    sales: [
      ['MS66', 27],
      ['MS65', 50],
      ['MS66', 81],
      ['MS66', 190],
      ['MS66', 333],
    ],
  },
  {
    coin: '1904 Liberty Head Double Eagle',
    service: 'PCGS',
    typicalInCents: { MS62: 335_000, MS63: 372_000, MS64: 455_000 },
    sales: [
      ['MS63', 36],
      ['MS63', 88],
      ['MS62', 120],
      ['MS63', 280],
      ['MS64', 400],
      ['MS63', 900],
    ],
  },
  {
    coin: '1932 Indian Head Eagle',
    service: 'NGC',
    typicalInCents: { MS63: 168_000, MS64: 185_000, MS65: 205_000 },
    sales: [
      ['MS64', 17],
      ['MS65', 39],
      ['MS64', 52],
      ['MS63', 110],
    ],
  },
  {
    coin: '1882-S Liberty Head Eagle',
    service: 'ANACS',
    typicalInCents: { AU55: 158_000, AU58: 172_000 },
    sales: [
      ['AU58', 33],
      ['AU55', 120],
      ['AU58', 210],
    ],
  },
  {
    coin: '1986-W $50 Proof American Gold Eagle',
    service: 'PCGS',
    typicalInCents: { 'PF69 DCAM': 365_000, 'PF70 DCAM': 480_000 },
    sales: [
      ['PF69 DCAM', 40],
      ['PF70 DCAM', 95],
      ['PF69 DCAM', 150],
      ['PF69 DCAM', 275],
    ],
  },
  {
    coin: '1996 American Silver Eagle',
    service: 'PCGS',
    typicalInCents: { MS69: 11_500, MS70: 42_000 },
    sales: [
      ['MS69', 11],
      ['MS69', 64],
      ['MS69', 97],
      ['MS70', 140],
      ['MS69', 170],
      ['MS69', 322],
    ],
  },
  {
    coin: '1877 Indian Head Cent',
    service: 'ANACS',
    typicalInCents: { VF25: 205_000, VF30: 240_000 },
    sales: [
      ['VF30', 63],
      ['VF30', 180],
      ['VF25', 300],
      ['VF30', 455],
    ],
  },
  {
    coin: '1928 Peace Dollar',
    service: 'PCGS',
    typicalInCents: { MS63: 41_000, MS64: 72_500 },
    sales: [
      ['MS64', 14],
      ['MS63', 45],
      ['MS64', 70],
      ['MS64', 128],
      ['MS64', 215],
      ['MS64', 380],
      ['MS64', 600],
    ],
  },
  {
    coin: '1909-S VDB Lincoln Cent',
    service: 'PCGS',
    typicalInCents: { AU55: 178_000, AU58: 195_000, MS60: 212_000 },
    // Ten months ago one AU58 sale was known; five months ago two, and an AU55; four now.
    sales: [
      ['AU58', 24],
      ['MS60', 60],
      ['AU58', 97],
      ['AU55', 180],
      ['AU58', 240],
      ['AU58', 520],
    ],
  },
  {
    // Sold as sets graded coin by coin: never at the set's own "PF64-PF65", so only the grades beside it compare.
    coin: '1936 U.S. Proof Set, 5 coins',
    service: 'PCGS',
    typicalInCents: { PF63: 850_000, PF64: 930_000, PF65: 1_030_000 },
    sales: [
      ['PF64', 58],
      ['PF63', 133],
      ['PF65', 260],
      ['PF64', 430],
    ],
  },
];

/** The price guide: coins with too few sales to value from them, ancients and raw coins. */
export const PRICE_GUIDE: readonly GuideSpec[] = [
  { coin: '1884-CC Morgan Dollar GSA Hoard', grade: 'MS65', valueInCents: 78_500 },
  { coin: '1921 Morgan Dollar', grade: 'VF30', valueInCents: 4_200 },
  { coin: '1924 Saint-Gaudens Double Eagle', grade: 'MS65', valueInCents: 415_000 },
  { coin: '1904 Liberty Head Double Eagle', grade: 'MS63', valueInCents: 365_000 },
  { coin: '1909-S VDB Lincoln Cent', grade: 'AU58', valueInCents: 190_000 },
  { coin: '1936 U.S. Proof Set, 5 coins', grade: 'PF64-PF65', valueInCents: 925_000 },
  { coin: 'Athens AR Tetradrachm (Owl), c. 454-404 BC', grade: 'Ch XF', valueInCents: 240_000 },
  { coin: 'Augustus AR Denarius, Lugdunum (Gaius & Lucius)', grade: 'XF', valueInCents: 120_000 },
];

/**
 * The items the engine valued and when. Only items still held (in stock or at auction): a valuation after the sale
 * would make no sense. The engine values bullion at melt, and some coins nothing can value (an unslabbed set without
 * a grade, an ancient the guide does not list): those are not here.
 */
export const VALUATION_PLANS: readonly ValuationPlan[] = [
  { sku: 'MOR-1881-S-65', runsDaysAgo: [120, 0], applied: true },
  { sku: 'MOR-1893-S-30', runsDaysAgo: [30, 0], applied: true },
  { sku: 'MOR-1884-CC-65', runsDaysAgo: [0], applied: false },
  { sku: 'MOR-1880-S-67', runsDaysAgo: [90, 0], applied: false },
  { sku: 'MOR-1921-D-63', runsDaysAgo: [0], applied: true },
  { sku: 'MOR-1904-O-64', runsDaysAgo: [0], applied: false },
  { sku: 'MOR-1921-P-VF30', runsDaysAgo: [0], applied: false },
  { sku: 'SGE-1924-P-65', runsDaysAgo: [200, 0], applied: true },
  { sku: 'SGE-1927-P-66', runsDaysAgo: [0], applied: false },
  { sku: 'LIB-1904-P-63', runsDaysAgo: [150, 0], applied: false },
  { sku: 'IND-1932-P-64', runsDaysAgo: [0], applied: true },
  { sku: 'LIB-1882-S-10-58', runsDaysAgo: [0], applied: false },
  { sku: 'AGE-1986-W-PF69', runsDaysAgo: [0], applied: false },
  { sku: 'ASE-1996-P-69', runsDaysAgo: [0], applied: false },
  { sku: 'IHC-1877-P-30', runsDaysAgo: [0], applied: false },
  { sku: 'PEA-1928-P-64', runsDaysAgo: [0], applied: true },
  { sku: 'LIN-1909-S-VDB', runsDaysAgo: [300, 150, 0], applied: true },
  { sku: 'PRF-1936-5PC', runsDaysAgo: [200, 0], applied: false },
  { sku: 'ANC-ATH-OWL-01', runsDaysAgo: [0], applied: true },
  { sku: 'ANC-AUG-DEN-04', runsDaysAgo: [0], applied: false },
  // Bullion, and gold without a grade: melt values, which the shop does not take as its prices (it sells at a
  // premium over the metal).
  { sku: 'AGE-2024-1OZ', runsDaysAgo: [0], applied: false },
  { sku: 'ASE-2024-BU', runsDaysAgo: [0], applied: false },
  { sku: 'MPL-2024-1OZ-AU', runsDaysAgo: [0], applied: false },
  { sku: 'BRI-2024-1OZ-AG', runsDaysAgo: [0], applied: false },
  { sku: 'BAR-PAMP-10OZ-AG', runsDaysAgo: [0], applied: false },
  { sku: 'MEX-1947-50P', runsDaysAgo: [0], applied: false },
  { sku: 'SOV-1912-GB', runsDaysAgo: [0], applied: false },
  { sku: 'SWF-1935-B-20F', runsDaysAgo: [0], applied: false },
  { sku: 'CAN-1967-20D', runsDaysAgo: [0], applied: false },
];
