import { organizationRowCount } from '../../db/organization-rows.js';
import { sandboxCopy } from '../../db/sandbox-copy.js';
import type { Queryable } from '../../db/types.js';

/** Test mode: a workspace's consignors and consignments copied into its sandbox (modules/sandbox resets it from live). */
export async function copyConsignmentsToSandbox(tx: Queryable, from: string, to: string) {
  const consignors = await sandboxCopy(tx, 'consignors', { from, to }, (rows) => tx`INSERT INTO consignors ${rows}`);
  const consignments = await sandboxCopy(
    tx,
    'consignments',
    { from, to },
    (rows) => tx`INSERT INTO consignments ${rows}`,
  );
  return { consignors, consignments };
}

export const countConsignments = (sql: Queryable, organizationId: string): Promise<number> =>
  organizationRowCount(sql, 'consignments', organizationId);
