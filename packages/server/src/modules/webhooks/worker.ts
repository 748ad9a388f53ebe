import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { backoffMs } from '../../backoff.js';
import type { Queryable } from '../../db/types.js';
import { startPollingLoop } from '../../polling-loop.js';
import { encodeCursor } from '../changes/index.js';
import type { AddressPolicy } from './address-policy.js';
import { type Attempt, type Resolver, type SendOptions, send } from './send.js';
import { deliveryHeaders } from './service.js';
import {
  type ClaimedEndpoint,
  claimEndpoint,
  type DueDelivery,
  dueDeliveries,
  endpointFailed,
  endpointRecovered,
  OUTAGE_FAILURES,
  recordDelivered,
  recordFailed,
  releaseEndpoint,
  renewLeases,
} from './worker-store.js';

export interface WebhookWorkerOptions {
  sql: Queryable;
  logger: Logger;
  policy: AddressPolicy;
  /** How long a receiver has to answer one delivery. */
  timeoutMs: number;
  /** How often to look for due deliveries when nothing wakes the worker. */
  pollMs: number;
  /** Endpoints this worker sends to at once. */
  concurrency: number;
  /** Retry backoff: doubling from the base, capped, with jitter. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** For tests: how host names are resolved, and the jitter's randomness. */
  resolver?: Resolver;
  random?: () => number;
  /** For tests: how long a lease lasts unless renewed (LEASE_MS). */
  leaseMs?: number;
}

export interface WebhookWorker {
  /** Look for work now (called after a commit that queued deliveries). */
  kick(): void;
  /** Sends what is due until nothing is left that is due; resolves with how many endpoints it served. For tests. */
  drain(): Promise<number>;
  /** Stops looking for work and waits for the sends under way. */
  stop(): Promise<void>;
}

/** Deliveries read at a time for one endpoint. */
const BATCH = 20;

/**
 * How long a lease lasts unless renewed. Short, and renewed every LEASE_MS / 5 while the endpoint is served (a send
 * may take WEBHOOK_TIMEOUT_MS, longer than this): when a process dies (kill -9, a lost machine), its endpoints are
 * free again within seconds for any worker, its own restart included, rather than after a send's worst case.
 */
export const LEASE_MS = 5_000;

/** Longest one claim is served before the endpoint is released, so every endpoint gets its turn. */
const SERVE_MS = 30_000;

interface Lease {
  endpoint: ClaimedEndpoint;
  renewedAt: number;
  lost: boolean;
}

/** What the worker's pieces share: its options, its name in leases, and the leases it holds by endpoint id. */
interface Runner {
  options: WebhookWorkerOptions;
  owner: string;
  leaseMs: number;
  sendOptions: SendOptions;
  /**
   * The leases this worker holds, by endpoint id: when each was last made or renewed (as this process's clock saw the
   * statement start), and `lost` once another worker has taken it after it lapsed.
   */
  held: Map<string, Lease>;
  stopped: () => boolean;
}

/**
 * The webhook worker. Each claim is one endpoint, whose due deliveries are sent one at a time in change order until
 * one fails or the claim has been served for SERVE_MS; the endpoint is then released (paused first after a failure,
 * so a receiver that is down gets one probe per pause). In an outage (OUTAGE_FAILURES in a row) each probe is the
 * oldest pending delivery, and once it is accepted the rest are read again from the oldest, so change order holds
 * across the outage. Up to `concurrency` endpoints are served at once, each apart: a slow or failing receiver holds
 * only its own claim, and a new claim is made whenever one finishes, so it never holds up the others' deliveries.
 * Leases are renewed while held, and lapse within LEASE_MS of this process's death.
 */
export function startWebhookWorker(options: WebhookWorkerOptions, { autostart = true } = {}): WebhookWorker {
  const { sql, logger } = options;
  const loop = startPollingLoop(
    { pollMs: options.pollMs, logger, failure: 'webhook worker pass failed' },
    () => fill(),
    {
      autostart,
    },
  );
  const runner: Runner = {
    options,
    owner: `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`,
    leaseMs: options.leaseMs ?? LEASE_MS,
    sendOptions: { policy: options.policy, timeoutMs: options.timeoutMs, resolver: options.resolver },
    held: new Map(),
    stopped: () => loop.stopped,
  };
  const active = new Set<Promise<void>>();
  const heartbeat = keepLeases(runner);

  /** Claims endpoints while there is room, each served apart; resolves once every claim made here has finished. */
  async function fill(): Promise<number> {
    let served = 0;
    while (!loop.stopped && active.size < options.concurrency) {
      const claimedAt = Date.now();
      const endpoint = await claimEndpoint(sql, runner.owner, runner.leaseMs);
      if (!endpoint) break;
      // Still served here, its lease having lapsed unrenewed (a stalled database): the claim has renewed it.
      if (runner.held.has(endpoint.id)) continue;
      const lease: Lease = { endpoint, renewedAt: claimedAt, lost: false };
      runner.held.set(endpoint.id, lease);
      served += 1;
      const task: Promise<void> = serve(runner, lease)
        .catch((error: unknown) => logger.error({ err: error, endpointId: endpoint.id }, 'webhook send failed'))
        .finally(() => {
          active.delete(task);
          // A finished claim makes room: look again at once rather than at the next poll.
          loop.kick();
        });
      active.add(task);
    }
    return served;
  }

  async function drain(): Promise<number> {
    let served = 0;
    for (;;) {
      served += await fill();
      if (active.size === 0) return served;
      await Promise.race(active);
    }
  }

  return {
    kick: loop.kick,
    drain,
    stop: async () => {
      await loop.stop();
      await Promise.allSettled([...active]);
      clearInterval(heartbeat);
    },
  };
}

/** Renews the worker's leases every LEASE_MS / 5, marking those another worker has taken as lost. */
function keepLeases(runner: Runner): NodeJS.Timeout {
  const { sql, logger } = runner.options;
  let renewing = false;
  async function renew(): Promise<void> {
    if (renewing || runner.held.size === 0) return;
    renewing = true;
    try {
      const leases = [...runner.held.values()];
      const asked = Date.now();
      const endpoints = leases.map((lease) => lease.endpoint);
      const kept = await renewLeases(sql, runner.owner, endpoints, runner.leaseMs);
      for (const lease of leases) {
        if (kept.has(lease.endpoint.id)) lease.renewedAt = asked;
        if (kept.has(lease.endpoint.id) || lease.lost || !runner.held.has(lease.endpoint.id)) continue;
        lease.lost = true;
        logger.warn({ endpointId: lease.endpoint.id }, 'webhook lease lapsed and was taken; stopping this endpoint');
      }
    } catch (error) {
      logger.warn({ err: error }, 'webhook lease renewal failed');
    } finally {
      renewing = false;
    }
  }
  const heartbeat = setInterval(() => void renew(), runner.leaseMs / 5);
  heartbeat.unref();
  return heartbeat;
}

/** Sends the endpoint's due deliveries in change order until one fails, none is left, or the claim must end. */
async function serve(runner: Runner, lease: Lease): Promise<void> {
  const { sql } = runner.options;
  const { endpoint } = lease;
  const deadline = Date.now() + SERVE_MS;
  let failures = endpoint.consecutiveFailures;
  // A lease not renewed for LEASE_MS (the database too slow to answer) may be another worker's by now: stop.
  const goOn = () =>
    !runner.stopped() && !lease.lost && Date.now() < deadline && Date.now() - lease.renewedAt < runner.leaseMs;
  try {
    batches: while (goOn()) {
      const batch = await dueDeliveries(sql, endpoint, { limit: BATCH, outage: failures >= OUTAGE_FAILURES });
      if (batch.length === 0) return;
      for (const delivery of batch) {
        const attempt = await sendDelivery(runner, endpoint, delivery);
        if (attempt.error !== null) {
          await deliveryFailed(runner, endpoint, delivery, attempt, failures + 1);
          return;
        }
        await recordDelivered(sql, endpoint, delivery, attempt);
        const outage = failures >= OUTAGE_FAILURES;
        if (failures > 0) await endpointRecovered(sql, endpoint, outage);
        failures = 0;
        // After an outage every pending delivery is due, older ones than this batch's included: read again.
        if (outage) continue batches;
        if (!goOn()) return;
      }
    }
  } finally {
    runner.held.delete(endpoint.id);
    // A lease another worker took is not ours to end (releaseEndpoint checks the owner as well).
    if (!lease.lost) await releaseEndpoint(sql, endpoint, runner.owner);
  }
}

/** One signed POST of the delivery's change, with its cursor. */
function sendDelivery(runner: Runner, endpoint: ClaimedEndpoint, delivery: DueDelivery): Promise<Attempt> {
  const cursor = encodeCursor({ organizationId: endpoint.organizationId, position: delivery.position });
  const headers = deliveryHeaders(delivery.changeId, delivery.body, endpoint.secrets, cursor);
  return send(endpoint.url, delivery.body, headers, runner.sendOptions);
}

/**
 * Records a failed attempt (retried after its backoff, or given up) and pauses the endpoint for the backoff of its
 * `failures` in a row (or disables it), and logs what came of it.
 */
async function deliveryFailed(
  runner: Runner,
  endpoint: ClaimedEndpoint,
  delivery: DueDelivery,
  attempt: Attempt,
  failures: number,
): Promise<void> {
  const { sql, logger, baseDelayMs, maxDelayMs, random } = runner.options;
  const retryInMs = backoffMs(delivery.attempts + 1, baseDelayMs, maxDelayMs, random);
  const status = await recordFailed(sql, endpoint, delivery, attempt, retryInMs);
  const pauseMs = backoffMs(failures, baseDelayMs, maxDelayMs, random);
  const disabled = await endpointFailed(sql, endpoint, { pauseMs, gone: attempt.status === 410 });
  const log = {
    endpointId: endpoint.id,
    organizationId: endpoint.organizationId,
    changeId: delivery.changeId,
    attempt: delivery.attempts + 1,
    error: attempt.error,
  };
  if (status === 'failed') logger.error(log, 'webhook delivery given up');
  else logger.warn({ ...log, retryInMs, endpointPausedMs: pauseMs }, 'webhook delivery failed; will retry');
  if (disabled) logger.error({ endpointId: endpoint.id, reason: disabled }, 'webhook endpoint disabled');
}
