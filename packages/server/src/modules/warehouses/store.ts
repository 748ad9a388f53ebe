import type { ListWarehousesQuery, Warehouse, WarehouseList } from '@coinventory/contract';
import { boolean, json, text } from '../../db/column-types.js';
import { organizationPage, organizationRowById } from '../../db/organization-rows.js';
import { inserted } from '../../db/sql-helpers.js';
import { defineTable } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import type { ById } from '../../request/gated-read.js';

/** The warehouses table, once, in the API's field order; its zones come in order of their position. */
export const WAREHOUSES = defineTable<Warehouse>()({
  name: 'warehouses',
  alias: 'w',
  columns: {
    name: { type: text, field: 'name' },
    is_default: { type: boolean, field: 'isDefault' },
    zones: {
      type: json<Warehouse['zones']>(),
      field: 'zones',
      computed: (sql) => sql`coalesce((
        SELECT json_agg(json_build_object('id', z.id, 'name', z.name) ORDER BY z.position)
        FROM zones z
        WHERE z.organization_id = w.organization_id AND z.warehouse_id = w.id
      ), '[]'::json)`,
    },
  },
});

export async function listWarehouses(
  sql: Queryable,
  organizationId: string,
  query: ListWarehousesQuery,
): Promise<WarehouseList> {
  return organizationPage(sql, WAREHOUSES, organizationId, query, {
    order: sql`w.is_default DESC, w.name COLLATE "C", w.id`,
  });
}

/** One row by id: what its GET reads (the gated read is declared beside the route). */
export const warehouseById: ById = (sql, organizationId, id) =>
  organizationRowById(sql, WAREHOUSES, organizationId, id);

export async function findWarehouse(sql: Queryable, organizationId: string, id: string): Promise<Warehouse | null> {
  return WAREHOUSES.first(warehouseById(sql, organizationId, id));
}

/**
 * An organization's default warehouse, "Main", with its first zone, "Receiving", in one statement: made with the
 * organization, in its transaction, by whoever opens one (the operator's `org create`, the demo). `createdAt` dates the
 * warehouse back with its organization (the demo's).
 */
export async function createDefaultWarehouse(
  sql: Queryable,
  organizationId: string,
  createdAt?: Date,
): Promise<{ defaultWarehouseId: string; defaultZoneId: string }> {
  const row = await inserted(sql<{ warehouse_id: string; zone_id: string }[]>`
    WITH warehouse AS (
      INSERT INTO warehouses (organization_id, name, is_default, created_at)
      VALUES (${organizationId}, 'Main', true, ${createdAt ?? sql`DEFAULT`})
      RETURNING organization_id, id
    ), zone AS (
      INSERT INTO zones (organization_id, warehouse_id, name, position)
      SELECT organization_id, id, 'Receiving', 1 FROM warehouse RETURNING id
    )
    SELECT warehouse.id AS warehouse_id, zone.id AS zone_id FROM warehouse, zone
  `);
  return { defaultWarehouseId: row.warehouse_id, defaultZoneId: row.zone_id };
}

/** A warehouse as stored. */
export interface WarehouseRow {
  organization_id: string;
  id: string;
  name: string;
  is_default: boolean;
  created_at: Date;
}

/** A zone as stored. */
export interface ZoneRow {
  organization_id: string;
  id: string;
  warehouse_id: string;
  name: string;
  position: number;
}

/**
 * Stored rows in one multi-row INSERT per table, for a caller that loads an organization's data at once (the demo).
 */
export async function insertWarehouseRows(
  sql: Queryable,
  rows: { warehouses: readonly WarehouseRow[]; zones: readonly ZoneRow[] },
): Promise<void> {
  if (rows.warehouses.length > 0) await sql`INSERT INTO warehouses ${sql(rows.warehouses)}`;
  if (rows.zones.length > 0) await sql`INSERT INTO zones ${sql(rows.zones)}`;
}
