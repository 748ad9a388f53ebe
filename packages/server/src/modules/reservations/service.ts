import type { CreateReservationBody, Reservation, ReservationStatus } from '@coinventory/contract';
import type { MovementContext } from '../../db/actor.js';
import type { Queryable, TransactionSql } from '../../db/types.js';
import { ApiError, notFound } from '../../errors.js';
import { quietNotifier, type WriteNotifier } from '../../request/pipeline.js';
import { recordChange } from '../changes/index.js';
import { lockItem, moveQuantities, type QuantityDelta } from '../items/index.js';
import { endReservation, findReservation, insertReservation, itemOfReservation, lockReservation } from './store.js';

/**
 * A reservation's life: held (units move from `available` to `reserved`), then committed (to `sold`), released or
 * expired (back to `available`). Every step locks the item's row first, then the reservation's, as every write of an
 * item takes the item's lock first: a step and a PATCH, or two steps, never deadlock. Each records the reservation's
 * change, then the item's `item.updated` it causes.
 */

/** The reservation as this transaction left it. */
async function written(tx: Queryable, organizationId: string, id: string): Promise<Reservation> {
  const reservation = await findReservation(tx, organizationId, id);
  if (!reservation) throw new Error(`reservation ${id} vanished inside the transaction that wrote it`);
  return reservation;
}

async function recordReservation(
  tx: Queryable,
  organizationId: string,
  id: string,
  type: 'reservation.created' | 'reservation.committed' | 'reservation.released' | 'reservation.expired',
  notify: WriteNotifier,
): Promise<Reservation> {
  const reservation = await written(tx, organizationId, id);
  if ((await recordChange(tx, organizationId, { type, objectId: id, data: reservation })) > 0) notify.webhooksQueued();
  return reservation;
}

/** POST /items/{id}/reservations: holds units of the item, or 409 INSUFFICIENT_QUANTITY when they are not available. */
export async function createReservation(
  tx: TransactionSql,
  organizationId: string,
  itemId: string,
  body: CreateReservationBody,
  notify: WriteNotifier = quietNotifier,
): Promise<Reservation> {
  const reference = body.reference ?? null;
  let reservation: Reservation | undefined;
  await moveQuantities(
    tx,
    organizationId,
    itemId,
    { available: -body.quantity, sold: 0, reserved: body.quantity },
    { kind: 'reserve', reference },
    notify,
    async () => {
      const id = await insertReservation(tx, organizationId, {
        itemId,
        quantity: body.quantity,
        expiresInSeconds: body.expiresInSeconds,
        reference,
      });
      reservation = await recordReservation(tx, organizationId, id, 'reservation.created', notify);
    },
  );
  if (!reservation) throw new Error('the reservation was not written with its move');
  return reservation;
}

/** How each way a held reservation ends moves its units, and what it records. */
const ENDINGS = {
  committed: { kind: 'commit', change: 'reservation.committed', to: 'sold' },
  released: { kind: 'release', change: 'reservation.released', to: 'available' },
  expired: { kind: 'expire', change: 'reservation.expired', to: 'available' },
} as const satisfies Record<
  Exclude<ReservationStatus, 'held'>,
  { kind: MovementContext['kind']; change: `reservation.${string}`; to: 'sold' | 'available' }
>;

/**
 * Ends a held reservation: its units move out of `reserved` to where `ending` sends them. Null when it is not held
 * (or, but for an expiry, when its time is up): nothing moves. Throws 404 when there is no such reservation.
 */
export async function endHeld(
  tx: Queryable,
  organizationId: string,
  id: string,
  ending: Exclude<ReservationStatus, 'held'>,
  notify: WriteNotifier,
): Promise<Reservation | null> {
  const itemId = await itemOfReservation(tx, organizationId, id);
  if (itemId === null || !(await lockItem(tx, organizationId, itemId))) throw notFound();
  const held = await lockReservation(tx, organizationId, id);
  if (!held) throw notFound();
  // A hold past its expiresAt is never committed or released by a client: it expires, as the worker will record.
  if (held.status !== 'held' || held.expired !== (ending === 'expired')) return null;
  const { kind, change, to } = ENDINGS[ending];
  const delta: QuantityDelta = { available: 0, sold: 0, reserved: -held.quantity };
  delta[to] = held.quantity;
  let ended: Reservation | undefined;
  await moveQuantities(tx, organizationId, itemId, delta, { kind, reference: held.reference }, notify, async () => {
    await endReservation(tx, organizationId, id, ending);
    ended = await recordReservation(tx, organizationId, id, change, notify);
  });
  if (!ended) throw new Error('the reservation was not ended with its move');
  return ended;
}

/** POST /reservations/{id}/commit or /release: 409 RESERVATION_NOT_HELD when it is no longer held. */
export async function endByClient(
  tx: TransactionSql,
  organizationId: string,
  id: string,
  ending: 'committed' | 'released',
  notify: WriteNotifier = quietNotifier,
): Promise<Reservation> {
  const ended = await endHeld(tx, organizationId, id, ending, notify);
  if (!ended) throw new ApiError('RESERVATION_NOT_HELD');
  return ended;
}
