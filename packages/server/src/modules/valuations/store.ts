import type { StoredRowOf } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import { looksLikeUuid } from '../../ids.js';
import type { VALUATIONS } from '../items/index.js';
import { COMPS_MAX_AGE_DAYS, type Estimate, type ItemFacts, itemIdentity, type Sale } from './engine.js';
import { parseGrade } from './grades.js';

/** The valuation engine's SQL: what it reads (items, sales, guide, spot prices) and the valuations it writes. */

export interface ItemToValue extends ItemFacts {
  id: string;
  sku: string;
}

interface ItemRow {
  id: string;
  sku: string;
  title: string;
  grading_service: string | null;
  grade: string | null;
  attributes: ItemFacts['attributes'];
}

/** The items to value: one by id or SKU, or every item of the organization, each with its identity (itemIdentity). */
export async function itemsToValue(sql: Queryable, organizationId: string, ref: string | null): Promise<ItemToValue[]> {
  const rows = await sql<ItemRow[]>`
    SELECT id, sku, title, grading_service, grade, attributes FROM items
    WHERE organization_id = ${organizationId}
      ${ref === null ? sql`` : looksLikeUuid(ref) ? sql`AND id = ${ref}` : sql`AND sku = ${ref}`}
    ORDER BY sku
  `;
  return rows.map((row) => ({
    id: row.id,
    sku: row.sku,
    identity: itemIdentity({
      title: row.title,
      gradingService: row.grading_service,
      grade: row.grade,
      attributes: row.attributes,
    }),
    gradingService: row.grading_service,
    grade: row.grade,
    attributes: row.attributes,
  }));
}

interface SaleRow {
  coin_identity: string;
  source: string;
  title: string | null;
  grading_service: string | null;
  grade: string | null;
  price_in_cents: string;
  sold_at: Date;
  sold_at_text: string;
  venue: string | null;
  url: string | null;
}

/** The organization's sales of these identities within the engine's age limit of `now`. */
export async function salesOf(
  sql: Queryable,
  organizationId: string,
  identities: readonly string[],
  now: Date,
): Promise<Sale[]> {
  const since = new Date(now.getTime() - COMPS_MAX_AGE_DAYS * 86_400_000);
  const rows = await sql<SaleRow[]>`
    SELECT coin_identity, source, title, grading_service, grade, price_in_cents, sold_at, sold_at_text, venue, url
    FROM comparable_sales
    WHERE organization_id = ${organizationId} AND coin_identity = ANY(${identities as string[]})
      AND sold_at >= ${since} AND sold_at <= ${now}
  `;
  return rows.map((row) => ({
    identity: row.coin_identity,
    source: row.source,
    title: row.title,
    gradingService: row.grading_service,
    grade: row.grade,
    priceInCents: Number(row.price_in_cents),
    soldAt: row.sold_at,
    soldAtText: row.sold_at_text,
    venue: row.venue,
    url: row.url,
  }));
}

/** The price guide's values for these identities, by `identity grade-key`. */
export async function guideValuesOf(
  sql: Queryable,
  organizationId: string,
  identities: readonly string[],
): Promise<Map<string, number>> {
  const rows = await sql<{ coin_identity: string; grade_key: string; value_in_cents: string }[]>`
    SELECT coin_identity, grade_key, value_in_cents FROM price_guide_entries
    WHERE organization_id = ${organizationId} AND coin_identity = ANY(${identities as string[]})
  `;
  return new Map(rows.map((row) => [guideKey(row.coin_identity, row.grade_key), Number(row.value_in_cents)]));
}

/** The key of a guide entry: the identity and the grade as the engine compares it (or as written, if not Sheldon). */
export function guideKey(identity: string, grade: string): string {
  return `${identity}\u0000${gradeKeyOf(grade)}`;
}

export function gradeKeyOf(grade: string): string {
  return parseGrade(grade)?.key ?? grade.replace(/\s+/g, '').toUpperCase();
}

/** Spot prices in cents per troy ounce, by metal. */
export async function spotPrices(sql: Queryable): Promise<Record<string, number>> {
  const rows = await sql<{ metal: string; cents_per_oz: string }[]>`SELECT metal, cents_per_oz FROM spot_prices`;
  return Object.fromEntries(rows.map((row) => [row.metal, Number(row.cents_per_oz)]));
}

export interface SpotPrice {
  metal: string;
  centsPerOz: number;
  updatedAt: Date;
}

export async function setSpotPrice(sql: Queryable, metal: string, centsPerOz: number): Promise<SpotPrice> {
  const [row] = await sql<{ metal: string; cents_per_oz: string; updated_at: Date }[]>`
    INSERT INTO spot_prices (metal, cents_per_oz) VALUES (${metal}, ${centsPerOz})
    ON CONFLICT (metal) DO UPDATE SET cents_per_oz = EXCLUDED.cents_per_oz, updated_at = now()
    RETURNING metal, cents_per_oz, updated_at
  `;
  if (!row) throw new Error('the spot price upsert returned no row');
  return { metal: row.metal, centsPerOz: Number(row.cents_per_oz), updatedAt: row.updated_at };
}

export async function listSpotPrices(sql: Queryable): Promise<SpotPrice[]> {
  const rows = await sql<{ metal: string; cents_per_oz: string; updated_at: Date }[]>`
    SELECT metal, cents_per_oz, updated_at FROM spot_prices ORDER BY metal
  `;
  return rows.map((row) => ({ metal: row.metal, centsPerOz: Number(row.cents_per_oz), updatedAt: row.updated_at }));
}

/** A valuation's columns from the engine's estimate (the rest: its ids, when it was applied, when it was made). */
export function valuationColumns(estimate: Estimate) {
  return {
    estimate_low_in_cents: estimate.estimateLowInCents,
    estimate_in_cents: estimate.estimateInCents,
    estimate_high_in_cents: estimate.estimateHighInCents,
    confidence_percent: estimate.confidencePercent,
    basis: estimate.basis,
    price_guide_value_in_cents: estimate.priceGuideValueInCents,
    melt_value_in_cents: estimate.meltValueInCents,
    summary: estimate.summary,
  };
}

/** The row of one of a valuation's comps, at its position among them. */
export function compRow(
  organizationId: string,
  valuationId: string,
  comp: Estimate['comps'][number],
  position: number,
) {
  return {
    organization_id: organizationId,
    valuation_id: valuationId,
    position,
    source: comp.source,
    title: comp.title,
    grade: comp.grade,
    grading_service: comp.gradingService,
    price_in_cents: comp.priceInCents,
    sold_at: comp.soldAt,
    venue: comp.venue,
    url: comp.url,
  };
}

export type CompRow = ReturnType<typeof compRow>;

/** Writes a valuation and its comps, in their order; returns its id. */
export async function insertValuation(
  sql: Queryable,
  organizationId: string,
  itemId: string,
  result: Estimate,
): Promise<string> {
  const valuation = { organization_id: organizationId, item_id: itemId, ...valuationColumns(result) };
  const [row] = await sql<{ id: string }[]>`INSERT INTO valuations ${sql(valuation)} RETURNING id`;
  if (!row) throw new Error('the valuation insert returned no row');
  if (result.comps.length > 0) {
    const comps = result.comps.map((comp, position) => compRow(organizationId, row.id, comp, position));
    await sql`INSERT INTO valuation_comps ${sql(comps)}`;
  }
  return row.id;
}

/**
 * Writes valuations made beforehand, with their comps, as they are (their ids and times included): the demo's, which
 * it builds with the engine from its catalog.
 */
export async function insertValuationRows(
  sql: Queryable,
  valuations: readonly StoredRowOf<typeof VALUATIONS.columns>[],
  comps: readonly (CompRow & { id: string })[],
): Promise<void> {
  if (valuations.length > 0) await sql`INSERT INTO valuations ${sql(valuations)}`;
  if (comps.length > 0) await sql`INSERT INTO valuation_comps ${sql(comps)}`;
}

/** A comparable sale, as `import sales` writes it (imports.ts). */
export interface ComparableSaleRow {
  organization_id: string;
  id: string;
  source: string;
  external_id: string;
  coin: string;
  coin_identity: string;
  title: string | null;
  grading_service: string | null;
  grade: string | null;
  price_in_cents: number;
  sold_at: Date;
  sold_at_text: string;
  venue: string | null;
  url: string | null;
  created_at: Date;
}

/** A price guide value, as `import price-guide` writes it. */
export interface PriceGuideEntryRow {
  organization_id: string;
  coin_identity: string;
  grade_key: string;
  coin: string;
  grade: string;
  value_in_cents: number;
  updated_at: Date;
}

/** A spot price: the deployment's, not an organization's. */
export interface SpotPriceRow {
  metal: string;
  cents_per_oz: number;
  updated_at: Date;
}

/**
 * The engine's sources as stored rows, one multi-row INSERT per table, for a caller that loads an organization's data
 * at once (the demo). Spot prices are the deployment's: only the metals it has no price for are added, so an
 * operator's own (`spot set`) stay as they are.
 */
export async function insertValuationSourceRows(
  sql: Queryable,
  rows: {
    sales: readonly ComparableSaleRow[];
    guide: readonly PriceGuideEntryRow[];
    spotPrices: readonly SpotPriceRow[];
  },
): Promise<void> {
  if (rows.sales.length > 0) await sql`INSERT INTO comparable_sales ${sql(rows.sales)}`;
  if (rows.guide.length > 0) await sql`INSERT INTO price_guide_entries ${sql(rows.guide)}`;
  if (rows.spotPrices.length > 0) {
    await sql`INSERT INTO spot_prices ${sql(rows.spotPrices)} ON CONFLICT (metal) DO NOTHING`;
  }
}

/** Records that the valuation's estimate became the item's value, at the time of the transaction that did it. */
export async function markApplied(sql: Queryable, organizationId: string, valuationId: string): Promise<void> {
  await sql`
    UPDATE valuations SET applied_at = now() WHERE organization_id = ${organizationId} AND id = ${valuationId}
  `;
}

export interface ValuationPolicy {
  /** Whether the engine's estimates become the items' values. */
  apply: boolean;
  /** Every item valued again this often, or never (null). */
  everyHours: number | null;
  lastRunAt: Date | null;
}

const DEFAULT_POLICY: ValuationPolicy = { apply: false, everyHours: null, lastRunAt: null };

export async function policyOf(sql: Queryable, organizationId: string): Promise<ValuationPolicy> {
  const [row] = await sql<{ apply: boolean; every_hours: number | null; last_run_at: Date | null }[]>`
    SELECT apply, every_hours, last_run_at FROM valuation_policies WHERE organization_id = ${organizationId}
  `;
  return row ? { apply: row.apply, everyHours: row.every_hours, lastRunAt: row.last_run_at } : DEFAULT_POLICY;
}

/** Changes what is given of the policy (the rest stays as it is); returns it whole. */
export async function setPolicy(
  sql: Queryable,
  organizationId: string,
  change: { apply?: boolean; everyHours?: number | null },
): Promise<ValuationPolicy> {
  const [row] = await sql<{ apply: boolean; every_hours: number | null; last_run_at: Date | null }[]>`
    INSERT INTO valuation_policies (organization_id, apply, every_hours)
    VALUES (${organizationId}, ${change.apply ?? false}, ${change.everyHours ?? null})
    ON CONFLICT (organization_id) DO UPDATE SET
      apply = ${change.apply === undefined ? sql`valuation_policies.apply` : sql`EXCLUDED.apply`},
      every_hours = ${change.everyHours === undefined ? sql`valuation_policies.every_hours` : sql`EXCLUDED.every_hours`},
      updated_at = now()
    RETURNING apply, every_hours, last_run_at
  `;
  if (!row) throw new Error('the valuation policy upsert returned no row');
  return { apply: row.apply, everyHours: row.every_hours, lastRunAt: row.last_run_at };
}

/**
 * Claims the organization whose scheduled valuation is most overdue, for `leaseMs`: another process skips it until the
 * lease lapses (this one died) or is released.
 */
export async function claimDueValuation(
  sql: Queryable,
  owner: string,
  leaseMs: number,
): Promise<{ organizationId: string; apply: boolean } | null> {
  const [row] = await sql<{ organization_id: string; apply: boolean }[]>`
    UPDATE valuation_policies SET lease_owner = ${owner}, lease_until = now() + ${leaseMs} * interval '1 millisecond'
    WHERE organization_id = (
      SELECT organization_id FROM valuation_policies
      WHERE every_hours IS NOT NULL
        AND (last_run_at IS NULL OR last_run_at <= now() - every_hours * interval '1 hour')
        AND (lease_until IS NULL OR lease_until < now())
      ORDER BY last_run_at NULLS FIRST
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    RETURNING organization_id, apply
  `;
  return row ? { organizationId: row.organization_id, apply: row.apply } : null;
}

/** Ends a claimed run: done (the next is due `every_hours` from now), or failed (tried again after `retryMs`). */
export async function finishValuationRun(
  sql: Queryable,
  organizationId: string,
  owner: string,
  outcome: { done: true } | { done: false; retryMs: number },
): Promise<void> {
  await sql`
    UPDATE valuation_policies SET
      ${outcome.done ? sql`last_run_at = now(), lease_until = NULL` : sql`lease_until = now() + ${outcome.retryMs} * interval '1 millisecond'`},
      lease_owner = NULL
    WHERE organization_id = ${organizationId} AND lease_owner = ${owner}
  `;
}
