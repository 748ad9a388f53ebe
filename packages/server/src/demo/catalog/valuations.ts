import type { ValuationBasis } from '@coinventory/contract';
import type { ValuationPlan } from './shapes.js';

/** What the demo's valuations are made of: which coins were valued how, the venues of comparable sales, spot prices. */

/** Spot prices the melt values use (cents per troy ounce). */
export const SPOT_CENTS_PER_OZ: Readonly<Record<string, number>> = { gold: 330_000, silver: 3_800 };
export const GRAMS_PER_TROY_OUNCE = 31.1034768;

// Only items still held (in stock or at auction): a valuation after the sale would make no sense.
export const VALUATION_PLANS: readonly ValuationPlan[] = [
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

export const VENUES: ReadonlyArray<{ venue: string; host: string; source: string }> = [
  { venue: 'Heritage', host: 'heritage.example', source: 'auction_archive' },
  { venue: "Stack's Bowers", host: 'stacksbowers.example', source: 'auction_archive' },
  { venue: 'GreatCollections', host: 'greatcollections.example', source: 'auction_archive' },
  { venue: 'eBay', host: 'ebay.example', source: 'marketplace_sold_listing' },
];

/** How many comparable sales each kind of valuation cites (fewest, most). */
export const COMP_COUNTS: Readonly<Record<ValuationBasis, readonly [number, number]>> = {
  comps: [3, 5],
  price_guide: [0, 2],
  melt: [0, 0],
  model_knowledge: [0, 1],
};
