import type { LookupAddress } from 'node:dns';
import { createServer, type Server } from 'node:net';
import {
  type Change,
  type ChangeList,
  WEBHOOKS,
  type WebhookDeliveryList,
  type WebhookEndpoint,
  type WebhookEndpointWithSecret,
  type WebhookReplay,
  type WebhookTestResult,
} from '@coinventory/contract';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { addressPolicy, startWebhookWorker, type WebhookWorker } from '../../../src/modules/webhooks/index.js';
import { feedCursor, readToEnd } from '../../support/changes.js';
import { expectStatus } from '../../support/http.js';
import { type Api, createItem, freshApi } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { uniqueSku } from '../../support/routes.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { eventually, WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * Webhook deliveries end to end: the API on a real database, the worker, and a receiver on loopback that verifies
 * every delivery with the `standardwebhooks` package. Loopback is allowed by WEBHOOK_ALLOWED_HOSTS (127.0.0.1), as
 * an operator allows a development receiver; `rebind.example` resolves (through the test's resolver: the DNS
 * boundary) to other loopback and link-local addresses, so the address guard is tested on a name that is not allowed.
 */

const REFUSED_TAIL = 'webhooks are not delivered there (an operator can allow it in WEBHOOK_ALLOWED_HOSTS)';
const policy = addressPolicy('127.0.0.1');
/** The DNS answers this suite's names get; everything else is unknown. */
const dns = new Map<string, LookupAddress[]>();
const resolver = async (hostname: string): Promise<LookupAddress[]> => {
  const addresses = dns.get(hostname);
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses;
};

const logs: Array<{ level: number; msg: string; [key: string]: unknown }> = [];
const logger = pino({ level: 'info' }, { write: (line: string) => logs.push(JSON.parse(line)) });

let server: TestServer;
let organization: TestOrganization;
let worker: WebhookWorker | undefined;
let timeoutMs = 2_000;
const receivers: WebhookReceiver[] = [];

function startWorker(options: { timeoutMs?: number; pollMs?: number; random?: () => number } = {}) {
  worker = startWebhookWorker({
    sql: server.database.sql,
    logger,
    policy,
    timeoutMs: options.timeoutMs ?? timeoutMs,
    pollMs: options.pollMs ?? 50,
    concurrency: 8,
    baseDelayMs: 20,
    maxDelayMs: 200,
    resolver,
    ...(options.random && { random: options.random }),
  });
  return worker;
}

async function receiver(): Promise<WebhookReceiver> {
  const started = new WebhookReceiver();
  await started.listen();
  receivers.push(started);
  return started;
}

beforeAll(async () => {
  server = await startTestServer({
    policy: { maxRequests: 100_000, windowSeconds: 60 },
    webhooks: { policy, timeoutMs: 2_000, queued: () => worker?.kick(), resolver },
  });
  organization = await createTestOrganization(server.database.sql);
});
afterAll(() => server.close());
beforeEach(() => {
  timeoutMs = 2_000;
  logs.length = 0;
});
afterEach(async () => {
  // Receivers first: closing one that hangs ends the attempt waiting on it, so the worker stops at once.
  await Promise.all(receivers.splice(0).map((r) => r.close()));
  await worker?.stop();
  worker = undefined;
  // Each test starts with no endpoint: nothing it left behind is delivered in the next one.
  await server.database.sql`DELETE FROM webhook_endpoints WHERE organization_id = ${organization.organizationId}`;
});

async function createEndpoint(
  api: Api,
  body: { url: string; events?: string[]; description?: string },
): Promise<WebhookEndpointWithSecret> {
  const response = await api.post<WebhookEndpointWithSecret>('/webhook-endpoints', {
    body: { events: ['*'], ...body },
  });
  expectStatus(response, 200);
  return response.body;
}

async function endpointOf(api: Api, id: string): Promise<WebhookEndpoint> {
  const response = await api.get<WebhookEndpoint>(`/webhook-endpoints/${id}`);
  expectStatus(response, 200);
  return response.body;
}

async function deliveriesOf(api: Api, id: string, query = ''): Promise<WebhookDeliveryList> {
  const response = await api.get<WebhookDeliveryList>(`/webhook-endpoints/${id}/deliveries?limit=100${query}`);
  expectStatus(response, 200);
  return response.body;
}

/** The changes made after `cursor`, as the feed shows them: what the receiver must get, each exactly so. */
async function changesAfter(api: Api, cursor: string): Promise<Change[]> {
  return (await readToEnd(api, cursor)).changes;
}

/** Runs `count` item writes (creates, then updates and deletes of some), `parallel` at a time. */
async function makeChanges(api: Api, count: number, parallel = 8): Promise<void> {
  let made = 0;
  const lane = async () => {
    while (made < count) {
      made += 1;
      const item = await createItem(api, { sku: uniqueSku('HOOK'), title: 'Webhook coin', quantity: 1 });
      if (made < count) {
        made += 1;
        expectStatus(await api.patch(`/items/${item.id}`, { body: { quantity: 2 } }), 200);
      }
      if (made < count && made % 3 === 0) {
        made += 1;
        expectStatus(await api.delete(`/items/${item.id}`), 200);
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
}

describe('webhook deliveries', () => {
  // On PostgreSQL only: the outbox's SQL is the same on the embedded database, where 1,000 writes take longer.
  it.runIf(Boolean(inject('postgresUrl')))(
    'delivers 1,000 changes, each verified, each exactly the Change the feed shows, with its feed cursor',
    async () => {
      const api = await freshApi(server, organization);
      const hook = await receiver();
      const endpoint = await createEndpoint(api, { url: hook.url() });
      hook.verifyWith(endpoint.secret);
      startWorker();
      const start = await feedCursor(api);

      await makeChanges(api, 1_000);
      const changes = await changesAfter(api, start);
      expect(changes).toHaveLength(1_000);
      await eventually('every change to be delivered', () => hook.verifiedIds().size >= 1_000, 60_000);

      // None missing, none unverified; duplicates would be allowed (at least once), none is expected here.
      expect(hook.received.every((r) => r.verified[0])).toBe(true);
      expect([...hook.verifiedIds()].sort()).toEqual(changes.map((change) => change.id).sort());
      const byId = new Map(hook.received.map((r) => [r.id, r]));
      for (const change of changes) {
        const delivery = byId.get(change.id);
        expect(delivery?.body).toBe(JSON.stringify(change));
        expect(delivery?.headers['content-type']).toBe('application/json');
      }
      // Each carries the cursor just after its change: the feed from there starts with the next one.
      const [first, second] = changes;
      const cursor = String(byId.get(first?.id ?? '')?.headers[WEBHOOKS.headers.changesCursor]);
      const next = await api.get<ChangeList>(`/changes?after=${encodeURIComponent(cursor)}&limit=1`);
      expect(next.body.items[0]?.id).toBe(second?.id);
      // Sent in commit order while the receiver accepts them.
      expect(hook.received.map((r) => r.id)).toEqual(changes.map((change) => change.id));

      const list = await deliveriesOf(api, endpoint.id, '&status=succeeded');
      expect(list.items).toHaveLength(100);
      expect(list.hasMore).toBe(true);
      const [newest] = list.items;
      expect(newest).toMatchObject({
        endpointId: endpoint.id,
        changeId: changes.at(-1)?.id,
        changeType: changes.at(-1)?.type,
        status: 'succeeded',
        attempts: 1,
        lastResponseStatus: 204,
        lastError: null,
        nextAttemptAt: null,
      });
      expect(newest?.deliveredAt).not.toBeNull();
      expect((await deliveriesOf(api, endpoint.id, '&status=pending')).items).toEqual([]);
      // A thousand API writes: generous on a loaded machine (about 16 s alone on two cores).
    },
    180_000,
  );

  it('retries while the receiver is down, and everything arrives once it is back; the endpoint recovers', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    const endpoint = await createEndpoint(api, { url: hook.url() });
    hook.verifyWith(endpoint.secret);
    const port = hook.port;
    await hook.close();
    startWorker();
    const start = await feedCursor(api);
    await makeChanges(api, 20, 2);

    await eventually(
      'attempts against the closed port',
      async () => {
        const failing = await endpointOf(api, endpoint.id);
        const pending = await deliveriesOf(api, endpoint.id, '&status=pending');
        return failing.failingSince !== null && pending.items.some((d) => d.attempts >= 2);
      },
      60_000,
    );
    const pending = await deliveriesOf(api, endpoint.id, '&status=pending');
    expect(pending.items).toHaveLength(20);
    const tried = pending.items.find((d) => d.attempts > 0);
    expect(tried?.lastError).toBe('connection refused');
    expect(tried?.lastResponseStatus).toBeNull();
    expect(tried?.nextAttemptAt).not.toBeNull();
    expect(logs.some((log) => log.msg === 'webhook delivery failed; will retry')).toBe(true);

    await hook.listen(port);
    await eventually('all 20 after the receiver is back', () => hook.verifiedIds().size === 20, 60_000);
    const changes = await changesAfter(api, start);
    expect([...hook.verifiedIds()].sort()).toEqual(changes.map((change) => change.id).sort());
    await eventually('the endpoint to recover', async () => (await endpointOf(api, endpoint.id)).failingSince === null);
    // The receiver counts a delivery when it arrives; the worker records it once the answer is back, a moment later.
    await eventually('every delivery recorded as succeeded', async () =>
      (await deliveriesOf(api, endpoint.id)).items.every((d) => d.status === 'succeeded'),
    );
    const done = await deliveriesOf(api, endpoint.id);
    expect(done.items).toHaveLength(20);
    expect(done.items.some((d) => d.attempts >= 2)).toBe(true);
  }, 120_000);

  it('after an outage, the first success makes every pending delivery due at once', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    const endpoint = await createEndpoint(api, { url: hook.url() });
    hook.verifyWith(endpoint.secret);
    await makeChanges(api, 6, 1);
    // As an outage leaves them: the endpoint failing for a while, its deliveries backed off far into the future,
    // except one that is due now.
    await server.database.sql`
      UPDATE webhook_endpoints SET failing_since = now() - interval '1 hour', consecutive_failures = 9
      WHERE organization_id = ${organization.organizationId} AND id = ${endpoint.id}
    `;
    await server.database.sql`
      UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour', attempts = 9
      WHERE organization_id = ${organization.organizationId} AND endpoint_id = ${endpoint.id}
        AND change_position <> (SELECT min(change_position) FROM webhook_deliveries
                                WHERE organization_id = ${organization.organizationId} AND endpoint_id = ${endpoint.id})
    `;
    startWorker();
    await eventually('all six, not an hour later', () => hook.verifiedIds().size === 6, 5_000);
    expect((await endpointOf(api, endpoint.id)).failingSince).toBeNull();
  });

  it('keeps change order across an outage: with 30 changes queued, the oldest goes first when it ends', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    hook.behaviour = { kind: 'status', status: 503 };
    const endpoint = await createEndpoint(api, { url: hook.url(), events: ['item.created', 'item.updated'] });
    hook.verifyWith(endpoint.secret);
    const start = await feedCursor(api);
    for (let i = 0; i < 15; i += 1) {
      const item = await createItem(api, { sku: uniqueSku('OUTAGE'), title: 'Outage coin', quantity: 1 });
      expectStatus(await api.patch(`/items/${item.id}`, { body: { quantity: 2 } }), 200);
    }
    const changes = await changesAfter(api, start);
    expect(changes).toHaveLength(30);
    // One jitter the backoff may draw: each failed delivery waits its whole backoff and the endpoint half of its
    // pause (the two draws alternate), so a pause can end while the delivery that failed last is not yet due.
    let draws = 0;
    startWorker({ pollMs: 10, random: () => (draws++ % 2 === 0 ? 1 : 0) });
    // Failing for a while: many attempts refused, each pausing the endpoint for longer.
    await eventually('an outage of many refused attempts', () => hook.received.length >= 12, 30_000);
    const refused = hook.received.length;
    hook.behaviour = { kind: 'accept' };
    await eventually('all 30 accepted', () => hook.received.length - refused >= 30, 30_000);
    // What was accepted, in the order it arrived: every change once, in change order.
    expect(hook.received.slice(refused).map((r) => r.id)).toEqual(changes.map((change) => change.id));
    expect(hook.received.slice(refused).every((r) => r.verified[0])).toBe(true);
    expect((await endpointOf(api, endpoint.id)).failingSince).toBeNull();
  }, 90_000);

  it('after an outage, sends from the oldest pending delivery in change order, not from the one that came due', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    const endpoint = await createEndpoint(api, { url: hook.url(), events: ['item.created'] });
    hook.verifyWith(endpoint.secret);
    const start = await feedCursor(api);
    for (let i = 0; i < 25; i += 1) await createItem(api, { sku: uniqueSku('ORDER'), title: 'Order coin' });
    const changes = await changesAfter(api, start);
    // As an outage leaves them: the endpoint failing, its five oldest deliveries tried and backed off, the sixth
    // (and every later one, never tried) due now. The receiver is back.
    await server.database.sql`
      UPDATE webhook_endpoints SET failing_since = now() - interval '1 hour', consecutive_failures = 9
      WHERE organization_id = ${organization.organizationId} AND id = ${endpoint.id}
    `;
    await server.database.sql`
      UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour', attempts = 3
      WHERE organization_id = ${organization.organizationId} AND endpoint_id = ${endpoint.id}
        AND change_position IN (SELECT change_position FROM webhook_deliveries
                                WHERE organization_id = ${organization.organizationId} AND endpoint_id = ${endpoint.id}
                                ORDER BY change_position LIMIT 5)
    `;
    startWorker();
    await eventually('all 25', () => hook.verifiedIds().size === 25, 10_000);
    expect(hook.received.map((r) => r.id)).toEqual(changes.map((change) => change.id));
  });

  it('keeps its own backoff for a delivery refused once while the others go on', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    const endpoint = await createEndpoint(api, { url: hook.url() });
    hook.verifyWith(endpoint.secret);
    await makeChanges(api, 3, 1);
    // One failure, then successes: not an outage, so the refused delivery is not hurried.
    await server.database.sql`
      UPDATE webhook_endpoints SET failing_since = now(), consecutive_failures = 1
      WHERE organization_id = ${organization.organizationId} AND id = ${endpoint.id}
    `;
    await server.database.sql`
      UPDATE webhook_deliveries SET next_attempt_at = now() + interval '1 hour', attempts = 1
      WHERE organization_id = ${organization.organizationId} AND endpoint_id = ${endpoint.id}
        AND change_position = (SELECT min(change_position) FROM webhook_deliveries
                               WHERE organization_id = ${organization.organizationId} AND endpoint_id = ${endpoint.id})
    `;
    startWorker();
    await eventually('the other two', () => hook.verifiedIds().size === 2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(hook.verifiedIds().size).toBe(2);
    expect((await deliveriesOf(api, endpoint.id, '&status=pending')).items).toHaveLength(1);
  });

  it('retries a receiver that answers 5xx, and gives a delivery up after its retry period, saying so', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    hook.behaviour = { kind: 'status', status: 503 };
    const endpoint = await createEndpoint(api, { url: hook.url() });
    hook.verifyWith(endpoint.secret);
    startWorker();
    await createItem(api, { sku: uniqueSku('GIVEUP'), title: 'Given up' });
    await eventually('a 503 recorded', async () => {
      const [delivery] = (await deliveriesOf(api, endpoint.id)).items;
      return delivery?.lastResponseStatus === 503;
    });
    const [delivery] = (await deliveriesOf(api, endpoint.id)).items;
    expect(delivery?.status).toBe('pending');
    expect(delivery?.lastError).toBe('answered 503 Service Unavailable');
    // The same webhook-id on every attempt.
    expect(new Set(hook.received.map((r) => r.id))).toEqual(new Set([delivery?.changeId]));

    // Retried since more than the retry period: the next failure gives it up.
    await server.database.sql`
      UPDATE webhook_deliveries SET first_attempt_at = now() - make_interval(hours => ${WEBHOOKS.retryHours + 1})
      WHERE organization_id = ${organization.organizationId} AND endpoint_id = ${endpoint.id}
    `;
    await eventually('the delivery to be given up', async () => {
      const [latest] = (await deliveriesOf(api, endpoint.id)).items;
      return latest?.status === 'failed';
    });
    const [failed] = (await deliveriesOf(api, endpoint.id, '&status=failed')).items;
    expect(failed?.nextAttemptAt).toBeNull();
    expect(logs.some((log) => log.msg === 'webhook delivery given up' && log.changeId === failed?.changeId)).toBe(true);
  });

  it('disables an endpoint whose receiver answers 410 Gone at once, and queues nothing more for it', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    hook.behaviour = { kind: 'status', status: 410 };
    const endpoint = await createEndpoint(api, { url: hook.url() });
    startWorker();
    await createItem(api, { sku: uniqueSku('GONE'), title: 'Gone' });
    await eventually('the endpoint to be disabled', async () => !(await endpointOf(api, endpoint.id)).enabled);
    const disabled = await endpointOf(api, endpoint.id);
    expect(disabled.disabledReason).toBe('Disabled because the receiver answered 410 Gone.');
    expect(disabled.disabledAt).not.toBeNull();
    expect(hook.received).toHaveLength(1);
    expect(logs.some((log) => log.msg === 'webhook endpoint disabled' && log.level === 50)).toBe(true);

    await createItem(api, { sku: uniqueSku('GONE'), title: 'After' });
    expect((await deliveriesOf(api, endpoint.id)).items).toHaveLength(1);

    // Enabled again, its pending delivery goes at once.
    hook.behaviour = { kind: 'accept' };
    expectStatus(await api.patch(`/webhook-endpoints/${endpoint.id}`, { body: { enabled: true } }), 200);
    await eventually('the pending delivery after enabling', () => hook.received.length === 2);
    await eventually('it to be recorded', async () =>
      (await deliveriesOf(api, endpoint.id)).items.every((d) => d.status === 'succeeded'),
    );
  });

  it(`disables an endpoint failing for ${WEBHOOKS.disableAfterFailingHours} hours without one success`, async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    hook.behaviour = { kind: 'status', status: 500 };
    const endpoint = await createEndpoint(api, { url: hook.url() });
    await server.database.sql`
      UPDATE webhook_endpoints
      SET failing_since = now() - make_interval(hours => ${WEBHOOKS.disableAfterFailingHours + 1}),
          consecutive_failures = 40
      WHERE organization_id = ${organization.organizationId} AND id = ${endpoint.id}
    `;
    startWorker();
    await createItem(api, { sku: uniqueSku('FAILING'), title: 'Failing' });
    await eventually('the endpoint to be disabled', async () => !(await endpointOf(api, endpoint.id)).enabled);
    expect((await endpointOf(api, endpoint.id)).disabledReason).toBe(
      `Disabled because its deliveries failed for ${WEBHOOKS.disableAfterFailingHours} hours without one success.`,
    );
  });

  it('signs with both secrets for the day after a rotation, then with the new one only', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    const endpoint = await createEndpoint(api, { url: hook.url() });
    const rotated = await api.post<WebhookEndpointWithSecret>(`/webhook-endpoints/${endpoint.id}/rotate-secret`);
    expectStatus(rotated, 200);
    expect(rotated.body.secret).not.toBe(endpoint.secret);
    hook.verifyWith(endpoint.secret, rotated.body.secret);
    startWorker();
    await createItem(api, { sku: uniqueSku('ROTATE'), title: 'Rotated' });
    await eventually('a delivery', () => hook.received.length === 1);
    const [both] = hook.received;
    expect(both?.verified).toEqual([true, true]);
    expect(String(both?.headers[WEBHOOKS.headers.signature]).split(' ')).toHaveLength(2);

    await server.database.sql`
      UPDATE webhook_endpoints SET previous_secret_expires_at = now() - interval '1 second'
      WHERE organization_id = ${organization.organizationId} AND id = ${endpoint.id}
    `;
    expect((await endpointOf(api, endpoint.id)).previousSecretExpiresAt).toBeNull();
    await createItem(api, { sku: uniqueSku('ROTATE'), title: 'After the day' });
    await eventually('a second delivery', () => hook.received.length === 2);
    expect(hook.received[1]?.verified).toEqual([false, true]);
    expect(String(hook.received[1]?.headers[WEBHOOKS.headers.signature]).split(' ')).toHaveLength(1);
  });

  it('replays every subscribed change after a cursor, with the same webhook ids', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    const endpoint = await createEndpoint(api, { url: hook.url(), events: ['item.created'] });
    hook.verifyWith(endpoint.secret);
    startWorker();
    const start = await feedCursor(api);
    const item = await createItem(api, { sku: uniqueSku('REPLAY'), title: 'Replayed' });
    expectStatus(await api.patch(`/items/${item.id}`, { body: { title: 'Not subscribed' } }), 200);
    await createItem(api, { sku: uniqueSku('REPLAY'), title: 'Replayed too' });
    await eventually('two creations', () => hook.received.length === 2);
    const firstIds = hook.received.map((r) => r.id);

    const replay = await api.post<WebhookReplay>(`/webhook-endpoints/${endpoint.id}/replay`, {
      body: { after: start },
    });
    expectStatus(replay, 200);
    expect(replay.body.queued).toBe(2);
    expect(replay.body.nextCursor).toBe(await feedCursor(api));
    await eventually('the replayed two', () => hook.received.length === 4);
    expect(hook.received.slice(2).map((r) => r.id)).toEqual(firstIds);
    expect(hook.received.every((r) => r.verified[0])).toBe(true);
    await eventually('both recorded again', async () =>
      (await deliveriesOf(api, endpoint.id)).items.every((d) => d.status === 'succeeded' && d.attempts === 1),
    );
  });

  it('sends a signed ping on test, and answers with the outcome', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    const endpoint = await createEndpoint(api, { url: hook.url() });
    hook.verifyWith(endpoint.secret);
    const response = await api.post<WebhookTestResult>(`/webhook-endpoints/${endpoint.id}/test`);
    expectStatus(response, 200);
    expect(response.body).toMatchObject({ succeeded: true, responseStatus: 204, error: null });
    const [ping] = hook.received;
    expect(ping?.verified).toEqual([true]);
    expect(ping?.id).toBe(response.body.webhookId);
    expect(JSON.parse(ping?.body ?? '')).toEqual({
      id: response.body.webhookId,
      type: 'ping',
      occurredAt: expect.any(String),
      data: null,
    });

    hook.behaviour = { kind: 'status', status: 401 };
    const refused = await api.post<WebhookTestResult>(`/webhook-endpoints/${endpoint.id}/test`);
    expect(refused.body).toMatchObject({
      succeeded: false,
      responseStatus: 401,
      error: 'answered 401 Unauthorized',
    });
  });

  it("never shows a refused answer's words or size, only its status: not in the ping, not in lastError", async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    const secret = 'SECRET-7f3a token=hunter2 from an internal service';
    hook.behaviour = { kind: 'status', status: 500, body: `<h1>${secret}</h1>`, reason: `Oops ${secret}` };
    const endpoint = await createEndpoint(api, { url: hook.url(), events: ['item.created'] });
    hook.verifyWith(endpoint.secret);

    const ping = await api.post<WebhookTestResult>(`/webhook-endpoints/${endpoint.id}/test`);
    expectStatus(ping, 200);
    expect(ping.body).toMatchObject({
      succeeded: false,
      responseStatus: 500,
      error: 'answered 500 Internal Server Error',
    });

    startWorker();
    await createItem(api, { sku: uniqueSku('ECHO'), title: 'Echo coin' });
    await eventually('a refused delivery recorded', async () => {
      const [delivery] = (await deliveriesOf(api, endpoint.id)).items;
      return delivery?.lastResponseStatus === 500;
    });
    const deliveries = await api.get<WebhookDeliveryList>(`/webhook-endpoints/${endpoint.id}/deliveries`);
    expect(deliveries.body.items[0]?.lastError).toBe('answered 500 Internal Server Error');

    // Neither the Location of a redirect, nor a body past the cap.
    hook.behaviour = { kind: 'redirect', location: `http://10.0.0.1/${encodeURIComponent(secret)}` };
    const redirect = await api.post<WebhookTestResult>(`/webhook-endpoints/${endpoint.id}/test`);
    expect(redirect.body.error).toBe('answered 302 Found (redirects are not followed)');
    hook.behaviour = { kind: 'status', status: 599, body: secret.repeat(5_000) };
    const big = await api.post<WebhookTestResult>(`/webhook-endpoints/${endpoint.id}/test`);
    expect(big.body.error).toBe('answered 599');
    // Nor the body's size: an empty answer and one past the cap read the same.
    hook.behaviour = { kind: 'status', status: 599, body: '' };
    const empty = await api.post<WebhookTestResult>(`/webhook-endpoints/${endpoint.id}/test`);
    expect(empty.body.error).toBe(big.body.error);

    const everything = [ping, deliveries, redirect, big, await api.get(`/webhook-endpoints/${endpoint.id}`)];
    for (const answer of everything) {
      expect(JSON.stringify(answer.body)).not.toContain('SECRET-7f3a');
      expect(JSON.stringify([...answer.headers])).not.toContain('SECRET-7f3a');
    }
    expect(logs.some((log) => JSON.stringify(log).includes('SECRET-7f3a'))).toBe(false);
  });

  it('serves each endpoint apart: one whose receiver hangs does not hold up another', async () => {
    const api = await freshApi(server, organization);
    const stuck = await receiver();
    stuck.behaviour = { kind: 'hang' };
    const fine = await receiver();
    await createEndpoint(api, { url: stuck.url() });
    const healthy = await createEndpoint(api, { url: fine.url() });
    fine.verifyWith(healthy.secret);
    startWorker({ timeoutMs: 10_000 });
    const started = Date.now();
    await makeChanges(api, 10, 1);
    await eventually('the healthy endpoint to get all 10', () => fine.verifiedIds().size === 10, 10_000);
    // All of it while the stuck receiver's first attempt was still waiting for its answer.
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(stuck.received).toHaveLength(1);
  });
});

describe('what a delivery refuses to do', () => {
  it('never connects to a name that resolves to a forbidden address (checked when connecting)', async () => {
    const api = await freshApi(server, organization);
    const tcp: Server = createServer((socket) => socket.destroy());
    let connections = 0;
    tcp.on('connection', () => {
      connections += 1;
    });
    // Loopback, but not the address the operator allowed (127.0.0.1).
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.2', resolve));
    const { port } = tcp.address() as { port: number };
    try {
      // The name passes when it is saved (it is a public-looking name), and leads to loopback when it is used.
      const endpoint = await createEndpoint(api, { url: `https://rebind.example:${port}/hooks` });
      dns.set('rebind.example', [
        { address: '93.184.215.14', family: 4 },
        { address: '127.0.0.2', family: 4 },
      ]);
      startWorker();
      await createItem(api, { sku: uniqueSku('REBIND'), title: 'Rebound' });
      await eventually('a refused attempt', async () => {
        const [delivery] = (await deliveriesOf(api, endpoint.id)).items;
        return delivery?.attempts === 1;
      });
      const [delivery] = (await deliveriesOf(api, endpoint.id)).items;
      expect(delivery?.lastError).toBe(
        'rebind.example resolves to 127.0.0.2, which is loopback; webhooks are not delivered there (an operator can allow it in WEBHOOK_ALLOWED_HOSTS)',
      );
      expect(delivery?.status).toBe('pending');
      expect(connections).toBe(0);

      // The test ping goes through the same guard.
      dns.set('rebind.example', [{ address: '169.254.169.254', family: 4 }]);
      const ping = await api.post<WebhookTestResult>(`/webhook-endpoints/${endpoint.id}/test`);
      expect(ping.body.succeeded).toBe(false);
      expect(ping.body.error).toMatch(/^rebind\.example resolves to 169\.254\.169\.254, which is link-local/);
      expect(connections).toBe(0);
    } finally {
      dns.delete('rebind.example');
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    }
  });

  it('refuses a name resolving into the special ranges added for issue 35, on a ping and on a delivery', async () => {
    const api = await freshApi(server, organization);
    const endpoint = await createEndpoint(api, { url: 'https://special.example/hooks', events: ['item.created'] });
    const azure = "a cloud's metadata and wire server (Azure)";
    const cases: ReadonlyArray<readonly [string, 4 | 6, string]> = [
      ['168.63.129.16', 4, azure],
      ['192.88.99.1', 4, 'the deprecated 6to4 relay anycast'],
      ['fec0::1', 6, 'site-local (deprecated)'],
      ['2001::1', 6, 'Teredo tunnelling'],
      ['2001:2::1', 6, 'benchmarking'],
      ['2001:20::1', 6, 'ORCHIDv2'],
      ['3fff::1', 6, 'documentation'],
      ['5f00::1', 6, 'an SRv6 segment identifier (SID)'],
      // IPv4 carried in IPv6 is judged by the IPv4 address.
      ['::ffff:a83f:8110', 6, azure],
      ['64:ff9b::a83f:8110', 6, azure],
      ['2002:a83f:8110::1', 6, azure],
    ];
    try {
      for (const [address, family, what] of cases) {
        // A public address beside it does not help: a name with any forbidden address is refused whole.
        dns.set('special.example', [
          { address: '93.184.215.14', family: 4 },
          { address, family },
        ]);
        const ping = await api.post<WebhookTestResult>(`/webhook-endpoints/${endpoint.id}/test`);
        expect(ping.body.error, address).toBe(
          `special.example resolves to ${address}, which is ${what}; ${REFUSED_TAIL}`,
        );
      }
      dns.set('special.example', [{ address: '168.63.129.16', family: 4 }]);
      startWorker();
      await createItem(api, { sku: uniqueSku('AZURE'), title: 'Wire server' });
      await eventually(
        'a refused attempt',
        async () => (await deliveriesOf(api, endpoint.id)).items[0]?.attempts === 1,
      );
      const [delivery] = (await deliveriesOf(api, endpoint.id)).items;
      expect(delivery?.lastError).toBe(`special.example resolves to 168.63.129.16, which is ${azure}; ${REFUSED_TAIL}`);
      expect(delivery?.status).toBe('pending');
    } finally {
      dns.delete('special.example');
    }
  });

  it('connects to the checked address when every address of the name may be used', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    const endpoint = await createEndpoint(api, { url: `https://lan.example:${hook.port}/hooks` });
    // Resolves into the operator's allowed range: the connection is made (and the TLS handshake with this plain
    // HTTP receiver fails, which is all this needs).
    dns.set('lan.example', [{ address: '127.0.0.1', family: 4 }]);
    try {
      const ping = await api.post<WebhookTestResult>(`/webhook-endpoints/${endpoint.id}/test`);
      expect(ping.body.succeeded).toBe(false);
      expect(ping.body.error).not.toMatch(/resolves to|not found/);
      expect(hook.connections).toBe(1);
    } finally {
      dns.delete('lan.example');
    }
  });

  it('does not follow a redirect', async () => {
    const api = await freshApi(server, organization);
    const hook = await receiver();
    hook.behaviour = { kind: 'redirect', location: hook.url('/elsewhere') };
    const endpoint = await createEndpoint(api, { url: hook.url() });
    const test = await api.post<WebhookTestResult>(`/webhook-endpoints/${endpoint.id}/test`);
    expect(test.body).toMatchObject({
      succeeded: false,
      responseStatus: 302,
      error: 'answered 302 Found (redirects are not followed)',
    });
    expect(hook.received.map((r) => r.path)).toEqual(['/hooks']);
  });

  it('reads no more than the cap of an answer that never ends, and gives up on one that never comes', async () => {
    const api = await freshApi(server, organization);
    const endless = await receiver();
    endless.behaviour = { kind: 'endless' };
    const endpoint = await createEndpoint(api, { url: endless.url() });
    const test = await api.post<WebhookTestResult>(`/webhook-endpoints/${endpoint.id}/test`);
    expect(test.body).toMatchObject({ succeeded: true, responseStatus: 200, error: null });

    const silent = await receiver();
    silent.behaviour = { kind: 'hang' };
    const quiet = await createEndpoint(api, { url: silent.url() });
    const timedOut = await api.post<WebhookTestResult>(`/webhook-endpoints/${quiet.id}/test`);
    expect(timedOut.body).toMatchObject({ succeeded: false, responseStatus: null, error: 'no answer within 2000 ms' });
    expect(timedOut.body.durationMs).toBeGreaterThanOrEqual(2_000);
  });
});
