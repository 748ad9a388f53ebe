import { describe, expect, it } from 'vitest';
import { estimate, type Inputs, identityOf, itemIdentity, type Sale } from '../../../src/modules/valuations/engine.js';
import { parseGrade } from '../../../src/modules/valuations/grades.js';

/**
 * The engine on a fixed fixture, every expected figure worked out by hand from the algorithm as the docs give it
 * ("How valuations are computed"), the arithmetic written beside it.
 */

const NOW = new Date('2026-06-01T00:00:00Z');
const MORGAN = identityOf('1881-S Morgan Dollar');
const SILVER_DOLLAR = { metal: 'silver', fineness: 0.9, weightGrams: 26.73 };
const SPOT = { silver: 3_800, gold: 330_000 };

function sale(grade: string, priceInCents: number, soldAt: string, overrides: Partial<Sale> = {}): Sale {
  return {
    identity: MORGAN,
    source: 'auction_archive',
    title: `1881-S Morgan Dollar PCGS ${grade}`,
    gradingService: 'PCGS',
    grade,
    priceInCents,
    soldAt: new Date(`${soldAt}T00:00:00Z`),
    soldAtText: soldAt,
    venue: 'Heritage',
    url: `https://heritage.example/lots/${grade}-${priceInCents}`,
    ...overrides,
  };
}

const inputs = (overrides: Partial<Inputs> & { grade?: string }): Inputs => ({
  item: {
    identity: MORGAN,
    gradingService: 'PCGS',
    grade: overrides.grade ?? 'MS65',
    attributes: SILVER_DOLLAR,
  },
  sales: [],
  priceGuideValueInCents: null,
  spotCentsPerOz: SPOT,
  now: NOW,
  ...overrides,
});

// Four PCGS MS65 sales within two years, and sales that must not count.
const A = sale('MS65', 24_000, '2026-05-01'); // 31 days old
const B = sale('MS65', 25_500, '2026-03-02'); // 91 days
const C = sale('MS65', 27_000, '2025-12-03'); // 180 days
const D = sale('MS65', 26_200, '2025-06-01'); // 365 days
const IGNORED = [
  sale('MS65', 30_000, '2026-04-01', { gradingService: 'NGC' }), // another grading service
  sale('MS65', 50_000, '2024-05-01'), // 761 days: older than two years
  sale('MS65', 90_000, '2026-07-01'), // after now
  sale('PR65', 80_000, '2026-04-01'), // a proof: another family
  sale('MS65', 70_000, '2026-04-01', { identity: identityOf('1881-O Morgan Dollar') }), // another coin
];
const F = sale('MS64', 11_000, '2026-04-01'); // one step below: not needed while the exact grade has enough

// 1881-S Morgan: 26.73 g × 0.9 fine = 24.057 g = 24.057 / 31.1034768 oz = 0.77345 oz; × $38.00 = 2,939.11 cents.
const MELT = 2_939;

describe('the valuation engine, on a fixed fixture', () => {
  it('comps: the median of the exact grade, the interquartile range, confidence from count, spread and age', () => {
    const result = estimate(inputs({ sales: [D, F, ...IGNORED, B, A, C], priceGuideValueInCents: 26_000 }));
    // Sorted prices 24,000 25,500 26,200 27,000; quantile q at position 3q between neighbours.
    expect(result).toEqual({
      basis: 'comps',
      estimateInCents: 25_850, // q 0.5: position 1.5 = 25,500 + 0.5 × 700
      estimateLowInCents: 25_125, // q 0.25: position 0.75 = 24,000 + 0.75 × 1,500
      estimateHighInCents: 26_400, // q 0.75: position 2.25 = 26,200 + 0.25 × 800
      // count 4/10 × 40 = 16; spread (1 − 1,275/25,850) × 35 = 33.27; median age 135.5 days: (1 − 135.5/730) × 25 =
      // 20.36; 69.63 rounds to 70.
      confidencePercent: 70,
      priceGuideValueInCents: 26_000,
      meltValueInCents: MELT,
      summary: 'Median of 4 comparable PCGS MS65 sales: $258.50, range $251.25 to $264.00.',
      // Newest first, exactly as sold (not adjusted).
      comps: [A, B, C, D].map((s) => ({
        source: s.source,
        title: s.title,
        grade: s.grade,
        gradingService: s.gradingService,
        priceInCents: s.priceInCents,
        soldAt: s.soldAtText,
        venue: s.venue,
        url: s.url,
      })),
    });
  });

  it('comps widened to one grade step either side, each adjusted 10% a step, with the confidence penalty', () => {
    const X = sale('MS64', 11_000, '2026-04-01'); // 61 days, the item's grade
    const Y = sale('MS63', 6_000, '2026-02-01'); // 120 days, one step below: × 1.1 = 6,600
    // A (MS65, one step above): 24,000 / 1.1 = 21,818.18
    const result = estimate(inputs({ grade: 'MS64', sales: [Y, A, X] }));
    expect(result).toMatchObject({
      basis: 'comps',
      estimateInCents: 11_000, // median of 6,600 11,000 21,818.18
      estimateLowInCents: 6_600, // three sales: the lowest and the highest
      estimateHighInCents: 21_818,
      // count 3/10 × 40 = 12; spread 1 − 15,218/11,000 < 0: 0; median age 61: (1 − 61/730) × 25 = 22.91;
      // 34.91 rounds to 35, less 15 for widening.
      confidencePercent: 20,
      summary:
        'Median of 3 comparable PCGS sales within one grade step of MS64 (each adjusted 10% per grade step): $110.00, range $66.00 to $218.18.',
    });
    // Newest first, as sold.
    expect(result?.comps.map((c) => c.priceInCents)).toEqual([24_000, 11_000, 6_000]);
  });

  it('price guide when sales are too few: the guide value ± 10%, confidence 50, no comps', () => {
    const result = estimate(inputs({ sales: [A, B], priceGuideValueInCents: 30_000 }));
    expect(result).toEqual({
      basis: 'price_guide',
      estimateInCents: 30_000,
      estimateLowInCents: 27_000,
      estimateHighInCents: 33_000,
      confidencePercent: 50,
      priceGuideValueInCents: 30_000,
      meltValueInCents: MELT,
      summary:
        'Price guide value for MS65: $300.00, range $270.00 to $330.00; 2 comparable sales, fewer than the 3 an estimate from sales needs.',
      comps: [],
    });
  });

  it('melt when there is neither: the metal value up to 10% above it, confidence 40', () => {
    const result = estimate(inputs({}));
    expect(result).toEqual({
      basis: 'melt',
      estimateInCents: MELT,
      estimateLowInCents: MELT,
      estimateHighInCents: 3_233, // 2,939 × 1.1 = 3,232.9
      confidencePercent: 40,
      priceGuideValueInCents: null,
      meltValueInCents: MELT,
      summary:
        'Melt value: 0.7735 oz of silver at $38.00/oz is $29.39, range $29.39 to $32.33; 0 comparable sales and no price guide value.',
      comps: [],
    });
  });

  it('nothing when no sale, guide entry or metal applies; no melt without every metal attribute or a spot price', () => {
    expect(
      estimate(inputs({ item: { identity: MORGAN, gradingService: 'PCGS', grade: 'MS65', attributes: {} } })),
    ).toBe(null);
    expect(estimate(inputs({ spotCentsPerOz: { gold: 330_000 } }))).toBe(null);
    for (const attributes of [
      { ...SILVER_DOLLAR, fineness: 1.5 },
      { ...SILVER_DOLLAR, weightGrams: 0 },
      { ...SILVER_DOLLAR, metal: null },
      { ...SILVER_DOLLAR, fineness: '0.9' },
    ]) {
      expect(
        estimate(inputs({ item: { identity: MORGAN, gradingService: 'PCGS', grade: null, attributes } })),
      ).toBeNull();
    }
  });

  it('matches the grading service and the grade however they are written', () => {
    const lower = [A, B, C].map((s) => ({ ...s, gradingService: ' pcgs ', grade: 'ms 65' }));
    expect(estimate(inputs({ sales: lower }))?.basis).toBe('comps');
    expect(identityOf('1881-S  Morgan Dollar!')).toBe('1881 s morgan dollar');
  });

  it("takes an item's coin from its coin attribute, else from its title less the grading service and grade", () => {
    const item = { title: '1881-S Morgan Dollar PCGS MS65', gradingService: 'PCGS', grade: 'MS65', attributes: {} };
    expect(itemIdentity(item)).toBe(MORGAN);
    expect(itemIdentity({ ...item, title: '1881-S Morgan Dollar MS65' })).toBe(MORGAN);
    expect(itemIdentity({ ...item, title: '1881-S Morgan Dollar' })).toBe(MORGAN);
    // Only at the end: a grade inside the title is part of the coin's name as written.
    expect(itemIdentity({ ...item, title: 'PCGS MS65 1881-S Morgan Dollar' })).toBe('pcgs ms65 1881 s morgan dollar');
    expect(itemIdentity({ ...item, attributes: { coin: '1881-S Morgan' } })).toBe('1881 s morgan');
  });
});

describe('grades', () => {
  it('reads the Sheldon scale with its prefixes and designations, and nothing else', () => {
    expect(parseGrade('MS65')).toEqual({ key: 'MS65', family: 'strike', step: 24 });
    expect(parseGrade('ms 64 PL')).toEqual({ key: 'MS64PL', family: 'strike', step: 23 });
    expect(parseGrade('PR69DCAM')).toEqual({ key: 'PR69DCAM', family: 'proof', step: 28 });
    expect(parseGrade('AU58')?.step).toBe(18);
    expect(parseGrade('VF-30')).toEqual({ key: 'VF-30', family: 'strike', step: 11 });
    for (const text of [null, 'Choice BU', 'MS71', 'MS5', 'XX65', '65']) expect(parseGrade(text)).toBeNull();
  });
});
