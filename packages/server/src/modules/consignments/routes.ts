import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { found } from '../../errors.js';
import { tenantOf } from '../../request/context.js';
import { findConsignment, listConsignments } from './store.js';

const s = initServer();

/** GET /consignments and GET /consignments/{id}: read-only, the workspace's own. */
export const consignmentsRoutes = s.router(contract.consignments, {
  list: async ({ query, res }) => {
    const { sql, organizationId } = tenantOf(res);
    return { status: 200, body: await listConsignments(sql, organizationId, query) };
  },
  get: async ({ params, res }) => {
    const { sql, organizationId } = tenantOf(res);
    return { status: 200, body: found(await findConsignment(sql, organizationId, params.id)) };
  },
});
