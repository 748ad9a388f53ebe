import { contract } from '@coinventory/contract';
import { readById } from '../../request/gated-read.js';
import { read, readOne } from '../../request/pipeline.js';
import { routesFor } from '../../request/routes.js';
import { listWarehouses, WAREHOUSES, warehouseById } from './store.js';

/** GET by id, read in the request's authentication statement (request/gated-read.ts). */
export const warehouseRead = readById(contract.warehouses.get, WAREHOUSES, warehouseById);

/** GET /warehouses and GET /warehouses/{id}: the ids items take as warehouseId and zoneId. */
export const warehousesRoutes = routesFor(contract.warehouses, {
  list: read(({ db, organizationId }, { query }) => listWarehouses(db, organizationId, query)),
  get: readOne(warehouseRead),
});
