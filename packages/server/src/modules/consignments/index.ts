export { consignmentsRoutes } from './routes.js';
export { CONSIGNMENTS, consignmentRead, findConsignment, listConsignments } from './store.js';
