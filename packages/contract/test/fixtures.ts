import type { Consignment, Invoice, Item, Me, Valuation } from '../src/types.js';

export const ID = '3f1c2b9e-8a4d-4c6e-9b7a-1d2e3f4a5b6c';
export const OTHER_ID = 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d';
export const NOW = '2026-11-22T10:00:00.000Z';

export const organization = { id: ID, name: 'Liberty Coins', slug: 'liberty-coins' };

export const me: Me = {
  organization,
  apiKey: { id: ID, name: 'website sync', expiresAt: null, scopes: ['read', 'write'] },
  rateLimit: { maxRequests: 120, windowSeconds: 60 },
};

export const item: Item = {
  id: ID,
  sku: 'MS-1881-S',
  title: '1881-S Morgan Dollar MS65',
  description: null,
  category: { id: OTHER_ID, name: 'Morgan Dollars' },
  quantity: { available: 1, sold: 0, reserved: 0 },
  valueInCents: 32_500,
  acquisition: { priceInCents: 21_000, date: NOW, from: 'Estate lot', notes: null },
  grading: { service: 'PCGS', grade: 'MS65', certificateNumber: '12345678', notes: null },
  attributes: { year: 1881, mint: 'S', toned: false, pedigree: null },
  location: { warehouseId: ID, zoneId: OTHER_ID, details: 'Tray 4' },
  consignmentId: null,
  isAtAuction: false,
  images: [{ url: 'https://img.example/1.jpg', width: 1200, height: null }],
  createdAt: NOW,
  updatedAt: null,
};

export const valuation: Valuation = {
  id: ID,
  itemId: OTHER_ID,
  estimateLowInCents: 30_000,
  estimateInCents: 32_500,
  estimateHighInCents: 35_000,
  confidencePercent: 80,
  basis: 'comps',
  priceGuideValueInCents: null,
  meltValueInCents: 2_300,
  summary: 'Three recent PCGS MS65 sales.',
  comps: [
    {
      source: 'auction-archive',
      title: '1881-S $1 PCGS MS65',
      grade: 'MS65',
      gradingService: 'PCGS',
      priceInCents: 31_000,
      soldAt: 'March 2026',
      venue: 'Heritage',
      url: null,
    },
  ],
  appliedAt: null,
  createdAt: NOW,
};

export const consignment: Consignment = {
  id: ID,
  number: 'C-1001',
  name: 'Smith collection',
  status: 'listed',
  paymentStatus: null,
  consignor: { id: OTHER_ID, name: 'J. Smith', email: null },
  commissionBps: 1000,
  buyerPremiumBps: null,
  numItems: 12,
  numItemsSold: 0,
  totalValueInCents: 500_000,
  totalSoldInCents: 0,
  totalCommissionInCents: 0,
  totalPayoutInCents: 0,
  receivedAt: NOW,
  soldAt: null,
  settledAt: null,
  createdAt: NOW,
};

export const invoice: Invoice = {
  id: ID,
  number: 1042,
  status: 'partially_paid',
  source: 'manual',
  customer: { id: null, name: 'Walk-in', email: null },
  subtotalInCents: 10_000,
  discountInCents: 500,
  shippingInCents: 1_000,
  taxInCents: 800,
  totalInCents: 11_300,
  paidInCents: 5_000,
  dueInCents: 6_300,
  lines: [
    { id: ID, itemId: null, description: 'Proof set', quantity: 2, unitPriceInCents: 5_000, totalPriceInCents: 10_000 },
  ],
  payments: [{ id: OTHER_ID, amountInCents: 5_000, method: 'card', status: 'succeeded', paidAt: NOW }],
  dueAt: null,
  paidAt: null,
  createdAt: NOW,
};
