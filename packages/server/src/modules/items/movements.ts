import type { Actor, ListMovementsQuery, Movement, MovementList } from '@coinventory/contract';
import { integer, json, nullable, text, timestamp, value } from '../../db/column-types.js';
import { organizationPage } from '../../db/organization-rows.js';
import { defineTable } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import { notFound } from '../../errors.js';
import { itemExists } from './store.js';

/**
 * An item's ledger: one movement for every change of its quantities. Written only by the trigger on `items`
 * (migration 0013), so whichever statement moves a quantity, its movement is recorded in the same transaction; read
 * here, newest first.
 */
export const MOVEMENTS = defineTable<Movement>()({
  name: 'item_movements',
  alias: 'm',
  columns: {
    item_id: { type: text, field: 'itemId' },
    kind: { type: value<Movement['kind']>(), field: 'kind' },
    reason: { type: value<Movement['reason']>(), field: 'reason' },
    reference: { type: nullable(text), field: 'reference' },
    delta_available: { type: integer, field: 'delta.available' },
    delta_sold: { type: integer, field: 'delta.sold' },
    delta_reserved: { type: integer, field: 'delta.reserved' },
    after_available: { type: integer, field: 'after.available' },
    after_sold: { type: integer, field: 'after.sold' },
    after_reserved: { type: integer, field: 'after.reserved' },
    actor: { type: json<Actor>(), field: 'actor' },
    occurred_at: { type: timestamp, field: 'occurredAt' },
  },
});

/** GET /items/{id}/movements: a page of the item's movements, newest first; 404 for an item that is not there. */
export async function listMovements(
  sql: Queryable,
  organizationId: string,
  itemId: string,
  query: ListMovementsQuery,
): Promise<MovementList> {
  const [page, exists] = await Promise.all([
    organizationPage(sql, MOVEMENTS, organizationId, query, {
      where: sql`AND m.item_id = ${itemId}`,
      order: sql`m.position DESC`,
    }),
    itemExists(sql, organizationId, itemId),
  ]);
  if (!exists) throw notFound();
  return page;
}
