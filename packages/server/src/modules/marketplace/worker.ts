import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { backoffMs } from '../../backoff.js';
import type { Queryable } from '../../db/types.js';
import { startPollingLoop } from '../../polling-loop.js';
import { isSandbox } from '../organizations/index.js';
import { DeliveryError, type DeliveryReceipt, type MarketplaceAdapter } from './adapters/adapter.js';
import { localMarketplaceAdapter } from './adapters/local.js';
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
  /**
   * Where test mode's jobs go (a sandbox's listings): never `adapter`. Absent: the local recorder, whose listings the
   * operator reads with `marketplace simulator`.
   */
  simulator?: MarketplaceAdapter;
  /** For tests: a source of randomness for the jitter. */
  random?: () => number;
}

export interface SyncWorker {
  /** Look for work now (called after a change is committed, so syncs do not wait for the next poll). */
  kick(): void;
  /** Delivers what is due, until nothing is left; resolves with how many listings were handled. For tests and tools. */
  drain(): Promise<number>;
  /** Stops polling and waits for deliveries under way. */
  stop(): Promise<void>;
}

/** What one worker's lanes share: its settings, its name in leases, its gate's settings and its own pause. */
interface Runner {
  options: SyncWorkerOptions;
  owner: string;
  marketplace: string;
  gate: GateSettings;
  pause: PauseClock;
  stopped: () => boolean;
  simulator: MarketplaceAdapter;
  /** Whether an organization is a sandbox (remembered: it never changes). */
  inSandbox: (organizationId: string) => Promise<boolean>;
}

/** Whether an organization is a sandbox, asked of the database once per organization. */
function sandboxes(sql: Queryable): (organizationId: string) => Promise<boolean> {
  const known = new Map<string, boolean>();
  return async (organizationId) => {
    let sandbox = known.get(organizationId);
    if (sandbox === undefined) {
      sandbox = await isSandbox(sql, organizationId);
      if (known.size >= 10_000) known.clear();
      known.set(organizationId, sandbox);
    }
    return sandbox;
  };
}

/**
 * This process's own view of the pause, set the moment one of its deliveries is told to wait: its other lanes stop
 * at once, before the database has it. Other workers learn it from the database before each delivery.
 */
interface PauseClock {
  /** Whether deliveries are paused now. */
  active(): boolean;
  /** Stops this worker's deliveries until `until`, and looks again then rather than at the next poll. */
  until(until: number): void;
  clear(): void;
}

function pauseClock(kick: () => void): PauseClock {
  let pausedUntilMs = 0;
  let wakeTimer: NodeJS.Timeout | undefined;
  return {
    active: () => pausedUntilMs > Date.now(),
    until(until) {
      pausedUntilMs = Math.max(pausedUntilMs, until);
      clearTimeout(wakeTimer);
      wakeTimer = setTimeout(kick, Math.max(0, pausedUntilMs - Date.now()) + 5);
      wakeTimer.unref();
    },
    clear: () => clearTimeout(wakeTimer),
  };
}

function gateSettingsOf(options: SyncWorkerOptions): GateSettings {
  return {
    circuitFailures: options.circuitFailures,
    openMs: options.circuitOpenMs,
    maxOpenMs: Math.max(options.circuitOpenMs, options.maxDelayMs),
    defaultPauseMs: options.baseDelayMs,
    probeLeaseMs: options.leaseMs,
  };
}

export function startSyncWorker(options: SyncWorkerOptions, { autostart = true } = {}): SyncWorker {
  const { sql, logger } = options;
  const loop = startPollingLoop({ pollMs: options.pollMs, logger, failure: 'sync worker pass failed' }, () => drain(), {
    autostart,
  });
  const runner: Runner = {
    options,
    owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    marketplace: options.adapter.name,
    gate: gateSettingsOf(options),
    pause: pauseClock(() => loop.kick()),
    stopped: () => loop.stopped,
    simulator: options.simulator ?? localMarketplaceAdapter(sql, logger),
    inSandbox: sandboxes(sql),
  };
  let gateReady: Promise<void> | undefined;

  async function drain(): Promise<number> {
    gateReady ??= ensureGate(sql, runner.marketplace).catch((error: unknown) => {
      gateReady = undefined;
      throw error;
    });
    await gateReady;
    return drainLanes(runner);
  }

  return {
    kick: loop.kick,
    drain,
    stop: async () => {
      runner.pause.clear();
      await loop.stop();
    },
  };
}

/** Runs `concurrency` lanes, each claiming and handling listings until none is due, paused or stopped. */
async function drainLanes(runner: Runner): Promise<number> {
  const { sql, leaseMs, concurrency } = runner.options;
  let handled = 0;
  const lane = async (n: number) => {
    const name = `${runner.owner}#${n}`;
    while (!runner.stopped() && !runner.pause.active()) {
      const listing = await claimListing(sql, runner.owner, leaseMs);
      if (!listing) return;
      if ((await handle(runner, listing, name)) === 'gated') return;
      handled += 1;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, n) => lane(n)));
  return handled;
}

function deliver(adapter: MarketplaceAdapter, job: SyncJob): Promise<DeliveryReceipt> {
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

/** Delivers the listing's newest job, unless the gate (or this process's own pause) holds deliveries back. */
async function handle(runner: Runner, listing: ClaimedListing, lane: string): Promise<'handled' | 'gated'> {
  const { sql } = runner.options;
  const job = await takeNewestJob(sql, listing);
  if (!job) {
    await releaseListing(sql, listing, runner.owner);
    return 'handled';
  }
  if (await runner.inSandbox(job.organizationId)) return simulate(runner, listing, job);
  // The gate is asked as late as possible, right before the request: a pause another worker recorded a moment
  // ago still stops this one.
  const verdict = await passGate(sql, runner.marketplace, lane, runner.gate.probeLeaseMs);
  // This process's own pause may have begun while the gate was asked (another lane's 429).
  if (!verdict.open || runner.pause.active()) {
    if (verdict.open && verdict.probe) await releaseProbe(sql, runner.marketplace, lane);
    await releaseListing(sql, listing, runner.owner);
    if (!verdict.open) runner.pause.until(verdict.until.getTime());
    return 'gated';
  }
  const attempt: Attempt = { job, listing, lane, probe: verdict.probe, started: performance.now() };
  try {
    await delivered(runner, attempt, await deliver(runner.options.adapter, job));
  } catch (error) {
    await failed(runner, attempt, error);
  }
  return 'handled';
}

/**
 * Test mode: a sandbox's job goes to the simulator, never to the marketplace, and leaves the marketplace's gate
 * alone. The simulator is local; a failure (the database's) leaves the job pending for the next pass.
 */
async function simulate(runner: Runner, listing: ClaimedListing, job: SyncJob): Promise<'handled'> {
  const { sql, logger } = runner.options;
  try {
    await deliver(runner.simulator, job);
    await completeJob(sql, job, runner.owner);
  } catch (error) {
    await releaseListing(sql, listing, runner.owner);
    throw error;
  }
  logger.info(
    { jobId: job.id, listing: job.marketplaceListingId, kind: job.kind, sequence: job.sequence, mode: 'test' },
    'sync delivered to the simulator',
  );
  return 'handled';
}

/** One delivery under way: its job, the listing it holds, the lane sending it, and whether it is the gate's probe. */
interface Attempt {
  job: SyncJob;
  listing: ClaimedListing;
  lane: string;
  probe: boolean;
  started: number;
}

async function delivered(runner: Runner, { job, lane, probe, started }: Attempt, receipt: DeliveryReceipt) {
  const { sql, observer, logger } = runner.options;
  const { marketplace } = runner;
  observer?.response?.(receipt.status === undefined ? 'local' : String(receipt.status), elapsed(started));
  // Counted as the marketplace accepts it, before the database records it.
  observer?.delivered?.(job, Math.max(0, (Date.now() - job.createdAt.getTime()) / 1000));
  await completeJob(sql, job, runner.owner);
  const settings = runner.gate;
  const changed = await recordOutcome(sql, marketplace, { kind: 'delivered' }, { probe, owner: lane, settings });
  if (changed && probe) logger.info({ marketplace }, 'marketplace circuit closed: the probe succeeded');
  logger.info(
    { jobId: job.id, listing: job.marketplaceListingId, kind: job.kind, sequence: job.sequence },
    'sync delivered',
  );
}

/** The pause a failed delivery asks for by itself: a 429's (or the default), a 503's Retry-After, else none. */
function askedPauseMs(outcome: DeliveryOutcome, defaultPauseMs: number): number {
  if (outcome.kind === 'throttled') return outcome.retryAfterMs ?? defaultPauseMs;
  return outcome.kind === 'failed' ? (outcome.retryAfterMs ?? 0) : 0;
}

/** Records a failed delivery with the gate and on its job (retried after a backoff, or dead), and logs it. */
async function failed(runner: Runner, { job, listing, lane, probe, started }: Attempt, error: unknown) {
  const { options } = runner;
  const { sql, observer, logger } = options;
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof DeliveryError) {
    observer?.response?.(
      error.status === undefined ? (error.noAnswer ?? 'network') : String(error.status),
      elapsed(started),
    );
  }
  const outcome = outcomeOf(error, message);
  // Told to wait: this process stops at once; the database tells the others.
  const pauseMs = askedPauseMs(outcome, runner.gate.defaultPauseMs);
  if (pauseMs > 0) runner.pause.until(Date.now() + pauseMs);
  const gate = await recordOutcome(sql, runner.marketplace, outcome, { probe, owner: lane, settings: runner.gate });
  if (gate && gate.pausedUntil.getTime() > Date.now()) runner.pause.until(gate.pausedUntil.getTime());
  // Logged once per opening: by the failure that reached the threshold, or by a failed probe.
  const opened = gate?.circuit === 'open' && gate.consecutiveFailures === runner.gate.circuitFailures;
  if (gate?.circuit === 'open' && outcome.kind === 'failed' && (probe || opened)) {
    logger.warn(
      {
        marketplace: runner.marketplace,
        failures: gate.consecutiveFailures,
        until: gate.pausedUntil.toISOString(),
        error: message,
      },
      probe ? 'marketplace circuit stays open: the probe failed' : 'marketplace circuit opened',
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
  await releaseListing(sql, listing, runner.owner);
  const log = { jobId: job.id, listing: job.marketplaceListingId, attempt, error: message };
  if (!dead) {
    logger.warn({ ...log, retryInMs }, 'sync attempt failed; will retry');
    return;
  }
  observer?.dead?.(job);
  const reason = permanent ? 'refused by the marketplace' : 'still failing after the give-up period';
  logger.error({ ...log, reason, failingSince: failingSince.toISOString() }, 'sync job dead');
}

const elapsed = (started: number) => (performance.now() - started) / 1000;
