import { organizationRowCount } from '../../db/organization-rows.js';
import { sandboxCopy } from '../../db/sandbox-copy.js';
import type { Queryable } from '../../db/types.js';

/**
 * Test mode: a workspace's valuations and their comps copied into its sandbox (modules/sandbox resets it from live),
 * after its items. The engine's sources (sales, price guide) and policy stay the workspace's.
 */
export async function copyValuationsToSandbox(tx: Queryable, from: string, to: string) {
  const valuations = await sandboxCopy(tx, 'valuations', { from, to }, (rows) => tx`INSERT INTO valuations ${rows}`);
  const comps = await sandboxCopy(
    tx,
    'valuation_comps',
    { from, to },
    (rows) => tx`INSERT INTO valuation_comps ${rows}`,
  );
  return { valuations, valuationComps: comps };
}

export const countValuations = (sql: Queryable, organizationId: string): Promise<number> =>
  organizationRowCount(sql, 'valuations', organizationId);
