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
  recordDelivered,
  recordFailed,
  releaseEndpoint,
} from './store.js';

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
 * The webhook worker. Each claim is one endpoint, whose due deliveries are sent one at a time in change order until
 * one fails or the lease's time is nearly up; the endpoint is then released (paused first after a failure, so a
 * receiver that is down gets one probe per pause). Up to `concurrency` endpoints are served at once, each apart: a
 * slow or failing receiver holds only its own claim, and a new claim is made whenever one finishes, so it never
 * holds up the others' deliveries.
 */
export function startWebhookWorker(options: WebhookWorkerOptions, { autostart = true } = {}): WebhookWorker {
  const { sql, logger } = options;
  const owner = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  // Long enough for a batch to end with one more slow answer; the lease lapses if this process dies mid-batch.
  const leaseMs = Math.max(60_000, options.timeoutMs * 6);
  const sendOptions = { policy: options.policy, timeoutMs: options.timeoutMs, resolver: options.resolver };
  const loop = startPollingLoop(
    { pollMs: options.pollMs, logger, failure: 'webhook worker pass failed' },
    () => fill(),
    {
      autostart,
    },
  );
  const active = new Set<Promise<void>>();

  async function serve(endpoint: ClaimedEndpoint): Promise<void> {
    const deadline = Date.now() + leaseMs - options.timeoutMs - 5_000;
    let failures = endpoint.consecutiveFailures;
    try {
      while (!loop.stopped && Date.now() < deadline) {
        const batch = await dueDeliveries(sql, endpoint, BATCH);
        if (batch.length === 0) return;
        for (const delivery of batch) {
          const cursor = encodeCursor({ organizationId: endpoint.organizationId, position: delivery.position });
          const headers = deliveryHeaders(delivery.changeId, delivery.body, endpoint.secrets, cursor);
          const attempt = await send(endpoint.url, delivery.body, headers, sendOptions);
          if (attempt.error === null) {
            await recordDelivered(sql, endpoint, delivery, attempt);
            if (failures > 0) await endpointRecovered(sql, endpoint, failures >= 2);
            failures = 0;
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
          if (loop.stopped || Date.now() >= deadline) return;
        }
      }
    } finally {
      await releaseEndpoint(sql, endpoint, owner);
    }
  }

  /** Claims endpoints while there is room, each served apart; resolves once every claim made here has finished. */
  async function fill(): Promise<number> {
    let served = 0;
    while (!loop.stopped && active.size < options.concurrency) {
      const endpoint = await claimEndpoint(sql, owner, leaseMs);
      if (!endpoint) break;
      served += 1;
      const task: Promise<void> = serve(endpoint)
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
    },
  };
}
