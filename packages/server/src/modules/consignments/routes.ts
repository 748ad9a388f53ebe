import { contract } from '@coinventory/contract';
import { readById } from '../../request/gated-read.js';
import { read, readOne } from '../../request/pipeline.js';
import { routesFor } from '../../request/routes.js';
import { CONSIGNMENTS, consignmentById, listConsignments } from './store.js';

/** GET by id, read in the request's authentication statement (request/gated-read.ts). */
export const consignmentRead = readById(contract.consignments.get, CONSIGNMENTS, consignmentById);

/** GET /consignments and GET /consignments/{id}: read-only, the organization's own. */
export const consignmentsRoutes = routesFor(contract.consignments, {
  list: read(({ db, organizationId }, { query }) => listConsignments(db, organizationId, query)),
  get: readOne(consignmentRead),
});
