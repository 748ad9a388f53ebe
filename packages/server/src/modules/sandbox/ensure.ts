import type { Queryable } from '../../db/types.js';
import { findSandbox, insertSandbox, lockWorkspace, type OrganizationRow } from '../organizations/index.js';
import { createDefaultWarehouse } from '../warehouses/index.js';

/**
 * The workspace's sandbox, made empty (with its default warehouse and zone, as every organization has) the first
 * time a test key needs one. Run it in the transaction that needs it (READ COMMITTED: after waiting for a reset that
 * holds the workspace, it sees the sandbox that reset made rather than making a second one).
 */
export async function ensureSandbox(tx: Queryable, workspace: OrganizationRow): Promise<string> {
  await lockWorkspace(tx, workspace.id);
  const existing = await findSandbox(tx, workspace.id);
  if (existing) return existing.id;
  const { id, createdAt } = await insertSandbox(tx, workspace, 'empty');
  await createDefaultWarehouse(tx, id, createdAt);
  return id;
}
