import type { ListItemsQuery } from '@coinventory/contract';
import { containsPattern } from '../../db/sql-helpers.js';
import type { Queryable } from '../../db/types.js';
import { listFilters, ORDER_BY, searchColumns, searchItems, selectItems, sortColumns } from './list-sql.js';

/**
 * A page of a search (`q`) in one statement, whose plan fits the term. Two ways find a page's matches:
 *
 * - walking the workspace's items in the page's order (the sort's index) and stopping at the page's last match:
 *   its cost is the rows walked, about needed ÷ the term's density;
 * - the trigram index, which collects every match and then sorts them: its cost is the term's matches.
 *
 * A common term is cheap to walk and dear to collect ("pcgs", in 2 of 5 items: 0.5 ms against 650 ms in a
 * 1,000,000-item workspace); a rare one the other way round. In between it turns on the workspace's size: "1881-S",
 * in 1 item of about 650, is 6 ms to walk and 21 ms to collect among 1,000,000 items, but 17 ms to walk and 6 ms to
 * collect among 100,000 (whose rows lie further apart in the table). So the statement:
 *
 * 1. walks the first `probeRows` rows (about 1 to 2 ms), which answer for a term in more than 1 item of 100;
 * 2. otherwise estimates the term's density from what it found there, and the workspace's size from PostgreSQL's own
 *    statistics, and walks on (at most `maxWalk` rows) only where that is the cheaper way: density² × size ×
 *    `matchCost` ≥ needed (walked rows = needed ÷ density; collected matches = density × size);
 * 3. and when the walk did not find the page, the trigram index answers instead (it runs only then).
 *
 * Every way finds the same rows: the first `needed` matches in the list's order. search-plans.test.ts holds them to it.
 */

/** The statement's three numbers (tests choose others, to make each way answer). */
export interface SearchTuning {
  /** Rows walked before anything else: 2,000 meet a term in one item of a hundred about 20 times. */
  readonly probeRows: number;
  /** The most rows walked after the probe. */
  readonly maxWalk: number;
  /** A match the trigram index collects costs about as much as this many rows walked (measured: 14–40 µs against 0.5–1.4 µs). */
  readonly matchCost: number;
}

export const SEARCH_TUNING: SearchTuning = { probeRows: 2_000, maxWalk: 50_000, matchCost: 20 };

export function searchPage(
  sql: Queryable,
  organizationId: string,
  query: ListItemsQuery,
  offset: number,
  { probeRows, maxWalk, matchCost }: SearchTuning = SEARCH_TUNING,
) {
  const needed = offset + query.limit + 1;
  const order = ORDER_BY[query.sort](sql);
  const matches = searchItems(sql, containsPattern(query.q ?? ''));
  // The workspace's rows in the page's order, `rows` of them after the first `skip`, and the matches among them.
  const walk = (rows: ReturnType<Queryable>, skip: number) => sql`
    SELECT ${sortColumns(sql)} FROM (
      SELECT ${sortColumns(sql)}, ${searchColumns(sql)}
      FROM items i
      ${listFilters(sql, organizationId, { ...query, q: undefined })}
      ${order}
      LIMIT ${rows} OFFSET ${skip}
    ) i
    WHERE TRUE ${matches}
    LIMIT ${needed}
  `;
  return sql`
    WITH size AS MATERIALIZED (
      -- The workspace's items, as the planner's statistics estimate them: a workspace not among the most common
      -- values is at most as large as the least common of them. Before the table's first ANALYZE (the embedded
      -- database never runs one by itself), the whole table, from its size on disk (about 700 bytes an item).
      SELECT CASE WHEN c.reltuples < 0 THEN pg_relation_size(c.oid) / 700.0 ELSE c.reltuples END::float8 * coalesce(
        (SELECT f.freq FROM unnest(s.most_common_vals::text::uuid[], s.most_common_freqs) f(value, freq)
          WHERE f.value = ${organizationId}),
        (SELECT min(f.freq) FROM unnest(s.most_common_freqs) f(freq)),
        1
      ) AS items
      FROM pg_class c
      LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'items' AND s.attname = 'organization_id'
      WHERE c.oid = 'items'::regclass
    ),
    probe AS MATERIALIZED (${walk(sql`${probeRows}`, 0)}),
    plan AS MATERIALIZED (
      SELECT count(*) AS found,
        CASE
          WHEN count(*) >= ${needed} OR count(*) = 0 THEN 0
          WHEN count(*)::float8 ^ 2 * (SELECT items FROM size) * ${matchCost}::float8
            < ${needed}::float8 * ${probeRows}::float8 ^ 2 THEN 0
          ELSE least(${maxWalk}::float8, ceil(2 * ${needed}::float8 * ${probeRows}::float8 / count(*)))::int
        END AS further
      FROM probe
    ),
    walked AS MATERIALIZED (${walk(sql`(SELECT further FROM plan)`, probeRows)}),
    walk AS MATERIALIZED (
      SELECT (SELECT found FROM plan) + (SELECT count(*) FROM walked) >= ${needed} AS answers
    )
    ${selectItems(sql)}
    WHERE i.organization_id = ${organizationId} AND i.id IN (
      (
        SELECT i.id FROM (SELECT * FROM probe UNION ALL SELECT * FROM walked) i
        WHERE (SELECT answers FROM walk)
        ${order} OFFSET ${offset} LIMIT ${query.limit + 1}
      )
      UNION ALL
      (
        SELECT i.id FROM items i
        ${listFilters(sql, organizationId, query)}
          AND NOT (SELECT answers FROM walk)
        ${order}
        LIMIT ${query.limit + 1} OFFSET ${offset}
      )
    )
    ${order}
  `;
}
