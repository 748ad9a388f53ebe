/** The workspace's warehouses and their zones, read-only. */
export { warehousesRoutes } from './routes.js';
export { WAREHOUSES, warehouseRead } from './store.js';
