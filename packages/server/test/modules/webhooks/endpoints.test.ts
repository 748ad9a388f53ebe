import { randomUUID } from 'node:crypto';
import type { LookupAddress } from 'node:dns';
import {
  type CreateWebhookEndpointInput,
  type UpdateWebhookEndpointInput,
  WEBHOOKS,
  type WebhookDelivery,
  WebhookDeliveryListSchema,
  WebhookDeliverySchema,
  type WebhookEndpoint,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  type WebhookEndpointWithSecret,
  WebhookEndpointWithSecretSchema,
  WebhookPingSchema,
  WebhookReplaySchema,
  type WebhookTestResult,
  WebhookTestResultSchema,
} from '@coinventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../../src/db/types.js';
import { encodeCursor, pruneChanges } from '../../../src/modules/changes/index.js';
import { addressPolicy, type WebhookSettings } from '../../../src/modules/webhooks/index.js';
import { feedCursor } from '../../support/changes.js';
import { sharedTestDatabase } from '../../support/database.js';
import { badRequestBody, ERROR_BODY, expectBadRequest } from '../../support/errors.js';
import { type ApiResponse, client, expectStatus } from '../../support/http.js';
import { type Api, createItem, freshApi } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';
import { WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * The webhook endpoints API on a real server: managing endpoints, their URLs under the operator's address policy,
 * the organization's limit, the deliveries each item write queues in its own transaction, listing deliveries, replays
 * and test pings. Nothing here runs a webhook worker: queued deliveries stay pending (the delivery tests send them).
 */

const RATE = { maxRequests: 100_000, windowSeconds: 60 };
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/;
const HOUR_MS = 3_600_000;
const ENDPOINT_KEYS = Object.keys(WebhookEndpointSchema.shape);
const WITH_SECRET_KEYS = Object.keys(WebhookEndpointWithSecretSchema.shape);
const DELIVERY_KEYS = Object.keys(WebhookDeliverySchema.shape);
const REFUSED_TAIL = 'webhooks are not delivered there (an operator can allow it in WEBHOOK_ALLOWED_HOSTS)';
const HTTPS_ONLY = 'must be an https URL (plain http only for hosts the operator allows)';
/** A loopback URL's refusal when it is saved: what a developer runs instead, and the operator's setting. */
const LOOPBACK_REFUSED = (host: string, url: string) =>
  `${host} is a loopback address, which webhooks refuse: for local development run \`coinventory listen --forward-to ${url}\`, which forwards the changes to it signed like webhooks; an operator can allow hosts with WEBHOOK_ALLOWED_HOSTS`;
const LIMIT_MESSAGE = `body: this organization already has ${WEBHOOKS.maxEndpoints} webhook endpoints, the most it may have; delete one it no longer needs, or subscribe one endpoint to more change types`;

const hookUrl = (path = 'coinventory') => `https://hooks.example.com/${path}`;

/** Host names the servers here resolve (the test ping's lookup), so no test depends on real DNS. */
const NAMES: Record<string, LookupAddress[]> = {
  'rebind.example': [{ address: '127.0.0.1', family: 4 }],
  'metadata.example': [{ address: 'fd00:ec2::254', family: 6 }],
  'mixed.example': [
    { address: '93.184.215.14', family: 4 },
    { address: '10.0.0.7', family: 4 },
  ],
};
const resolver = async (hostname: string): Promise<LookupAddress[]> => {
  const addresses = NAMES[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses;
};

async function createEndpoint(api: Api, body: CreateWebhookEndpointInput): Promise<WebhookEndpointWithSecret> {
  const response = await api.post('/webhook-endpoints', { body });
  expectStatus(response, 200);
  expect(Object.keys(response.body as object)).toEqual(WITH_SECRET_KEYS);
  return WebhookEndpointWithSecretSchema.parse(response.body);
}

async function getEndpoint(api: Api, id: string): Promise<WebhookEndpoint> {
  const response = await api.get(`/webhook-endpoints/${id}`);
  expectStatus(response, 200);
  expect(Object.keys(response.body as object)).toEqual(ENDPOINT_KEYS);
  expect(response.text).not.toContain(WEBHOOKS.secretPrefix);
  return WebhookEndpointSchema.parse(response.body);
}

async function patchEndpoint(api: Api, id: string, body: UpdateWebhookEndpointInput): Promise<WebhookEndpoint> {
  const response = await api.patch(`/webhook-endpoints/${id}`, { body });
  expectStatus(response, 200);
  expect(Object.keys(response.body as object)).toEqual(ENDPOINT_KEYS);
  return WebhookEndpointSchema.parse(response.body);
}

async function testPing(api: Api, id: string): Promise<WebhookTestResult> {
  const response = await api.post(`/webhook-endpoints/${id}/test`);
  expectStatus(response, 200);
  expect(Object.keys(response.body as object)).toEqual(Object.keys(WebhookTestResultSchema.shape));
  return WebhookTestResultSchema.parse(response.body);
}

const withoutSecret = ({ secret: _secret, ...endpoint }: WebhookEndpointWithSecret): WebhookEndpoint => endpoint;

/** Milliseconds between an API timestamp and now (or another time). */
const msFrom = (iso: string | null, from = Date.now()) => Math.abs(Date.parse(iso ?? 'nothing') - from);

/** An endpoint row straight from the table, with what the API never shows. */
async function endpointRow(sql: Sql, organizationId: string, id: string) {
  const [row] = await sql<
    {
      secret: string;
      previous_secret: string | null;
      failing_since: Date | null;
      consecutive_failures: number;
      retry_at: Date | null;
    }[]
  >`
    SELECT secret, previous_secret, failing_since, consecutive_failures, retry_at
    FROM webhook_endpoints WHERE organization_id = ${organizationId} AND id = ${id}
  `;
  return row;
}

interface DeliveryRow {
  endpoint_id: string;
  change_id: string;
  type: string;
  status: string;
  attempts: number;
  generation: number;
  due: boolean;
}

/** Every delivery row of an organization with its change, in change order then endpoint. */
function deliveryRows(sql: Sql, organizationId: string): Promise<DeliveryRow[]> {
  return sql<DeliveryRow[]>`
    SELECT d.endpoint_id, c.id AS change_id, c.type, d.status, d.attempts, d.generation,
      d.next_attempt_at <= now() AS due
    FROM webhook_deliveries d
    JOIN changes c ON c.organization_id = d.organization_id AND c.position = d.change_position
    WHERE d.organization_id = ${organizationId}
    ORDER BY c.position, d.endpoint_id
  `;
}

async function endpointCount(sql: Sql, organizationId: string): Promise<number> {
  const [row] = await sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM webhook_endpoints WHERE organization_id = ${organizationId}
  `;
  return row?.count ?? -1;
}

const expectNotFound = (response: ApiResponse) => {
  expectStatus(response, 404);
  expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
};

// One database for the file: its servers differ only in their address policies, and no webhook worker runs.
const database = sharedTestDatabase();

describe('webhook endpoints under the default address policy', () => {
  const ctx = serverWithOrganization({
    database,
    policy: RATE,
    webhooks: { policy: addressPolicy(''), timeoutMs: 2_000, queued: () => {}, resolver },
  });
  const sql = () => ctx.server.database.sql;
  /** A new organization with a client on its read/write key. */
  const freshOrganization = async (): Promise<{ ws: TestOrganization; api: Api }> => {
    const ws = await createTestOrganization(sql());
    return { ws, api: await freshApi(ctx.server, ws) };
  };

  describe('create, get and list', () => {
    it('answers the new endpoint with its secret, once; GET never shows the secret', async () => {
      const { ws, api } = await freshOrganization();
      const before = Date.now();
      const created = await createEndpoint(api, {
        url: hookUrl('store'),
        events: ['item.deleted', 'item.created'],
        description: 'Storefront',
      });
      expect(created).toEqual({
        id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        url: hookUrl('store'),
        description: 'Storefront',
        events: ['item.deleted', 'item.created'],
        enabled: true,
        disabledReason: null,
        disabledAt: null,
        failingSince: null,
        previousSecretExpiresAt: null,
        createdAt: expect.any(String),
        updatedAt: null,
        secret: expect.stringMatching(SECRET),
      });
      expect(msFrom(created.createdAt, before)).toBeLessThan(30_000);
      expect(Buffer.from(created.secret.slice(WEBHOOKS.secretPrefix.length), 'base64')).toHaveLength(
        WEBHOOKS.secretBytes,
      );
      // The secret it answered is the one that signs.
      expect((await endpointRow(sql(), ws.organizationId, created.id))?.secret).toBe(created.secret);

      expect(await getEndpoint(api, created.id)).toEqual(withoutSecret(created));
      // The read key may look, not manage.
      const reader = client(ctx.server.baseUrl, ws.readKey);
      expect(await getEndpoint(reader, created.id)).toEqual(withoutSecret(created));
      expectStatus(await reader.post('/webhook-endpoints', { body: { url: hookUrl(), events: ['*'] } }), 403);

      // No description: null. Every endpoint has a secret of its own.
      const second = await createEndpoint(api, { url: hookUrl('second'), events: ['*'] });
      expect(second).toMatchObject({ description: null, events: ['*'], enabled: true });
      expect(second.secret).toMatch(SECRET);
      expect(second.secret).not.toBe(created.secret);
    });

    it('lists oldest first, a page at a time, never with a secret', async () => {
      const { api } = await freshOrganization();
      const empty = await api.get('/webhook-endpoints');
      expectStatus(empty, 200);
      expect(empty.body).toEqual({ items: [], page: 1, limit: 20, hasMore: false });

      const made: WebhookEndpointWithSecret[] = [];
      for (let i = 0; i < 5; i += 1) made.push(await createEndpoint(api, { url: hookUrl(`n${i}`), events: ['*'] }));
      const expected = made.map(withoutSecret);

      const all = await api.get('/webhook-endpoints');
      expectStatus(all, 200);
      expect(all.text).not.toContain(WEBHOOKS.secretPrefix);
      const list = WebhookEndpointListSchema.parse(all.body);
      expect(list).toEqual({ items: expected, page: 1, limit: 20, hasMore: false });
      for (const item of (all.body as { items: object[] }).items) expect(Object.keys(item)).toEqual(ENDPOINT_KEYS);

      const page = async (query: string) => {
        const response = await api.get(`/webhook-endpoints?${query}`);
        expectStatus(response, 200);
        return WebhookEndpointListSchema.parse(response.body);
      };
      expect(await page('limit=2')).toEqual({ items: expected.slice(0, 2), page: 1, limit: 2, hasMore: true });
      expect(await page('limit=2&page=2')).toEqual({ items: expected.slice(2, 4), page: 2, limit: 2, hasMore: true });
      expect(await page('limit=2&page=3')).toEqual({ items: expected.slice(4), page: 3, limit: 2, hasMore: false });
      expect(await page('limit=2&page=4')).toEqual({ items: [], page: 4, limit: 2, hasMore: false });
      expect(await page('limit=5')).toEqual({ items: expected, page: 1, limit: 5, hasMore: false });

      expectBadRequest(await api.get('/webhook-endpoints?limit=0'), ['query.limit']);
      expectBadRequest(await api.get('/webhook-endpoints?page=0'), ['query.page']);
      expectBadRequest(await api.get('/webhook-endpoints?status=pending'), ['query'], ["'status'"]);
    });

    it("shows an organization only its own endpoints; another organization's is 404 everywhere", async () => {
      const mine = await freshOrganization();
      const theirs = await freshOrganization();
      const endpoint = await createEndpoint(theirs.api, { url: hookUrl('theirs'), events: ['*'] });
      const cursor = await feedCursor(mine.api);
      const list = await mine.api.get('/webhook-endpoints');
      expect(list.body).toEqual({ items: [], page: 1, limit: 20, hasMore: false });
      const path = `/webhook-endpoints/${endpoint.id}`;
      expectNotFound(await mine.api.get(path));
      expectNotFound(await mine.api.patch(path, { body: { description: 'mine now' } }));
      expectNotFound(await mine.api.delete(path));
      expectNotFound(await mine.api.post(`${path}/rotate-secret`));
      expectNotFound(await mine.api.get(`${path}/deliveries`));
      expectNotFound(await mine.api.post(`${path}/replay`, { body: { after: cursor } }));
      expectNotFound(await mine.api.post(`${path}/test`));
      // Untouched.
      expect(await getEndpoint(theirs.api, endpoint.id)).toEqual(withoutSecret(endpoint));
      expect((await endpointRow(sql(), theirs.ws.organizationId, endpoint.id))?.secret).toBe(endpoint.secret);
    });
  });

  describe('PATCH', () => {
    it('changes the URL, the events and the description; null clears the description; the rest stay', async () => {
      const { ws, api } = await freshOrganization();
      const created = await createEndpoint(api, { url: hookUrl('a'), events: ['*'], description: 'First' });

      const moved = await patchEndpoint(api, created.id, { url: hookUrl('b') });
      expect(moved).toEqual({ ...withoutSecret(created), url: hookUrl('b'), updatedAt: expect.any(String) });
      expect(msFrom(moved.updatedAt)).toBeLessThan(30_000);

      const narrowed = await patchEndpoint(api, created.id, { events: ['item.updated', 'item.created'] });
      expect(narrowed).toEqual({ ...moved, events: ['item.updated', 'item.created'], updatedAt: expect.any(String) });

      const described = await patchEndpoint(api, created.id, { description: 'Second' });
      expect(described).toEqual({ ...narrowed, description: 'Second', updatedAt: expect.any(String) });
      const cleared = await patchEndpoint(api, created.id, { description: null });
      expect(cleared).toEqual({ ...described, description: null, updatedAt: expect.any(String) });

      const all = await patchEndpoint(api, created.id, { url: hookUrl('c'), events: ['*'], description: 'Third' });
      expect(all).toEqual({
        ...cleared,
        url: hookUrl('c'),
        events: ['*'],
        description: 'Third',
        updatedAt: expect.any(String),
      });
      expect(await getEndpoint(api, created.id)).toEqual(all);
      // The secret is not touched by a PATCH.
      expect((await endpointRow(sql(), ws.organizationId, created.id))?.secret).toBe(created.secret);
      expectNotFound(await api.patch(`/webhook-endpoints/${randomUUID()}`, { body: { description: 'x' } }));
    });

    it('disables with the reason and the time; enabling clears them and the failing state', async () => {
      const { ws, api } = await freshOrganization();
      const org = ws.organizationId;
      const created = await createEndpoint(api, { url: hookUrl('toggle'), events: ['*'] });

      const disabled = await patchEndpoint(api, created.id, { enabled: false });
      expect(disabled).toEqual({
        ...withoutSecret(created),
        enabled: false,
        disabledReason: 'Disabled through the API.',
        disabledAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      expect(msFrom(disabled.disabledAt)).toBeLessThan(30_000);
      expect(disabled.disabledAt).toBe(disabled.updatedAt);
      // Disabling it again keeps when and why it was first disabled.
      await sql()`UPDATE webhook_endpoints SET disabled_at = now() - interval '2 hours' WHERE organization_id = ${org} AND id = ${created.id}`;
      const still = await patchEndpoint(api, created.id, { enabled: false });
      expect(still.enabled).toBe(false);
      expect(still.disabledReason).toBe('Disabled through the API.');
      expect(msFrom(still.disabledAt, Date.now() - 2 * HOUR_MS)).toBeLessThan(30_000);

      // It was failing before it was disabled.
      const failingSince = new Date(Date.now() - 5 * HOUR_MS);
      const updatedAt = new Date(Date.now() - HOUR_MS);
      await sql()`
        UPDATE webhook_endpoints SET failing_since = ${failingSince}, consecutive_failures = 7,
          retry_at = now() + interval '1 hour', updated_at = ${updatedAt}
        WHERE organization_id = ${org} AND id = ${created.id}
      `;
      const failing = await getEndpoint(api, created.id);
      expect(failing.failingSince).toBe(failingSince.toISOString());
      expect(failing.updatedAt).toBe(updatedAt.toISOString());

      const enabled = await patchEndpoint(api, created.id, { enabled: true });
      expect(enabled).toEqual({
        ...withoutSecret(created),
        enabled: true,
        disabledReason: null,
        disabledAt: null,
        failingSince: null,
        updatedAt: expect.any(String),
      });
      expect(Date.parse(enabled.updatedAt ?? '')).toBeGreaterThan(updatedAt.getTime());
      expect(msFrom(enabled.updatedAt)).toBeLessThan(30_000);
      expect(await endpointRow(sql(), org, created.id)).toMatchObject({
        failing_since: null,
        consecutive_failures: 0,
        retry_at: null,
      });
      expect(await getEndpoint(api, created.id)).toEqual(enabled);
    });

    it('enabling resumes the pending deliveries at once, with a fresh retry period', async () => {
      const { ws, api } = await freshOrganization();
      const org = ws.organizationId;
      const endpoint = await createEndpoint(api, { url: hookUrl('resume'), events: ['*'] });
      await createItem(api, { sku: uniqueSku('RESUME'), title: 'Queued' });
      await patchEndpoint(api, endpoint.id, { enabled: false });
      // Retried for a while, and waiting for its next attempt.
      await sql()`
        UPDATE webhook_deliveries SET attempts = 4, first_attempt_at = now() - interval '10 hours',
          next_attempt_at = now() + interval '3 hours'
        WHERE organization_id = ${org} AND endpoint_id = ${endpoint.id}
      `;
      await patchEndpoint(api, endpoint.id, { enabled: true });
      const rows = await sql()<{ first_attempt_at: Date | null; due: boolean; attempts: number; status: string }[]>`
        SELECT first_attempt_at, next_attempt_at <= now() AS due, attempts, status FROM webhook_deliveries
        WHERE organization_id = ${org} AND endpoint_id = ${endpoint.id}
      `;
      expect(rows).toEqual([{ first_attempt_at: null, due: true, attempts: 4, status: 'pending' }]);
    });

    it('a new URL starts the failing state over; the same URL does not', async () => {
      const { ws, api } = await freshOrganization();
      const org = ws.organizationId;
      const created = await createEndpoint(api, { url: hookUrl('old-receiver'), events: ['*'] });
      const failingSince = new Date(Date.now() - 3 * HOUR_MS);
      const setFailing = () => sql()`
        UPDATE webhook_endpoints SET failing_since = ${failingSince}, consecutive_failures = 3,
          retry_at = now() + interval '1 hour'
        WHERE organization_id = ${org} AND id = ${created.id}
      `;
      await setFailing();
      const same = await patchEndpoint(api, created.id, { url: hookUrl('old-receiver'), description: 'same URL' });
      expect(same.failingSince).toBe(failingSince.toISOString());
      expect((await endpointRow(sql(), org, created.id))?.consecutive_failures).toBe(3);

      const moved = await patchEndpoint(api, created.id, { url: hookUrl('new-receiver') });
      expect(moved.failingSince).toBeNull();
      expect(moved.enabled).toBe(true);
      expect(await endpointRow(sql(), org, created.id)).toMatchObject({
        failing_since: null,
        consecutive_failures: 0,
        retry_at: null,
      });
    });
  });

  describe('DELETE', () => {
    it('answers {id, deleted: true}, removes the endpoint and its deliveries; then it is 404', async () => {
      const { ws, api } = await freshOrganization();
      const doomed = await createEndpoint(api, { url: hookUrl('doomed'), events: ['*'] });
      const kept = await createEndpoint(api, { url: hookUrl('kept'), events: ['*'] });
      await createItem(api, { sku: uniqueSku('DEL'), title: 'Queued twice' });
      expect(await deliveryRows(sql(), ws.organizationId)).toHaveLength(2);

      const response = await api.delete(`/webhook-endpoints/${doomed.id}`);
      expectStatus(response, 200);
      expect(response.body).toEqual({ id: doomed.id, deleted: true });
      expect(Object.keys(response.body as object)).toEqual(['id', 'deleted']);

      expectNotFound(await api.get(`/webhook-endpoints/${doomed.id}`));
      expectNotFound(await api.delete(`/webhook-endpoints/${doomed.id}`));
      expectNotFound(await api.get(`/webhook-endpoints/${doomed.id}/deliveries`));
      expect((await deliveryRows(sql(), ws.organizationId)).map((row) => row.endpoint_id)).toEqual([kept.id]);
      const list = await api.get('/webhook-endpoints');
      expect(WebhookEndpointListSchema.parse(list.body).items).toEqual([withoutSecret(kept)]);
    });
  });

  describe('rotate-secret', () => {
    it('answers a new secret; the old one keeps signing for 24 hours, shown as previousSecretExpiresAt', async () => {
      const { ws, api } = await freshOrganization();
      const org = ws.organizationId;
      const created = await createEndpoint(api, { url: hookUrl('rotate'), events: ['*'] });

      const response = await api.post(`/webhook-endpoints/${created.id}/rotate-secret`);
      expectStatus(response, 200);
      expect(Object.keys(response.body as object)).toEqual(WITH_SECRET_KEYS);
      const rotated = WebhookEndpointWithSecretSchema.parse(response.body);
      expect(rotated.secret).toMatch(SECRET);
      expect(rotated.secret).not.toBe(created.secret);
      expect(rotated).toEqual({
        ...created,
        secret: rotated.secret,
        previousSecretExpiresAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const hours = WEBHOOKS.previousSecretHours * HOUR_MS;
      expect(msFrom(rotated.previousSecretExpiresAt, Date.now() + hours)).toBeLessThan(30_000);
      // Set in the same statement as updatedAt: exactly the period apart.
      expect(Date.parse(rotated.previousSecretExpiresAt ?? '') - Date.parse(rotated.updatedAt ?? '')).toBe(hours);
      expect(await getEndpoint(api, created.id)).toEqual(withoutSecret(rotated));
      expect(await endpointRow(sql(), org, created.id)).toMatchObject({
        secret: rotated.secret,
        previous_secret: created.secret,
      });

      // Rotating again: the secret just replaced is the previous one now; the first no longer signs.
      const again = WebhookEndpointWithSecretSchema.parse(
        (await api.post(`/webhook-endpoints/${created.id}/rotate-secret`)).body,
      );
      expect(new Set([created.secret, rotated.secret, again.secret]).size).toBe(3);
      expect(await endpointRow(sql(), org, created.id)).toMatchObject({
        secret: again.secret,
        previous_secret: rotated.secret,
      });

      // Once the period is over, GET shows no previous secret.
      await sql()`
        UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second'
        WHERE organization_id = ${org} AND id = ${created.id}
      `;
      expect((await getEndpoint(api, created.id)).previousSecretExpiresAt).toBeNull();
      expectNotFound(await api.post(`/webhook-endpoints/${randomUUID()}/rotate-secret`));
    });
  });

  describe(`the limit of ${WEBHOOKS.maxEndpoints} endpoints per organization`, () => {
    it(`refuses endpoint ${WEBHOOKS.maxEndpoints + 1} with 400 naming the limit; deleting one makes room`, async () => {
      const { ws, api } = await freshOrganization();
      const made: string[] = [];
      for (let i = 0; i < WEBHOOKS.maxEndpoints; i += 1) {
        made.push((await createEndpoint(api, { url: hookUrl(`limit-${i}`), events: ['*'] })).id);
      }
      // Disabled endpoints count too.
      await patchEndpoint(api, made[0] ?? '', { enabled: false });
      const refused = await api.post('/webhook-endpoints', { body: { url: hookUrl('one-more'), events: ['*'] } });
      expectStatus(refused, 400);
      expect(refused.body).toEqual(badRequestBody(LIMIT_MESSAGE));
      expect(await endpointCount(sql(), ws.organizationId)).toBe(WEBHOOKS.maxEndpoints);

      // Another organization is not held back by this one's.
      const other = await freshApi(ctx.server, ctx.organization);
      await createEndpoint(other, { url: hookUrl('elsewhere'), events: ['*'] });

      expectStatus(await api.delete(`/webhook-endpoints/${made[3]}`), 200);
      await createEndpoint(api, { url: hookUrl('one-more'), events: ['*'] });
      expect(await endpointCount(sql(), ws.organizationId)).toBe(WEBHOOKS.maxEndpoints);
      expect((await api.post('/webhook-endpoints', { body: { url: hookUrl(), events: ['*'] } })).body).toEqual(
        badRequestBody(LIMIT_MESSAGE),
      );
    });

    it('never exceeds the limit when creations race', async () => {
      const { ws, api } = await freshOrganization();
      const attempts = WEBHOOKS.maxEndpoints + 8;
      const responses = await Promise.all(
        Array.from({ length: attempts }, (_, i) =>
          api.post('/webhook-endpoints', { body: { url: hookUrl(`race-${i}`), events: ['*'] } }),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(WEBHOOKS.maxEndpoints);
      expect(statuses.filter((status) => status === 400)).toHaveLength(attempts - WEBHOOKS.maxEndpoints);
      for (const response of responses.filter((r) => r.status === 400)) {
        expect(response.body).toEqual(badRequestBody(LIMIT_MESSAGE));
      }
      expect(await endpointCount(sql(), ws.organizationId)).toBe(WEBHOOKS.maxEndpoints);
      const created = responses.filter((r) => r.status === 200).map((r) => (r.body as { id: string }).id);
      const listed = WebhookEndpointListSchema.parse((await api.get('/webhook-endpoints?limit=100')).body);
      expect(listed.items.map((endpoint) => endpoint.id).sort()).toEqual(created.sort());
    });
  });

  describe('URL rules', () => {
    const refusals: ReadonlyArray<readonly [string, string]> = [
      ['http://hooks.example.com/coinventory', HTTPS_ONLY],
      // What a developer tries first: a receiver on their own machine, over plain http.
      ['http://127.0.0.1:4242/webhooks', LOOPBACK_REFUSED('127.0.0.1', 'http://127.0.0.1:4242/webhooks')],
      ['http://localhost:4242/webhooks', LOOPBACK_REFUSED('localhost', 'http://localhost:4242/webhooks')],
      ['https://127.0.0.1/x', LOOPBACK_REFUSED('127.0.0.1', 'https://127.0.0.1/x')],
      ['https://[::1]/x', LOOPBACK_REFUSED('::1', 'https://[::1]/x')],
      [
        'https://169.254.169.254/latest',
        `169.254.169.254 is link-local (cloud metadata services live here); ${REFUSED_TAIL}`,
      ],
      ['https://10.1.2.3/', `10.1.2.3 is a private network; ${REFUSED_TAIL}`],
      ['https://localhost/', LOOPBACK_REFUSED('localhost', 'https://localhost/')],
      ['https://hooks.localhost/', LOOPBACK_REFUSED('hooks.localhost', 'https://hooks.localhost/')],
      [
        'https://[fd00:ec2::254]/',
        `fd00:ec2::254 is a private (unique local) network, where some clouds put their metadata service; ${REFUSED_TAIL}`,
      ],
      ['https://2130706433/', LOOPBACK_REFUSED('127.0.0.1', 'https://2130706433/')],
      ['https://[::ffff:127.0.0.1]/', LOOPBACK_REFUSED('::ffff:7f00:1', 'https://[::ffff:127.0.0.1]/')],
      // The ranges issue 35 found let through, and IPv4 carried in IPv6 judged by the IPv4 address.
      ['https://168.63.129.16/', `168.63.129.16 is a cloud's metadata and wire server (Azure); ${REFUSED_TAIL}`],
      ['https://192.88.99.1/', `192.88.99.1 is the deprecated 6to4 relay anycast; ${REFUSED_TAIL}`],
      ['https://[fec0::1]/', `fec0::1 is site-local (deprecated); ${REFUSED_TAIL}`],
      ['https://[2001::1]/', `2001::1 is Teredo tunnelling; ${REFUSED_TAIL}`],
      ['https://[2001:2::1]/', `2001:2::1 is benchmarking; ${REFUSED_TAIL}`],
      ['https://[2001:20::1]/', `2001:20::1 is ORCHIDv2; ${REFUSED_TAIL}`],
      ['https://[3fff::1]/', `3fff::1 is documentation; ${REFUSED_TAIL}`],
      ['https://[5f00::1]/', `5f00::1 is an SRv6 segment identifier (SID); ${REFUSED_TAIL}`],
      [
        'https://[2002:a83f:8110::1]/',
        `2002:a83f:8110::1 is a cloud's metadata and wire server (Azure); ${REFUSED_TAIL}`,
      ],
      [
        'https://[64:ff9b::168.63.129.16]/',
        `64:ff9b::a83f:8110 is a cloud's metadata and wire server (Azure); ${REFUSED_TAIL}`,
      ],
    ];

    it.each(refusals)('refuses %s at create and PATCH, saying why, and writes nothing', async (url, why) => {
      const { ws, api } = await freshOrganization();
      const org = ws.organizationId;
      const before = await endpointCount(sql(), org);
      const created = await api.post('/webhook-endpoints', { body: { url, events: ['*'] } });
      expect(created.body).toEqual(badRequestBody(`body.url: ${why}`));
      expectStatus(created, 400);
      expect(await endpointCount(sql(), org)).toBe(before);

      const endpoint = await createEndpoint(api, { url: hookUrl('stays'), events: ['*'] });
      const patched = await api.patch(`/webhook-endpoints/${endpoint.id}`, { body: { url, description: 'changed' } });
      expectStatus(patched, 400);
      expect(patched.body).toEqual(badRequestBody(`body.url: ${why}`));
      expect(await getEndpoint(api, endpoint.id)).toEqual(withoutSecret(endpoint));
    });

    it('accepts https to a host name or a public address', async () => {
      const { api } = await freshOrganization();
      for (const url of ['https://hooks.example.com', 'https://hooks.example.com:8443/a?b=c', 'https://8.8.8.8/x']) {
        expect((await createEndpoint(api, { url, events: ['*'] })).url).toBe(url);
      }
      // A name is judged where it leads when a delivery connects, not here.
      const named = await createEndpoint(api, { url: 'https://rebind.example/x', events: ['*'] });
      expect(named.url).toBe('https://rebind.example/x');
      expect((await patchEndpoint(api, named.id, { url: 'https://8.8.4.4/' })).url).toBe('https://8.8.4.4/');
    });

    it.each([
      ['not a url', 'must be an absolute URL'],
      ['ftp://hooks.example.com/x', 'must be an https URL'],
      ['https://user:pass@hooks.example.com/x', 'must not carry a user name or password'],
      ['https://hooks.example.com/x#part', 'must not have a #fragment'],
      ['', 'body.url'],
      [`https://hooks.example.com/${'x'.repeat(WEBHOOKS.url.max)}`, 'body.url'],
    ])('refuses the URL %j by its form, naming body.url', async (url, mention) => {
      const { api } = await freshOrganization();
      expectBadRequest(await api.post('/webhook-endpoints', { body: { url, events: ['*'] } }), ['body.url'], [mention]);
      const endpoint = await createEndpoint(api, { url: hookUrl('form'), events: ['*'] });
      expectBadRequest(
        await api.patch(`/webhook-endpoints/${endpoint.id}`, { body: { url } }),
        ['body.url'],
        [mention],
      );
    });
  });

  describe('body validation', () => {
    it('refuses bad events, unknown fields and missing ones, naming each', async () => {
      const { ws, api } = await freshOrganization();
      const org = ws.organizationId;
      const before = await endpointCount(sql(), org);
      const post = (body: unknown) => api.post('/webhook-endpoints', { body });
      const url = hookUrl('validation');
      expectBadRequest(
        await post({ url, events: [] }),
        ['body.events'],
        ['must list at least one change type, or "*"'],
      );
      expectBadRequest(
        await post({ url, events: ['*', 'item.created'] }),
        ['body.events'],
        ['"*" must be the only entry'],
      );
      expectBadRequest(
        await post({ url, events: ['item.created', 'item.created'] }),
        ['body.events'],
        ['must not list a type twice'],
      );
      expectBadRequest(await post({ url, events: ['item.sold'] }), ['body.events.0'], ['item.sold']);
      expectBadRequest(await post({ url, events: 'item.created' }), ['body.events']);
      expectBadRequest(await post({ url, events: ['*'], secret: 'whsec_mine' }), ['body'], ["'secret'"]);
      expectBadRequest(await post({ url, events: ['*'], enabled: false }), ['body'], ["'enabled'"]);
      expectBadRequest(await post({ events: ['*'] }), ['body.url']);
      expectBadRequest(await post({ url }), ['body.events']);
      expectBadRequest(await post({ url, events: ['*'], description: 'x'.repeat(WEBHOOKS.description.max + 1) }), [
        'body.description',
      ]);
      expectBadRequest(await post({ url, events: ['*'], description: 'nul\u0000' }), ['body.description']);
      expect(await endpointCount(sql(), org)).toBe(before);

      const endpoint = await createEndpoint(api, { url, events: ['*'] });
      const patch = (body: unknown) => api.patch(`/webhook-endpoints/${endpoint.id}`, { body });
      expectBadRequest(await patch({ events: [] }), ['body.events']);
      expectBadRequest(await patch({ events: ['item.updated', '*'] }), ['body.events'], ['"*" must be the only entry']);
      expectBadRequest(await patch({ events: ['item.deleted', 'item.deleted'] }), ['body.events'], ['twice']);
      expectBadRequest(await patch({ events: ['item.sold'] }), ['body.events.0'], ['item.sold']);
      expectBadRequest(await patch({ enabled: 'no' }), ['body.enabled']);
      expectBadRequest(await patch({ secret: 'whsec_mine' }), ['body'], ["'secret'"]);
      expectBadRequest(await patch({ url: null }), ['body.url']);
      expectBadRequest(await patch({ events: null }), ['body.events']);
      expect(await getEndpoint(api, endpoint.id)).toEqual(withoutSecret(endpoint));
      expectBadRequest(await api.get('/webhook-endpoints/not-a-uuid'), ['path.id']);
    });
  });

  describe('deliveries queued by item writes', () => {
    it('queues one delivery per enabled endpoint whose events match, in the write’s transaction', async () => {
      const { ws, api } = await freshOrganization();
      const org = ws.organizationId;
      const all = await createEndpoint(api, { url: hookUrl('all'), events: ['*'] });
      const created = await createEndpoint(api, { url: hookUrl('created'), events: ['item.created'] });
      const deleted = await createEndpoint(api, { url: hookUrl('deleted'), events: ['item.deleted'] });
      const off = await createEndpoint(api, { url: hookUrl('off'), events: ['*'] });
      await patchEndpoint(api, off.id, { enabled: false });
      // Another organization's endpoint hears nothing of this one.
      const other = await freshOrganization();
      await createEndpoint(other.api, { url: hookUrl('other'), events: ['*'] });
      const name = new Map([
        [all.id, 'all'],
        [created.id, 'created'],
        [deleted.id, 'deleted'],
        [off.id, 'off'],
      ]);
      const rows = async () =>
        (await deliveryRows(sql(), org)).map((row) => [name.get(row.endpoint_id), row.type, row.change_id]);

      const start = await feedCursor(api);
      const item = await createItem(api, { sku: uniqueSku('HOOK'), title: 'Queued' });
      expectStatus(await api.patch(`/items/${item.id}`, { body: { title: 'Renamed' } }), 200);
      expectStatus(await api.delete(`/items/${item.id}`), 200);
      const feed = await api.get<{ items: { id: string; type: string }[] }>(`/changes?after=${start}`);
      const [c1, c2, c3] = feed.body.items.map((change) => change.id);
      expect(feed.body.items.map((change) => change.type)).toEqual(['item.created', 'item.updated', 'item.deleted']);
      const expected = [
        ['all', 'item.created', c1],
        ['created', 'item.created', c1],
        ['all', 'item.updated', c2],
        ['all', 'item.deleted', c3],
        ['deleted', 'item.deleted', c3],
      ];
      const sortEach = (list: unknown[][]) => list.map((row) => row.join(' ')).sort();
      expect(sortEach(await rows())).toEqual(sortEach(expected));
      // Each one pending, not yet attempted, due now.
      for (const row of await deliveryRows(sql(), org)) {
        expect(row).toMatchObject({ status: 'pending', attempts: 0, generation: 0, due: true });
      }
      expect(await deliveryRows(sql(), other.ws.organizationId)).toEqual([]);

      // A write that fails queues nothing, and records no change.
      const taken = await createItem(api, { sku: uniqueSku('TAKEN'), title: 'Holds the SKU' });
      const count = (await deliveryRows(sql(), org)).length;
      expect(count).toBe(expected.length + 2);
      expectStatus(await api.post('/items', { body: { sku: taken.sku, title: 'Duplicate' } }), 409);
      expectStatus(await api.patch(`/items/${taken.id}`, { body: { categoryId: randomUUID() } }), 400);
      expectStatus(await api.delete(`/items/${taken.id}`, { headers: { 'if-match': '"stale"' } }), 412);
      expect(await deliveryRows(sql(), org)).toHaveLength(count);

      // Enabled again, the endpoint gets what comes next, not what happened while it was off.
      await patchEndpoint(api, off.id, { enabled: true });
      const later = await createItem(api, { sku: uniqueSku('LATER'), title: 'Later' });
      const offRows = (await deliveryRows(sql(), org)).filter((row) => row.endpoint_id === off.id);
      expect(offRows).toHaveLength(1);
      const [latest] = (await api.get<{ items: { id: string; objectId: string }[] }>('/changes?limit=100')).body.items
        .filter((change) => change.objectId === later.id)
        .map((change) => change.id);
      expect(offRows[0]?.change_id).toBe(latest);
    });
  });

  describe('GET /webhook-endpoints/{id}/deliveries', () => {
    it('lists an endpoint’s deliveries newest first, filtered by status', async () => {
      const { ws, api } = await freshOrganization();
      const org = ws.organizationId;
      const endpoint = await createEndpoint(api, { url: hookUrl('deliveries'), events: ['*'] });
      const otherEndpoint = await createEndpoint(api, { url: hookUrl('not-these'), events: ['item.created'] });
      const start = await feedCursor(api);
      const first = await createItem(api, { sku: uniqueSku('D1'), title: 'One' });
      const second = await createItem(api, { sku: uniqueSku('D2'), title: 'Two' });
      expectStatus(await api.patch(`/items/${first.id}`, { body: { quantity: 3 } }), 200);
      const changes = (
        await api.get<{ items: { id: string; type: WebhookDelivery['changeType']; objectId: string }[] }>(
          `/changes?after=${start}`,
        )
      ).body.items;
      expect(changes.map((change) => [change.type, change.objectId])).toEqual([
        ['item.created', first.id],
        ['item.created', second.id],
        ['item.updated', first.id],
      ]);

      const response = await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`);
      expectStatus(response, 200);
      expect(response.text).not.toContain(WEBHOOKS.secretPrefix);
      const list = WebhookDeliveryListSchema.parse(response.body);
      expect(list).toMatchObject({ page: 1, limit: 20, hasMore: false });
      for (const item of (response.body as { items: object[] }).items) expect(Object.keys(item)).toEqual(DELIVERY_KEYS);
      expect(list.items).toEqual(
        [...changes].reverse().map((change) => ({
          id: expect.any(String),
          endpointId: endpoint.id,
          changeId: change.id,
          changeType: change.type,
          status: 'pending',
          attempts: 0,
          lastAttemptAt: null,
          lastResponseStatus: null,
          lastDurationMs: null,
          lastError: null,
          nextAttemptAt: expect.any(String),
          createdAt: expect.any(String),
          deliveredAt: null,
        })),
      );
      for (const delivery of list.items) expect(msFrom(delivery.nextAttemptAt)).toBeLessThan(30_000);
      expect(new Set(list.items.map((delivery) => delivery.id)).size).toBe(3);
      // The other endpoint's list has only its own.
      const others = WebhookDeliveryListSchema.parse(
        (await api.get(`/webhook-endpoints/${otherEndpoint.id}/deliveries`)).body,
      );
      expect(others.items.map((delivery) => [delivery.endpointId, delivery.changeType])).toEqual([
        [otherEndpoint.id, 'item.created'],
        [otherEndpoint.id, 'item.created'],
      ]);

      // One delivered, one given up: each state shows what the worker recorded, and the filter picks it.
      const [newest, middle, oldest] = list.items;
      await sql()`
        UPDATE webhook_deliveries SET status = 'succeeded', attempts = 2, last_attempt_at = now(),
          last_response_status = 204, last_duration_ms = 31, delivered_at = now()
        WHERE organization_id = ${org} AND id = ${oldest?.id ?? ''}
      `;
      await sql()`
        UPDATE webhook_deliveries SET status = 'failed', attempts = 9, last_attempt_at = now(),
          last_response_status = 500, last_duration_ms = 12, last_error = 'answered 500'
        WHERE organization_id = ${org} AND id = ${middle?.id ?? ''}
      `;
      const filtered = async (status: string) => {
        const page = await api.get(`/webhook-endpoints/${endpoint.id}/deliveries?status=${status}`);
        expectStatus(page, 200);
        return WebhookDeliveryListSchema.parse(page.body).items;
      };
      const succeeded = await filtered('succeeded');
      expect(succeeded).toEqual([
        {
          ...oldest,
          status: 'succeeded',
          attempts: 2,
          lastAttemptAt: expect.any(String),
          lastResponseStatus: 204,
          lastDurationMs: 31,
          nextAttemptAt: null,
          deliveredAt: expect.any(String),
        },
      ]);
      expect(await filtered('failed')).toEqual([
        {
          ...middle,
          status: 'failed',
          attempts: 9,
          lastAttemptAt: expect.any(String),
          lastResponseStatus: 500,
          lastDurationMs: 12,
          lastError: 'answered 500',
          nextAttemptAt: null,
        },
      ]);
      expect(await filtered('pending')).toEqual([newest]);

      const paged = await api.get(`/webhook-endpoints/${endpoint.id}/deliveries?limit=2&page=2`);
      expect(WebhookDeliveryListSchema.parse(paged.body)).toEqual({
        items: [succeeded[0]],
        page: 2,
        limit: 2,
        hasMore: false,
      });
    });

    it('is 404 for an unknown endpoint and refuses an unknown status', async () => {
      const { api } = await freshOrganization();
      expectNotFound(await api.get(`/webhook-endpoints/${randomUUID()}/deliveries`));
      const endpoint = await createEndpoint(api, { url: hookUrl('statuses'), events: ['*'] });
      const path = `/webhook-endpoints/${endpoint.id}/deliveries`;
      expectBadRequest(await api.get(`${path}?status=sent`), ['query.status']);
      expectBadRequest(await api.get(`${path}?status=`), ['query.status']);
      expectBadRequest(await api.get(`${path}?status=pending&status=failed`), ['query.status']);
      expectBadRequest(await api.get(`${path}?limit=101`), ['query.limit']);
      expectBadRequest(await api.get(`${path}?after=x`), ['query'], ["'after'"]);
      expect((await api.get(`${path}?status=failed`)).body).toEqual({ items: [], page: 1, limit: 20, hasMore: false });
    });
  });

  describe('replay', () => {
    it('queues every change after the cursor that the endpoint subscribes to, and only those', async () => {
      const { ws, api } = await freshOrganization();
      const org = ws.organizationId;
      const all = await createEndpoint(api, { url: hookUrl('replay-all'), events: ['*'] });
      const deletions = await createEndpoint(api, { url: hookUrl('replay-del'), events: ['item.deleted'] });
      const writes = await createEndpoint(api, {
        url: hookUrl('replay-writes'),
        events: ['item.created', 'item.updated'],
      });
      // Before the cursor: not replayed.
      await createItem(api, { sku: uniqueSku('BEFORE'), title: 'Before' });
      const cursor = await feedCursor(api);
      const items = [];
      for (let i = 0; i < 3; i += 1)
        items.push(await createItem(api, { sku: uniqueSku('AFTER'), title: `After ${i}` }));
      expectStatus(await api.patch(`/items/${items[0]?.id}`, { body: { title: 'Changed' } }), 200);
      expectStatus(await api.delete(`/items/${items[1]?.id}`), 200);
      expectStatus(await api.delete(`/items/${items[2]?.id}`), 200);
      const end = await feedCursor(api);

      const replay = async (endpointId: string, after: string) => {
        const response = await api.post(`/webhook-endpoints/${endpointId}/replay`, { body: { after } });
        expectStatus(response, 200);
        expect(Object.keys(response.body as object)).toEqual(['queued', 'nextCursor']);
        return WebhookReplaySchema.parse(response.body);
      };
      // 3 created, 1 updated, 2 deleted.
      expect(await replay(all.id, cursor)).toEqual({ queued: 6, nextCursor: end });
      expect(await replay(deletions.id, cursor)).toEqual({ queued: 2, nextCursor: end });
      expect(await replay(writes.id, cursor)).toEqual({ queued: 4, nextCursor: end });
      // From the end: nothing.
      expect(await replay(all.id, end)).toEqual({ queued: 0, nextCursor: end });
      // Each change has one delivery per endpoint still: the replay re-queued the ones the writes had queued.
      const rows = await deliveryRows(sql(), org);
      const perEndpoint = (id: string) => rows.filter((row) => row.endpoint_id === id);
      expect(perEndpoint(all.id)).toHaveLength(7);
      expect(perEndpoint(deletions.id)).toHaveLength(2);
      expect(perEndpoint(writes.id)).toHaveLength(5);
      const pairs = rows.map((row) => `${row.endpoint_id} ${row.change_id}`);
      expect(new Set(pairs).size).toBe(pairs.length);
      expect(perEndpoint(deletions.id).map((row) => row.type)).toEqual(['item.deleted', 'item.deleted']);
    });

    it('sends again what was delivered or given up: pending, from a fresh start, under a new generation', async () => {
      const { ws, api } = await freshOrganization();
      const org = ws.organizationId;
      const endpoint = await createEndpoint(api, { url: hookUrl('again'), events: ['*'] });
      const cursor = await feedCursor(api);
      await createItem(api, { sku: uniqueSku('AGAIN'), title: 'One' });
      await createItem(api, { sku: uniqueSku('AGAIN'), title: 'Two' });
      await sql()`
        UPDATE webhook_deliveries SET status = 'succeeded', attempts = 1, last_attempt_at = now(),
          last_response_status = 200, last_duration_ms = 5, delivered_at = now(), first_attempt_at = now()
        WHERE organization_id = ${org} AND endpoint_id = ${endpoint.id}
      `;
      const [firstRow] = await deliveryRows(sql(), org);
      await sql()`
        UPDATE webhook_deliveries d SET status = 'failed', last_error = 'answered 500', last_response_status = 500
        FROM changes c
        WHERE d.organization_id = ${org} AND c.organization_id = d.organization_id AND c.position = d.change_position
          AND c.id = ${firstRow?.change_id ?? ''}
      `;
      const response = await api.post(`/webhook-endpoints/${endpoint.id}/replay`, { body: { after: cursor } });
      expectStatus(response, 200);
      expect((response.body as { queued: number }).queued).toBe(2);
      const list = WebhookDeliveryListSchema.parse(
        (await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).body,
      );
      expect(list.items).toHaveLength(2);
      for (const delivery of list.items) {
        expect(delivery).toMatchObject({
          status: 'pending',
          attempts: 0,
          lastAttemptAt: null,
          lastResponseStatus: null,
          lastDurationMs: null,
          lastError: null,
          deliveredAt: null,
        });
        expect(msFrom(delivery.nextAttemptAt)).toBeLessThan(30_000);
      }
      for (const row of await deliveryRows(sql(), org)) expect(row).toMatchObject({ generation: 1, due: true });
    });

    it('refuses a cursor from before changes that retention removed', async () => {
      const { ws, api } = await freshOrganization();
      const org = ws.organizationId;
      const endpoint = await createEndpoint(api, { url: hookUrl('expired'), events: ['*'] });
      const start = await feedCursor(api);
      const old = await createItem(api, { sku: uniqueSku('OLD'), title: 'Old' });
      const afterOld = await feedCursor(api);
      await createItem(api, { sku: uniqueSku('KEPT'), title: 'Kept' });
      await sql()`
        UPDATE changes SET occurred_at = now() - interval '31 days'
        WHERE organization_id = ${org} AND object_id = ${old.id}
      `;
      expect(await pruneChanges(sql(), new Date(Date.now() - 30 * 24 * HOUR_MS))).toBeGreaterThanOrEqual(1);
      // The removed change's delivery went with it.
      expect((await deliveryRows(sql(), org)).map((row) => row.type)).toEqual(['item.created']);
      const path = `/webhook-endpoints/${endpoint.id}/replay`;
      expectBadRequest(await api.post(path, { body: { after: start } }), ['body.after'], ['expired', 'full read']);
      expect((await api.post(path, { body: { after: afterOld } })).body).toEqual({
        queued: 1,
        nextCursor: await feedCursor(api),
      });
    });

    it('reaches changes made while the endpoint was disabled', async () => {
      const { ws, api } = await freshOrganization();
      const endpoint = await createEndpoint(api, { url: hookUrl('missed'), events: ['*'] });
      await patchEndpoint(api, endpoint.id, { enabled: false });
      const cursor = await feedCursor(api);
      await createItem(api, { sku: uniqueSku('MISSED'), title: 'Missed' });
      expect(await deliveryRows(sql(), ws.organizationId)).toEqual([]);
      const response = await api.post(`/webhook-endpoints/${endpoint.id}/replay`, { body: { after: cursor } });
      expect(response.body).toEqual({ queued: 1, nextCursor: await feedCursor(api) });
      expect(await deliveryRows(sql(), ws.organizationId)).toMatchObject([
        { endpoint_id: endpoint.id, type: 'item.created', status: 'pending' },
      ]);
    });

    it('refuses what is not a cursor of this organization’s feed, naming body.after', async () => {
      const { ws, api } = await freshOrganization();
      const endpoint = await createEndpoint(api, { url: hookUrl('cursors'), events: ['*'] });
      const cursor = await feedCursor(api);
      const replay = (after: unknown) =>
        api.post(`/webhook-endpoints/${endpoint.id}/replay`, { body: after === undefined ? {} : { after } });
      for (const bad of ['nonsense', `${cursor}x`, cursor.slice(0, -2)]) {
        expectBadRequest(await replay(bad), ['body.after'], ['not a cursor of this changes feed', 'full read']);
      }
      const other = await freshOrganization();
      expectBadRequest(await replay(await feedCursor(other.api)), ['body.after'], ['another organization']);
      expectBadRequest(
        await replay(encodeCursor({ organizationId: ws.organizationId, position: 1_000 })),
        ['body.after'],
        ['ahead of the changes feed'],
      );
      expectBadRequest(await replay(undefined), ['body.after']);
      expectBadRequest(await replay(''), ['body.after']);
      expectBadRequest(await replay(42), ['body.after']);
      expectBadRequest(
        await api.post(`/webhook-endpoints/${endpoint.id}/replay`, { body: { after: cursor, types: ['*'] } }),
        ['body'],
        ["'types'"],
      );
      expectNotFound(await api.post(`/webhook-endpoints/${randomUUID()}/replay`, { body: { after: cursor } }));
      expect(await deliveryRows(sql(), ws.organizationId)).toEqual([]);
    });
  });

  describe('test ping to a URL the policy refuses', () => {
    /** An endpoint whose URL could not be saved now (the policy changed since, or it was written before). */
    const seeded = async (ws: TestOrganization, url: string) => {
      const [row] = await sql()<{ id: string }[]>`
        INSERT INTO webhook_endpoints (organization_id, url, events, secret)
        VALUES (${ws.organizationId}, ${url}, ${['*']}, ${'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'})
        RETURNING id
      `;
      return row?.id ?? '';
    };

    it.each([
      ['https://127.0.0.1:9/x', `127.0.0.1 is loopback; ${REFUSED_TAIL}`],
      ['https://[::1]:9/x', `::1 is loopback; ${REFUSED_TAIL}`],
      [
        'https://169.254.169.254/latest',
        `169.254.169.254 is link-local (cloud metadata services live here); ${REFUSED_TAIL}`,
      ],
      ['https://localhost:9/', `localhost is loopback; ${REFUSED_TAIL}`],
      ['http://hooks.example.com/x', HTTPS_ONLY],
    ])('%s: answers 200 with succeeded false and the refusal, before connecting', async (url, why) => {
      const { ws, api } = await freshOrganization();
      const id = await seeded(ws, url);
      expect(await testPing(api, id)).toEqual({
        webhookId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        succeeded: false,
        responseStatus: null,
        durationMs: 0,
        error: why,
      });
    });

    it.each([
      ['https://rebind.example/x', `rebind.example resolves to 127.0.0.1, which is loopback; ${REFUSED_TAIL}`],
      [
        'https://metadata.example/x',
        `metadata.example resolves to fd00:ec2::254, which is a private (unique local) network, where some clouds put their metadata service; ${REFUSED_TAIL}`,
      ],
      ['https://mixed.example/x', `mixed.example resolves to 10.0.0.7, which is a private network; ${REFUSED_TAIL}`],
    ])('%s: a name that resolves to a forbidden address is refused when connecting', async (url, why) => {
      const { api } = await freshOrganization();
      // Saved without complaint: the name is only judged by where it leads when a delivery connects.
      const endpoint = await createEndpoint(api, { url, events: ['*'] });
      const result = await testPing(api, endpoint.id);
      expect(result).toEqual({
        webhookId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        succeeded: false,
        responseStatus: null,
        durationMs: expect.any(Number),
        error: why,
      });
      expect(result.durationMs).toBeLessThan(2_000);
    });

    it('says when a name does not resolve; is 404 for an unknown endpoint', async () => {
      const { api } = await freshOrganization();
      const endpoint = await createEndpoint(api, { url: 'https://nowhere.example/x', events: ['*'] });
      expect(await testPing(api, endpoint.id)).toMatchObject({
        succeeded: false,
        responseStatus: null,
        error: 'host not found (ENOTFOUND)',
      });
      expectNotFound(await api.post(`/webhook-endpoints/${randomUUID()}/test`));
    });
  });
});

describe('webhook endpoints with 127.0.0.1 allowed (WEBHOOK_ALLOWED_HOSTS=127.0.0.1)', () => {
  let kicks = 0;
  const settings: WebhookSettings = {
    policy: addressPolicy('127.0.0.1'),
    timeoutMs: 2_000,
    queued: () => {
      kicks += 1;
    },
  };
  const ctx = serverWithOrganization({ database, policy: RATE, webhooks: settings });
  const freshOrganization = async (): Promise<{ ws: TestOrganization; api: Api }> => {
    const ws = await createTestOrganization(ctx.server.database.sql);
    return { ws, api: await freshApi(ctx.server, ws) };
  };
  const receiver = new WebhookReceiver();
  beforeAll(() => receiver.listen());
  afterAll(() => receiver.close());

  it('accepts plain http to the allowed address, and still refuses others', async () => {
    const { api } = await freshOrganization();
    expect((await createEndpoint(api, { url: 'http://127.0.0.1:9/x', events: ['*'] })).url).toBe(
      'http://127.0.0.1:9/x',
    );
    expect((await createEndpoint(api, { url: 'https://127.0.0.1/x', events: ['*'] })).url).toBe('https://127.0.0.1/x');
    const refused = async (url: string, why: string) => {
      const response = await api.post('/webhook-endpoints', { body: { url, events: ['*'] } });
      expect(response.body).toEqual(badRequestBody(`body.url: ${why}`));
    };
    await refused('http://localhost:9/x', LOOPBACK_REFUSED('localhost', 'http://localhost:9/x'));
    await refused('http://hooks.example.com/x', HTTPS_ONLY);
    await refused('https://127.0.0.2/x', LOOPBACK_REFUSED('127.0.0.2', 'https://127.0.0.2/x'));
    await refused('https://10.0.0.1/x', `10.0.0.1 is a private network; ${REFUSED_TAIL}`);
  });

  it('sends a signed ping and answers with the outcome, whether or not the endpoint is enabled', async () => {
    const { api } = await freshOrganization();
    const endpoint = await createEndpoint(api, { url: receiver.url('/ping'), events: ['item.deleted'] });
    receiver.verifyWith(endpoint.secret);
    receiver.behaviour = { kind: 'accept' };
    const seen = receiver.received.length;
    const result = await testPing(api, endpoint.id);
    expect(result).toEqual({
      webhookId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      succeeded: true,
      responseStatus: 204,
      durationMs: expect.any(Number),
      error: null,
    });
    expect(result.durationMs).toBeLessThan(2_000);
    expect(receiver.received).toHaveLength(seen + 1);
    const ping = receiver.received.at(-1);
    expect(ping?.path).toBe('/ping');
    expect(ping?.id).toBe(result.webhookId);
    expect(ping?.verified).toEqual([true]);
    expect(ping?.headers['content-type']).toBe('application/json');
    // No change, so no changes cursor.
    expect(ping?.headers[WEBHOOKS.headers.changesCursor]).toBeUndefined();
    const body = WebhookPingSchema.parse(JSON.parse(ping?.body ?? ''));
    expect(body).toEqual({ id: result.webhookId, type: 'ping', occurredAt: expect.any(String), data: null });
    expect(msFrom(body.occurredAt)).toBeLessThan(30_000);

    await patchEndpoint(api, endpoint.id, { enabled: false });
    const whileDisabled = await testPing(api, endpoint.id);
    expect(whileDisabled).toMatchObject({ succeeded: true, responseStatus: 204, error: null });
    expect(whileDisabled.webhookId).not.toBe(result.webhookId);
    expect(receiver.received).toHaveLength(seen + 2);
    // A ping is no delivery: none is recorded.
    expect(
      WebhookDeliveryListSchema.parse((await api.get(`/webhook-endpoints/${endpoint.id}/deliveries`)).body).items,
    ).toEqual([]);
  });

  it('signs the ping with both secrets after a rotation', async () => {
    const { api } = await freshOrganization();
    const endpoint = await createEndpoint(api, { url: receiver.url('/rotated'), events: ['*'] });
    const rotated = WebhookEndpointWithSecretSchema.parse(
      (await api.post(`/webhook-endpoints/${endpoint.id}/rotate-secret`)).body,
    );
    receiver.verifyWith(rotated.secret, endpoint.secret, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    receiver.behaviour = { kind: 'accept' };
    expect(await testPing(api, endpoint.id)).toMatchObject({ succeeded: true, responseStatus: 204 });
    const ping = receiver.received.at(-1);
    expect(ping?.verified).toEqual([true, true, false]);
    expect(String(ping?.headers[WEBHOOKS.headers.signature]).split(' ')).toHaveLength(2);
  });

  it.each([
    // By its status only: never the receiver's words or its answer's size.
    [{ kind: 'status', status: 500 } as const, 500, 'answered 500 Internal Server Error'],
    [{ kind: 'status', status: 410 } as const, 410, 'answered 410 Gone'],
    [
      { kind: 'redirect', location: 'http://169.254.169.254/latest' } as const,
      302,
      'answered 302 Found (redirects are not followed)',
    ],
  ])('reports a receiver answering %o as not succeeded, and changes nothing', async (behaviour, status, error) => {
    const { api } = await freshOrganization();
    const endpoint = await createEndpoint(api, { url: receiver.url('/failing'), events: ['*'] });
    receiver.verifyWith(endpoint.secret);
    receiver.behaviour = behaviour;
    const seen = receiver.received.length;
    expect(await testPing(api, endpoint.id)).toEqual({
      webhookId: expect.any(String),
      succeeded: false,
      responseStatus: status,
      durationMs: expect.any(Number),
      error,
    });
    // Only the one request: the redirect was not followed.
    expect(receiver.received).toHaveLength(seen + 1);
    expect(receiver.received.at(-1)?.verified).toEqual([true]);
    // A failed ping, even a 410, neither disables the endpoint nor marks it failing.
    expect(await getEndpoint(api, endpoint.id)).toEqual(withoutSecret(endpoint));
    receiver.behaviour = { kind: 'accept' };
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const { api } = await freshOrganization();
    const endpoint = await createEndpoint(api, { url: receiver.url('/slow'), events: ['*'] });
    receiver.behaviour = { kind: 'hang' };
    const result = await testPing(api, endpoint.id);
    receiver.behaviour = { kind: 'accept' };
    expect(result).toEqual({
      webhookId: expect.any(String),
      succeeded: false,
      responseStatus: null,
      durationMs: expect.any(Number),
      error: `no answer within ${settings.timeoutMs} ms`,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(settings.timeoutMs - 5);
    expect(result.durationMs).toBeLessThan(settings.timeoutMs + 3_000);
  });

  it('says when nothing listens at the URL', async () => {
    const { api } = await freshOrganization();
    const closed = new WebhookReceiver();
    await closed.listen();
    const url = closed.url('/gone');
    await closed.close();
    const endpoint = await createEndpoint(api, { url, events: ['*'] });
    expect(await testPing(api, endpoint.id)).toMatchObject({
      succeeded: false,
      responseStatus: null,
      error: 'connection refused',
    });
  });

  it('wakes the worker after a commit that queued deliveries, and only then', async () => {
    const { api } = await freshOrganization();
    const kicked = async (action: () => Promise<unknown>) => {
      const before = kicks;
      await action();
      return kicks - before;
    };
    const sku = uniqueSku('KICK');
    // No endpoint yet: an item write queues nothing, and wakes nobody.
    const item = await createItem(api, { sku, title: 'Quiet' });
    expect(await kicked(() => api.patch(`/items/${item.id}`, { body: { title: 'Still quiet' } }))).toBe(0);

    const endpoint = await createEndpoint(api, { url: 'http://127.0.0.1:9/kick', events: ['item.updated'] });
    expect(await kicked(() => createItem(api, { sku: uniqueSku('KICK'), title: 'Not subscribed' }))).toBe(0);
    expect(await kicked(() => api.patch(`/items/${item.id}`, { body: { title: 'Heard' } }))).toBe(1);
    // A failed write: nothing.
    expect(await kicked(() => api.post('/items', { body: { sku, title: 'Taken' } }))).toBe(0);

    const cursor = await feedCursor(api);
    expect(await kicked(() => api.post(`/webhook-endpoints/${endpoint.id}/replay`, { body: { after: cursor } }))).toBe(
      0,
    );
    expectStatus(await api.patch(`/items/${item.id}`, { body: { title: 'Again' } }), 200);
    const replayed = await kicked(async () => {
      const response = await api.post(`/webhook-endpoints/${endpoint.id}/replay`, { body: { after: cursor } });
      expect(response.body).toMatchObject({ queued: 1 });
    });
    expect(replayed).toBe(1);

    // Enabling (a disabled endpoint, or one that is failing) makes its pending deliveries due; disabling does not.
    expect(await kicked(() => patchEndpoint(api, endpoint.id, { enabled: false }))).toBe(0);
    expect(await kicked(() => patchEndpoint(api, endpoint.id, { enabled: true }))).toBe(1);
    expect(await kicked(() => patchEndpoint(api, endpoint.id, { enabled: true }))).toBe(1);
    expect(await kicked(() => patchEndpoint(api, endpoint.id, { description: 'renamed' }))).toBe(0);
  });
});
