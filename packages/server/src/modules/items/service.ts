import {
  type CreateItemBody,
  type DeletedItem,
  type Item,
  LIMITS,
  type UpdateItemBody,
  type ValuationList,
} from '@coinventory/contract';
import { violatedForeignKey, violatedUniqueConstraint } from '../../db/errors.js';
import type { Queryable, TransactionSql } from '../../db/types.js';
import { ApiError, badRequest, notFound } from '../../errors.js';
import { checkPreconditions, type WriteConditions } from '../../request/etag.js';
import { quietNotifier, type WriteNotifier } from '../../request/pipeline.js';
import { recordChange } from '../changes/index.js';
import { enqueueForItem } from '../marketplace/index.js';
import { consignmentsById, recordConsignmentsChanged } from './consignment-changes.js';
import * as items from './store.js';
import { listValuations } from './valuations.js';

const SKU_CONSTRAINT = 'items_sku_key';

/** Turns the database's verdict on a write into the API's: a taken SKU is 409, a foreign id is a field error. */
function translateWriteError(error: unknown): never {
  if (violatedUniqueConstraint(error) === SKU_CONSTRAINT) throw new ApiError('CONFLICT');
  const foreignKey = violatedForeignKey(error);
  if (foreignKey === 'items_category_fkey')
    throw badRequest('body.categoryId: no category with this id in the organization');
  if (foreignKey === 'items_warehouse_fkey')
    throw badRequest('body.warehouseId: no warehouse with this id in the organization');
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
        : 'body.zoneId: no zone with this id in the organization',
    );
  }
  if (wanted.warehouseId !== undefined)
    throw badRequest('body.warehouseId: no warehouse with this id in the organization');
  // Every organization is created with a default warehouse and a zone; reaching here is a broken organization.
  throw new Error(`organization ${organizationId} has no default warehouse with a zone`);
}

/**
 * Adds an item and answers with the row it wrote, read in its transaction: a deadline that passes before the commit
 * rolls the insert back, so its 500 never hides a created item.
 */
export async function createItem(
  tx: TransactionSql,
  organizationId: string,
  body: CreateItemBody,
  notify: WriteNotifier = quietNotifier,
): Promise<Item> {
  const location = await locate(tx, organizationId, {
    ...(body.warehouseId !== undefined && { warehouseId: body.warehouseId }),
    ...(body.zoneId !== undefined && { zoneId: body.zoneId }),
  });
  const columns = {
    ...items.columnsOf(tx, body),
    quantity_available: body.quantity ?? LIMITS.quantity.default,
    value_in_cents: body.valueInCents ?? LIMITS.valueInCents.default,
    warehouse_id: location.warehouseId,
    zone_id: location.zoneId,
  };
  const id = await items.insertItem(tx, organizationId, columns).catch(translateWriteError);
  const item = await writtenItem(tx, organizationId, id);
  const webhooks = await recordChange(tx, organizationId, { type: 'item.created', objectId: id, data: item });
  tell(notify, { sync: 0, webhooks });
  return item;
}

/** The item as the transaction that wrote it sees it: what a write answers with (never another request's row). */
export async function writtenItem(tx: Queryable, organizationId: string, id: string): Promise<Item> {
  const item = await items.findItem(tx, organizationId, id);
  if (!item) throw new Error(`item ${id} vanished inside the transaction that wrote it`);
  return item;
}

/** What an item write's transaction queued for the workers (the pipeline tells them once it has committed). */
export function tell(notify: WriteNotifier, queued: { sync: number; webhooks: number }) {
  if (queued.sync > 0) notify.syncQueued();
  if (queued.webhooks > 0) notify.webhooksQueued();
}

/**
 * Changes only the fields sent. A changed quantity queues a sync job for each linked listing in the same
 * transaction (the outbox), so the marketplace hears of every committed quantity and of no rolled-back one.
 * The answer is the row this transaction wrote.
 */
export async function updateItem(
  tx: TransactionSql,
  organizationId: string,
  id: string,
  body: UpdateItemBody,
  notify: WriteNotifier = quietNotifier,
  conditions: WriteConditions = {},
): Promise<Item> {
  // One lock order for every transaction that changes an item, so none deadlock: the item's row, then its
  // listings, then (last, held only until the commit) the organization's changes feed.
  const before = await items.lockItem(tx, organizationId, id);
  if (!before) throw notFound();
  await checkPreconditions(conditions, () => writtenItem(tx, organizationId, id));
  const columns = items.columnsOf(tx, body);
  if (body.warehouseId !== undefined || body.zoneId !== undefined) {
    // A new warehouse without a zone moves the item to that warehouse's first zone; a zone alone implies its warehouse.
    const location = await locate(tx, organizationId, {
      ...(body.warehouseId !== undefined && { warehouseId: body.warehouseId }),
      ...(body.zoneId !== undefined && { zoneId: body.zoneId }),
    });
    columns.warehouse_id = location.warehouseId;
    columns.zone_id = location.zoneId;
  }
  // A consigned item's value is part of its consignment's totals.
  const consignments =
    before.consignmentId !== null && body.valueInCents !== undefined
      ? await consignmentsById(tx, organizationId, [before.consignmentId])
      : undefined;
  await items.updateItem(tx, organizationId, id, columns).catch(translateWriteError);
  const sync =
    body.quantity === undefined || body.quantity === before.available
      ? 0
      : await enqueueForItem(tx, organizationId, id, { kind: 'set_quantity', quantity: body.quantity });
  const item = await writtenItem(tx, organizationId, id);
  let webhooks = await recordChange(tx, organizationId, { type: 'item.updated', objectId: id, data: item });
  if (consignments) webhooks += await recordConsignmentsChanged(tx, organizationId, consignments);
  tell(notify, { sync, webhooks });
  return item;
}

/** Deletes the item and, in the same transaction, queues the removal of every listing made from it. */
export async function deleteItem(
  tx: TransactionSql,
  organizationId: string,
  id: string,
  notify: WriteNotifier = quietNotifier,
  conditions: WriteConditions = {},
): Promise<DeletedItem> {
  // The item's row first, then its listings, then the feed, as in updateItem: a PATCH and a DELETE of one item
  // never deadlock.
  const before = await items.lockItem(tx, organizationId, id);
  if (!before) throw notFound();
  await checkPreconditions(conditions, () => writtenItem(tx, organizationId, id));
  // Queued before the delete: the listing rows outlive the item, but their link to it does not.
  const sync = await enqueueForItem(tx, organizationId, id, { kind: 'delete_listing' });
  // A consigned item is counted in its consignment's totals.
  const consignments =
    before.consignmentId === null ? undefined : await consignmentsById(tx, organizationId, [before.consignmentId]);
  await items.deleteItem(tx, organizationId, id);
  let webhooks = await recordChange(tx, organizationId, { type: 'item.deleted', objectId: id, data: null });
  if (consignments) webhooks += await recordConsignmentsChanged(tx, organizationId, consignments);
  tell(notify, { sync, webhooks });
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

/**
 * Replaces the item's images (an operator import): when they differ from what it has, its `updatedAt` moves and an
 * `item.updated` change records the item with them, as any write of the item does. False when they were the same.
 */
export async function replaceImages(
  tx: TransactionSql,
  organizationId: string,
  id: string,
  images: readonly items.ItemImage[],
  notify: WriteNotifier = quietNotifier,
): Promise<boolean> {
  if (!(await items.lockItem(tx, organizationId, id))) throw notFound();
  const current = await items.imagesOf(tx, organizationId, id);
  if (JSON.stringify(current) === JSON.stringify(images)) return false;
  await items.setImages(tx, organizationId, id, images);
  await items.updateItem(tx, organizationId, id, {});
  const item = await writtenItem(tx, organizationId, id);
  const webhooks = await recordChange(tx, organizationId, { type: 'item.updated', objectId: id, data: item });
  tell(notify, { sync: 0, webhooks });
  return true;
}

/**
 * Records an `item.updated` change for each item an import changed through another record (its consignment, its
 * category's name), each read as GET returns it. Call it after the import's writes, in their transaction: it takes
 * the feed's lock (migration 0007), so the item rows must be locked (written) before.
 */
export async function recordItemsUpdated(tx: Queryable, organizationId: string, ids: readonly string[]): Promise<void> {
  for (const id of ids) {
    const item = await writtenItem(tx, organizationId, id);
    await recordChange(tx, organizationId, { type: 'item.updated', objectId: id, data: item });
  }
}
