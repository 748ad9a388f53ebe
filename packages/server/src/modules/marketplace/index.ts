/** Keeping linked marketplace listings in step with items: the outbox, its worker and the marketplace adapters. */
export { DeliveryError, type MarketplaceAdapter, type MarketplaceRequest } from './adapters/adapter.js';
export { httpMarketplaceAdapter } from './adapters/http.js';
export { localMarketplaceAdapter } from './adapters/local.js';
export { oldestPendingSyncSeconds, syncJobCounts } from './figures.js';
export { marketplaceAdapterFromEnv, syncWorkerFromEnv } from './from-env.js';
export { type GateState, listGates } from './gate.js';
export {
  linkListing,
  listJobs,
  listListings,
  retryJob,
  simulatedListings,
  syncStatus,
  unlinkListing,
} from './operator.js';
export { forgetLocalDeliveries } from './sandbox.js';
export type { SimulatedListing } from './simulator.js';
export {
  enqueueForItem,
  insertListingRows,
  type MarketplaceListingRow,
  SYNC_STATES,
  type SyncJob,
  type SyncKind,
  type SyncState,
} from './store.js';
export { type SyncObserver, type SyncWorker, type SyncWorkerOptions, startSyncWorker } from './worker.js';
