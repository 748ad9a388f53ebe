import type { Valuation } from '@coinventory/contract';
import { integer, json, nullable, text, timestamp } from '../../db/column-types.js';
import { defineTable } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';

/** The valuations table, once, in the API's field order; `v` is the valuation, its comps aggregated in order. */
export const VALUATIONS = defineTable<Valuation>()({
  name: 'valuations',
  alias: 'v',
  columns: {
    item_id: { type: text, field: 'itemId' },
    estimate_low_in_cents: { type: nullable(integer), field: 'estimateLowInCents' },
    estimate_in_cents: { type: nullable(integer), field: 'estimateInCents' },
    estimate_high_in_cents: { type: nullable(integer), field: 'estimateHighInCents' },
    confidence_percent: { type: nullable(integer), field: 'confidencePercent' },
    basis: { type: nullable(text), field: 'basis' },
    price_guide_value_in_cents: { type: nullable(integer), field: 'priceGuideValueInCents' },
    melt_value_in_cents: { type: nullable(integer), field: 'meltValueInCents' },
    summary: { type: nullable(text), field: 'summary' },
    comps: {
      type: json<Valuation['comps']>(),
      field: 'comps',
      computed: (sql) => sql`coalesce((
        SELECT json_agg(json_build_object(
          'source', vc.source, 'title', vc.title, 'grade', vc.grade, 'gradingService', vc.grading_service,
          'priceInCents', vc.price_in_cents, 'soldAt', vc.sold_at, 'venue', vc.venue, 'url', vc.url
        ) ORDER BY vc.position)
        FROM valuation_comps vc
        WHERE vc.organization_id = v.organization_id AND vc.valuation_id = v.id
      ), '[]'::json)`,
    },
    applied_at: { type: nullable(timestamp), field: 'appliedAt' },
    created_at: { type: timestamp, field: 'createdAt' },
  },
});

/** The item's newest valuations, each with its comparable sales in their recorded order. */
export async function listValuations(
  sql: Queryable,
  organizationId: string,
  itemId: string,
  limit: number,
): Promise<Valuation[]> {
  return VALUATIONS.all(sql`
    SELECT ${VALUATIONS.select(sql)}
    FROM valuations v
    WHERE v.organization_id = ${organizationId} AND v.item_id = ${itemId}
    ORDER BY v.created_at DESC, v.id DESC
    LIMIT ${limit}
  `);
}

/** One valuation as the item's list shows it (for the change that records it). */
export async function findValuation(sql: Queryable, organizationId: string, id: string): Promise<Valuation | null> {
  return VALUATIONS.first(sql`
    SELECT ${VALUATIONS.select(sql)} FROM valuations v WHERE v.organization_id = ${organizationId} AND v.id = ${id}
  `);
}

/** Each of these items' latest valuation (newest `createdAt`, then id), by item id; items without one are absent. */
export async function latestValuations(
  sql: Queryable,
  organizationId: string,
  itemIds: readonly string[],
): Promise<Map<string, Valuation>> {
  const valuations = await VALUATIONS.all(sql`
    SELECT DISTINCT ON (v.item_id) ${VALUATIONS.select(sql)}
    FROM valuations v
    WHERE v.organization_id = ${organizationId} AND v.item_id = ANY(${itemIds as string[]}::uuid[])
    ORDER BY v.item_id, v.created_at DESC, v.id DESC
  `);
  return new Map(valuations.map((valuation) => [valuation.itemId, valuation]));
}
