import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { inTenant } from '../../request/context.js';
import { readWithAuthentication } from '../../request/gated-read.js';
import { findWarehouse, listWarehouses, warehouseRead } from './store.js';

/** GET /warehouses and GET /warehouses/{id}: the ids items take as warehouseId and zoneId. */
export const warehousesRoutes = initServer().router(contract.warehouses, {
  list: inTenant(({ sql, organizationId }, { query }) => listWarehouses(sql, organizationId, query)),
  get: inTenant(async ({ sql, organizationId }, { params, res }) =>
    found(await readWithAuthentication(res, warehouseRead, () => findWarehouse(sql, organizationId, params.id))),
  ),
});
