import {
  type CreateWebhookEndpointBody,
  contract,
  type ListWebhookDeliveriesQuery,
  type ListWebhookEndpointsQuery,
  type UpdateWebhookEndpointBody,
  WEBHOOKS,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointList,
} from '@coinventory/contract';
import { offsetOf } from '../../db/sql-helpers.js';
import {
  boolean,
  type ColumnType,
  defineTable,
  integer,
  nullable,
  tenantKey,
  text,
  timestamp,
} from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import { type ById, readById } from '../../request/gated-read.js';

const events: ColumnType<WebhookEndpoint['events']> = { kind: 'value' };
const changeType: ColumnType<WebhookDelivery['changeType']> = { kind: 'value' };
const deliveryStatus: ColumnType<WebhookDelivery['status']> = { kind: 'value' };

/** The endpoints table, once, in the API's field order. Secrets are never selected with it. */
export const ENDPOINTS = defineTable<WebhookEndpoint, UpdateWebhookEndpointBody>()({
  name: 'webhook_endpoints',
  alias: 'e',
  columns: {
    ...tenantKey,
    url: { type: text, field: 'url', body: 'url' },
    description: { type: nullable(text), field: 'description', body: 'description' },
    events: { type: events, field: 'events' },
    enabled: { type: boolean, field: 'enabled' },
    disabled_reason: { type: nullable(text), field: 'disabledReason' },
    disabled_at: { type: nullable(timestamp), field: 'disabledAt' },
    failing_since: { type: nullable(timestamp), field: 'failingSince' },
    // Shown only while the previous secret still signs.
    previous_secret_expires_at: {
      type: nullable(timestamp),
      field: 'previousSecretExpiresAt',
      computed: (sql) => sql`CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret_expires_at END`,
    },
    created_at: { type: timestamp, field: 'createdAt' },
    updated_at: { type: nullable(timestamp), field: 'updatedAt' },
  },
});

/** The deliveries table, with its change's id and type from the changes it points at (alias c). */
export const DELIVERIES = defineTable<WebhookDelivery>()({
  name: 'webhook_deliveries',
  alias: 'd',
  columns: {
    ...tenantKey,
    endpoint_id: { type: text, field: 'endpointId' },
    change_id: { type: text, field: 'changeId', computed: (sql) => sql`c.id` },
    change_type: { type: changeType, field: 'changeType', computed: (sql) => sql`c.type` },
    status: { type: deliveryStatus, field: 'status' },
    attempts: { type: integer, field: 'attempts' },
    last_attempt_at: { type: nullable(timestamp), field: 'lastAttemptAt' },
    last_response_status: { type: nullable(integer), field: 'lastResponseStatus' },
    last_duration_ms: { type: nullable(integer), field: 'lastDurationMs' },
    last_error: { type: nullable(text), field: 'lastError' },
    next_attempt_at: {
      type: nullable(timestamp),
      field: 'nextAttemptAt',
      computed: (sql) => sql`CASE WHEN d.status = 'pending' THEN d.next_attempt_at END`,
    },
    created_at: { type: timestamp, field: 'createdAt' },
    delivered_at: { type: nullable(timestamp), field: 'deliveredAt' },
  },
});

export async function listEndpoints(
  sql: Queryable,
  organizationId: string,
  query: ListWebhookEndpointsQuery,
): Promise<WebhookEndpointList> {
  return ENDPOINTS.page(
    sql`
      SELECT ${ENDPOINTS.select(sql)} FROM webhook_endpoints e
      WHERE e.organization_id = ${organizationId}
      ORDER BY e.created_at, e.id
      LIMIT ${query.limit + 1} OFFSET ${offsetOf(query.page, query.limit)}
    `,
    query,
  );
}

const endpointById: ById = (sql, organizationId, id) =>
  sql`SELECT ${ENDPOINTS.select(sql)} FROM webhook_endpoints e WHERE e.organization_id = ${organizationId} AND e.id = ${id}`;

export async function findEndpoint(
  sql: Queryable,
  organizationId: string,
  id: string,
): Promise<WebhookEndpoint | null> {
  return ENDPOINTS.first(endpointById(sql, organizationId, id));
}

/** GET by id, read in the request's authentication statement (request/gated-read.ts). */
export const endpointRead = readById(contract.webhookEndpoints.get, ENDPOINTS, endpointById);

/**
 * The number of endpoints the workspace has, counted with its organization row locked against other creations, so
 * two creations at once cannot both see room for one more.
 */
export async function countEndpointsForCreate(tx: Queryable, organizationId: string): Promise<number> {
  await tx`SELECT 1 FROM organizations WHERE id = ${organizationId} FOR NO KEY UPDATE`;
  const [row] = await tx<{ count: number }[]>`
    SELECT count(*)::int AS count FROM webhook_endpoints WHERE organization_id = ${organizationId}
  `;
  return row?.count ?? 0;
}

export async function insertEndpoint(
  tx: Queryable,
  organizationId: string,
  body: CreateWebhookEndpointBody,
  secret: string,
): Promise<string> {
  const [row] = await tx<{ id: string }[]>`
    INSERT INTO webhook_endpoints (organization_id, url, description, events, secret)
    VALUES (${organizationId}, ${body.url}, ${body.description ?? null}, ${body.events}, ${secret})
    RETURNING id
  `;
  if (!row) throw new Error('insert returned no row');
  return row.id;
}

/** Who turned an endpoint off, as its `disabledReason` says. */
export const DISABLED_BY = {
  api: 'Disabled through the API.',
  operator: 'Disabled by an operator.',
} as const;

/**
 * Applies a PATCH. `enabled: true` (also on an endpoint that is enabled but failing) clears why it was disabled and
 * its failing state, and makes its pending deliveries due at once, each with a fresh retry period: the caller says
 * the receiver is ready. A new URL is a new receiver, so its failing state starts over too. False when there is no
 * such endpoint.
 */
export async function updateEndpoint(
  tx: Queryable,
  organizationId: string,
  id: string,
  body: UpdateWebhookEndpointBody,
  disabledBy: keyof typeof DISABLED_BY = 'api',
): Promise<boolean> {
  const [before] = await tx<{ enabled: boolean; url: string }[]>`
    SELECT enabled, url FROM webhook_endpoints WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE
  `;
  if (!before) return false;
  const columns: Record<string, unknown> = { ...ENDPOINTS.writes(tx, body), updated_at: tx`now()` };
  if (body.events !== undefined) columns.events = body.events;
  const enabling = body.enabled === true;
  const restart = enabling || (body.url !== undefined && body.url !== before.url);
  if (body.enabled === false && before.enabled) {
    Object.assign(columns, { enabled: false, disabled_reason: DISABLED_BY[disabledBy], disabled_at: tx`now()` });
  }
  if (enabling) Object.assign(columns, { enabled: true, disabled_reason: null, disabled_at: null });
  if (restart) Object.assign(columns, { failing_since: null, consecutive_failures: 0, retry_at: null });
  await tx`
    UPDATE webhook_endpoints SET ${tx(columns)} WHERE organization_id = ${organizationId} AND id = ${id}
  `;
  if (enabling) {
    await tx`
      UPDATE webhook_deliveries SET next_attempt_at = least(next_attempt_at, now()), first_attempt_at = NULL
      WHERE organization_id = ${organizationId} AND endpoint_id = ${id} AND status = 'pending'
    `;
  }
  return true;
}

/** Locks the endpoint's row until the transaction ends (a conditional write's check, then its write); false when none. */
export async function lockEndpoint(tx: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows = await tx`
    SELECT 1 FROM webhook_endpoints WHERE organization_id = ${organizationId} AND id = ${id} FOR UPDATE
  `;
  return rows.length > 0;
}

export async function deleteEndpoint(sql: Queryable, organizationId: string, id: string): Promise<boolean> {
  const rows =
    await sql`DELETE FROM webhook_endpoints WHERE organization_id = ${organizationId} AND id = ${id} RETURNING 1`;
  return rows.length > 0;
}

/** Makes `secret` the signing secret; the one it replaces signs too for WEBHOOKS.previousSecretHours. */
export async function rotateSecret(
  sql: Queryable,
  organizationId: string,
  id: string,
  secret: string,
): Promise<boolean> {
  const rows = await sql`
    UPDATE webhook_endpoints SET
      previous_secret = secret,
      previous_secret_expires_at = now() + make_interval(hours => ${WEBHOOKS.previousSecretHours}),
      secret = ${secret},
      updated_at = now()
    WHERE organization_id = ${organizationId} AND id = ${id}
    RETURNING 1
  `;
  return rows.length > 0;
}

/** Where an endpoint's deliveries go and what signs them: its secret, and the previous one while it still signs. */
export interface EndpointTarget {
  organizationId: string;
  id: string;
  url: string;
  secrets: string[];
}

interface TargetRow {
  organization_id: string;
  id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
}

const targetOf = (row: TargetRow): EndpointTarget => ({
  organizationId: row.organization_id,
  id: row.id,
  url: row.url,
  secrets: row.previous_secret === null ? [row.secret] : [row.secret, row.previous_secret],
});

const TARGET_COLUMNS = (sql: Queryable) => sql`
  e.organization_id, e.id, e.url, e.secret,
  CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret
`;

export async function findTarget(sql: Queryable, organizationId: string, id: string): Promise<EndpointTarget | null> {
  const [row] = await sql<TargetRow[]>`
    SELECT ${TARGET_COLUMNS(sql)} FROM webhook_endpoints e WHERE e.organization_id = ${organizationId} AND e.id = ${id}
  `;
  return row ? targetOf(row) : null;
}

export async function listDeliveries(
  sql: Queryable,
  organizationId: string,
  endpointId: string,
  query: ListWebhookDeliveriesQuery,
): Promise<WebhookDeliveryList> {
  return DELIVERIES.page(
    sql`
      SELECT ${DELIVERIES.select(sql)} FROM webhook_deliveries d
      JOIN changes c ON c.organization_id = d.organization_id AND c.position = d.change_position
      WHERE d.organization_id = ${organizationId} AND d.endpoint_id = ${endpointId}
        ${query.status === undefined ? sql`` : sql`AND d.status = ${query.status}`}
      ORDER BY d.change_position DESC
      LIMIT ${query.limit + 1} OFFSET ${offsetOf(query.page, query.limit)}
    `,
    query,
  );
}

/**
 * Queues every change in (after, through] that the endpoint subscribes to, again: a delivery already there goes back
 * to pending with a fresh start (its new `generation` tells a worker still sending the old attempt not to record it
 * over this). Returns how many were queued.
 */
export async function replayChanges(
  sql: Queryable,
  organizationId: string,
  endpointId: string,
  range: { after: number; through: number },
): Promise<number> {
  const [row] = await sql<{ queued: number }[]>`
    WITH queued AS (
      INSERT INTO webhook_deliveries (organization_id, endpoint_id, change_position)
      SELECT c.organization_id, e.id, c.position
      FROM webhook_endpoints e
      JOIN changes c ON c.organization_id = e.organization_id
      WHERE e.organization_id = ${organizationId} AND e.id = ${endpointId}
        AND c.position > ${range.after} AND c.position <= ${range.through}
        AND (e.events && ARRAY[c.type, ${WEBHOOKS.allEvents}]::text[])
      ON CONFLICT (organization_id, endpoint_id, change_position) DO UPDATE SET
        status = 'pending', attempts = 0, first_attempt_at = NULL, next_attempt_at = now(), last_attempt_at = NULL,
        last_response_status = NULL, last_duration_ms = NULL, last_error = NULL, delivered_at = NULL,
        created_at = clock_timestamp(), generation = webhook_deliveries.generation + 1
      RETURNING 1
    )
    SELECT count(*)::int AS queued FROM queued
  `;
  return row?.queued ?? 0;
}

// The worker's side.

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
    {
      id: string;
      generation: number;
      position: number;
      attempts: number;
      change_id: string;
      type: string;
      object_id: string;
      occurred_at: Date;
      data: string | null;
    }[]
  >`
    SELECT d.id, d.generation, d.change_position AS position, d.attempts,
           c.id AS change_id, c.type, c.object_id, c.occurred_at, c.data::text AS data
    FROM webhook_deliveries d
    JOIN webhook_endpoints e ON e.organization_id = d.organization_id AND e.id = d.endpoint_id AND e.enabled
    JOIN changes c ON c.organization_id = d.organization_id AND c.position = d.change_position
    WHERE d.organization_id = ${endpoint.organizationId} AND d.endpoint_id = ${endpoint.id}
      AND d.status = 'pending' ${outage ? sql`` : sql`AND d.next_attempt_at <= clock_timestamp()`}
    ORDER BY d.change_position
    LIMIT ${outage ? 1 : limit}
  `;
  return rows.map((row) => ({
    id: row.id,
    generation: row.generation,
    position: row.position,
    attempts: row.attempts,
    changeId: row.change_id,
    // The Change as GET /changes shows it, its `data` the stored JSON text as it was written (the API's field order).
    body: `{"id":${JSON.stringify(row.change_id)},"type":${JSON.stringify(row.type)},"objectId":${JSON.stringify(row.object_id)},"occurredAt":${JSON.stringify(row.occurred_at.toISOString())},"data":${row.data ?? 'null'}}`,
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

/** Every workspace's endpoints with their delivery counts, for the operator. */
export interface EndpointSummary extends WebhookEndpoint {
  pending: number;
  failed: number;
}

export async function endpointSummaries(sql: Queryable, organizationId: string): Promise<EndpointSummary[]> {
  const rows = await sql`
    SELECT ${ENDPOINTS.select(sql)},
      (SELECT count(*)::int FROM webhook_deliveries d
       WHERE d.organization_id = e.organization_id AND d.endpoint_id = e.id AND d.status = 'pending') AS pending,
      (SELECT count(*)::int FROM webhook_deliveries d
       WHERE d.organization_id = e.organization_id AND d.endpoint_id = e.id AND d.status = 'failed') AS failed
    FROM webhook_endpoints e WHERE e.organization_id = ${organizationId}
    ORDER BY e.created_at, e.id
  `;
  return rows.map((row) => ({
    ...ENDPOINTS.toApi(row as Parameters<typeof ENDPOINTS.toApi>[0]),
    pending: Number(row.pending),
    failed: Number(row.failed),
  }));
}
