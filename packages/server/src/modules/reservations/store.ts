import type { ListReservationsQuery, Reservation, ReservationList, ReservationStatus } from '@coinventory/contract';
import { integer, nullable, text, timestamp, value } from '../../db/column-types.js';
import { organizationPage, organizationRowById } from '../../db/organization-rows.js';
import { defineTable } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import type { ById } from '../../request/gated-read.js';

/** The reservations table, once, in the API's field order (migration 0013). */
export const RESERVATIONS = defineTable<Reservation>()({
  name: 'reservations',
  alias: 'r',
  columns: {
    item_id: { type: text, field: 'itemId' },
    quantity: { type: integer, field: 'quantity' },
    status: { type: value<ReservationStatus>(), field: 'status' },
    reference: { type: nullable(text), field: 'reference' },
    expires_at: { type: timestamp, field: 'expiresAt' },
    created_at: { type: timestamp, field: 'createdAt' },
    updated_at: { type: nullable(timestamp), field: 'updatedAt' },
  },
});

/** One reservation by id: what GET /reservations/{id} reads (its gated read is declared beside the route). */
export const reservationById: ById = (sql, organizationId, id) =>
  organizationRowById(sql, RESERVATIONS, organizationId, id);

export async function findReservation(sql: Queryable, organizationId: string, id: string): Promise<Reservation | null> {
  return RESERVATIONS.first(reservationById(sql, organizationId, id));
}

export async function listReservations(
  sql: Queryable,
  organizationId: string,
  query: ListReservationsQuery,
): Promise<ReservationList> {
  const where = sql`
    ${query.itemId === undefined ? sql`` : sql`AND r.item_id = ${query.itemId}`}
    ${query.status === undefined ? sql`` : sql`AND r.status = ${query.status}`}
    ${query.reference === undefined ? sql`` : sql`AND r.reference = ${query.reference}`}
  `;
  return organizationPage(sql, RESERVATIONS, organizationId, query, {
    where,
    order: sql`r.created_at DESC, r.id DESC`,
  });
}

/** A held reservation of `quantity` units of the item, expiring in `expiresInSeconds`; its id. */
export async function insertReservation(
  sql: Queryable,
  organizationId: string,
  hold: { itemId: string; quantity: number; expiresInSeconds: number; reference: string | null },
): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    INSERT INTO reservations (organization_id, item_id, quantity, reference, expires_at)
    VALUES (${organizationId}, ${hold.itemId}, ${hold.quantity}, ${hold.reference},
      now() + make_interval(secs => ${hold.expiresInSeconds}))
    RETURNING id
  `;
  if (!row) throw new Error('the reservation insert returned no row');
  return row.id;
}

/** What a step of a reservation needs to know of it, read with its row locked. */
export interface HeldState {
  itemId: string;
  quantity: number;
  reference: string | null;
  status: ReservationStatus;
  /** Whether `expiresAt` has passed (by the transaction's clock). */
  expired: boolean;
}

/** The item a reservation holds units of, without locking it (its item's lock comes first); null when there is none. */
export async function itemOfReservation(sql: Queryable, organizationId: string, id: string): Promise<string | null> {
  const [row] = await sql<{ item_id: string }[]>`
    SELECT item_id FROM reservations WHERE organization_id = ${organizationId} AND id = ${id}
  `;
  return row?.item_id ?? null;
}

/** The reservation's row, locked until the transaction ends; null when it is not there. */
export async function lockReservation(sql: Queryable, organizationId: string, id: string): Promise<HeldState | null> {
  const [row] = await sql<HeldState[]>`
    SELECT item_id AS "itemId", quantity, reference, status, expires_at <= now() AS expired FROM reservations
    WHERE organization_id = ${organizationId} AND id = ${id}
    FOR UPDATE
  `;
  return row ?? null;
}

/** Ends a held reservation in `status`. */
export async function endReservation(
  sql: Queryable,
  organizationId: string,
  id: string,
  ended: Exclude<ReservationStatus, 'held'>,
): Promise<void> {
  await sql`
    UPDATE reservations SET status = ${ended}, updated_at = now()
    WHERE organization_id = ${organizationId} AND id = ${id} AND status = 'held'
  `;
}

/** Held reservations whose time is up, the longest expired first: what the expiry worker gives back. */
export async function dueReservations(
  sql: Queryable,
  limit: number,
): Promise<Array<{ organizationId: string; id: string }>> {
  return sql<Array<{ organizationId: string; id: string }>>`
    SELECT organization_id AS "organizationId", id FROM reservations
    WHERE status = 'held' AND expires_at <= now()
    ORDER BY expires_at, id
    LIMIT ${limit}
  `;
}

/**
 * A held reservation, expiring in seven days (the longest a hold may be), for each item of the organization that has
 * reserved units no reservation holds: for data loaded with its quantities at once (the demo), so that `reserved`
 * is what held reservations hold.
 */
export async function holdReservedUnits(sql: Queryable, organizationId: string, reference: string): Promise<void> {
  await sql`
    INSERT INTO reservations (organization_id, item_id, quantity, reference, expires_at)
    SELECT i.organization_id, i.id, i.quantity_reserved - coalesce(h.held, 0), ${reference}, now() + interval '7 days'
    FROM items i
    LEFT JOIN (
      SELECT item_id, sum(quantity) AS held FROM reservations
      WHERE organization_id = ${organizationId} AND status = 'held' GROUP BY item_id
    ) h ON h.item_id = i.id
    WHERE i.organization_id = ${organizationId} AND i.quantity_reserved > coalesce(h.held, 0)
  `;
}
