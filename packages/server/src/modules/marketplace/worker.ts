import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Queryable } from '../../db/types.js';
import { startPollingLoop } from '../../polling-loop.js';
import { DeliveryError, type DeliveryReceipt, type MarketplaceAdapter } from './adapters/adapter.js';
import { type DeliveryOutcome, ensureGate, type GateSettings, passGate, recordOutcome, releaseProbe } from './gate.js';
import {
  type ClaimedListing,
  claimListing,
  completeJob,
  failJob,
  releaseListing,
  type SyncJob,
  takeNewestJob,
} from './store.js';

/** What the worker reports as it goes (metrics listen here). */
export interface SyncObserver {
  /** A marketplace call ended: its HTTP status, or `network`/`timeout` when no answer came (`local`: no HTTP). */
  response?(outcome: string, seconds: number): void;
  /** A job was delivered, `ageSeconds` after its change was committed. */
  delivered?(job: SyncJob, ageSeconds: number): void;
  /** A job was given up. */
  dead?(job: SyncJob): void;
}

export interface SyncWorkerOptions {
  sql: Queryable;
  adapter: MarketplaceAdapter;
  logger: Logger;
  /** How often to look for due jobs when nothing wakes the worker. */
  pollMs: number;
  /** Listings delivered at once. */
  concurrency: number;
  /**
   * How long a job may keep failing transiently (network, timeout, 429, 5xx) before it is given up as dead,
   * counted from its first failed attempt. A permanent refusal (another 4xx) makes it dead at once.
   */
  giveUpMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** How long a claimed listing stays leased; longer than a delivery can take, so a dead worker's lease lapses. */
  leaseMs: number;
  /** Transient failures in a row, across the marketplace, that open the circuit. */
  circuitFailures: number;
  /** The circuit's first open period (doubling, up to maxDelayMs, while probes fail). */
  circuitOpenMs: number;
  observer?: SyncObserver;
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
  const { sql, adapter, logger, observer } = options;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const marketplace = adapter.name;
  const gateSettings: GateSettings = {
    circuitFailures: options.circuitFailures,
    openMs: options.circuitOpenMs,
    maxOpenMs: Math.max(options.circuitOpenMs, options.maxDelayMs),
    defaultPauseMs: options.baseDelayMs,
    probeLeaseMs: options.leaseMs,
  };
  const loop = startPollingLoop({ pollMs: options.pollMs, logger, failure: 'sync worker pass failed' }, () => drain(), {
    autostart,
  });
  let gateReady: Promise<void> | undefined;
  /**
   * This process's own view of the pause, set the moment one of its deliveries is told to wait: its other lanes stop
   * at once, before the database has it. Other workers learn it from the database before each delivery.
   */
  let pausedUntilMs = 0;
  let wakeTimer: NodeJS.Timeout | undefined;

  /** Stops this worker's deliveries until `until`, and looks again then rather than at the next poll. */
  function pauseUntil(until: number): void {
    pausedUntilMs = Math.max(pausedUntilMs, until);
    clearTimeout(wakeTimer);
    wakeTimer = setTimeout(() => loop.kick(), Math.max(0, pausedUntilMs - Date.now()) + 5);
    wakeTimer.unref();
  }

  async function deliver(job: SyncJob): Promise<DeliveryReceipt> {
    const request = {
      organizationId: job.organizationId,
      marketplaceListingId: job.marketplaceListingId,
      idempotencyKey: job.id,
      sequence: job.sequence,
    };
    if (job.kind === 'set_quantity') return adapter.setQuantity({ ...request, quantity: job.quantity ?? 0 });
    return adapter.deleteListing(request);
  }

  /** The gate's view of a failed delivery. */
  function outcomeOf(error: unknown, message: string): DeliveryOutcome {
    if (!(error instanceof DeliveryError)) return { kind: 'failed', retryAfterMs: undefined, reason: message };
    if (!error.retryable) return { kind: 'refused' };
    if (error.status === 429) return { kind: 'throttled', retryAfterMs: error.retryAfterMs, reason: message };
    // Only a 503 asks for a pause with its Retry-After; other 5xx and no answer at all count towards the circuit.
    return { kind: 'failed', retryAfterMs: error.status === 503 ? error.retryAfterMs : undefined, reason: message };
  }

  async function handle(listing: ClaimedListing, lane: string): Promise<'handled' | 'gated'> {
    const job = await takeNewestJob(sql, listing);
    if (!job) {
      await releaseListing(sql, listing, owner);
      return 'handled';
    }
    // The gate is asked as late as possible, right before the request: a pause another worker recorded a moment
    // ago still stops this one.
    const verdict = await passGate(sql, marketplace, lane, gateSettings.probeLeaseMs);
    // This process's own pause may have begun while the gate was asked (another lane's 429).
    if (!verdict.open || pausedUntilMs > Date.now()) {
      if (verdict.open && verdict.probe) await releaseProbe(sql, marketplace, lane);
      await releaseListing(sql, listing, owner);
      if (!verdict.open) pauseUntil(verdict.until.getTime());
      return 'gated';
    }
    const started = performance.now();
    try {
      const receipt = await deliver(job);
      observer?.response?.(receipt.status === undefined ? 'local' : String(receipt.status), elapsed(started));
      // Counted as the marketplace accepts it, before the database records it.
      observer?.delivered?.(job, Math.max(0, (Date.now() - job.createdAt.getTime()) / 1000));
      await completeJob(sql, job, owner);
      const changed = await recordOutcome(
        sql,
        marketplace,
        { kind: 'delivered' },
        {
          probe: verdict.probe,
          owner: lane,
          settings: gateSettings,
        },
      );
      if (changed && verdict.probe) logger.info({ marketplace }, 'marketplace circuit closed: the probe succeeded');
      logger.info(
        { jobId: job.id, listing: job.marketplaceListingId, kind: job.kind, sequence: job.sequence },
        'sync delivered',
      );
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof DeliveryError) {
        observer?.response?.(
          error.status === undefined ? (error.noAnswer ?? 'network') : String(error.status),
          elapsed(started),
        );
      }
      const outcome = outcomeOf(error, message);
      // Told to wait: this process stops at once; the database tells the others.
      const askedPauseMs =
        outcome.kind === 'throttled'
          ? (outcome.retryAfterMs ?? gateSettings.defaultPauseMs)
          : outcome.kind === 'failed'
            ? (outcome.retryAfterMs ?? 0)
            : 0;
      if (askedPauseMs > 0) pauseUntil(Date.now() + askedPauseMs);
      const gate = await recordOutcome(sql, marketplace, outcome, {
        probe: verdict.probe,
        owner: lane,
        settings: gateSettings,
      });
      if (gate && gate.pausedUntil.getTime() > Date.now()) pauseUntil(gate.pausedUntil.getTime());
      // Logged once per opening: by the failure that reached the threshold, or by a failed probe.
      const opened = gate?.circuit === 'open' && gate.consecutiveFailures === gateSettings.circuitFailures;
      if (gate?.circuit === 'open' && outcome.kind === 'failed' && (verdict.probe || opened)) {
        logger.warn(
          { marketplace, failures: gate.consecutiveFailures, until: gate.pausedUntil.toISOString(), error: message },
          verdict.probe ? 'marketplace circuit stays open: the probe failed' : 'marketplace circuit opened',
        );
      }
      const attempt = job.attempts + 1;
      const permanent = outcome.kind === 'refused';
      const retryInMs = permanent
        ? 0
        : Math.max(
            backoffMs(attempt, options.baseDelayMs, options.maxDelayMs, options.random),
            error instanceof DeliveryError ? (error.retryAfterMs ?? 0) : 0,
          );
      const { dead, failingSince } = await failJob(
        sql,
        job,
        message,
        permanent ? { permanent: true } : { permanent: false, retryInMs, giveUpMs: options.giveUpMs },
      );
      await releaseListing(sql, listing, owner);
      const log = { jobId: job.id, listing: job.marketplaceListingId, attempt, error: message };
      if (dead) {
        observer?.dead?.(job);
        logger.error(
          {
            ...log,
            reason: permanent ? 'refused by the marketplace' : 'still failing after the give-up period',
            failingSince: failingSince.toISOString(),
          },
          'sync job dead',
        );
      } else logger.warn({ ...log, retryInMs }, 'sync attempt failed; will retry');
    }
    return 'handled';
  }

  async function drain(): Promise<number> {
    gateReady ??= ensureGate(sql, marketplace).catch((error: unknown) => {
      gateReady = undefined;
      throw error;
    });
    await gateReady;
    let handled = 0;
    const lane = async (n: number) => {
      const name = `${owner}#${n}`;
      while (!loop.stopped && pausedUntilMs <= Date.now()) {
        const listing = await claimListing(sql, owner, options.leaseMs);
        if (!listing) return;
        if ((await handle(listing, name)) === 'gated') return;
        handled += 1;
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, (_, n) => lane(n)));
    return handled;
  }

  return {
    kick: loop.kick,
    drain,
    stop: async () => {
      clearTimeout(wakeTimer);
      await loop.stop();
    },
  };
}

const elapsed = (started: number) => (performance.now() - started) / 1000;
