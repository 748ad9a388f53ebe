import type { CustomerKey, InvoiceSpec } from './shapes.js';

/** The shop's customers, its invoices (with their lines and payments) and its marketplace listings. */

export const CUSTOMERS: ReadonlyArray<{ key: CustomerKey; name: string; email: string | null }> = [
  { key: 'jennings', name: 'Harold Jennings', email: 'hjennings@mail.example' },
  { key: 'natarajan', name: 'Priya Natarajan', email: 'priya@natarajan-numismatics.example' },
  { key: 'coastal', name: 'Coastal Bullion Exchange', email: 'orders@coastal-bullion.example' },
  { key: 'okonkwo', name: 'Thomas Okonkwo', email: null },
];

/** Payment terms of every issued invoice. */
export const TERMS_DAYS = 30;

// Payments follow the status: paid → succeeded payments equal the total; partially_paid → some, less than the
// total; sent and overdue → less than the total; draft, void and cancelled → none succeeded.
export const INVOICES: readonly InvoiceSpec[] = [
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

export const MARKETPLACE_LISTINGS: ReadonlyArray<{ sku: string; listingId: string }> = [
  { sku: 'MOR-1881-S-65', listingId: 'mkt-100234' },
  { sku: 'ASE-2024-BU', listingId: 'mkt-100251' },
  { sku: 'PEA-1928-P-64', listingId: 'mkt-100287' },
];
