import * as initial from './0001_initial.js';
import * as rateLimits from './0002_rate_limits.js';
import * as marketplaceSync from './0003_marketplace_sync.js';
import * as rateLimitWindowStart from './0004_rate_limit_window_start.js';
import * as itemsSearchByWorkspace from './0005_items_search_by_workspace.js';
import * as rateLimitMixedPolicies from './0006_rate_limit_mixed_policies.js';
import * as changesAndIdempotency from './0007_changes_and_idempotency.js';
import * as webhooks from './0008_webhooks.js';
import * as marketplaceBackPressure from './0009_marketplace_back_pressure.js';
import * as rateLimitUnlogged from './0010_rate_limit_unlogged.js';
import * as valuationSources from './0011_valuation_sources.js';
import * as importedRecords from './0012_imported_records.js';
import * as inventoryLedger from './0013_inventory_ledger.js';
import * as testMode from './0014_test_mode.js';

export interface Migration {
  version: number;
  name: string;
  up: string;
}

/** Every migration, in the order it is applied. Append new ones; never edit or reorder released ones. */
export const migrations: readonly Migration[] = [
  { version: 1, ...initial },
  { version: 2, ...rateLimits },
  { version: 3, ...marketplaceSync },
  { version: 4, ...rateLimitWindowStart },
  { version: 5, ...itemsSearchByWorkspace },
  { version: 6, ...rateLimitMixedPolicies },
  { version: 7, ...changesAndIdempotency },
  { version: 8, ...webhooks },
  { version: 9, ...marketplaceBackPressure },
  { version: 10, ...rateLimitUnlogged },
  { version: 11, ...valuationSources },
  { version: 12, ...importedRecords },
  { version: 13, ...inventoryLedger },
  { version: 14, ...testMode },
];
