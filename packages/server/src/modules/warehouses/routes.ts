import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { read, readOne } from '../../request/pipeline.js';
import { listWarehouses, warehouseRead } from './store.js';

/** GET /warehouses and GET /warehouses/{id}: the ids items take as warehouseId and zoneId. */
export const warehousesRoutes = initServer().router(contract.warehouses, {
  list: read(({ db, organizationId }, { query }) => listWarehouses(db, organizationId, query)),
  get: readOne(warehouseRead),
});
