import type { Sql } from '../../db/types.js';
import type { Env } from '../../env.js';
import type { Logger } from '../../logger.js';
import type { MarketplaceAdapter } from './adapters/adapter.js';
import { httpMarketplaceAdapter } from './adapters/http.js';
import { localMarketplaceAdapter } from './adapters/local.js';
import { type SyncObserver, type SyncWorker, startSyncWorker } from './worker.js';

/** The configured marketplace: its HTTP API, or the local recorder when none is configured. */
export function marketplaceAdapterFromEnv(env: Env, sql: Sql, logger: Logger): MarketplaceAdapter {
  return env.MARKETPLACE_API_URL
    ? httpMarketplaceAdapter({
        baseUrl: env.MARKETPLACE_API_URL,
        token: env.MARKETPLACE_API_TOKEN,
        timeoutMs: env.MARKETPLACE_TIMEOUT_MS,
      })
    : localMarketplaceAdapter(sql, logger);
}

export function syncWorkerFromEnv(env: Env, sql: Sql, logger: Logger, observer?: SyncObserver): SyncWorker {
  const adapter = marketplaceAdapterFromEnv(env, sql, logger);
  logger.info({ marketplace: adapter.name }, 'sync worker started');
  return startSyncWorker({
    sql,
    adapter,
    logger,
    pollMs: env.SYNC_POLL_MS,
    concurrency: env.SYNC_CONCURRENCY,
    giveUpMs: env.SYNC_GIVE_UP_SECONDS * 1000,
    baseDelayMs: env.SYNC_BASE_DELAY_MS,
    maxDelayMs: env.SYNC_MAX_DELAY_MS,
    leaseMs: env.SYNC_LEASE_MS,
    circuitFailures: env.SYNC_CIRCUIT_FAILURES,
    circuitOpenMs: env.SYNC_CIRCUIT_OPEN_MS,
    ...(observer && { observer }),
  });
}
