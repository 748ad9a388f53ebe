import type { Actor, Change, ChangeType } from '@coinventory/contract';
import type { Fragment } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';

/** A change as stored: the columns of `changes` that make the API's Change. */
export interface StoredChange {
  id: string;
  type: ChangeType;
  object_id: string;
  occurred_at: Date;
  /** Who made it (migration 0013). */
  actor: Actor;
  /** The object as the API showed it then (parsed from its JSON text, in the API's field order), or null. */
  data: Change['data'] | null;
}

/** The one place a stored change becomes the API's Change: GET /changes lists these, and each webhook sends one. */
export function changeOf(row: StoredChange): Change {
  return {
    id: row.id,
    type: row.type,
    objectId: row.object_id,
    occurredAt: row.occurred_at.toISOString(),
    actor: row.actor,
    data: row.data,
  } as Change;
}

/** A change as the feed reads it: `data` is the JSON text stored, not parsed. */
export type StoredChangeText = Omit<StoredChange, 'data'> & { data: string | null };

/** What changeOf writes for a change without data; the stored text takes the place of its `null}`. */
const NO_DATA = 'null}';

/**
 * The same text as changeJson, for a row whose `data` is still the stored text: the object (most of a page's bytes)
 * is neither parsed nor written again. The stored text is JSON.stringify's (recordChange), so it is what writing the
 * parsed object again would give, byte for byte.
 */
export function changeText(row: StoredChangeText): string {
  const head = JSON.stringify(changeOf({ ...row, data: null }));
  return `${head.slice(0, -NO_DATA.length)}${row.data ?? 'null'}}`;
}

/**
 * A change's JSON text, exactly as GET /changes shows it. `data` was stored as JSON.stringify wrote it, so parsed
 * and written again it is the same text, byte for byte.
 */
export const changeJson = (row: StoredChange): string => JSON.stringify(changeOf(row));

/**
 * The changes as other modules may read them, to join by (organization_id, position): the columns of StoredChange
 * with them. An inline view: the planner reads `changes` itself.
 */
export const changeLog = (sql: Queryable) =>
  sql`(SELECT organization_id, position, id, type, object_id, occurred_at, actor, data FROM changes)`;

/** A change being recorded, as its subscribers see it: its position is the SQL expression of the row being inserted. */
export interface RecordedChange {
  organizationId: string;
  type: ChangeType;
  objectId: string;
  /** The change's position in its organization's feed, as an expression of the statement that records it. */
  position: Fragment;
}

/**
 * Writes what goes with each change, in the statement that records it, so it commits or rolls back with the change
 * and costs no round trip of its own (the webhooks module queues the change's deliveries). Answers a data-modifying
 * statement that returns one row per job it queued for a background worker.
 */
export type ChangeSubscriber = (sql: Queryable, change: RecordedChange) => Fragment;

const subscribers = new Map<string, ChangeSubscriber>();

/**
 * Subscribes `subscriber` under `name` (once: subscribing again under the name replaces it). A module subscribes when
 * its index is loaded, which every process and test that can record a change loads.
 */
export function subscribeToChanges(name: string, subscriber: ChangeSubscriber): void {
  subscribers.set(name, subscriber);
}

/** Every subscriber's statement for a change being recorded. */
export function subscriberStatements(sql: Queryable, change: RecordedChange): Fragment[] {
  // Without one, a change would commit without its webhook deliveries: refused rather than lost.
  if (subscribers.size === 0) throw new Error('a change was recorded before any module subscribed to changes');
  return [...subscribers.values()].map((subscriber) => subscriber(sql, change));
}
