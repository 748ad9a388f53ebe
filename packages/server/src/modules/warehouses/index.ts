/** The organization's warehouses and their zones, read-only. */

export { WAREHOUSES_IMPORT, ZONES_IMPORT } from './import.js';
export { ITEM_PLACES_IMPORT } from './item-places-import.js';
export { warehouseRead, warehousesRoutes } from './routes.js';
export { copyWarehousesToSandbox, countWarehouses } from './sandbox.js';
export {
  createDefaultWarehouse,
  insertWarehouseRows,
  WAREHOUSES,
  type WarehouseRow,
  type ZoneRow,
} from './store.js';
