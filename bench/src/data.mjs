/**
 * What a coin dealer's inventory looks like, as tables the seeder draws from: coin types with their years, mints,
 * metal and price level; grading services and grades on the Sheldon scale; where stock comes from and where it
 * sits. Data only: the seeder (seed/) draws from it with the generator it shares with the demo workspace.
 */

/**
 * @typedef {object} CoinType
 * @property {string} name
 * @property {string} code        SKU prefix
 * @property {[number, number] | null} years   null: an ancient coin, dated by era
 * @property {string[]} mints     mint marks; '' is the mint without a mark (Philadelphia)
 * @property {string} metal
 * @property {number | null} grams
 * @property {number | null} fineness
 * @property {string} country
 * @property {string} category
 * @property {number} baseCents   value of a circulated (VF) example
 * @property {number} weight      how common the type is in a dealer's stock
 * @property {boolean} [bullion]  traded on metal content: modern, high grades, quantities
 * @property {boolean} [copper]   graded with a colour designation (RD, RB, BN)
 * @property {string} [era]
 */

/** @type {readonly CoinType[]} */
export const COIN_TYPES = [
  {
    name: 'Morgan Dollar',
    code: 'MOR',
    years: [1878, 1921],
    mints: ['', 'S', 'O', 'CC', 'D'],
    metal: 'silver',
    grams: 26.73,
    fineness: 0.9,
    country: 'United States',
    category: 'Morgan Dollars',
    baseCents: 5_500,
    weight: 16,
  },
  {
    name: 'Peace Dollar',
    code: 'PEA',
    years: [1921, 1935],
    mints: ['', 'D', 'S'],
    metal: 'silver',
    grams: 26.73,
    fineness: 0.9,
    country: 'United States',
    category: 'Peace Dollars',
    baseCents: 4_800,
    weight: 6,
  },
  {
    name: 'Saint-Gaudens Double Eagle',
    code: 'SGD',
    years: [1907, 1933],
    mints: ['', 'D', 'S'],
    metal: 'gold',
    grams: 33.436,
    fineness: 0.9,
    country: 'United States',
    category: 'US Gold',
    baseCents: 260_000,
    weight: 5,
  },
  {
    name: 'Liberty Head Double Eagle',
    code: 'LDE',
    years: [1850, 1907],
    mints: ['', 'S', 'O', 'CC'],
    metal: 'gold',
    grams: 33.436,
    fineness: 0.9,
    country: 'United States',
    category: 'US Gold',
    baseCents: 245_000,
    weight: 4,
  },
  {
    name: 'Indian Head Eagle',
    code: 'IHE',
    years: [1907, 1933],
    mints: ['', 'D', 'S'],
    metal: 'gold',
    grams: 16.718,
    fineness: 0.9,
    country: 'United States',
    category: 'US Gold',
    baseCents: 125_000,
    weight: 2,
  },
  {
    name: 'Indian Head Half Eagle',
    code: 'IHH',
    years: [1908, 1929],
    mints: ['', 'D', 'S', 'O'],
    metal: 'gold',
    grams: 8.359,
    fineness: 0.9,
    country: 'United States',
    category: 'US Gold',
    baseCents: 65_000,
    weight: 2,
  },
  {
    name: 'Walking Liberty Half Dollar',
    code: 'WLH',
    years: [1916, 1947],
    mints: ['', 'D', 'S'],
    metal: 'silver',
    grams: 12.5,
    fineness: 0.9,
    country: 'United States',
    category: 'Half Dollars',
    baseCents: 2_800,
    weight: 6,
  },
  {
    name: 'Franklin Half Dollar',
    code: 'FRH',
    years: [1948, 1963],
    mints: ['', 'D'],
    metal: 'silver',
    grams: 12.5,
    fineness: 0.9,
    country: 'United States',
    category: 'Half Dollars',
    baseCents: 1_600,
    weight: 3,
  },
  {
    name: 'Barber Half Dollar',
    code: 'BAH',
    years: [1892, 1915],
    mints: ['', 'O', 'S', 'D'],
    metal: 'silver',
    grams: 12.5,
    fineness: 0.9,
    country: 'United States',
    category: 'Half Dollars',
    baseCents: 9_000,
    weight: 2,
  },
  {
    name: 'Mercury Dime',
    code: 'MER',
    years: [1916, 1945],
    mints: ['', 'D', 'S'],
    metal: 'silver',
    grams: 2.5,
    fineness: 0.9,
    country: 'United States',
    category: 'Dimes',
    baseCents: 700,
    weight: 6,
  },
  {
    name: 'Standing Liberty Quarter',
    code: 'SLQ',
    years: [1916, 1930],
    mints: ['', 'D', 'S'],
    metal: 'silver',
    grams: 6.25,
    fineness: 0.9,
    country: 'United States',
    category: 'Quarters',
    baseCents: 5_500,
    weight: 3,
  },
  {
    name: 'Seated Liberty Dollar',
    code: 'SLD',
    years: [1840, 1873],
    mints: ['', 'O', 'S', 'CC'],
    metal: 'silver',
    grams: 26.73,
    fineness: 0.9,
    country: 'United States',
    category: 'Early Dollars',
    baseCents: 55_000,
    weight: 1,
  },
  {
    name: 'Lincoln Wheat Cent',
    code: 'LWC',
    years: [1909, 1958],
    mints: ['', 'D', 'S'],
    metal: 'bronze',
    grams: 3.11,
    fineness: null,
    country: 'United States',
    category: 'Cents',
    baseCents: 1_200,
    weight: 7,
    copper: true,
  },
  {
    name: 'Indian Head Cent',
    code: 'IHC',
    years: [1859, 1909],
    mints: ['', 'S'],
    metal: 'bronze',
    grams: 3.11,
    fineness: null,
    country: 'United States',
    category: 'Cents',
    baseCents: 3_500,
    weight: 4,
    copper: true,
  },
  {
    name: 'Buffalo Nickel',
    code: 'BUF',
    years: [1913, 1938],
    mints: ['', 'D', 'S'],
    metal: 'nickel',
    grams: 5,
    fineness: null,
    country: 'United States',
    category: 'Nickels',
    baseCents: 3_000,
    weight: 4,
  },
  {
    name: 'American Silver Eagle',
    code: 'ASE',
    years: [1986, 2025],
    mints: ['', 'W', 'S', 'P'],
    metal: 'silver',
    grams: 31.103,
    fineness: 0.999,
    country: 'United States',
    category: 'Bullion',
    baseCents: 4_200,
    weight: 9,
    bullion: true,
  },
  {
    name: 'American Gold Eagle 1 oz',
    code: 'AGE',
    years: [1986, 2025],
    mints: ['', 'W'],
    metal: 'gold',
    grams: 33.931,
    fineness: 0.9167,
    country: 'United States',
    category: 'Bullion',
    baseCents: 275_000,
    weight: 3,
    bullion: true,
  },
  {
    name: 'Gold Maple Leaf 1 oz',
    code: 'GML',
    years: [1979, 2025],
    mints: [''],
    metal: 'gold',
    grams: 31.11,
    fineness: 0.9999,
    country: 'Canada',
    category: 'World Gold',
    baseCents: 270_000,
    weight: 2,
    bullion: true,
  },
  {
    name: 'Athens AR Tetradrachm',
    code: 'ATH',
    years: null,
    era: 'c. 454-404 BC',
    mints: [''],
    metal: 'silver',
    grams: 17.2,
    fineness: null,
    country: 'Greece',
    category: 'Ancient Coins',
    baseCents: 140_000,
    weight: 1,
  },
  {
    name: 'Roman AR Denarius',
    code: 'DEN',
    years: null,
    era: 'c. 100 BC - AD 200',
    mints: [''],
    metal: 'silver',
    grams: 3.8,
    fineness: null,
    country: 'Roman Empire',
    category: 'Ancient Coins',
    baseCents: 25_000,
    weight: 2,
  },
];

/** The categories every seeded workspace has, in the order they are created. */
export const CATEGORY_NAMES = [...new Set(COIN_TYPES.map((t) => t.category))];

/** @type {ReadonlyArray<readonly [CoinType, number]>} */
export const COIN_TYPE_WEIGHTS = COIN_TYPES.map((t) => /** @type {const} */ ([t, t.weight]));

/** @type {Readonly<Record<string, string>>} */
export const MINT_NAMES = {
  '': 'Philadelphia',
  P: 'Philadelphia',
  S: 'San Francisco',
  O: 'New Orleans',
  CC: 'Carson City',
  D: 'Denver',
  W: 'West Point',
};

/** Third-party graders and how often a dealer's stock is in their holders; null: a raw (ungraded) coin. */
/** @type {ReadonlyArray<readonly [string | null, number]>} */
export const GRADING_SERVICES = [
  ['PCGS', 40],
  ['NGC', 36],
  ['CACG', 4],
  ['ANACS', 4],
  ['ICG', 2],
  [null, 14],
];

/** Sheldon grades of circulated and mint-state coins, weighted by how often they turn up at a dealer. */
/** @type {ReadonlyArray<readonly [number, number]>} */
export const CLASSIC_GRADES = [
  [4, 2],
  [6, 2],
  [8, 2],
  [10, 2],
  [12, 3],
  [15, 3],
  [20, 4],
  [25, 4],
  [30, 5],
  [35, 5],
  [40, 5],
  [45, 6],
  [50, 5],
  [53, 5],
  [55, 6],
  [58, 7],
  [60, 3],
  [61, 4],
  [62, 7],
  [63, 10],
  [64, 12],
  [65, 10],
  [66, 6],
  [67, 3],
  [68, 1],
];

/** Modern bullion is slabbed in the top grades. */
/** @type {ReadonlyArray<readonly [number, number]>} */
export const BULLION_GRADES = [
  [67, 2],
  [68, 5],
  [69, 60],
  [70, 33],
];

/** NGC's adjectival grades for ancient coins. */
export const ANCIENT_GRADES = ['Ch VF', 'XF', 'Ch XF', 'AU', 'Ch AU', 'MS', 'VF', 'F'];

export const ACQUIRED_FROM = [
  'FUN Show',
  'Long Beach Expo',
  'Whitman Baltimore Expo',
  'ANA World’s Fair of Money',
  'Heritage Auctions',
  "Stack's Bowers",
  'GreatCollections',
  'eBay',
  'Walk-in customer',
  'Estate purchase',
  'Wholesale lot',
  'Local coin club',
  'Dealer trade',
];

export const GRADING_NOTES = [
  'Light golden toning on the reverse.',
  'Old green holder (OGH).',
  'CAC approved.',
  'Rim nick at 4 o’clock noted on the label.',
  'Crossed over from an older holder.',
  'Details grade: cleaned.',
  'Prooflike fields on the obverse.',
  'Strong strike, full bands.',
];

export const DESCRIPTIONS = [
  'Blast-white surfaces with a bold strike and full cartwheel luster.',
  'Original, never-cleaned coin with attractive album toning in blue and gold.',
  'Even wear consistent with the grade; no problems, a solid type coin.',
  'Well struck for the issue, with clean cheeks and lustrous fields.',
  'Semi-prooflike fields contrast nicely with frosty devices.',
  'Sharp details and pleasing eye appeal; a conditionally scarce date.',
  'Hoard coin from a West Coast collection, fresh to the market.',
  'Light handling marks in the fields, otherwise an appealing example.',
  'Deep rainbow toning on the obverse; the reverse is untoned.',
  'Popular key date, problem-free and properly graded.',
];

export const LOCATION_DETAILS = ['Slab box 3, row 2', 'Tray 12', 'Safe drawer B', 'Case 4, top shelf', 'Bin 7'];

export const PEDIGREES = ['Eliasberg', 'Norweb', 'Pittman', 'Battle Born', 'Redfield Hoard', 'Simpson', 'Hartwell'];

export const COMP_SOURCES = /** @type {const} */ ([
  ['Heritage Auctions', 'heritage', 'Long Beach Signature Auction'],
  ["Stack's Bowers", 'stacksbowers', 'Summer Baltimore Auction'],
  ['GreatCollections', 'greatcollections', 'Weekly Sunday Auction'],
  ['eBay', 'ebay', 'eBay auction'],
  ['Legend Rare Coin Auctions', 'legend', 'Regency Auction'],
]);

export const VALUATION_SUMMARIES = [
  'Recent sales of the same date and grade cluster tightly; the estimate follows them.',
  'Few recent sales in this grade; the estimate blends adjacent grades and the price guide.',
  'Priced on metal content plus a typical premium for the type.',
  'Strong demand for the date at recent auctions lifts the estimate above the guide.',
];

export const INVOICE_SOURCES = /** @type {const} */ ([
  ['manual', 60],
  ['Heritage Auctions', 12],
  ['eBay', 14],
  ["Stack's Bowers", 6],
  ['GreatCollections', 8],
]);

export const PAYMENT_METHODS = ['card', 'wire', 'check', 'cash', 'ach'];

export const FIRST_NAMES = ['Dana', 'Marcus', 'Jamie', 'Evelyn', 'Raymond', 'Priya', 'Tomás', 'Grace', 'Owen', 'Mei'];
export const LAST_NAMES = [
  'Whitfield',
  'Reyes',
  'Chen',
  'Marsh',
  'Okafor',
  'Shah',
  'Álvarez',
  'Kim',
  'Brandt',
  'Novak',
];
