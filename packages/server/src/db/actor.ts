import type { Actor, AdjustmentReason, MovementKind } from '@coinventory/contract';
import type { Fragment } from './table.js';
import type { Queryable } from './types.js';

/**
 * Who a transaction acts for, and what moves an item's quantities in it: two settings of the transaction
 * (`set_config(…, true)`, gone at its end), read where a change is recorded and by the trigger that writes an item's
 * movements (migration 0013). A setting rather than an argument, so that no path that records a change or moves a
 * quantity can leave them out: what nothing set is the system's, and an insert's `create` or an update's `set`.
 */

/** The server's own workers, by what they do. */
export const SYSTEM = {
  reservationExpiry: { type: 'system', id: 'reservations', name: 'Reservation expiry' },
  valuations: { type: 'system', id: 'valuations', name: 'Valuation engine' },
} as const satisfies Record<string, Actor>;

/** The operator: commands and imports, run on the server's machine. */
export const OPERATOR: Actor = { type: 'operator', id: null, name: null };

/** An API key, by its id and name (never its secret). */
export const keyActor = (apiKey: { id: string; name: string | null }): Actor => ({
  type: 'key',
  id: apiKey.id,
  name: apiKey.name,
});

/**
 * Makes `actor` the one the rest of this transaction acts for. The statement is sent at once, and the transaction's
 * next statements go behind it on the connection without waiting for its answer (postgres.js pipelines them): it
 * costs no round trip. Await the promise before the transaction ends.
 */
export function actAs(tx: Queryable, actor: Actor): Promise<unknown> {
  return tx`SELECT set_config('coinventory.actor', ${JSON.stringify(actor)}, true)`.execute();
}

/** What the next quantity moves of this transaction are: their kind, and an adjustment's reason and reference. */
export interface MovementContext {
  kind: MovementKind;
  reason?: AdjustmentReason;
  reference?: string | null;
}

/** Names what moves the item quantities this transaction changes from now on; sent at once and pipelined, as actAs. */
export function moveAs(tx: Queryable, movement: MovementContext): Promise<unknown> {
  return tx`SELECT set_config('coinventory.movement', ${JSON.stringify(movement)}, true)`.execute();
}

const NOBODY: Actor = { type: 'system', id: null, name: null };

/**
 * The transaction's actor as JSON, in a statement: the system when nothing set one. The default goes as text (a json
 * parameter would be JSON-encoded again by the driver, into a string).
 */
export const currentActor = (sql: Queryable): Fragment =>
  sql`coalesce(nullif(current_setting('coinventory.actor', true), '')::json, ${JSON.stringify(NOBODY)}::text::json)`;
