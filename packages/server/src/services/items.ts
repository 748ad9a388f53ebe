import {
  type CreateItemBody,
  type DeletedItem,
  type Item,
  type ItemList,
  LIMITS,
  type ListItemsQuery,
  type UpdateItemBody,
  type ValuationList,
} from '@coinventory/contract';
import * as items from '../data/items.js';
import { pageOf } from '../data/sql-helpers.js';
import { listValuations } from '../data/valuations.js';
import { violatedForeignKey, violatedUniqueConstraint } from '../db/errors.js';
import type { Queryable } from '../db/types.js';
import { ApiError, badRequest, notFound } from '../errors.js';

const SKU_CONSTRAINT = 'items_sku_key';

/** Turns the database's verdict on a write into the API's: a taken SKU is 409, a foreign id is a field error. */
function translateWriteError(error: unknown): never {
  if (violatedUniqueConstraint(error) === SKU_CONSTRAINT) throw new ApiError('CONFLICT');
  const foreignKey = violatedForeignKey(error);
  if (foreignKey === 'items_category_fkey')
    throw badRequest('body.categoryId: no category with this id in the workspace');
  if (foreignKey === 'items_warehouse_fkey')
    throw badRequest('body.warehouseId: no warehouse with this id in the workspace');
  if (foreignKey === 'items_zone_fkey') throw badRequest('body.zoneId: no zone with this id in the warehouse');
  throw error;
}

/** The location for a write that names a warehouse and/or a zone; a field error when they do not fit. */
async function locate(sql: Queryable, organizationId: string, wanted: { warehouseId?: string; zoneId?: string }) {
  const location = await items.resolveLocation(sql, organizationId, wanted);
  if (location) return location;
  if (wanted.zoneId !== undefined) {
    throw badRequest(
      wanted.warehouseId !== undefined
        ? 'body.zoneId: no zone with this id in the given warehouse'
        : 'body.zoneId: no zone with this id in the workspace',
    );
  }
  if (wanted.warehouseId !== undefined)
    throw badRequest('body.warehouseId: no warehouse with this id in the workspace');
  // Every organization is created with a default warehouse and a zone; reaching here is a broken workspace.
  throw new Error(`organization ${organizationId} has no default warehouse with a zone`);
}

export async function listItems(sql: Queryable, organizationId: string, query: ListItemsQuery): Promise<ItemList> {
  const rows = await items.listItems(sql, organizationId, query);
  const { entries, hasMore } = pageOf(rows, query.limit);
  return { items: entries, page: query.page, limit: query.limit, hasMore };
}

export async function getItem(sql: Queryable, organizationId: string, id: string): Promise<Item> {
  const item = await items.findItem(sql, organizationId, id);
  if (!item) throw notFound();
  return item;
}

export async function createItem(sql: Queryable, organizationId: string, body: CreateItemBody): Promise<Item> {
  const location = await locate(sql, organizationId, {
    ...(body.warehouseId !== undefined && { warehouseId: body.warehouseId }),
    ...(body.zoneId !== undefined && { zoneId: body.zoneId }),
  });
  const columns = {
    ...items.columnsOf(sql, body),
    quantity_available: body.quantity ?? LIMITS.quantity.default,
    value_in_cents: body.valueInCents ?? LIMITS.valueInCents.default,
    warehouse_id: location.warehouseId,
    zone_id: location.zoneId,
  };
  const id = await items.insertItem(sql, organizationId, columns).catch(translateWriteError);
  return getItem(sql, organizationId, id);
}

export async function updateItem(
  sql: Queryable,
  organizationId: string,
  id: string,
  body: UpdateItemBody,
): Promise<Item> {
  const columns = items.columnsOf(sql, body);
  if (body.warehouseId !== undefined || body.zoneId !== undefined) {
    // A new warehouse without a zone moves the item to that warehouse's first zone; a zone alone implies its warehouse.
    const location = await locate(sql, organizationId, {
      ...(body.warehouseId !== undefined && { warehouseId: body.warehouseId }),
      ...(body.zoneId !== undefined && { zoneId: body.zoneId }),
    });
    columns.warehouse_id = location.warehouseId;
    columns.zone_id = location.zoneId;
  }
  const updated = await items.updateItem(sql, organizationId, id, columns).catch(translateWriteError);
  if (!updated) throw notFound();
  return getItem(sql, organizationId, id);
}

export async function deleteItem(sql: Queryable, organizationId: string, id: string): Promise<DeletedItem> {
  if (!(await items.deleteItem(sql, organizationId, id))) throw notFound();
  return { id, deleted: true };
}

export async function listItemValuations(
  sql: Queryable,
  organizationId: string,
  itemId: string,
  limit: number,
): Promise<ValuationList> {
  if (!(await items.itemExists(sql, organizationId, itemId))) throw notFound();
  return { items: await listValuations(sql, organizationId, itemId, limit) };
}
