import type { Queryable } from '../../db/types.js';

/**
 * Test mode: forgets what the local marketplace simulator received for a sandbox that a reset deletes: the table has
 * no foreign key to the organization, so the sandbox's deletion does not reach it.
 */
export async function forgetLocalDeliveries(tx: Queryable, organizationId: string): Promise<number> {
  const forgotten = await tx`DELETE FROM marketplace_local_deliveries WHERE organization_id = ${organizationId}`;
  return forgotten.count;
}
