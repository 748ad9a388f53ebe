import type { UpdateItemBody } from '@coinventory/contract';
import { z } from 'zod';
import type { Queryable, TransactionSql } from '../../db/types.js';
import { categoriesByExternalId } from '../categories/index.js';
import { field, type ImportKind, namesIn, type Reject, type Written } from '../imports/index.js';
import { idsBySku, updateItem } from '../items/index.js';
import { placesByExternalId, zoneKey } from './import.js';

/**
 * Each item's category and place by the ids of the system the dealer is leaving (`import item-places FILE`): `sku`,
 * `category` (a category's externalId; empty: no category), `warehouse` and `zone` (a warehouse's externalId and one
 * of its zones'; a warehouse alone means its first zone; neither leaves the item where it is). Items arrive through
 * the API (`coinventory items import`), which names categories and places by Coinventory's ids; this links them by
 * the old ones. Each item that changes is written as a PATCH writes it (`updatedAt`, an `item.updated` change).
 */

const optionalExternalId = field.externalId.optional().transform((value) => value ?? null);

const PlaceRow = z
  .object({ sku: field.sku, category: optionalExternalId, warehouse: optionalExternalId, zone: optionalExternalId })
  .strict()
  .refine((row) => row.zone === null || row.warehouse !== null, {
    message: 'needs the warehouse of the zone',
    path: ['warehouse'],
  });
type PlaceRow = z.infer<typeof PlaceRow>;

/** What the rows name, looked up: items by SKU, categories, warehouses and zones by externalId. */
async function lookUp(sql: Queryable, organizationId: string, rows: readonly PlaceRow[]) {
  return {
    items: await idsBySku(
      sql,
      organizationId,
      rows.map((row) => row.sku),
    ),
    categories: await categoriesByExternalId(
      sql,
      organizationId,
      namesIn(rows, (row) => row.category),
    ),
    places: await placesByExternalId(
      sql,
      organizationId,
      namesIn(rows, (row) => row.warehouse),
    ),
  };
}

type Found = Awaited<ReturnType<typeof lookUp>>;

/** Why a row cannot be applied, or its item's new category and place (undefined: where it is). */
function resolve(row: PlaceRow, found: Found): { problem: string } | { itemId: string; body: UpdateItemBody } {
  const itemId = found.items.get(row.sku);
  if (itemId === undefined) return { problem: `sku: no item with SKU "${row.sku}"` };
  const categoryId = row.category === null ? null : found.categories.get(row.category);
  if (categoryId === undefined) {
    return { problem: `category: no category with externalId "${row.category}" (import categories first)` };
  }
  if (row.warehouse === null) return { itemId, body: { categoryId } };
  const warehouse = found.places.warehouses.get(row.warehouse);
  if (warehouse === undefined) {
    return { problem: `warehouse: no warehouse with externalId "${row.warehouse}" (import warehouses first)` };
  }
  const zoneId = row.zone === null ? warehouse.firstZoneId : found.places.zones.get(zoneKey(row.warehouse, row.zone));
  if (zoneId === undefined || zoneId === null) {
    return {
      problem:
        row.zone === null
          ? `warehouse: "${row.warehouse}" has no zones (import zones first)`
          : `zone: no zone with externalId "${row.zone}" in warehouse "${row.warehouse}" (import zones first)`,
    };
  }
  return { itemId, body: { categoryId, warehouseId: warehouse.id, zoneId } };
}

async function writePlaces(tx: TransactionSql, organizationId: string, rows: PlaceRow[]): Promise<Written> {
  const found = await lookUp(tx, organizationId, rows);
  // The items' rows locked first, in one order: the PATCHes below then take the feed's lock holding every item
  // they need, so an API write of one of these items waits for the import instead of deadlocking with it.
  const current = new Map(
    (
      await tx<{ id: string; category_id: string | null; warehouse_id: string; zone_id: string }[]>`
        SELECT id, category_id, warehouse_id, zone_id FROM items
        WHERE organization_id = ${organizationId} AND id = ANY(${[...found.items.values()]}::uuid[])
        ORDER BY id FOR UPDATE
      `
    ).map((row) => [row.id, row]),
  );
  let updated = 0;
  const touched = new Set<string>();
  for (const row of rows) {
    const resolved = resolve(row, found);
    // check() refused these rows; an item deleted since then refuses the import (nothing is written).
    if ('problem' in resolved) throw new Error(`row for ${row.sku} no longer applies: ${resolved.problem}`);
    const before = current.get(resolved.itemId);
    if (before === undefined) throw new Error(`item ${row.sku} vanished during the import`);
    const { body } = resolved;
    const same =
      body.categoryId === before.category_id &&
      (body.warehouseId === undefined || (body.warehouseId === before.warehouse_id && body.zoneId === before.zone_id));
    if (same) continue;
    await updateItem(tx, organizationId, resolved.itemId, body);
    updated += 1;
    touched.add(resolved.itemId);
  }
  return { created: 0, updated, touched };
}

export const ITEM_PLACES_IMPORT: ImportKind<PlaceRow> = {
  name: 'item-places',
  fields: ['sku', 'category', 'warehouse', 'zone'],
  required: ['sku'],
  row: PlaceRow,
  key: (row) => row.sku,
  keyFields: 'sku',
  check: async (sql, organizationId, rows): Promise<Reject[]> => {
    const found = await lookUp(
      sql,
      organizationId,
      rows.map((entry) => entry.value),
    );
    return rows.flatMap((entry) => {
      const resolved = resolve(entry.value, found);
      return 'problem' in resolved ? [{ row: entry.row, reason: resolved.problem }] : [];
    });
  },
  write: writePlaces,
};
