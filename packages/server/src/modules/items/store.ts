import type { ExportItemsQuery, Item, ItemList, ListItemsQuery, UpdateItemBody } from '@coinventory/contract';
import type { JsonText } from '../../db/json-text.js';
import { inserted, offsetOf } from '../../db/sql-helpers.js';
import type { WriteOf } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import type { ById } from '../../request/gated-read.js';
import { ITEMS, type StoredItemRow } from './columns.js';
import { listFilters, ORDER_BY, selectItems, selectItemsText } from './list-sql.js';
import { searchPage } from './search.js';

/**
 * One page of items plus one more row, which tells the caller whether another page follows.
 *
 * Pages after the first are chosen from the keys alone, and only their rows are then read in full (a "deferred
 * join"): OFFSET still walks every row before the page, but through the sort's index (an index-only scan for the
 * newest, oldest and value sorts) instead of reading each skipped item with its category and images. In the
 * benchmark (bench/, `pnpm bench`) page 2,000 of 50 took 900 ms of PostgreSQL's time before and 20 ms after. The
 * first page skips nothing and keeps the plain query, which the planner plans in half the time.
 */
export async function listItems(
  sql: Queryable,
  organizationId: string,
  query: ListItemsQuery,
): Promise<JsonText<ItemList>> {
  const offset = offsetOf(query.page, query.limit);
  if (query.q !== undefined) return ITEMS.pageText(searchPage(sql, organizationId, query, offset), query);
  return ITEMS.pageText(
    offset === 0
      ? sql`
          ${selectItemsText(sql)}
          ${listFilters(sql, organizationId, query)}
          ${ORDER_BY[query.sort](sql)}
          LIMIT ${query.limit + 1}
        `
      : sql`
          SELECT ${ITEMS.selectText(sql)}
          FROM (
            SELECT i.organization_id, i.id
            FROM items i
            ${listFilters(sql, organizationId, query)}
            ${ORDER_BY[query.sort](sql)}
            LIMIT ${query.limit + 1} OFFSET ${offset}
          ) page
          JOIN items i ON i.organization_id = page.organization_id AND i.id = page.id
          LEFT JOIN categories c ON c.organization_id = i.organization_id AND c.id = i.category_id
          ${ORDER_BY[query.sort](sql)}
        `,
    query,
  );
}

/**
 * Every item the filters keep, oldest first, as a query to read with a cursor (`.cursor(n)`) in the export's
 * transaction: rows arrive as they are fetched, never all at once.
 */
export const exportQuery = (sql: Queryable, organizationId: string, query: ExportItemsQuery) => sql`
  ${selectItems(sql)}
  ${listFilters(sql, organizationId, query)}
  ${ORDER_BY.oldest(sql)}
`;

/** One item by id: what GET /items/{id} reads (its gated read is declared beside the route). */
export const itemById: ById = (sql, organizationId, id) =>
  sql`${selectItems(sql)} WHERE i.organization_id = ${organizationId} AND i.id = ${id}`;

export async function findItem(sql: Queryable, organizationId: string, id: string): Promise<Item | null> {
  return ITEMS.first(itemById(sql, organizationId, id));
}

export interface Location {
  warehouseId: string;
  zoneId: string;
}

/**
 * Resolves where an item goes: the warehouse asked for (else the zone's warehouse, else the default warehouse)
 * and the zone asked for (else that warehouse's first zone). Null when the warehouse or zone is not the
 * organization's, or the zone is not in the warehouse.
 */
export async function resolveLocation(
  sql: Queryable,
  organizationId: string,
  wanted: { warehouseId?: string | undefined; zoneId?: string | undefined },
): Promise<Location | null> {
  const [row] = await sql<{ warehouse_id: string; zone_id: string }[]>`
    SELECT w.id AS warehouse_id, z.id AS zone_id
    FROM warehouses w
    JOIN zones z ON z.organization_id = w.organization_id AND z.warehouse_id = w.id
    WHERE w.organization_id = ${organizationId}
      ${
        wanted.warehouseId !== undefined
          ? sql`AND w.id = ${wanted.warehouseId}`
          : wanted.zoneId !== undefined
            ? sql``
            : sql`AND w.is_default`
      }
      ${wanted.zoneId !== undefined ? sql`AND z.id = ${wanted.zoneId}` : sql``}
    ORDER BY z.position
    LIMIT 1
  `;
  return row ? { warehouseId: row.warehouse_id, zoneId: row.zone_id } : null;
}

/** Columns an item write sets. */
export type ItemColumns = WriteOf<typeof ITEMS.columns>;

/** The columns for the fields present in a write body (absent fields are left out, null ones kept). */
export const columnsOf = (sql: Queryable, body: UpdateItemBody): ItemColumns => ITEMS.writes(sql, body);

export async function insertItem(sql: Queryable, organizationId: string, columns: ItemColumns): Promise<string> {
  const row = { ...columns, organization_id: organizationId };
  return (await inserted(sql<{ id: string }[]>`INSERT INTO items ${sql(row)} RETURNING id`)).id;
}

/** Updates the given columns and sets updated_at; false when the item is not the organization's. */
export async function updateItem(
  sql: Queryable,
  organizationId: string,
  id: string,
  columns: ItemColumns,
): Promise<boolean> {
  // postgres.js expands sql(columns) as `"col" = $n, …` only when it directly follows SET in the same template.
  const rows =
    Object.keys(columns).length > 0
      ? await sql`
          UPDATE items SET ${sql(columns)}, updated_at = now()
          WHERE organization_id = ${organizationId} AND id = ${id}
          RETURNING id
        `
      : await sql`
          UPDATE items SET updated_at = now()
          WHERE organization_id = ${organizationId} AND id = ${id}
          RETURNING id
        `;
  return rows.length > 0;
}

/**
 * Puts the items in a consignment (or in none): an imported link. Returns those that were elsewhere, whose
 * updated_at moved; the others were in it already.
 */
export async function setConsignment(
  sql: Queryable,
  organizationId: string,
  ids: readonly string[],
  consignmentId: string | null,
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    UPDATE items SET consignment_id = ${consignmentId}, updated_at = now()
    WHERE organization_id = ${organizationId} AND id = ANY(${ids as string[]})
      AND consignment_id IS DISTINCT FROM ${consignmentId}::uuid
    RETURNING id
  `;
  return rows.map((row) => row.id);
}

/** The items of these categories, their updated_at moved: a renamed category changes how each of them reads. */
export async function touchItemsOfCategories(
  sql: Queryable,
  organizationId: string,
  categoryIds: readonly string[],
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    UPDATE items SET updated_at = now()
    WHERE organization_id = ${organizationId} AND category_id = ANY(${categoryIds as string[]}::uuid[])
    RETURNING id
  `;
  return rows.map((row) => row.id);
}

/**
 * Locks the item's row for the rest of the transaction and returns its available quantity and its consignment (null:
 * no such item).
 */
export async function lockItem(
  sql: Queryable,
  organizationId: string,
  id: string,
): Promise<{ available: number; consignmentId: string | null } | null> {
  const [row] = await sql<{ quantity_available: number; consignment_id: string | null }[]>`
    SELECT quantity_available, consignment_id FROM items
    WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE
  `;
  return row ? { available: row.quantity_available, consignmentId: row.consignment_id } : null;
}

export async function deleteItem(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await sql`DELETE FROM items WHERE organization_id = ${organizationId} AND id = ${id} RETURNING id`;
  return rows.length > 0;
}

/** The id of the organization's item with this SKU, or null. */
/** The ids of the organization's items with these SKUs, by SKU (an unknown SKU is absent). */
export async function idsBySku(
  sql: Queryable,
  organizationId: string,
  skus: readonly string[],
): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; sku: string }[]>`
    SELECT id, sku FROM items WHERE organization_id = ${organizationId} AND sku = ANY(${skus as string[]})
  `;
  return new Map(rows.map((row) => [row.sku, row.id]));
}

export async function findIdBySku(sql: Queryable, organizationId: string, sku: string): Promise<string | null> {
  const [row] = await sql<
    { id: string }[]
  >`SELECT id FROM items WHERE organization_id = ${organizationId} AND sku = ${sku}`;
  return row?.id ?? null;
}

/**
 * Locks the organization's items with these SKUs, in one order (by id), until the transaction ends: for a write of
 * several items (a batch), so that it holds every item it changes before it records its first change (and takes the
 * feed's lock), as a write of one item does; two such writes, or one and a single item's, never deadlock.
 */
export async function lockItemsBySku(sql: Queryable, organizationId: string, skus: readonly string[]): Promise<void> {
  if (skus.length === 0) return;
  await sql`
    SELECT 1 FROM items WHERE organization_id = ${organizationId} AND sku = ANY(${skus as string[]})
    ORDER BY id FOR UPDATE
  `;
}

export async function itemExists(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  const [row] = await sql`SELECT 1 FROM items WHERE organization_id = ${organizationId} AND id = ${id}`;
  return row !== undefined;
}

export type ItemImage = Item['images'][number];

/** The item's images in order. */
export async function imagesOf(sql: Queryable, organizationId: string, itemId: string): Promise<ItemImage[]> {
  return sql<ItemImage[]>`
    SELECT url, width, height FROM item_images
    WHERE organization_id = ${organizationId} AND item_id = ${itemId}
    ORDER BY position
  `;
}

/** Replaces the item's images with these, in this order. */
export async function setImages(
  sql: Queryable,
  organizationId: string,
  itemId: string,
  images: readonly ItemImage[],
): Promise<void> {
  await sql`DELETE FROM item_images WHERE organization_id = ${organizationId} AND item_id = ${itemId}`;
  if (images.length === 0) return;
  await sql`
    INSERT INTO item_images ${sql(
      images.map((image, position) => ({
        organization_id: organizationId,
        item_id: itemId,
        position,
        url: image.url,
        width: image.width,
        height: image.height,
      })),
    )}
  `;
}

/** An item's image as stored. */
export interface ItemImageRow {
  organization_id: string;
  id: string;
  item_id: string;
  position: number;
  url: string;
  width: number | null;
  height: number | null;
}

/**
 * Stored rows in one multi-row INSERT per table, for a caller that loads an organization's data at once (the demo):
 * no change is recorded, no sync job queued, as for an organization nobody has seen yet.
 */
export async function insertItemRows(
  sql: Queryable,
  rows: { items: readonly StoredItemRow[]; images: readonly ItemImageRow[] },
): Promise<void> {
  const items = rows.items.map((item) => ({ ...item, attributes: sql.json(item.attributes) }));
  if (items.length > 0) await sql`INSERT INTO items ${sql(items)}`;
  if (rows.images.length > 0) await sql`INSERT INTO item_images ${sql(rows.images)}`;
}
