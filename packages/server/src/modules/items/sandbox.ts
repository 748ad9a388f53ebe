import { moveAs } from '../../db/actor.js';
import { organizationRowCount } from '../../db/organization-rows.js';
import { sandboxCopy } from '../../db/sandbox-copy.js';
import type { Queryable } from '../../db/types.js';

/**
 * Test mode: a workspace's items and their images copied into its sandbox (modules/sandbox resets it from live), after
 * the categories, warehouses and consignments they point at.
 *
 * - Reservations are not copied, so a copy's reserved units are released: back to `available`, as a release would
 *   move them. `reserved` stays what the item's held reservations hold (none).
 * - Each copy's ledger begins with the copy: the trigger on `items` records one `opening` movement of its quantities
 *   (the kind of what an item had when its ledger began), by the operator, so its deltas add up to its quantities.
 *   The workspace's movements stay the workspace's. Nothing else in the reset's transaction moves a quantity.
 */
export async function copyItemsToSandbox(tx: Queryable, from: string, to: string) {
  await moveAs(tx, { kind: 'opening', reference: 'copied from the live workspace' });
  const released = {
    quantity_available: tx`quantity_available + quantity_reserved`,
    quantity_reserved: tx`0`,
  };
  const items = await sandboxCopy(tx, 'items', { from, to, set: released }, (rows) => tx`INSERT INTO items ${rows}`);
  const images = await sandboxCopy(tx, 'item_images', { from, to }, (rows) => tx`INSERT INTO item_images ${rows}`);
  return { items, itemImages: images };
}

export const countItems = (sql: Queryable, organizationId: string): Promise<number> =>
  organizationRowCount(sql, 'items', organizationId);
