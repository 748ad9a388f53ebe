import type { Valuation } from '@coinventory/contract';
import type { Queryable } from '../../db/types.js';
import { iso } from '../../db/sql-helpers.js';

interface ValuationRow {
  id: string;
  item_id: string;
  estimate_low_in_cents: number | null;
  estimate_in_cents: number | null;
  estimate_high_in_cents: number | null;
  confidence_percent: number | null;
  basis: string | null;
  price_guide_value_in_cents: number | null;
  melt_value_in_cents: number | null;
  summary: string | null;
  comps: Valuation['comps'];
  applied_at: Date | null;
  created_at: Date;
}

const toValuation = (row: ValuationRow): Valuation => ({
  id: row.id,
  itemId: row.item_id,
  estimateLowInCents: row.estimate_low_in_cents,
  estimateInCents: row.estimate_in_cents,
  estimateHighInCents: row.estimate_high_in_cents,
  confidencePercent: row.confidence_percent,
  basis: row.basis,
  priceGuideValueInCents: row.price_guide_value_in_cents,
  meltValueInCents: row.melt_value_in_cents,
  summary: row.summary,
  comps: row.comps,
  appliedAt: iso(row.applied_at),
  createdAt: row.created_at.toISOString(),
});

/** The item's newest valuations, each with its comparable sales in their recorded order. */
export async function listValuations(
  sql: Queryable,
  organizationId: string,
  itemId: string,
  limit: number,
): Promise<Valuation[]> {
  const rows = await sql<ValuationRow[]>`
    SELECT
      v.id, v.item_id, v.estimate_low_in_cents, v.estimate_in_cents, v.estimate_high_in_cents,
      v.confidence_percent, v.basis, v.price_guide_value_in_cents, v.melt_value_in_cents, v.summary,
      coalesce((
        SELECT json_agg(json_build_object(
          'source', vc.source, 'title', vc.title, 'grade', vc.grade, 'gradingService', vc.grading_service,
          'priceInCents', vc.price_in_cents, 'soldAt', vc.sold_at, 'venue', vc.venue, 'url', vc.url
        ) ORDER BY vc.position)
        FROM valuation_comps vc
        WHERE vc.organization_id = v.organization_id AND vc.valuation_id = v.id
      ), '[]'::json) AS comps,
      v.applied_at, v.created_at
    FROM valuations v
    WHERE v.organization_id = ${organizationId} AND v.item_id = ${itemId}
    ORDER BY v.created_at DESC, v.id DESC
    LIMIT ${limit}
  `;
  return rows.map(toValuation);
}
