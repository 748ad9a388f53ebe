import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { inTenant } from '../../request/context.js';
import { findConsignment, listConsignments } from './store.js';

/** GET /consignments and GET /consignments/{id}: read-only, the workspace's own. */
export const consignmentsRoutes = initServer().router(contract.consignments, {
  list: inTenant(({ sql, organizationId }, { query }) => listConsignments(sql, organizationId, query)),
  get: inTenant(async ({ sql, organizationId }, { params }) =>
    found(await findConsignment(sql, organizationId, params.id)),
  ),
});
