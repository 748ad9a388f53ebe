import type { Item, UpdateItemBody } from '@coinventory/contract';
import { boolean, integer, json, nullable, text, timestamp } from '../../db/column-types.js';
import { defineTable, type StoredRowOf } from '../../db/table.js';

/**
 * The items table, once: in the API's field order (the order an item's JSON shows). `i` is the item; the category
 * comes from `c`, the LEFT JOINed categories row. The generated `status` and `search_text` are left out: nothing
 * writes them and the API does not show them.
 */
export const ITEMS = defineTable<Item, UpdateItemBody>()({
  name: 'items',
  alias: 'i',
  columns: {
    sku: { type: text, field: 'sku', body: 'sku' },
    title: { type: text, field: 'title', body: 'title' },
    description: { type: nullable(text), field: 'description', body: 'description' },
    category_id: { type: nullable(text), body: 'categoryId' },
    category: {
      type: json<Item['category']>(),
      field: 'category',
      computed: (sql) =>
        sql`CASE WHEN i.category_id IS NULL THEN NULL ELSE json_build_object('id', i.category_id, 'name', coalesce(c.name, '')) END`,
    },
    quantity_available: { type: integer, field: 'quantity.available', body: 'quantity' },
    quantity_sold: { type: integer, field: 'quantity.sold' },
    quantity_reserved: { type: integer, field: 'quantity.reserved' },
    value_in_cents: { type: integer, field: 'valueInCents', body: 'valueInCents' },
    acquisition_price_in_cents: {
      type: nullable(integer),
      field: 'acquisition.priceInCents',
      body: 'acquisitionPriceInCents',
    },
    acquisition_date: { type: nullable(timestamp), field: 'acquisition.date', body: 'acquisitionDate' },
    acquired_from: { type: nullable(text), field: 'acquisition.from', body: 'acquiredFrom' },
    acquisition_notes: { type: nullable(text), field: 'acquisition.notes', body: 'acquisitionNotes' },
    grading_service: { type: nullable(text), field: 'grading.service', body: 'gradingService' },
    grade: { type: nullable(text), field: 'grading.grade', body: 'grade' },
    certificate_number: { type: nullable(text), field: 'grading.certificateNumber', body: 'certificateNumber' },
    grading_notes: { type: nullable(text), field: 'grading.notes', body: 'gradingNotes' },
    attributes: { type: json<Item['attributes']>(), field: 'attributes', body: 'attributes' },
    warehouse_id: { type: text, field: 'location.warehouseId', body: 'warehouseId' },
    zone_id: { type: text, field: 'location.zoneId', body: 'zoneId' },
    location_details: { type: nullable(text), field: 'location.details', body: 'locationDetails' },
    consignment_id: { type: nullable(text), field: 'consignmentId' },
    is_at_auction: { type: boolean, field: 'isAtAuction' },
    images: {
      type: json<Item['images']>(),
      field: 'images',
      computed: (sql) => sql`coalesce((
        SELECT json_agg(json_build_object('url', im.url, 'width', im.width, 'height', im.height) ORDER BY im.position)
        FROM item_images im
        WHERE im.organization_id = i.organization_id AND im.item_id = i.id
      ), '[]'::json)`,
    },
    created_at: { type: timestamp, field: 'createdAt' },
    updated_at: { type: nullable(timestamp), field: 'updatedAt' },
  },
});

/** An items row as stored (what the demo and tests insert). */
export type StoredItemRow = StoredRowOf<typeof ITEMS.columns>;
