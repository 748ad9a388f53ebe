import { z } from 'zod';
import type { Queryable, TransactionSql } from '../../db/types.js';
import { field, idsByExternalId, kindOf, upsertByExternalId } from '../imports/index.js';
import { recordItemsUpdated, touchItemsOfCategories } from '../items/index.js';

/**
 * Categories as an operator imports them (`import categories FILE`): `externalId` (the category's id in the system
 * the dealer is leaving: what a re-import updates by) and `name`. A renamed category changes how each of its items
 * reads, so each of them gets an `item.updated` change.
 */

/** A category name: as long as an item title may be. */
const CATEGORY_NAME_MAX = 300;

const CategoryRow = z.object({ externalId: field.externalId, name: field.requiredText(CATEGORY_NAME_MAX) }).strict();
type CategoryRow = z.infer<typeof CategoryRow>;

async function writeCategories(tx: TransactionSql, organizationId: string, rows: CategoryRow[]) {
  const written = await upsertByExternalId(tx, 'categories', organizationId, rows, ['name']);
  // Only a renamed one has items already; a new one has none.
  const renamed = await touchItemsOfCategories(tx, organizationId, [...written.touched]);
  await recordItemsUpdated(tx, organizationId, renamed);
  return written;
}

export const CATEGORIES_IMPORT = kindOf(CategoryRow, {
  name: 'categories',
  key: (row) => row.externalId,
  keyFields: 'externalId',
  write: writeCategories,
});

/** The organization's imported categories among `externalIds`: their ids by externalId. */
export function categoriesByExternalId(
  sql: Queryable,
  organizationId: string,
  externalIds: readonly string[],
): Promise<Map<string, string>> {
  return idsByExternalId(sql, 'categories', organizationId, externalIds);
}
