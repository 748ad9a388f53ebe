import type { Queryable } from '../../db/types.js';

/** A listing as the local simulator holds it: the last delivery it received, and how many it received. */
export interface SimulatedListing {
  marketplaceListingId: string;
  /** `listed` after a quantity was set, `removed` after the listing was deleted. */
  status: 'listed' | 'removed';
  quantity: number | null;
  sequence: number;
  deliveries: number;
  lastDeliveredAt: Date;
}

/** The organization's listings on the simulator, from the deliveries it recorded. */
export async function listSimulatedListings(sql: Queryable, organizationId: string): Promise<SimulatedListing[]> {
  return sql<SimulatedListing[]>`
    SELECT DISTINCT ON (marketplace_listing_id)
      marketplace_listing_id AS "marketplaceListingId",
      CASE WHEN action = 'delete_listing' THEN 'removed' ELSE 'listed' END AS status,
      quantity, sequence::int AS sequence,
      (count(*) OVER (PARTITION BY marketplace_listing_id))::int AS deliveries,
      max(delivered_at) OVER (PARTITION BY marketplace_listing_id) AS "lastDeliveredAt"
    FROM marketplace_local_deliveries
    WHERE organization_id = ${organizationId}
    ORDER BY marketplace_listing_id, sequence DESC, delivered_at DESC
  `;
}
