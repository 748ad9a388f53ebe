import { ListWarehousesQuerySchema, WarehouseListSchema, WarehouseSchema } from '../schemas/warehouse.js';
import { c, listAndGet } from './common.js';

/** The warehouses routes: read-only, each warehouse with its zones. */
export const warehouses = c.router(
  listAndGet(
    'Warehouses',
    '/warehouses',
    {
      summary: 'List warehouses',
      description:
        "Lists the workspace's warehouses with their zones: the default warehouse first, then by name (byte order), then id.",
      operationId: 'listWarehouses',
      query: ListWarehousesQuerySchema,
      page: WarehouseListSchema,
    },
    {
      summary: 'Get a warehouse',
      description: 'Returns one warehouse with its zones.',
      operationId: 'getWarehouse',
      entry: WarehouseSchema,
    },
  ),
);
