import { randomUUID } from 'node:crypto';
import type { ChangeType } from '@coinventory/contract';
import { currentActor } from '../../db/actor.js';
import type { Queryable } from '../../db/types.js';
import { changeText, type StoredChangeText, subscriberStatements } from './change.js';

/** A change as its transaction records it: what happened to which object, and the object as the API now shows it. */
export type ChangeRecord =
  | { type: Exclude<ChangeType, 'item.deleted'>; objectId: string; data: object }
  | { type: Extract<ChangeType, 'item.deleted'>; objectId: string; data: null };

/**
 * Records a change in the transaction that made it, and tells its subscribers there (change.ts): the webhooks module
 * queues one delivery for each enabled endpoint of the organization that subscribes to its type (the outbox: a
 * committed change always has them, a rolled-back one never does). Returns how many jobs they queued.
 *
 * Call it last in that transaction: it takes the organization's feed row lock, which is held until the commit, so
 * positions are given out in commit order (see migration 0007). Holding it from here to the commit only is what
 * keeps writers of one organization from waiting on each other long.
 */
export async function recordChange(tx: Queryable, organizationId: string, change: ChangeRecord): Promise<number> {
  // JSON text, not jsonb: the feed hands back the object with its fields in the order the API gives them. Sent as
  // text (a json parameter would be encoded again by the driver).
  const data = change.data === null ? null : JSON.stringify(change.data);
  const recorded = {
    organizationId,
    type: change.type,
    objectId: change.objectId,
    position: tx`(SELECT position FROM recorded)`,
  };
  // Each subscriber's writes are a data-modifying CTE of the same statement: they see the change's row, and one round
  // trip records the change with everything that goes with it.
  const subscribed = subscriberStatements(tx, recorded).map((statement, index) => ({
    name: tx(`subscriber_${index}`),
    statement,
  }));
  const [row] = await tx<{ queued: number }[]>`
    WITH next AS (
      INSERT INTO change_feeds AS f (organization_id, last_position) VALUES (${organizationId}, 1)
      ON CONFLICT (organization_id) DO UPDATE SET last_position = f.last_position + 1
      RETURNING last_position
    ),
    recorded AS (
      INSERT INTO changes (organization_id, position, id, type, object_id, occurred_at, actor, data)
      SELECT ${organizationId}, next.last_position, ${randomUUID()}, ${change.type}, ${change.objectId}, now(),
        ${currentActor(tx)}, ${data}::text::json
      FROM next
      RETURNING position
    )
    ${subscribed.map(({ name, statement }) => tx`, ${name} AS (${statement})`)}
    SELECT (SELECT count(*) FROM recorded)::int AS recorded,
      0 ${subscribed.map(({ name }) => tx`+ (SELECT count(*) FROM ${name})::int`)} AS queued
  `;
  if (!row) throw new Error('the change insert returned no row');
  return row.queued;
}

/** Where an organization's feed stands: its last position, and the highest position retention has removed. */
export interface FeedBounds {
  lastPosition: number;
  prunedThrough: number;
}

export interface FeedPage extends FeedBounds {
  /**
   * The changes after the position asked for (up to limit + 1), with their positions, in commit order: each as its
   * JSON text (changeText).
   */
  changes: Array<{ position: number; text: string }>;
}

/** A feed row: the bounds, with a change's columns, all null on the one row of a feed with no change to show. */
type FeedRow = { last_position: number | null; pruned_through: number | null; position: number | null } & {
  [K in keyof StoredChangeText]: StoredChangeText[K] | null;
};

/**
 * Up to `limit + 1` changes after `after` (after the oldest kept change when null), with the feed's bounds, read in
 * one statement: one snapshot, so the bounds and the changes agree (a change that commits meanwhile is in neither).
 */
export async function readFeed(
  sql: Queryable,
  organizationId: string,
  query: { after: number | null; limit: number; types: readonly ChangeType[] | undefined },
): Promise<FeedPage> {
  const rows = await sql<FeedRow[]>`
    SELECT f.last_position, f.pruned_through, c.position, c.id, c.type, c.object_id, c.occurred_at, c.actor,
      c.data::text AS data
    FROM (SELECT ${organizationId}::uuid AS organization_id) w
    LEFT JOIN change_feeds f ON f.organization_id = w.organization_id
    LEFT JOIN LATERAL (
      SELECT c.position, c.id, c.type, c.object_id, c.occurred_at, c.actor, c.data
      FROM changes c
      WHERE c.organization_id = w.organization_id
        AND c.position > coalesce(${query.after}::bigint, f.pruned_through, 0)
        AND c.position <= coalesce(f.last_position, 0)
        ${query.types === undefined ? sql`` : sql`AND c.type = ANY(${query.types as ChangeType[]}::text[])`}
      ORDER BY c.position
      LIMIT ${query.limit + 1}
    ) c ON true
    ORDER BY c.position
  `;
  const [first] = rows;
  const changes: FeedPage['changes'] = [];
  for (const { position, id, type, object_id, occurred_at, actor, data } of rows) {
    if (position === null || id === null || type === null || object_id === null || occurred_at === null) continue;
    if (actor === null) continue;
    changes.push({ position, text: changeText({ id, type, object_id, occurred_at, actor, data }) });
  }
  return { lastPosition: first?.last_position ?? 0, prunedThrough: first?.pruned_through ?? 0, changes };
}

/** The feed's bounds now (zero for an organization that has never changed). */
export async function feedBounds(sql: Queryable, organizationId: string): Promise<FeedBounds> {
  const [row] = await sql<{ last_position: number; pruned_through: number }[]>`
    SELECT last_position, pruned_through FROM change_feeds WHERE organization_id = ${organizationId}
  `;
  return { lastPosition: row?.last_position ?? 0, prunedThrough: row?.pruned_through ?? 0 };
}

/**
 * Removes every organization's changes from before `cutoff`, each organization up to its newest such position, and
 * records how far it removed: a cursor before that may have missed a change, and is refused. Returns the number of
 * changes removed.
 */
export async function pruneChanges(sql: Queryable, cutoff: Date): Promise<number> {
  const [row] = await sql<{ removed: number }[]>`
    WITH marks AS (
      SELECT organization_id, max(position) AS through FROM changes WHERE occurred_at < ${cutoff}
      GROUP BY organization_id
    ), removed AS (
      DELETE FROM changes c USING marks m
      WHERE c.organization_id = m.organization_id AND c.position <= m.through
      RETURNING 1
    ), marked AS (
      UPDATE change_feeds f SET pruned_through = greatest(f.pruned_through, m.through)
      FROM marks m WHERE f.organization_id = m.organization_id
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM removed)::int AS removed, (SELECT count(*) FROM marked)::int AS marked
  `;
  return row?.removed ?? 0;
}

/**
 * Records a change of `type` for each of these objects, each as `find` reads it now (what its `GET` returns): for
 * writes that touch many objects at once, such as an import.
 */
export async function recordChangesOf(
  tx: Queryable,
  organizationId: string,
  ids: Iterable<string>,
  type: Exclude<ChangeType, 'item.deleted'>,
  find: (sql: Queryable, organizationId: string, id: string) => Promise<object | null>,
): Promise<void> {
  for (const id of ids) {
    const data = await find(tx, organizationId, id);
    if (!data) throw new Error(`${type.split('.')[0]} ${id} vanished inside the write that changed it`);
    await recordChange(tx, organizationId, { type, objectId: id, data });
  }
}
