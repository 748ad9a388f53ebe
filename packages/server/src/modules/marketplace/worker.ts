import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Queryable } from '../../db/types.js';
import { startPollingLoop } from '../../polling-loop.js';
import { DeliveryError, type MarketplaceAdapter } from './adapters/adapter.js';
import {
  type ClaimedListing,
  claimListing,
  completeJob,
  failJob,
  releaseListing,
  type SyncJob,
  takeNewestJob,
} from './store.js';

export interface SyncWorkerOptions {
  sql: Queryable;
  adapter: MarketplaceAdapter;
  logger: Logger;
  /** How often to look for due jobs when nothing wakes the worker. */
  pollMs: number;
  /** Listings delivered at once. */
  concurrency: number;
  /** Attempts before a job is given up as dead. */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long a claimed listing stays leased; longer than a delivery can take, so a dead worker's lease lapses. */
  leaseMs: number;
  /** For tests: a source of randomness for the jitter. */
  random?: () => number;
}

/**
 * Exponential backoff with "equal jitter": half the exponential delay fixed, half random, capped. Retries of many
 * jobs that failed together spread out instead of hitting a recovering marketplace at once.
 */
export function backoffMs(attempt: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

export interface SyncWorker {
  /** Look for work now (called after a change is committed, so syncs do not wait for the next poll). */
  kick(): void;
  /** Delivers what is due, until nothing is left; resolves with how many listings were handled. For tests and tools. */
  drain(): Promise<number>;
  /** Stops polling and waits for deliveries under way. */
  stop(): Promise<void>;
}

export function startSyncWorker(options: SyncWorkerOptions, { autostart = true } = {}): SyncWorker {
  const { sql, adapter, logger } = options;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const loop = startPollingLoop({ pollMs: options.pollMs, logger, failure: 'sync worker pass failed' }, () => drain(), {
    autostart,
  });

  async function deliver(job: SyncJob): Promise<void> {
    const request = {
      organizationId: job.organizationId,
      marketplaceListingId: job.marketplaceListingId,
      idempotencyKey: job.id,
      sequence: job.sequence,
    };
    if (job.kind === 'set_quantity') await adapter.setQuantity({ ...request, quantity: job.quantity ?? 0 });
    else await adapter.deleteListing(request);
  }

  async function handle(listing: ClaimedListing): Promise<void> {
    const job = await takeNewestJob(sql, listing);
    if (!job) return releaseListing(sql, listing, owner);
    try {
      await deliver(job);
      await completeJob(sql, job, owner);
      logger.info(
        { jobId: job.id, listing: job.marketplaceListingId, kind: job.kind, sequence: job.sequence },
        'sync delivered',
      );
    } catch (error) {
      const attempt = job.attempts + 1;
      const retryable = error instanceof DeliveryError ? error.retryable : true;
      const message = error instanceof Error ? error.message : String(error);
      const retryInMs =
        !retryable || attempt >= options.maxAttempts
          ? null
          : Math.max(
              backoffMs(attempt, options.baseDelayMs, options.maxDelayMs, options.random),
              error instanceof DeliveryError ? (error.retryAfterMs ?? 0) : 0,
            );
      await failJob(sql, job, message, retryInMs);
      await releaseListing(sql, listing, owner);
      const log = { jobId: job.id, listing: job.marketplaceListingId, attempt, error: message, retryInMs };
      if (retryInMs === null) logger.error(log, 'sync job dead');
      else logger.warn(log, 'sync attempt failed; will retry');
    }
  }

  async function drain(): Promise<number> {
    let handled = 0;
    const lane = async () => {
      while (!loop.stopped) {
        const listing = await claimListing(sql, owner, options.leaseMs);
        if (!listing) return;
        await handle(listing);
        handled += 1;
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, lane));
    return handled;
  }

  return { kick: loop.kick, drain, stop: loop.stop };
}
