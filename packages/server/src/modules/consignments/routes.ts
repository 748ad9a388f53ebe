import { contract } from '@coinventory/contract';
import { initServer } from '@ts-rest/express';
import { read, readOne } from '../../request/pipeline.js';
import { listConsignments, consignmentRead } from './store.js';

/** GET /consignments and GET /consignments/{id}: read-only, the organization's own. */
export const consignmentsRoutes = initServer().router(contract.consignments, {
  list: read(({ db, organizationId }, { query }) => listConsignments(db, organizationId, query)),
  get: readOne(consignmentRead),
});
