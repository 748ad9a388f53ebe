import type { Category, CategoryList, ListCategoriesQuery } from '@coinventory/contract';
import { text } from '../../db/column-types.js';
import { organizationPage, organizationRowById } from '../../db/organization-rows.js';
import { defineTable } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import type { ById } from '../../request/gated-read.js';

/** The categories table, once, in the API's field order. */
export const CATEGORIES = defineTable<Category>()({
  name: 'categories',
  alias: 'c',
  columns: {
    name: { type: text, field: 'name' },
  },
});

export async function listCategories(
  sql: Queryable,
  organizationId: string,
  query: ListCategoriesQuery,
): Promise<CategoryList> {
  // Byte order and then the id, so pages never skip or repeat a category whatever the server's collation.
  return organizationPage(sql, CATEGORIES, organizationId, query, { order: sql`c.name COLLATE "C", c.id` });
}

/** One row by id: what its GET reads (the gated read is declared beside the route). */
export const categoryById: ById = (sql, organizationId, id) => organizationRowById(sql, CATEGORIES, organizationId, id);

export async function findCategory(sql: Queryable, organizationId: string, id: string): Promise<Category | null> {
  return CATEGORIES.first(categoryById(sql, organizationId, id));
}

/** A category as stored. */
export interface CategoryRow {
  organization_id: string;
  id: string;
  name: string;
}

/** Stored rows in one multi-row INSERT, for a caller that loads an organization's data at once (the demo). */
export async function insertCategoryRows(sql: Queryable, categories: readonly CategoryRow[]): Promise<void> {
  if (categories.length > 0) await sql`INSERT INTO categories ${sql(categories)}`;
}
