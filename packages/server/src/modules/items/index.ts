/** Inventory items and their valuations: the API's one writable resource. */
export { ITEMS, type StoredItemRow } from './columns.js';
export {
  bothBefore,
  type ConsignmentReader,
  type ConsignmentsBefore,
  consignmentsHoldingItems,
  consignmentsHoldingItemsOnInvoices,
  readConsignmentsWith,
  recordConsignmentsChanged,
} from './consignment-changes.js';
export { IMAGES_IMPORT } from './images-import.js';
export { itemRead, itemsRoutes } from './routes.js';
export {
  createItem,
  deleteItem,
  listItemValuations,
  recordItemsUpdated,
  updateItem,
} from './service.js';
export {
  findItem,
  idsBySku,
  listItems,
  lockItem,
  setConsignment,
  touchItemsOfCategories,
} from './store.js';
export { findValuation, latestValuations, VALUATIONS } from './valuations.js';
