import type { ComparableSale, ValuationBasis } from '@coinventory/contract';
import { type Grade, parseGrade } from './grades.js';

/**
 * The valuation engine: from an item's facts, the organization's comparable sales, its price guide and the spot prices,
 * one estimate with the basis that produced it. Pure: the caller reads the inputs and writes the result
 * (valuations/service.ts). The algorithm is the one "How valuations are computed" documents; each constant below is
 * named there.
 */

/** Sales older than this are not comparables. */
export const COMPS_MAX_AGE_DAYS = 730;
/** Fewer matching sales than this, even after widening, and the estimate does not rest on sales. */
export const MIN_COMPS = 3;
/** At most this many sales, the newest, are used. */
export const MAX_COMPS = 10;
/** A sale one grade step below the item counts at this much more (above: this much less), compounded per step. */
export const GRADE_STEP_ADJUSTMENT = 0.1;
/** Confidence taken off an estimate that had to use adjacent grades. */
export const WIDENING_PENALTY = 15;
/** The range of a price-guide estimate around the guide's value, and its confidence. */
export const PRICE_GUIDE_SPREAD = 0.1;
export const PRICE_GUIDE_CONFIDENCE = 50;
/** A melt estimate ranges from the metal's value to this much above it (a coin sells for at least its metal). */
export const MELT_PREMIUM = 0.1;
export const MELT_CONFIDENCE = 40;
export const GRAMS_PER_TROY_OUNCE = 31.1034768;

const DAY_MS = 86_400_000;

/** What the engine needs of an item. */
export interface ItemFacts {
  /** The coin's identity (identityOf). */
  identity: string;
  gradingService: string | null;
  grade: string | null;
  /** The item's attributes: `metal`, `fineness` and `weightGrams` give its melt value. */
  attributes: Readonly<Record<string, string | number | boolean | null>>;
}

/** A comparable sale as imported: the fields the API shows, and the date it sold. */
export interface Sale {
  identity: string;
  source: string | null;
  title: string | null;
  gradingService: string | null;
  grade: string | null;
  priceInCents: number;
  /** When it sold (compared with `now` for age). */
  soldAt: Date;
  /** As the API shows it in the valuation's comps. */
  soldAtText: string;
  venue: string | null;
  url: string | null;
}

export interface Inputs {
  item: ItemFacts;
  /** The organization's sales of the item's identity (the engine filters the rest itself). */
  sales: readonly Sale[];
  /** The price guide's value for the item's identity and grade, when it has one. */
  priceGuideValueInCents: number | null;
  /** Spot prices in cents per troy ounce, by metal (lower case). */
  spotCentsPerOz: Readonly<Record<string, number>>;
  now: Date;
}

export interface Estimate {
  basis: Extract<ValuationBasis, 'comps' | 'price_guide' | 'melt'>;
  estimateLowInCents: number;
  estimateInCents: number;
  estimateHighInCents: number;
  confidencePercent: number;
  priceGuideValueInCents: number | null;
  meltValueInCents: number | null;
  summary: string;
  /** The sales used, newest first, as the API shows them. */
  comps: ComparableSale[];
}

/** A coin's identity for matching: lower case, every run of other characters than letters and digits one space. */
export function identityOf(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The item's melt value in cents, from `metal` (a string), `fineness` (0 to 1) and `weightGrams` (above 0) among its
 * attributes and the metal's spot price; null when one is missing or out of range.
 */
export function meltValueOf(
  attributes: ItemFacts['attributes'],
  spotCentsPerOz: Inputs['spotCentsPerOz'],
): { cents: number; ounces: number; metal: string; spot: number } | null {
  const { metal, fineness, weightGrams } = attributes;
  if (typeof metal !== 'string' || typeof fineness !== 'number' || typeof weightGrams !== 'number') return null;
  if (!(fineness > 0 && fineness <= 1) || !(weightGrams > 0)) return null;
  const spot = spotCentsPerOz[metal.toLowerCase()];
  if (spot === undefined) return null;
  const ounces = (weightGrams * fineness) / GRAMS_PER_TROY_OUNCE;
  return { cents: Math.round(ounces * spot), ounces, metal: metal.toLowerCase(), spot };
}

/**
 * An item's coin identity: its `coin` attribute when it has one; else its title, less the grading service and grade
 * it ends with when it does ("1881-S Morgan Dollar PCGS MS65" is the coin "1881-S Morgan Dollar").
 */
export function itemIdentity(item: {
  title: string;
  gradingService: string | null;
  grade: string | null;
  attributes: ItemFacts['attributes'];
}): string {
  const coin = item.attributes.coin;
  if (typeof coin === 'string' && coin.trim() !== '') return identityOf(coin);
  let identity = identityOf(item.title);
  for (const suffix of [item.grade, item.gradingService]) {
    const part = suffix === null ? '' : identityOf(suffix);
    if (part !== '' && identity.endsWith(` ${part}`)) identity = identity.slice(0, -part.length - 1);
  }
  return identity;
}

/** The q-quantile of sorted values, interpolated linearly between neighbours (the usual "type 7" definition). */
export function quantile(sorted: readonly number[], q: number): number {
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const lower = sorted[below] as number;
  const upper = sorted[Math.min(below + 1, sorted.length - 1)] as number;
  return lower + (upper - lower) * (position - below);
}

/** A grading service as sales and items are compared by it: trimmed, upper case (`pcgs ` is `PCGS`). */
export const serviceKey = (service: string | null): string | null => service?.trim().toUpperCase() || null;

const sameService = (a: string | null, b: string | null) => serviceKey(a) !== null && serviceKey(a) === serviceKey(b);

/** Whether a sale is recent enough to compare: sold within COMPS_MAX_AGE_DAYS, and not after `now`. */
export const soldInWindow = (sale: Sale, now: Date): boolean =>
  sale.soldAt.getTime() <= now.getTime() && now.getTime() - sale.soldAt.getTime() <= COMPS_MAX_AGE_DAYS * DAY_MS;

/** Whether a sale's grade compares with the item's: of its family, the same grade or at most one step away. */
export const gradeNear = (saleGrade: Grade | null, grade: Grade): saleGrade is Grade =>
  saleGrade?.family === grade.family && (saleGrade.key === grade.key || Math.abs(saleGrade.step - grade.step) <= 1);

/** Cents as dollars to the cent, `$1,234.50`: the summaries', and the operator commands' tables. */
export const dollars = (cents: number) =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const salesCount = (n: number) => `${n} comparable ${n === 1 ? 'sale' : 'sales'}`;

interface Used {
  sale: Sale;
  /** The price counted: the sale's, adjusted for the grade steps between it and the item. */
  adjusted: number;
}

/**
 * The sales that may be comparables: the item's identity and grading service, a grade of the item's family at most
 * one step away, sold within the age limit and not after `now`; newest first.
 */
function nearSales(inputs: Inputs, grade: Grade): Array<{ sale: Sale; grade: Grade }> {
  const { item, now } = inputs;
  return inputs.sales
    .filter(
      (sale) =>
        sale.identity === item.identity &&
        sameService(sale.gradingService, item.gradingService) &&
        soldInWindow(sale, now),
    )
    .map((sale) => ({ sale, grade: parseGrade(sale.grade) }))
    .filter((entry): entry is { sale: Sale; grade: Grade } => gradeNear(entry.grade, grade))
    .sort((a, b) => b.sale.soldAt.getTime() - a.sale.soldAt.getTime());
}

/**
 * The sales the estimate rests on: those at the item's exact grade; when fewer than MIN_COMPS, also those one grade
 * step away, each adjusted by GRADE_STEP_ADJUSTMENT per step. The newest MAX_COMPS, or null when still too few.
 */
function comparables(near: ReturnType<typeof nearSales>, grade: Grade): { used: Used[]; widened: boolean } | null {
  const exact = near.filter((entry) => entry.grade.key === grade.key);
  if (exact.length >= MIN_COMPS) {
    return {
      used: exact.slice(0, MAX_COMPS).map(({ sale }) => ({ sale, adjusted: sale.priceInCents })),
      widened: false,
    };
  }
  if (near.length < MIN_COMPS) return null;
  return {
    used: near.slice(0, MAX_COMPS).map(({ sale, grade: saleGrade }) => ({
      sale,
      adjusted: sale.priceInCents * (1 + GRADE_STEP_ADJUSTMENT) ** (grade.step - saleGrade.step),
    })),
    widened: true,
  };
}

/** The estimate for the item, or null when neither its sales, the price guide nor its metal give one. */
export function estimate(inputs: Inputs): Estimate | null {
  const { item, now, priceGuideValueInCents } = inputs;
  const melt = meltValueOf(item.attributes, inputs.spotCentsPerOz);
  const meltValueInCents = melt?.cents ?? null;
  const grade = parseGrade(item.grade);
  const near = grade ? nearSales(inputs, grade) : [];
  const found = grade ? comparables(near, grade) : null;

  if (found && grade) {
    const { used, widened } = found;
    const prices = used.map(({ adjusted }) => adjusted).sort((a, b) => a - b);
    const middle = Math.round(quantile(prices, 0.5));
    const [low, high] =
      prices.length >= 4
        ? [Math.round(quantile(prices, 0.25)), Math.round(quantile(prices, 0.75))]
        : [Math.round(prices[0] as number), Math.round(prices[prices.length - 1] as number)];
    const ages = used.map(({ sale }) => (now.getTime() - sale.soldAt.getTime()) / DAY_MS).sort((a, b) => a - b);
    const countScore = Math.min(used.length, MAX_COMPS) / MAX_COMPS;
    const spreadScore = middle > 0 ? Math.max(0, 1 - (high - low) / middle) : 0;
    const recencyScore = Math.max(0, 1 - quantile(ages, 0.5) / COMPS_MAX_AGE_DAYS);
    const score = Math.round(40 * countScore + 35 * spreadScore + 25 * recencyScore) - (widened ? WIDENING_PENALTY : 0);
    const service = item.gradingService?.trim().toUpperCase();
    const grades = widened ? `${service} sales within one grade step of ${grade.key}` : `${service} ${grade.key} sales`;
    return {
      basis: 'comps',
      estimateLowInCents: low,
      estimateInCents: middle,
      estimateHighInCents: high,
      confidencePercent: Math.min(95, Math.max(5, score)),
      priceGuideValueInCents,
      meltValueInCents,
      summary:
        `Median of ${used.length} comparable ${grades}${widened ? ` (each adjusted ${GRADE_STEP_ADJUSTMENT * 100}% per grade step)` : ''}: ` +
        `${dollars(middle)}, range ${dollars(low)} to ${dollars(high)}.`,
      comps: used.map(({ sale }) => ({
        source: sale.source,
        title: sale.title,
        grade: sale.grade,
        gradingService: sale.gradingService,
        priceInCents: sale.priceInCents,
        soldAt: sale.soldAtText,
        venue: sale.venue,
        url: sale.url,
      })),
    };
  }

  const fewer = near.length;
  if (priceGuideValueInCents !== null) {
    const low = Math.round(priceGuideValueInCents * (1 - PRICE_GUIDE_SPREAD));
    const high = Math.round(priceGuideValueInCents * (1 + PRICE_GUIDE_SPREAD));
    return {
      basis: 'price_guide',
      estimateLowInCents: low,
      estimateInCents: priceGuideValueInCents,
      estimateHighInCents: high,
      confidencePercent: PRICE_GUIDE_CONFIDENCE,
      priceGuideValueInCents,
      meltValueInCents,
      summary: `Price guide value for ${item.grade}: ${dollars(priceGuideValueInCents)}, range ${dollars(low)} to ${dollars(high)}; ${salesCount(fewer)}, fewer than the ${MIN_COMPS} an estimate from sales needs.`,
      comps: [],
    };
  }

  if (melt) {
    const high = Math.round(melt.cents * (1 + MELT_PREMIUM));
    return {
      basis: 'melt',
      estimateLowInCents: melt.cents,
      estimateInCents: melt.cents,
      estimateHighInCents: high,
      confidencePercent: MELT_CONFIDENCE,
      priceGuideValueInCents: null,
      meltValueInCents: melt.cents,
      summary: `Melt value: ${melt.ounces.toFixed(4)} oz of ${melt.metal} at ${dollars(melt.spot)}/oz is ${dollars(melt.cents)}, range ${dollars(melt.cents)} to ${dollars(high)}; ${salesCount(fewer)} and no price guide value.`,
      comps: [],
    };
  }
  return null;
}
