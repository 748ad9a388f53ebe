export { consignmentsRoutes } from './routes.js';
export { findConsignment, listConsignments } from './store.js';
