import type { ExportItemsQuery, ItemSort } from '@coinventory/contract';
import type postgres from 'postgres';
import { containsPattern } from '../../db/sql-helpers.js';
import type { Fragment, Queryable } from '../../db/types.js';
import { ITEMS } from './columns.js';

/** The SQL a list of items is made of: what it reads, its filters and its orders (store.ts, search.ts). */

const selectFromItems = (sql: Queryable, list: Fragment) => sql`
  SELECT ${list}
  FROM items i
  LEFT JOIN categories c ON c.organization_id = i.organization_id AND c.id = i.category_id
`;

export const selectItems = (sql: Queryable) => selectFromItems(sql, ITEMS.select(sql));

/** The same rows as JSON text written by PostgreSQL, for a list answer (ITEMS.pageText). */
export const selectItemsText = (sql: Queryable) => selectFromItems(sql, ITEMS.selectText(sql));

// Every order ends on a unique key so that walking pages never skips or repeats a row (ITEM_SORT_RULES).
// Text sorts use byte order (COLLATE "C") so they are the same on every server, matching the indexes.
export const ORDER_BY: Record<ItemSort, (sql: Queryable) => postgres.PendingQuery<postgres.Row[]>> = {
  newest: (sql) => sql`ORDER BY i.created_at DESC, i.id DESC`,
  oldest: (sql) => sql`ORDER BY i.created_at ASC, i.id ASC`,
  title: (sql) => sql`ORDER BY lower(i.title) COLLATE "C", i.id`,
  value_desc: (sql) => sql`ORDER BY i.value_in_cents DESC, i.id`,
  value_asc: (sql) => sql`ORDER BY i.value_in_cents ASC, i.id`,
  sku: (sql) => sql`ORDER BY i.sku COLLATE "C", i.id`,
};

/** The columns every ORDER_BY reads: a row carrying them can be put in the list's order again. */
export const sortColumns = (sql: Queryable) => sql`i.id, i.created_at, i.title, i.sku, i.value_in_cents`;

/**
 * `q` over SEARCH_FIELDS.items. The trigram-indexed search_text (all fields joined) narrows the rows fast; the
 * per-field test then keeps only rows where one field itself contains the text, never a match across two fields.
 */
export const searchItems = (sql: Queryable, pattern: string) => sql`
  AND i.search_text LIKE lower(${pattern})
  AND (lower(i.sku) LIKE lower(${pattern}) OR lower(i.title) LIKE lower(${pattern})
    OR lower(i.description) LIKE lower(${pattern}) OR lower(i.certificate_number) LIKE lower(${pattern}))
`;

/** The columns searchItems reads, beside sortColumns. */
export const searchColumns = (sql: Queryable) => sql`i.search_text, i.description, i.certificate_number`;

/** The WHERE conditions of a list: the organization's items, narrowed by the query's filters. */
export const listFilters = (sql: Queryable, organizationId: string, query: ExportItemsQuery) => sql`
  WHERE i.organization_id = ${organizationId}
    ${query.q === undefined ? sql`` : searchItems(sql, containsPattern(query.q))}
    ${query.status === undefined ? sql`` : sql`AND i.status = ${query.status}`}
    ${query.categoryId === undefined ? sql`` : sql`AND i.category_id = ${query.categoryId}`}
    ${query.gradingService === undefined ? sql`` : sql`AND lower(i.grading_service) = lower(${query.gradingService})`}
    ${query.grade === undefined ? sql`` : sql`AND lower(i.grade) = lower(${query.grade})`}
    ${query.sku === undefined ? sql`` : sql`AND i.sku = ${query.sku}`}
`;
