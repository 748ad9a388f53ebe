/** Escapes LIKE's wildcards so user text matches literally (PostgreSQL's default escape is backslash). */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** A `%text%` pattern for a case-insensitive substring search; the SQL side applies lower(). */
export const containsPattern = (text: string): string => `%${escapeLike(text)}%`;

/** Offset of a page; the contract bounds page so this stays an exact integer. */
export const offsetOf = (page: number, limit: number): number => (page - 1) * limit;

/** Splits a fetched page of limit + 1 rows into the page and whether another follows (no COUNT(*)). */
export function pageOf<T>(rows: readonly T[], limit: number): { entries: T[]; hasMore: boolean } {
  return { entries: rows.slice(0, limit), hasMore: rows.length > limit };
}

/** The envelope of every list answer. */
export interface ListPage<T> {
  items: T[];
  page: number;
  limit: number;
  hasMore: boolean;
}

/** A list answer from a fetched page of limit + 1 rows. */
export function listPage<T>(rows: readonly T[], query: { page: number; limit: number }): ListPage<T> {
  const { entries, hasMore } = pageOf(rows, query.limit);
  return { items: entries, page: query.page, limit: query.limit, hasMore };
}

/** The one row an INSERT … RETURNING wrote (a statement that returns none is a bug, not a user's error). */
export async function inserted<T>(rows: Promise<readonly T[]>): Promise<T> {
  const [row] = await rows;
  if (row === undefined) throw new Error('INSERT … RETURNING returned no row');
  return row;
}
