import type { ListWarehousesQuery, Warehouse, WarehouseList } from '@coinventory/contract';
import { organizationPage, organizationRowById } from '../../db/organization-rows.js';
import { boolean, defineTable, json, tenantKey, text } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import type { ById } from '../../request/gated-read.js';

/** The warehouses table, once, in the API's field order; its zones come in order of their position. */
export const WAREHOUSES = defineTable<Warehouse>()({
  name: 'warehouses',
  alias: 'w',
  columns: {
    ...tenantKey,
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
