import { isDeepStrictEqual } from 'node:util';
import type { Actor, Valuation, ValuationBasis } from '@coinventory/contract';
import { actAs, OPERATOR } from '../../db/actor.js';
import { violatedForeignKey } from '../../db/errors.js';
import type { Sql } from '../../db/types.js';
import { ApiError, ProvisioningError } from '../../errors.js';
import { recordChange } from '../changes/index.js';
import { findValuation, latestValuations, lockItem, updateItem } from '../items/index.js';
import { requireOrganization } from '../organizations/index.js';
import { type Estimate, estimate, type Inputs, type Sale } from './engine.js';
import { type NotValued, whyNotValued } from './explain.js';
import type { ItemToValue } from './store.js';
import * as data from './store.js';

/** What the operator's `valuate` and `spot` commands do. */

export interface ValuedItem {
  itemId: string;
  sku: string;
  valuationId: string;
  basis: ValuationBasis;
  estimateInCents: number;
  confidencePercent: number;
  /** Whether the estimate became the item's value (`--apply`). */
  applied: boolean;
}

export interface ValuateResult {
  organization: { id: string; slug: string };
  valued: ValuedItem[];
  /**
   * Items whose estimate is the same as their latest valuation's (estimate, range, confidence, basis, guide and melt
   * values, summary and comps): that valuation still stands, and nothing is recorded (a scheduled run of an
   * unchanged organization adds no valuations and no changes). With --apply, only when that valuation was applied.
   */
  unchanged: Array<{ itemId: string; sku: string; valuationId: string }>;
  /**
   * Items nothing could value (too few comparable sales, no price guide value, no melt value), each with why: the
   * sales found by grading service against the minimum, within the window (explain.ts).
   */
  skipped: Array<{ itemId: string; sku: string } & NotValued>;
}

/**
 * Values one item (by id or SKU) or every item of the organization (of these coins only, when `coins` is given): each gets a new valuation when its sales, the
 * price guide or its metal give an estimate. With `apply` (or under an organization policy that applies), the estimate
 * also becomes the item's value, through the same path as a PATCH (an `item.updated` change, its webhooks), in the
 * transaction that records the valuation.
 */
export async function valuate(
  sql: Sql,
  input: {
    org: string;
    item: string | null;
    apply?: boolean;
    now?: Date;
    coins?: ReadonlySet<string>;
    /** Checked before each item: true ends the run there (a process shutting down). */
    stopped?: () => boolean;
    /** Who the valuations' changes name: the operator who ran the command, unless the scheduler runs it. */
    actor?: Actor;
  },
): Promise<ValuateResult> {
  const org = await requireOrganization(sql, input.org);
  const now = input.now ?? new Date();
  // Without --apply, the organization's policy decides (off unless an operator set it).
  const apply = input.apply === true || (await data.policyOf(sql, org.id)).apply;
  const { coins } = input;
  const items = (await data.itemsToValue(sql, org.id, input.item)).filter(
    (item) => coins === undefined || coins.has(item.identity),
  );
  if (input.item !== null && items.length === 0) {
    throw new ProvisioningError('not_found', `No item with id or SKU "${input.item}" in ${org.slug}.`);
  }
  const sources = await sourcesOf(sql, org.id, items, now);
  const result: ValuateResult = {
    organization: { id: org.id, slug: org.slug },
    valued: [],
    unchanged: [],
    skipped: [],
  };
  for (const item of items) {
    if (input.stopped?.()) break;
    await valueItem(sql, { organizationId: org.id, apply, now, actor: input.actor ?? OPERATOR }, item, sources, result);
  }
  return result;
}

/** What the engine values the run's items from, read once for the run; with each item's latest valuation. */
interface Sources {
  salesByIdentity: Map<string, Sale[]>;
  guide: Map<string, number>;
  spotCentsPerOz: Record<string, number>;
  latest: Map<string, Valuation>;
}

async function sourcesOf(sql: Sql, organizationId: string, items: readonly ItemToValue[], now: Date): Promise<Sources> {
  const identities = [...new Set(items.map((item) => item.identity))];
  const salesByIdentity = new Map<string, Sale[]>();
  for (const sale of await data.salesOf(sql, organizationId, identities, now)) {
    salesByIdentity.set(sale.identity, [...(salesByIdentity.get(sale.identity) ?? []), sale]);
  }
  const guide = await data.guideValuesOf(sql, organizationId, identities);
  const spotCentsPerOz = await data.spotPrices(sql);
  const latest = await latestValuations(
    sql,
    organizationId,
    items.map((item) => item.id),
  );
  return { salesByIdentity, guide, spotCentsPerOz, latest };
}

/** Values one item into `result`: valued, unchanged (its latest valuation still stands) or skipped (no basis). */
async function valueItem(
  sql: Sql,
  run: { organizationId: string; apply: boolean; now: Date; actor: Actor },
  item: ItemToValue,
  sources: Sources,
  result: ValuateResult,
): Promise<void> {
  const inputs: Inputs = {
    item,
    sales: sources.salesByIdentity.get(item.identity) ?? [],
    priceGuideValueInCents:
      item.grade === null ? null : (sources.guide.get(data.guideKey(item.identity, item.grade)) ?? null),
    spotCentsPerOz: sources.spotCentsPerOz,
    now: run.now,
  };
  const found = estimate(inputs);
  if (!found) {
    result.skipped.push({ itemId: item.id, sku: item.sku, ...whyNotValued(inputs) });
    return;
  }
  const standing = sources.latest.get(item.id);
  if (standing && sameEstimate(found, standing) && (!run.apply || standing.appliedAt !== null)) {
    result.unchanged.push({ itemId: item.id, sku: item.sku, valuationId: standing.id });
    return;
  }
  const valuationId = await recordValuation(sql, run, item.id, found);
  if (valuationId === null) return;
  result.valued.push({
    itemId: item.id,
    sku: item.sku,
    valuationId,
    basis: found.basis,
    estimateInCents: found.estimateInCents,
    confidencePercent: found.confidencePercent,
    applied: run.apply,
  });
}

/**
 * Records the valuation, with its `valuation.created` change, and with `apply` makes its estimate the item's value,
 * in one transaction; null when the item has been deleted since the run read it.
 */
async function recordValuation(
  sql: Sql,
  { organizationId, apply, actor }: { organizationId: string; apply: boolean; actor: Actor },
  itemId: string,
  found: Estimate,
): Promise<string | null> {
  return sql
    .begin(async (tx) => {
      await actAs(tx, actor);
      // The item's row first, then the feed (recordChange), as every write of an item: none deadlock.
      if (!(await lockItem(tx, organizationId, itemId))) return null;
      const id = await data.insertValuation(tx, organizationId, itemId, found);
      if (apply) await data.markApplied(tx, organizationId, id);
      const valuation = await findValuation(tx, organizationId, id);
      if (!valuation) throw new Error(`valuation ${id} vanished in its own transaction`);
      await recordChange(tx, organizationId, { type: 'valuation.created', objectId: id, data: valuation });
      if (apply) await updateItem(tx, organizationId, itemId, { valueInCents: found.estimateInCents });
      return id;
    })
    .catch((error: unknown) => {
      // Deleted since the items were read (the API may delete while a run goes through thousands): nothing to value.
      if (violatedForeignKey(error) !== null || (error instanceof ApiError && error.code === 'NOT_FOUND')) return null;
      throw error;
    });
}

/** Whether an estimate says exactly what a recorded valuation says (its own id, item and times aside). */
function sameEstimate(found: Estimate, recorded: Valuation): boolean {
  return (
    found.basis === recorded.basis &&
    found.estimateLowInCents === recorded.estimateLowInCents &&
    found.estimateInCents === recorded.estimateInCents &&
    found.estimateHighInCents === recorded.estimateHighInCents &&
    found.confidencePercent === recorded.confidencePercent &&
    found.priceGuideValueInCents === recorded.priceGuideValueInCents &&
    found.meltValueInCents === recorded.meltValueInCents &&
    found.summary === recorded.summary &&
    isDeepStrictEqual(found.comps, recorded.comps)
  );
}

export const setSpotPrice = (sql: Sql, input: { metal: string; centsPerOz: number }) =>
  data.setSpotPrice(sql, input.metal, input.centsPerOz);

export const listSpotPrices = (sql: Sql) => data.listSpotPrices(sql);

/**
 * Values again the items of these coins (identities), after an import of their sales or price guide, applying the
 * estimates only under the organization's policy.
 */
export async function revalueCoins(sql: Sql, organizationId: string, coins: ReadonlySet<string>) {
  const result = await valuate(sql, { org: organizationId, item: null, coins });
  return { valued: result.valued.length, unchanged: result.unchanged.length, withoutBasis: result.skipped.length };
}

export async function showPolicy(sql: Sql, input: { org: string }) {
  const org = await requireOrganization(sql, input.org);
  return { organization: { id: org.id, slug: org.slug }, ...(await data.policyOf(sql, org.id)) };
}

export async function setPolicy(
  sql: Sql,
  input: { org: string; apply?: boolean | undefined; everyHours?: number | null | undefined },
) {
  const org = await requireOrganization(sql, input.org);
  const change = {
    ...(input.apply !== undefined && { apply: input.apply }),
    ...(input.everyHours !== undefined && { everyHours: input.everyHours }),
  };
  return { organization: { id: org.id, slug: org.slug }, ...(await data.setPolicy(sql, org.id, change)) };
}
