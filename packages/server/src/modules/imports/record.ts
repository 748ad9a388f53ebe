import type { Queryable } from '../../db/types.js';
import { recordChangesOf } from '../changes/index.js';

/**
 * Records what an import wrote of a resource: `<resource>.created` for each record it created and `.updated` for each
 * it changed, each as `find` reads it now. Called after the import's writes, in their transaction.
 */
export async function recordWritten(
  tx: Queryable,
  organizationId: string,
  written: { createdIds: readonly string[]; updatedIds: readonly string[] },
  resource: 'consignment' | 'invoice',
  find: (sql: Queryable, organizationId: string, id: string) => Promise<object | null>,
): Promise<void> {
  await recordChangesOf(tx, organizationId, written.createdIds, `${resource}.created`, find);
  await recordChangesOf(tx, organizationId, written.updatedIds, `${resource}.updated`, find);
}
