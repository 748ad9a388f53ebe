export { consignmentsRoutes } from './routes.js';
export { CONSIGNMENTS, findConsignment, listConsignments } from './store.js';
