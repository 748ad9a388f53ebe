/** Inventory items and their valuations: the API's one writable resource. */
// Every module that records changes (items, consignments, invoices, valuations) builds on this one: loading it
// subscribes the webhooks module to the changes (webhooks/index.ts), so no path that records one, a test calling a
// service included, records it without queuing its deliveries.
import '../webhooks/index.js';

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
export { ExportSlots } from './export.js';
export { IMAGES_IMPORT } from './images-import.js';
export { MOVEMENTS } from './movements.js';
export { moveQuantities, type QuantityDelta } from './quantities.js';
export { itemRead, itemsRoutes } from './routes.js';
export { copyItemsToSandbox, countItems } from './sandbox.js';
export {
  createItem,
  deleteItem,
  listItemValuations,
  recordItemsUpdated,
  updateItem,
} from './service.js';
export {
  findItem,
  type ItemImageRow,
  idsBySku,
  insertItemRows,
  listItems,
  lockItem,
  setConsignment,
  touchItemsOfCategories,
} from './store.js';
export { findValuation, latestValuations, VALUATIONS } from './valuations.js';
