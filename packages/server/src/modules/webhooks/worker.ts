import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type { Queryable } from '../../db/types.js';
import { startPollingLoop } from '../../polling-loop.js';
import { encodeCursor } from '../changes/index.js';
import { backoffMs } from '../marketplace/index.js';
import type { AddressPolicy } from './address-policy.js';
import { type Resolver, send } from './send.js';
import { deliveryHeaders } from './service.js';
import {
  type ClaimedEndpoint,
  claimEndpoint,
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
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const sendOptions = { policy: options.policy, timeoutMs: options.timeoutMs, resolver: options.resolver };
  const loop = startPollingLoop(
    { pollMs: options.pollMs, logger, failure: 'webhook worker pass failed' },
    () => fill(),
    {
      autostart,
    },
  );
  const active = new Set<Promise<void>>();
  /**
   * The leases this worker holds, by endpoint id: when each was last made or renewed (as this process's clock saw the
   * statement start), and `lost` once another worker has taken it after it lapsed.
   */
  const held = new Map<string, Lease>();

  let renewing = false;
  async function renew(): Promise<void> {
    if (renewing || held.size === 0) return;
    renewing = true;
    try {
      const leases = [...held.values()];
      const asked = Date.now();
      const kept = await renewLeases(
        sql,
        owner,
        leases.map((lease) => lease.endpoint),
        leaseMs,
      );
      for (const lease of leases) {
        if (kept.has(lease.endpoint.id)) lease.renewedAt = asked;
        if (kept.has(lease.endpoint.id) || lease.lost || !held.has(lease.endpoint.id)) continue;
        lease.lost = true;
        logger.warn({ endpointId: lease.endpoint.id }, 'webhook lease lapsed and was taken; stopping this endpoint');
      }
    } catch (error) {
      logger.warn({ err: error }, 'webhook lease renewal failed');
    } finally {
      renewing = false;
    }
  }
  const heartbeat = setInterval(() => void renew(), leaseMs / 5);
  heartbeat.unref();

  async function serve(endpoint: ClaimedEndpoint, lease: Lease): Promise<void> {
    const deadline = Date.now() + SERVE_MS;
    let failures = endpoint.consecutiveFailures;
    // A lease not renewed for LEASE_MS (the database too slow to answer) may be another worker's by now: stop.
    const goOn = () => !loop.stopped && !lease.lost && Date.now() < deadline && Date.now() - lease.renewedAt < leaseMs;
    try {
      batches: while (goOn()) {
        const batch = await dueDeliveries(sql, endpoint, { limit: BATCH, outage: failures >= OUTAGE_FAILURES });
        if (batch.length === 0) return;
        for (const delivery of batch) {
          const cursor = encodeCursor({ organizationId: endpoint.organizationId, position: delivery.position });
          const headers = deliveryHeaders(delivery.changeId, delivery.body, endpoint.secrets, cursor);
          const attempt = await send(endpoint.url, delivery.body, headers, sendOptions);
          if (attempt.error === null) {
            await recordDelivered(sql, endpoint, delivery, attempt);
            const outage = failures >= OUTAGE_FAILURES;
            if (failures > 0) await endpointRecovered(sql, endpoint, outage);
            failures = 0;
            // After an outage every pending delivery is due, older ones than this batch's included: read again.
            if (outage) continue batches;
          } else {
            const retryInMs = backoffMs(delivery.attempts + 1, options.baseDelayMs, options.maxDelayMs, options.random);
            const status = await recordFailed(sql, endpoint, delivery, attempt, retryInMs);
            failures += 1;
            const pauseMs = backoffMs(failures, options.baseDelayMs, options.maxDelayMs, options.random);
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
            return;
          }
          if (!goOn()) return;
        }
      }
    } finally {
      held.delete(endpoint.id);
      // A lease another worker took is not ours to end (releaseEndpoint checks the owner as well).
      if (!lease.lost) await releaseEndpoint(sql, endpoint, owner);
    }
  }

  /** Claims endpoints while there is room, each served apart; resolves once every claim made here has finished. */
  async function fill(): Promise<number> {
    let served = 0;
    while (!loop.stopped && active.size < options.concurrency) {
      const claimedAt = Date.now();
      const endpoint = await claimEndpoint(sql, owner, leaseMs);
      if (!endpoint) break;
      // Still served here, its lease having lapsed unrenewed (a stalled database): the claim has renewed it.
      if (held.has(endpoint.id)) continue;
      const lease: Lease = { endpoint, renewedAt: claimedAt, lost: false };
      held.set(endpoint.id, lease);
      served += 1;
      const task: Promise<void> = serve(endpoint, lease)
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
