import { COMPS_MAX_AGE_DAYS, gradeNear, type Inputs, MIN_COMPS, serviceKey, soldInWindow } from './engine.js';
import { parseGrade } from './grades.js';

/**
 * Why the engine could not value an item (estimate gave null), in the terms of "How valuations are computed": the
 * comparable sales it found against the MIN_COMPS it needs, counted by grading service, within the window; then why
 * neither the price guide nor the metal gave a value. So an operator knows what to import or set.
 */
export interface NotValued {
  /** One sentence: `1 NGC sale of its coin within one grade step of MS63 in the last 730 days, 3 needed; …`. */
  reason: string;
  sales: {
    /**
     * The sales of the item's coin in the window, at a grade that compares with the item's (any grade when the item
     * has none a sale can compare with), by grading service as compared (upper case); `none` for sales without one.
     */
    byGradingService: Record<string, number>;
    /** How many of the item's own grading service an estimate from sales needs. */
    needed: number;
    windowDays: number;
  };
}

/** The key of sales that name no grading service. */
const NO_SERVICE = 'none';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** `4 PCGS, 1 NGC, 2 without a grading service`, most first. */
function counted(byService: Readonly<Record<string, number>>): string {
  return Object.entries(byService)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .map(([service, n]) => (service === NO_SERVICE ? `${n} without a grading service` : `${n} ${service}`))
    .join(', ');
}

export function whyNotValued(inputs: Inputs): NotValued {
  const { item, now } = inputs;
  const grade = parseGrade(item.grade);
  const byGradingService: Record<string, number> = {};
  for (const sale of inputs.sales) {
    if (sale.identity !== item.identity || !soldInWindow(sale, now)) continue;
    if (grade && !gradeNear(parseGrade(sale.grade), grade)) continue;
    const key = serviceKey(sale.gradingService) ?? NO_SERVICE;
    byGradingService[key] = (byGradingService[key] ?? 0) + 1;
  }
  const reasons = [salesReason(inputs, byGradingService), guideReason(item.grade), meltReason(inputs)];
  return {
    reason: `${reasons.join('; ')}.`,
    sales: { byGradingService, needed: MIN_COMPS, windowDays: COMPS_MAX_AGE_DAYS },
  };
}

function salesReason({ item }: Inputs, byService: Readonly<Record<string, number>>): string {
  const window = `in the last ${COMPS_MAX_AGE_DAYS} days`;
  const found = (where: string) =>
    Object.keys(byService).length === 0
      ? `no sales of its coin${where} ${window}`
      : `sales of its coin${where} ${window}: ${counted(byService)}`;
  const grade = parseGrade(item.grade);
  if (item.grade === null) return `no grade, so no sale compares (${found('')})`;
  if (!grade)
    return `its grade "${item.grade}" is not a Sheldon grade such as MS65, so no sale compares (${found('')})`;
  const near = ` within one grade step of ${grade.key}`;
  const service = serviceKey(item.gradingService);
  if (service === null) return `no grading service, so no sale compares (${found(near)})`;
  const own = byService[service] ?? 0;
  const { [service]: _own, ...others } = byService;
  const also = Object.keys(others).length === 0 ? '' : ` (other grading services do not count: ${counted(others)})`;
  return `${plural(own, `${service} sale`)} of its coin${near} ${window}, ${MIN_COMPS} needed${also}`;
}

function guideReason(grade: string | null): string {
  return grade === null ? 'no price guide value (it needs a grade)' : `no price guide value for ${grade}`;
}

/** Why there is no melt value: the attributes it is computed from, or the metal's spot price. */
function meltReason({ item, spotCentsPerOz }: Inputs): string {
  const { metal, fineness, weightGrams } = item.attributes;
  const missing = [
    typeof metal === 'string' ? null : 'metal',
    typeof fineness === 'number' && fineness > 0 && fineness <= 1 ? null : 'fineness (above 0, at most 1)',
    typeof weightGrams === 'number' && weightGrams > 0 ? null : 'weightGrams (above 0)',
  ].filter((name) => name !== null);
  if (missing.length > 0) return `no melt value (attributes needed: ${missing.join(', ')})`;
  const name = String(metal).toLowerCase();
  return spotCentsPerOz[name] === undefined
    ? `no melt value: no spot price for ${name} (coinventory-server spot set)`
    : 'no melt value';
}
