import { type AdjustItemBody, type Item, LIMITS } from '@coinventory/contract';
import { type MovementContext, moveAs } from '../../db/actor.js';
import type { Queryable, TransactionSql } from '../../db/types.js';
import { ApiError, badRequest, notFound } from '../../errors.js';
import { checkPreconditions, type WriteConditions } from '../../request/etag.js';
import { quietNotifier, type WriteNotifier } from '../../request/pipeline.js';
import { recordChange } from '../changes/index.js';
import { enqueueForItem } from '../marketplace/index.js';
import { tell, writtenItem } from './service.js';
import { lockItem } from './store.js';

/** Signed numbers of units each quantity of an item moves by. */
export interface QuantityDelta {
  available: number;
  sold: number;
  reserved: number;
}

/**
 * Moves an item's quantities by `delta`, atomically: the UPDATE takes the item's row lock (or finds it taken by this
 * transaction), and a concurrent one that committed first is seen before the guard is checked, so two sellers of the
 * last unit never both succeed. A quantity that would go below 0 refuses the move with 409 INSUFFICIENT_QUANTITY and
 * writes nothing. The item's ledger records it as `movement` (migration 0013's trigger), a changed `available` is
 * queued for the linked listing as a PATCH of `quantity` is, and an `item.updated` change is recorded (after what
 * `alongside` writes and records).
 */
export async function moveQuantities(
  tx: Queryable,
  organizationId: string,
  id: string,
  delta: QuantityDelta,
  movement: MovementContext,
  notify: WriteNotifier = quietNotifier,
  /** What goes with the move and is recorded before the item's change (a reservation's own write and change). */
  alongside?: () => Promise<void>,
): Promise<Item> {
  const moving = moveAs(tx, movement);
  const [moved] = await tx<{ available: number }[]>`
    UPDATE items SET
      quantity_available = quantity_available + ${delta.available},
      quantity_sold = quantity_sold + ${delta.sold},
      quantity_reserved = quantity_reserved + ${delta.reserved},
      updated_at = now()
    WHERE organization_id = ${organizationId} AND id = ${id}
      AND quantity_available::bigint + ${delta.available} BETWEEN 0 AND ${LIMITS.quantity.max}
      AND quantity_sold::bigint + ${delta.sold} BETWEEN 0 AND ${LIMITS.quantity.max}
      AND quantity_reserved::bigint + ${delta.reserved} BETWEEN 0 AND ${LIMITS.quantity.max}
    RETURNING quantity_available AS available
  `;
  await moving;
  if (!moved) throw await refusal(tx, organizationId, id, delta);
  const sync =
    delta.available === 0
      ? 0
      : await enqueueForItem(tx, organizationId, id, { kind: 'set_quantity', quantity: moved.available });
  await alongside?.();
  const item = await writtenItem(tx, organizationId, id);
  const webhooks = await recordChange(tx, organizationId, { type: 'item.updated', objectId: id, data: item });
  tell(notify, { sync, webhooks });
  return item;
}

/** Why a move was refused: no such item (404), a quantity below 0 (409), or one past the largest a quantity holds. */
async function refusal(tx: Queryable, organizationId: string, id: string, delta: QuantityDelta): Promise<ApiError> {
  const [row] = await tx<{ available: number; sold: number; reserved: number }[]>`
    SELECT quantity_available AS available, quantity_sold AS sold, quantity_reserved AS reserved FROM items
    WHERE organization_id = ${organizationId} AND id = ${id}
  `;
  if (!row) return notFound();
  const fields = ['available', 'sold', 'reserved'] as const;
  const past = fields.find((field) => row[field] + delta[field] > LIMITS.quantity.max);
  if (past !== undefined && !fields.some((field) => row[field] + delta[field] < 0)) {
    return badRequest(`body.${past}: the item's quantity.${past} would exceed ${LIMITS.quantity.max}`);
  }
  return new ApiError('INSUFFICIENT_QUANTITY');
}

/**
 * POST /items/{id}/adjustments: the signed changes of `available` and `sold`, with their reason and reference, as one
 * `adjustment` movement. If-Match is checked under the item's lock, as a PATCH's is.
 */
export async function adjustItem(
  tx: TransactionSql,
  organizationId: string,
  id: string,
  body: AdjustItemBody,
  notify: WriteNotifier = quietNotifier,
  conditions: WriteConditions = {},
): Promise<Item> {
  if (!(await lockItem(tx, organizationId, id))) throw notFound();
  await checkPreconditions(conditions, () => writtenItem(tx, organizationId, id));
  return moveQuantities(
    tx,
    organizationId,
    id,
    { available: body.available ?? 0, sold: body.sold ?? 0, reserved: 0 },
    { kind: 'adjustment', reason: body.reason, reference: body.reference ?? null },
    notify,
  );
}
