// The webhook worker's side of the endpoints and deliveries tables: claiming an endpoint under a lease, reading its due
// deliveries, recording each attempt, pausing and resuming an endpoint, and renewing or ending the lease. The API's
// side (endpoint CRUD, delivery lists, replay) is store.ts.

import { WEBHOOKS } from '@coinventory/contract';
import type { Queryable } from '../../db/types.js';
import { changeJson, changeLog, type StoredChange } from '../changes/index.js';
import { type EndpointTarget, TARGET_COLUMNS, type TargetRow, targetOf } from './store.js';

/** An endpoint a worker has leased, with what it needs to send. */
export interface ClaimedEndpoint extends EndpointTarget {
  consecutiveFailures: number;
}

/**
 * Failures in a row that make an outage rather than one refused delivery: from then on the endpoint's pause alone
 * times its attempts, each one its oldest pending delivery, so that after the outage everything goes in change order.
 */
export const OUTAGE_FAILURES = 2;

/**
 * Leases one enabled endpoint that has a due pending delivery (in an outage, any pending one), is not paused after a
 * failure, and has no live lease, taking the one claimed longest ago so every endpoint gets its turn. SKIP LOCKED
 * lets workers claim different endpoints at once; the lease (not a lock) keeps others off it while it sends, and
 * lapses unless the worker renews it (renewLeases).
 */
export async function claimEndpoint(sql: Queryable, owner: string, leaseMs: number): Promise<ClaimedEndpoint | null> {
  const [row] = await sql<(TargetRow & { consecutive_failures: number })[]>`
    UPDATE webhook_endpoints e
    SET lease_owner = ${owner}, lease_until = clock_timestamp() + make_interval(secs => ${leaseMs / 1000}),
        claimed_at = clock_timestamp()
    FROM (
      SELECT e2.organization_id, e2.id FROM webhook_endpoints e2
      WHERE e2.enabled
        AND (e2.lease_until IS NULL OR e2.lease_until < clock_timestamp())
        AND (e2.retry_at IS NULL OR e2.retry_at <= clock_timestamp())
        AND EXISTS (
          SELECT 1 FROM webhook_deliveries d
          WHERE d.organization_id = e2.organization_id AND d.endpoint_id = e2.id AND d.status = 'pending'
            AND (d.next_attempt_at <= clock_timestamp() OR e2.consecutive_failures >= ${OUTAGE_FAILURES})
        )
      ORDER BY e2.claimed_at NULLS FIRST
      LIMIT 1
      FOR UPDATE OF e2 SKIP LOCKED
    ) due
    WHERE e.organization_id = due.organization_id AND e.id = due.id
    RETURNING ${TARGET_COLUMNS(sql)}, e.consecutive_failures
  `;
  return row ? { ...targetOf(row), consecutiveFailures: row.consecutive_failures } : null;
}

/** A due delivery with the body it sends: its change exactly as the feed shows it. */
export interface DueDelivery {
  id: string;
  /** Which queuing of the delivery this is: a replay meanwhile raises it, and this attempt's outcome is dropped. */
  generation: number;
  position: number;
  attempts: number;
  changeId: string;
  body: string;
}

/**
 * Up to `limit` due pending deliveries of an enabled endpoint, in change order. In an `outage`, its oldest pending
 * delivery alone, due or not: the endpoint's pause has timed this attempt, and nothing newer may overtake it.
 */
export async function dueDeliveries(
  sql: Queryable,
  endpoint: EndpointTarget,
  { limit, outage }: { limit: number; outage: boolean },
): Promise<DueDelivery[]> {
  const rows = await sql<
    (StoredChange & { delivery_id: string; generation: number; position: number; attempts: number })[]
  >`
    SELECT d.id AS delivery_id, d.generation, d.change_position AS position, d.attempts,
           c.id, c.type, c.object_id, c.occurred_at, c.actor, c.data
    FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.organization_id = d.organization_id AND e.id = d.endpoint_id AND e.enabled
    JOIN ${changeLog(sql)} c ON c.organization_id = d.organization_id AND c.position = d.change_position
    WHERE d.organization_id = ${endpoint.organizationId} AND d.endpoint_id = ${endpoint.id}
      AND d.status = 'pending' ${outage ? sql`` : sql`AND d.next_attempt_at <= clock_timestamp()`}
    ORDER BY d.change_position
    LIMIT ${outage ? 1 : limit}
  `;
  return rows.map((row) => ({
    id: row.delivery_id,
    generation: row.generation,
    position: row.position,
    attempts: row.attempts,
    changeId: row.id,
    // The Change as GET /changes shows it.
    body: changeJson(row),
  }));
}

export interface AttemptRecord {
  status: number | null;
  durationMs: number;
  error: string | null;
}

/** Records an accepted delivery (unless a replay re-queued it meanwhile). */
export async function recordDelivered(
  sql: Queryable,
  endpoint: EndpointTarget,
  delivery: DueDelivery,
  attempt: AttemptRecord,
) {
  await sql`
    UPDATE webhook_deliveries SET
      status = 'succeeded', attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, now()),
      last_attempt_at = now(), last_response_status = ${attempt.status}, last_duration_ms = ${attempt.durationMs},
      last_error = NULL, delivered_at = now()
    WHERE organization_id = ${endpoint.organizationId} AND id = ${delivery.id} AND generation = ${delivery.generation}
  `;
}

/**
 * Records a failed attempt: retried after `retryInMs`, unless it has been retried for WEBHOOKS.retryHours since its
 * first attempt, when it is given up as failed. Returns its status after this attempt.
 */
export async function recordFailed(
  sql: Queryable,
  endpoint: EndpointTarget,
  delivery: DueDelivery,
  attempt: AttemptRecord,
  retryInMs: number,
): Promise<'pending' | 'failed' | null> {
  const [row] = await sql<{ status: 'pending' | 'failed' }[]>`
    UPDATE webhook_deliveries SET
      status = CASE WHEN coalesce(first_attempt_at, now()) <= now() - make_interval(hours => ${WEBHOOKS.retryHours})
        THEN 'failed' ELSE 'pending' END,
      attempts = attempts + 1, first_attempt_at = coalesce(first_attempt_at, now()),
      next_attempt_at = now() + make_interval(secs => ${retryInMs / 1000}),
      last_attempt_at = now(), last_response_status = ${attempt.status}, last_duration_ms = ${attempt.durationMs},
      last_error = ${(attempt.error ?? 'failed').slice(0, 2000)}
    WHERE organization_id = ${endpoint.organizationId} AND id = ${delivery.id} AND generation = ${delivery.generation}
    RETURNING status
  `;
  return row?.status ?? null;
}

/**
 * The endpoint answered after failing: it is no longer failing, and no longer paused. After an outage (`resume`:
 * several failures in a row) every pending delivery becomes due at once instead of waiting out its own backoff; after
 * a single failure (one delivery the receiver refuses, say) the others were not held back, and that one keeps its own.
 */
export async function endpointRecovered(sql: Queryable, endpoint: EndpointTarget, resume: boolean): Promise<void> {
  await sql`
    UPDATE webhook_endpoints SET failing_since = NULL, consecutive_failures = 0, retry_at = NULL
    WHERE organization_id = ${endpoint.organizationId} AND id = ${endpoint.id}
  `;
  if (!resume) return;
  await sql`
    UPDATE webhook_deliveries SET next_attempt_at = now()
    WHERE organization_id = ${endpoint.organizationId} AND endpoint_id = ${endpoint.id} AND status = 'pending'
      AND next_attempt_at > now()
  `;
}

/**
 * The endpoint failed an attempt: it is paused for `pauseMs` and counted as failing since its first failure after a
 * success. It is disabled, with the reason, when the receiver answered 410 Gone or when it has been failing for
 * WEBHOOKS.disableAfterFailingHours. Returns the reason when this disabled it.
 */
export async function endpointFailed(
  sql: Queryable,
  endpoint: EndpointTarget,
  failure: { pauseMs: number; gone: boolean },
): Promise<string | null> {
  const gone = 'Disabled because the receiver answered 410 Gone.';
  const failing = `Disabled because its deliveries failed for ${WEBHOOKS.disableAfterFailingHours} hours without one success.`;
  const [row] = await sql<{ disabled_reason: string | null; disabled_now: boolean }[]>`
    WITH verdict AS (
      SELECT organization_id, id, enabled,
        CASE WHEN ${failure.gone}::boolean THEN ${gone}::text
             WHEN coalesce(failing_since, now()) <= now() - make_interval(hours => ${WEBHOOKS.disableAfterFailingHours})
             THEN ${failing}::text END AS reason
      FROM webhook_endpoints
      WHERE organization_id = ${endpoint.organizationId} AND id = ${endpoint.id}
      FOR UPDATE
    )
    UPDATE webhook_endpoints e SET
      failing_since = coalesce(e.failing_since, now()),
      consecutive_failures = e.consecutive_failures + 1,
      retry_at = now() + make_interval(secs => ${failure.pauseMs / 1000}),
      enabled = e.enabled AND v.reason IS NULL,
      disabled_reason = CASE WHEN e.enabled AND v.reason IS NOT NULL THEN v.reason ELSE e.disabled_reason END,
      disabled_at = CASE WHEN e.enabled AND v.reason IS NOT NULL THEN now() ELSE e.disabled_at END
    FROM verdict v
    WHERE e.organization_id = v.organization_id AND e.id = v.id
    RETURNING e.disabled_reason, (v.enabled AND v.reason IS NOT NULL) AS disabled_now
  `;
  return row?.disabled_now ? row.disabled_reason : null;
}

/**
 * Extends the leases this worker still holds on these endpoints by `leaseMs`; answers the ids of those it holds. One
 * another worker took after it lapsed is not among them: its sender stops after the attempt under way.
 */
export async function renewLeases(
  sql: Queryable,
  owner: string,
  endpoints: readonly EndpointTarget[],
  leaseMs: number,
): Promise<Set<string>> {
  if (endpoints.length === 0) return new Set();
  const rows = await sql<{ id: string }[]>`
    UPDATE webhook_endpoints e SET lease_until = clock_timestamp() + make_interval(secs => ${leaseMs / 1000})
    FROM unnest(${endpoints.map((e) => e.organizationId)}::uuid[], ${endpoints.map((e) => e.id)}::uuid[])
      AS held (organization_id, id)
    WHERE e.organization_id = held.organization_id AND e.id = held.id AND e.lease_owner = ${owner}
    RETURNING e.id
  `;
  return new Set(rows.map((row) => row.id));
}

/** Ends a lease this worker holds. */
export async function releaseEndpoint(sql: Queryable, endpoint: EndpointTarget, owner: string): Promise<void> {
  await sql`
    UPDATE webhook_endpoints SET lease_owner = NULL, lease_until = NULL
    WHERE organization_id = ${endpoint.organizationId} AND id = ${endpoint.id} AND lease_owner = ${owner}
  `;
}
