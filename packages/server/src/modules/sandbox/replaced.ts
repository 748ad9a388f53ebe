import type { Queryable } from '../../db/types.js';
import { forgetLocalDeliveries } from '../marketplace/index.js';
import { deleteSandbox, replacedSandboxes } from '../organizations/index.js';

/**
 * How long a sandbox a reset replaced is kept. A request reads in several statements after the one that authenticated
 * it (a list: its page after the key's lookup), so one that was answering a test key when a reset committed goes on
 * reading the old sandbox: kept, it reads the old sandbox whole rather than a deleted one. Well beyond any request's
 * deadline (REQUEST_TIMEOUT_MS, 12 s by default); no key reaches a replaced sandbox meanwhile.
 */
export const REPLACED_SANDBOX_KEPT_MS = 5 * 60_000;

/**
 * Deletes the sandboxes replaced longer ago than they are kept (of one workspace, or of all), in the caller's
 * transaction, with everything they held: the schema cascades, and the local marketplace simulator's deliveries,
 * which have no foreign key, are forgotten here. Returns how many it deleted.
 */
export async function deleteReplacedSandboxes(
  tx: Queryable,
  { now = new Date(), workspaceId }: { now?: Date; workspaceId?: string } = {},
): Promise<number> {
  const replacedBefore = new Date(now.getTime() - REPLACED_SANDBOX_KEPT_MS);
  const ids = await replacedSandboxes(tx, { replacedBefore, ...(workspaceId === undefined ? {} : { workspaceId }) });
  for (const id of ids) {
    await forgetLocalDeliveries(tx, id);
    await deleteSandbox(tx, id);
  }
  return ids.length;
}
