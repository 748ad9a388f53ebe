import { organizationRowCount } from '../../db/organization-rows.js';
import { sandboxCopy } from '../../db/sandbox-copy.js';
import type { Queryable } from '../../db/types.js';

/** Test mode: a workspace's categories copied into its sandbox (modules/sandbox resets it from live). */
export async function copyCategoriesToSandbox(tx: Queryable, from: string, to: string) {
  const categories = await sandboxCopy(tx, 'categories', { from, to }, (rows) => tx`INSERT INTO categories ${rows}`);
  return { categories };
}

export const countCategories = (sql: Queryable, organizationId: string): Promise<number> =>
  organizationRowCount(sql, 'categories', organizationId);
