/** Inventory items and their valuations: the API's one writable resource. */
export { ITEMS, type StoredItemRow } from './columns.js';
export { IMAGES_IMPORT } from './images-import.js';
export { itemsRoutes } from './routes.js';
export {
  createItem,
  deleteItem,
  listItemValuations,
  recordItemsUpdated,
  updateItem,
  type WriteNotifier,
} from './service.js';
export {
  findItem,
  idsBySku,
  itemRead,
  listItems,
  lockItem,
  setConsignment,
  touchItemsOfCategories,
} from './store.js';
export { findValuation, latestValuations, VALUATIONS } from './valuations.js';
