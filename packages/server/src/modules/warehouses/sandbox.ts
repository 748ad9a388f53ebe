import { organizationRowCount } from '../../db/organization-rows.js';
import { sandboxCopy } from '../../db/sandbox-copy.js';
import type { Queryable } from '../../db/types.js';

/**
 * Test mode: a workspace's warehouses and their zones copied into its sandbox (modules/sandbox resets it from live),
 * the default one included, so the sandbox has exactly the workspace's.
 */
export async function copyWarehousesToSandbox(tx: Queryable, from: string, to: string) {
  const warehouses = await sandboxCopy(tx, 'warehouses', { from, to }, (rows) => tx`INSERT INTO warehouses ${rows}`);
  const zones = await sandboxCopy(tx, 'zones', { from, to }, (rows) => tx`INSERT INTO zones ${rows}`);
  return { warehouses, zones };
}

export const countWarehouses = (sql: Queryable, organizationId: string): Promise<number> =>
  organizationRowCount(sql, 'warehouses', organizationId);
