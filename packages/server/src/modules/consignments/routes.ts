import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { inTenant } from '../../request/context.js';
import { readWithAuthentication } from '../../request/gated-read.js';
import { consignmentRead, findConsignment, listConsignments } from './store.js';

/** GET /consignments and GET /consignments/{id}: read-only, the workspace's own. */
export const consignmentsRoutes = initServer().router(contract.consignments, {
  list: inTenant(({ sql, organizationId }, { query }) => listConsignments(sql, organizationId, query)),
  get: inTenant(async ({ sql, organizationId }, { params, res }) =>
    found(await readWithAuthentication(res, consignmentRead, () => findConsignment(sql, organizationId, params.id))),
  ),
});
