import {
  type CreateWebhookEndpointBody,
  type ListWebhookDeliveriesQuery,
  type ListWebhookEndpointsQuery,
  type UpdateWebhookEndpointBody,
  WEBHOOKS,
  type WebhookDelivery,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointList,
} from '@coinventory/contract';
import { boolean, integer, nullable, text, timestamp, value } from '../../db/column-types.js';
import { organizationPage, organizationRowById, selectFrom } from '../../db/organization-rows.js';
import { defineTable } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import type { ById } from '../../request/gated-read.js';
import { type ChangeSubscriber, changeLog } from '../changes/index.js';

/** The endpoints table, once, in the API's field order. Secrets are never selected with it. */
export const ENDPOINTS = defineTable<WebhookEndpoint, UpdateWebhookEndpointBody>()({
  name: 'webhook_endpoints',
  alias: 'e',
  columns: {
    url: { type: text, field: 'url', body: 'url' },
    description: { type: nullable(text), field: 'description', body: 'description' },
    events: { type: value<WebhookEndpoint['events']>(), field: 'events' },
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
    endpoint_id: { type: text, field: 'endpointId' },
    change_id: { type: text, field: 'changeId', computed: (sql) => sql`c.id` },
    change_type: { type: value<WebhookDelivery['changeType']>(), field: 'changeType', computed: (sql) => sql`c.type` },
    status: { type: value<WebhookDelivery['status']>(), field: 'status' },
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
  return organizationPage(sql, ENDPOINTS, organizationId, query, { order: sql`e.created_at, e.id` });
}

/** One row by id: what its GET reads (the gated read is declared beside the route). */
export const endpointById: ById = (sql, organizationId, id) => organizationRowById(sql, ENDPOINTS, organizationId, id);

export async function findEndpoint(
  sql: Queryable,
  organizationId: string,
  id: string,
): Promise<WebhookEndpoint | null> {
  return ENDPOINTS.first(endpointById(sql, organizationId, id));
}

/**
 * The number of endpoints the organization has, counted with its organization row locked against other creations, so
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

export interface TargetRow {
  organization_id: string;
  id: string;
  url: string;
  secret: string;
  previous_secret: string | null;
}

export const targetOf = (row: TargetRow): EndpointTarget => ({
  organizationId: row.organization_id,
  id: row.id,
  url: row.url,
  secrets: row.previous_secret === null ? [row.secret] : [row.secret, row.previous_secret],
});

export const TARGET_COLUMNS = (sql: Queryable) => sql`
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
  return organizationPage(sql, DELIVERIES, organizationId, query, {
    from: sql`
      ${selectFrom(sql, DELIVERIES)}
      JOIN ${changeLog(sql)} c ON c.organization_id = d.organization_id AND c.position = d.change_position
    `,
    where: sql`
      AND d.endpoint_id = ${endpointId}
      ${query.status === undefined ? sql`` : sql`AND d.status = ${query.status}`}
    `,
    order: sql`d.change_position DESC`,
  });
}

/**
 * Queues a change's deliveries in the statement that records it: one for each enabled endpoint of the organization
 * that subscribes to its type, a row returned for each. Subscribed to every recorded change (index.ts).
 */
export const enqueueDeliveries: ChangeSubscriber = (sql, change) => sql`
  INSERT INTO webhook_deliveries (organization_id, endpoint_id, change_position)
  SELECT e.organization_id, e.id, ${change.position}
  FROM webhook_endpoints e
  WHERE e.organization_id = ${change.organizationId} AND e.enabled
    AND (e.events && ARRAY[${change.type}, ${WEBHOOKS.allEvents}]::text[])
  RETURNING 1
`;

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
      JOIN ${changeLog(sql)} c ON c.organization_id = e.organization_id
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

/** Every organization's endpoints with their delivery counts, for the operator. */
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
