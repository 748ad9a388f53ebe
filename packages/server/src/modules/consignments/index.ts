export { CONSIGNMENT_ITEMS_IMPORT, CONSIGNMENTS_IMPORT, CONSIGNORS_IMPORT } from './import.js';
export { consignmentsRoutes } from './routes.js';
export { CONSIGNMENTS, consignmentRead, findConsignment, listConsignments } from './store.js';
