import { readConsignmentsWith } from '../items/index.js';
import { findConsignments } from './store.js';

// Item writes record the consignment.updated changes they derive (items/consignment-changes.ts) through this read.
// Given here, where the module is loaded: the router and the operator's imports load this index.
readConsignmentsWith(findConsignments);

export { CONSIGNMENT_ITEMS_IMPORT, CONSIGNMENTS_IMPORT, CONSIGNORS_IMPORT } from './import.js';
export { consignmentRead, consignmentsRoutes } from './routes.js';
export { copyConsignmentsToSandbox, countConsignments } from './sandbox.js';
export {
  CONSIGNMENTS,
  type ConsignmentRow,
  type ConsignorRow,
  findConsignment,
  insertConsignmentRows,
  listConsignments,
} from './store.js';
