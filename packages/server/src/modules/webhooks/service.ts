import { randomUUID } from 'node:crypto';
import {
  type CreateWebhookEndpointBody,
  type DeletedWebhookEndpoint,
  type UpdateWebhookEndpointBody,
  WEBHOOKS,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookPing,
  type WebhookReplay,
  type WebhookTestResult,
} from '@coinventory/contract';
import type { Queryable, TransactionSql } from '../../db/types.js';
import { badRequest, found, notFound } from '../../errors.js';
import { checkPreconditions, type WriteConditions } from '../../request/etag.js';
import type { WriteNotifier } from '../../request/pipeline.js';
import { rangeAfter } from '../changes/index.js';
import { type AddressPolicy, hostOf, isLoopback } from './address-policy.js';
import { type SendOptions, send, urlRefusal } from './send.js';
import { generateSecret, signatureHeader } from './signing.js';
import * as store from './store.js';

/** What the webhook routes need beyond the database: where deliveries may go, and how long a receiver has. */
export interface WebhookSettings {
  policy: AddressPolicy;
  timeoutMs: number;
  /** Told after a commit that queued deliveries, so the worker sends them at once. */
  queued: () => void;
  /** For tests: how host names are resolved. */
  resolver?: SendOptions['resolver'];
}

/**
 * A 400 on `body.url` when deliveries could never go to this URL under the operator's policy. A loopback URL is
 * almost always a developer's own receiver: its refusal says what to run instead, and which setting an operator has.
 */
function checkUrl(url: string, policy: AddressPolicy): void {
  const parsed = new URL(url);
  const refusal = urlRefusal(parsed, policy);
  if (!refusal) return;
  if (!isLoopback(parsed)) throw badRequest(`body.url: ${refusal}`);
  throw badRequest(
    `body.url: ${hostOf(parsed)} is a loopback address, which webhooks refuse: for local development run \`coinventory listen --forward-to ${url}\`, which forwards the changes to it signed like webhooks; an operator can allow hosts with WEBHOOK_ALLOWED_HOSTS`,
  );
}

async function endpointOf(sql: Queryable, organizationId: string, id: string): Promise<WebhookEndpoint> {
  const endpoint = await store.findEndpoint(sql, organizationId, id);
  // Only reached inside the transaction that found or wrote it.
  if (!endpoint) throw new Error(`webhook endpoint ${id} vanished inside its own transaction`);
  return endpoint;
}

/**
 * The endpoint as a conditional write compares it (its JSON as GET sends it), its row locked until the write commits
 * so nobody changes it between the check and the write; 404 when there is no such endpoint.
 */
async function lockedEndpoint(tx: Queryable, organizationId: string, id: string): Promise<WebhookEndpoint> {
  if (!(await store.lockEndpoint(tx, organizationId, id))) throw notFound();
  return endpointOf(tx, organizationId, id);
}

export async function createEndpoint(
  tx: TransactionSql,
  organizationId: string,
  body: CreateWebhookEndpointBody,
  settings: WebhookSettings,
): Promise<WebhookEndpointWithSecret> {
  checkUrl(body.url, settings.policy);
  if ((await store.countEndpointsForCreate(tx, organizationId)) >= WEBHOOKS.maxEndpoints) {
    throw badRequest(
      `body: this organization already has ${WEBHOOKS.maxEndpoints} webhook endpoints, the most it may have; delete one it no longer needs, or subscribe one endpoint to more change types`,
    );
  }
  const secret = generateSecret();
  const id = await store.insertEndpoint(tx, organizationId, body, secret);
  return { ...(await endpointOf(tx, organizationId, id)), secret };
}

export async function updateEndpoint(
  tx: TransactionSql,
  organizationId: string,
  id: string,
  body: UpdateWebhookEndpointBody,
  settings: WebhookSettings,
  notify: WriteNotifier,
  conditions: WriteConditions = {},
): Promise<WebhookEndpoint> {
  if (body.url !== undefined) checkUrl(body.url, settings.policy);
  await checkPreconditions(conditions, () => lockedEndpoint(tx, organizationId, id));
  if (!(await store.updateEndpoint(tx, organizationId, id, body))) throw notFound();
  // Enabling makes its pending deliveries due now.
  if (body.enabled === true) notify.webhooksQueued();
  return endpointOf(tx, organizationId, id);
}

export async function deleteEndpoint(
  tx: TransactionSql,
  organizationId: string,
  id: string,
  conditions: WriteConditions = {},
): Promise<DeletedWebhookEndpoint> {
  await checkPreconditions(conditions, () => lockedEndpoint(tx, organizationId, id));
  if (!(await store.deleteEndpoint(tx, organizationId, id))) throw notFound();
  return { id, deleted: true };
}

export async function rotateSecret(
  tx: TransactionSql,
  organizationId: string,
  id: string,
): Promise<WebhookEndpointWithSecret> {
  const secret = generateSecret();
  if (!(await store.rotateSecret(tx, organizationId, id, secret))) throw notFound();
  return { ...(await endpointOf(tx, organizationId, id)), secret };
}

export async function replay(
  tx: TransactionSql,
  organizationId: string,
  id: string,
  after: string,
  notify: WriteNotifier,
): Promise<WebhookReplay> {
  found(await store.findEndpoint(tx, organizationId, id));
  const range = await rangeAfter(tx, organizationId, after, 'body.after');
  const queued = await store.replayChanges(tx, organizationId, id, range);
  if (queued > 0) notify.webhooksQueued();
  return { queued, nextCursor: range.endCursor };
}

/** The headers of one signed delivery (Standard Webhooks), and the changes cursor when it carries a change. */
export function deliveryHeaders(
  id: string,
  body: string,
  secrets: readonly string[],
  changesCursor?: string,
): Record<string, string> {
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    [WEBHOOKS.headers.id]: id,
    [WEBHOOKS.headers.timestamp]: String(timestamp),
    [WEBHOOKS.headers.signature]: signatureHeader(id, timestamp, body, secrets),
    ...(changesCursor !== undefined && { [WEBHOOKS.headers.changesCursor]: changesCursor }),
  };
}

/**
 * Sends one signed ping now and answers with what came of it. No database work is held while it is sent: the
 * endpoint is read first, and the request's own work (and any Idempotency-Key's answer) is done after.
 */
export async function testEndpoint(
  sql: Queryable,
  organizationId: string,
  id: string,
  settings: WebhookSettings,
): Promise<WebhookTestResult> {
  const target = found(await store.findTarget(sql, organizationId, id));
  const ping: WebhookPing = {
    id: randomUUID(),
    type: WEBHOOKS.pingType,
    occurredAt: new Date().toISOString(),
    data: null,
  };
  const body = JSON.stringify(ping);
  const attempt = await send(target.url, body, deliveryHeaders(ping.id, body, target.secrets), {
    policy: settings.policy,
    timeoutMs: settings.timeoutMs,
    resolver: settings.resolver,
  });
  return {
    webhookId: ping.id,
    succeeded: attempt.error === null,
    responseStatus: attempt.status,
    durationMs: attempt.durationMs,
    error: attempt.error,
  };
}
