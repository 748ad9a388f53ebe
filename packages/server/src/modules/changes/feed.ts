import type { ChangeList, ChangesCursor, ListChangesQuery } from '@coinventory/contract';
import { type JsonText, listText } from '../../db/json-text.js';
import type { Queryable } from '../../db/types.js';
import { badRequest } from '../../errors.js';
import { decodeCursor, encodeCursor, RESTART } from './cursor.js';
import { type FeedBounds, feedBounds, readFeed } from './store.js';

/**
 * A page of the changes feed, as its JSON text (each change's stored object spliced in as it is). Positions are
 * given out in commit order (store.ts), so "every change after my cursor" never skips one that commits later: when
 * hasMore is false the next cursor is the feed's end as this page's snapshot saw it, past any changes the type
 * filter left out.
 */
export async function listChanges(
  sql: Queryable,
  organizationId: string,
  query: ListChangesQuery,
): Promise<JsonText<ChangeList>> {
  const after = query.after === undefined ? null : decodeCursor(query.after, organizationId).position;
  const page = await readFeed(sql, organizationId, { after, limit: query.limit, types: query.types });
  if (after !== null) checkFollowable('query.after', after, page);
  const entries = page.changes.slice(0, query.limit);
  const hasMore = page.changes.length > query.limit;
  const last = entries.at(-1);
  const next = hasMore && last ? last.position : page.lastPosition;
  return listText<ChangeList>(
    entries.map(({ text }) => text),
    { nextCursor: encodeCursor({ organizationId, position: next }), hasMore },
  );
}

/** A 400 naming `field` when the feed cannot be followed from `after`: the changes after it are not all kept. */
function checkFollowable(field: string, after: number, bounds: FeedBounds): void {
  if (after < bounds.prunedThrough) {
    throw badRequest(
      `${field}: this cursor has expired (changes older than the retention period were removed after it); ${RESTART}`,
    );
  }
  if (after > bounds.lastPosition) {
    // Only a cursor from a database that was later restored to an earlier state can be ahead of the feed.
    throw badRequest(`${field}: this cursor is ahead of the changes feed (was the database restored?); ${RESTART}`);
  }
}

/**
 * The range of positions after a cursor the caller sent in `field`, up to the feed's end now, with that end's cursor;
 * a 400 naming the field when it is not a cursor of this organization's feed or cannot be followed.
 */
export async function rangeAfter(
  sql: Queryable,
  organizationId: string,
  cursor: string,
  field: string,
): Promise<{ after: number; through: number; endCursor: string }> {
  const { position } = decodeCursor(cursor, organizationId, field);
  const bounds = await feedBounds(sql, organizationId);
  checkFollowable(field, position, bounds);
  return {
    after: position,
    through: bounds.lastPosition,
    endCursor: encodeCursor({ organizationId, position: bounds.lastPosition }),
  };
}

/** The cursor at the feed's end now: follow the feed from it after a full read, and nothing is missed. */
export async function currentCursor(sql: Queryable, organizationId: string): Promise<ChangesCursor> {
  const { lastPosition } = await feedBounds(sql, organizationId);
  return { cursor: encodeCursor({ organizationId, position: lastPosition }) };
}
