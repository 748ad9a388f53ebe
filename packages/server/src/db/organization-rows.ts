import type postgres from 'postgres';
import { type ListPage, offsetOf } from './sql-helpers.js';
import type { Fragment } from './table.js';
import type { Queryable } from './types.js';

/**
 * The two reads every organization's resource answers alike: a page of its rows and one row by id, each of the
 * organization's rows only, selecting a table's API fields (db/table.ts) under its alias.
 */

/** What these reads need of a table declared with defineTable. */
export interface ReadTable<A> {
  readonly name: string;
  readonly alias: string;
  select(sql: Queryable): Fragment;
  page(rows: Promise<readonly postgres.Row[]>, query: { page: number; limit: number }): Promise<ListPage<A>>;
}

/** How a resource reads its rows: `from`, the SELECT … FROM with what it joins (the table alone when absent). */
export interface Reads {
  from?: Fragment;
}

/** `SELECT` the table's API fields `FROM` the table under its alias: where a resource's own joins start. */
export const selectFrom = (sql: Queryable, table: ReadTable<unknown>): Fragment =>
  sql`SELECT ${table.select(sql)} FROM ${sql(table.name)} ${sql(table.alias)}`;

const fromTable = (sql: Queryable, table: ReadTable<unknown>, reads: Reads): Fragment =>
  reads.from ?? selectFrom(sql, table);

/**
 * One page of the organization's rows that `where` (`AND …` conditions) keeps, in `order`, which ends in a unique
 * column so that pages never skip or repeat a row. Fetches one row more than the page, to say whether another follows.
 */
export function organizationPage<A>(
  sql: Queryable,
  table: ReadTable<A>,
  organizationId: string,
  query: { page: number; limit: number },
  reads: Reads & { where?: Fragment; order: Fragment },
): Promise<ListPage<A>> {
  const alias = sql(table.alias);
  return table.page(
    sql`
      ${fromTable(sql, table, reads)}
      WHERE ${alias}.organization_id = ${organizationId} ${reads.where ?? sql``}
      ORDER BY ${reads.order}
      LIMIT ${query.limit + 1} OFFSET ${offsetOf(query.page, query.limit)}
    `,
    query,
  );
}

/**
 * The query of the organization's row with this id; the organization given as a value, or as an SQL expression (a
 * read that travels in the request's authentication statement).
 */
export function organizationRowById(
  sql: Queryable,
  table: ReadTable<unknown>,
  organizationId: string | Fragment,
  id: string,
  reads: Reads = {},
): Fragment {
  const alias = sql(table.alias);
  return sql`${fromTable(sql, table, reads)} WHERE ${alias}.organization_id = ${organizationId} AND ${alias}.id = ${id}`;
}

/** How many rows of the table the organization has. */
export async function organizationRowCount(sql: Queryable, table: string, organizationId: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM ${sql(table)} WHERE organization_id = ${organizationId}
  `;
  return row?.count ?? 0;
}
