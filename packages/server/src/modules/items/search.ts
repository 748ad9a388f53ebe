import type { ListItemsQuery } from '@coinventory/contract';
import { containsPattern } from '../../db/sql-helpers.js';
import type { Queryable } from '../../db/types.js';
import { listFilters, ORDER_BY, searchColumns, searchItems, selectItemsText, sortColumns } from './list-sql.js';

/**
 * A page of a search (`q`) in one statement, whose plan fits the term. Two ways find a page's matches:
 *
 * - walking the workspace's items in the page's order (the sort's index) and stopping at the page's last match:
 *   it costs the rows walked, needed ÷ the term's density; a row costs 0.5 µs where the workspace's rows lie together
 *   in the table, and up to 1.5 µs where they lie apart among other workspaces' rows (a page read for each);
 * - the trigram index, which collects every match and then sorts them: its scan costs about 5 ns per row of the
 *   whole table and 4 ns per row of the workspace (6 ms for 100,000 items and 10 ms for 1,000,000, in a table of
 *   1,100,000), then about 6 µs per match.
 *
 * A common term is cheap to walk and dear to collect ("pcgs", in 2 of 5 items: 0.5 ms against 650 ms in a
 * 1,000,000-item workspace); a rare one the other way round; in between it turns on the sizes ("1881-S", in 1 item
 * of about 650: 6 ms to walk and 21 ms to collect among 1,000,000 items, 17 ms and 6 ms among 100,000). So the
 * statement:
 *
 * 1. walks the first `probeRows` rows (1 to 2 ms), which answer for a term in more than 1 item of 100;
 * 2. otherwise estimates the term's density from what it found there, and the table's and the workspace's sizes
 *    from PostgreSQL's own statistics, and walks on (at most `maxWalk` rows) only where the costs above say that is
 *    cheaper than the index;
 * 3. and when the walk did not find the page, the trigram index answers instead (it runs only then).
 *
 * Every way finds the same rows: the first `needed` matches in the list's order. search-plans.test.ts holds them to it.
 */

/**
 * The statement's numbers; costs in µs, measured on the benchmark's data (bench/). Tests choose others, to make
 * each way answer.
 */
export interface SearchTuning {
  /** Rows walked before anything else: 2,000 meet a term in one item of a hundred about 20 times. */
  readonly probeRows: number;
  /** The most rows walked after the probe. */
  readonly maxWalk: number;
  /** A row walked: where the workspace is the whole table, and where it is a small share of it. */
  readonly walkedRow: { readonly together: number; readonly apart: number };
  /** The trigram index's scan: per row of the table, and per row of the workspace. */
  readonly indexScan: { readonly perTableRow: number; readonly perWorkspaceRow: number };
  /** A match the trigram index collects. */
  readonly collectedMatch: number;
}

export const SEARCH_TUNING: SearchTuning = {
  probeRows: 2_000,
  maxWalk: 50_000,
  walkedRow: { together: 0.5, apart: 1.5 },
  indexScan: { perTableRow: 0.005, perWorkspaceRow: 0.004 },
  collectedMatch: 6,
};

export function searchPage(
  sql: Queryable,
  organizationId: string,
  query: ListItemsQuery,
  offset: number,
  tuning: SearchTuning = SEARCH_TUNING,
) {
  const { probeRows, maxWalk, walkedRow, indexScan } = tuning;
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
      -- The table's rows and the workspace's, as the planner's statistics estimate them (a workspace not among the
      -- most common values is at most as large as the least common of them); before the table's first ANALYZE (the
      -- embedded database never runs one by itself), the table from its size on disk, about 700 bytes a row.
      SELECT t.rows AS items, t.rows * coalesce(
        (SELECT f.freq FROM unnest(s.most_common_vals::text::uuid[], s.most_common_freqs) f(value, freq)
          WHERE f.value = ${organizationId}),
        (SELECT min(f.freq) FROM unnest(s.most_common_freqs) f(freq)),
        1
      ) AS workspace
      FROM pg_class c
      CROSS JOIN LATERAL (
        SELECT (CASE WHEN c.reltuples < 0 THEN pg_relation_size(c.oid) / 700.0 ELSE c.reltuples END)::float8 AS rows
      ) t
      LEFT JOIN pg_stats s ON s.schemaname = current_schema() AND s.tablename = 'items' AND s.attname = 'organization_id'
      WHERE c.oid = 'items'::regclass
    ),
    probe AS MATERIALIZED (${walk(sql`${probeRows}`, 0)}),
    plan AS MATERIALIZED (
      -- found: the probe's matches; further: the rows to walk on (none: the probe answered, or the index is cheaper).
      -- The sizes are read only when the probe neither answered nor found nothing (a CTE runs when first read).
      SELECT p.found, CASE
          WHEN p.found >= ${needed} OR p.found = 0 THEN 0
          WHEN ${needed}::float8 * ${probeRows} / p.found * (
              ${walkedRow.together}::float8
              + (${walkedRow.apart}::float8 - ${walkedRow.together}::float8)
                * (1 - (SELECT workspace / greatest(items, 1) FROM size))
            ) >= (
              SELECT items * ${indexScan.perTableRow}::float8 + workspace * ${indexScan.perWorkspaceRow}::float8
                + p.found::float8 / ${probeRows} * workspace * ${tuning.collectedMatch}::float8
              FROM size
            )
            THEN 0
          ELSE least(${maxWalk}::float8, ceil(2 * ${needed}::float8 * ${probeRows} / p.found))::int
        END AS further
      FROM (SELECT count(*) AS found FROM probe) p
    ),
    walked AS MATERIALIZED (${walk(sql`(SELECT further FROM plan)`, probeRows)}),
    walk AS MATERIALIZED (
      SELECT (SELECT found FROM plan) + (SELECT count(*) FROM walked) >= ${needed} AS answers
    )
    ${selectItemsText(sql)}
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
