import type { ValuationBasis } from '@coinventory/contract';
import type { StoredItemRow } from '../../modules/items/index.js';
import type { CoinAttributes, ItemSpec, ValuationPlan } from '../catalog/shapes.js';
import { COMP_COUNTS, GRAMS_PER_TROY_OUNCE, SPOT_CENTS_PER_OZ, VENUES } from '../catalog/valuations.js';
import type { Random } from '../random.js';
import type { ValuationCompRow, ValuationRow } from '../rows.js';
import { addDays, addHours, type BuildContext, dollars, roundToDollar } from './context.js';

/** Valuations of the items the catalog plans them for, each with the comparable sales it cites. */

/** Pure metal value of one unit, or null for coins without a known fineness. */
export function meltValue(attributes: CoinAttributes): number | null {
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
    : `${date.toLocaleString('en-US', { month: 'long', timeZone: 'UTC' })} ${date.getUTCFullYear()}`;
}

export interface ValuationTarget {
  item: StoredItemRow;
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

export function buildValuations(
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

/** The numbers of one valuation; low ≤ estimate ≤ high whenever they are present. */
function valuationFigures(
  context: BuildContext,
  target: ValuationTarget,
  basis: ValuationBasis,
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
