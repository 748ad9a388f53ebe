import type { ChangeList, ChangesCursor, ListChangesQuery } from '@coinventory/contract';
import type { Queryable } from '../../db/types.js';
import { badRequest } from '../../errors.js';
import { decodeCursor, encodeCursor, RESTART } from './cursor.js';
import { feedBounds, readFeed } from './store.js';

/**
 * A page of the changes feed. Positions are given out in commit order (store.ts), so "every change after my
 * cursor" never skips one that commits later: when hasMore is false the next cursor is the feed's end as this
 * page's snapshot saw it, past any changes the type filter left out.
 */
export async function listChanges(
  sql: Queryable,
  organizationId: string,
  query: ListChangesQuery,
): Promise<ChangeList> {
  const after = query.after === undefined ? null : decodeCursor(query.after, organizationId).position;
  const page = await readFeed(sql, organizationId, { after, limit: query.limit, types: query.types });
  if (after !== null && after < page.prunedThrough) {
    throw badRequest(
      `query.after: this cursor has expired (changes older than the retention period were removed after it); ${RESTART}`,
    );
  }
  if (after !== null && after > page.lastPosition) {
    // Only a cursor from a database that was later restored to an earlier state can be ahead of the feed.
    throw badRequest(`query.after: this cursor is ahead of the changes feed (was the database restored?); ${RESTART}`);
  }
  const entries = page.changes.slice(0, query.limit);
  const hasMore = page.changes.length > query.limit;
  const last = entries.at(-1);
  const next = hasMore && last ? last.position : page.lastPosition;
  return {
    items: entries.map(({ change }) => change),
    nextCursor: encodeCursor({ organizationId, position: next }),
    hasMore,
  };
}

/** The cursor at the feed's end now: follow the feed from it after a full read, and nothing is missed. */
export async function currentCursor(sql: Queryable, organizationId: string): Promise<ChangesCursor> {
  const { lastPosition } = await feedBounds(sql, organizationId);
  return { cursor: encodeCursor({ organizationId, position: lastPosition }) };
}
