import { type Me, TEST_MODE, type WebhookEndpointWithSecret } from '@coinventory/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey, revokeKey } from '../../../src/modules/access/index.js';
import { addressPolicy, startWebhookWorker, type WebhookWorker } from '../../../src/modules/webhooks/index.js';
import { call, client, expectStatus } from '../../support/http.js';
import { createItem } from '../../support/items.js';
import { createTestOrganization, createTestSandbox, type TestOrganization } from '../../support/organization.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { testLogger } from '../../support/sync.js';
import { eventually, WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * Test mode through real HTTP: what marks an answer to a test key, what GET /me says of the sandbox, keys counted
 * apart, and webhooks kept to their mode (delivered by the real worker to a receiver on loopback, which this
 * server's operator allows) under the same address guard as live ones (a second server allows nothing).
 */

const policy = addressPolicy('127.0.0.1');
let server: TestServer;
let guarded: TestServer;
let worker: WebhookWorker | undefined;
let live: TestOrganization;
let sandbox: TestOrganization;

beforeAll(async () => {
  server = await startTestServer({
    policy: { maxRequests: 100_000, windowSeconds: 60 },
    webhooks: { policy, timeoutMs: 2_000, queued: () => worker?.kick() },
  });
  guarded = await startTestServer({ policy: { maxRequests: 3, windowSeconds: 60 } });
  live = await createTestOrganization(server.database.sql);
  sandbox = await createTestSandbox(server.database.sql, live);
});
afterAll(async () => {
  await worker?.stop();
  await Promise.all([server.close(), guarded.close()]);
});

const mode = (response: { headers: Headers }) => response.headers.get(TEST_MODE.header);

describe('Coinventory-Mode', () => {
  // The table is made when the file is collected, before beforeAll: each row takes its key when it runs.
  const answers = [
    ['GET /me (200)', 'GET', '/me'],
    ['an unknown id (404)', 'GET', '/items/00000000-0000-4000-8000-000000000000'],
    ['a bad query (400)', 'GET', '/items?limit=0'],
    ['a method the path does not take (405)', 'PUT', '/items'],
    ['a path with no route (404)', 'GET', '/no-such-route'],
  ] as const;

  it.each(answers)('is `test` on every answer to a test key: %s', async (_what, method, path) => {
    const response = await call(server.baseUrl, method, path, { key: sandbox.key });
    expect(response.status).not.toBe(401);
    expect(mode(response)).toBe('test');
  });

  it('is on answers to test keys the server refuses too: unknown, mistyped and revoked (401)', async () => {
    const revoked = await issueApiKey(server.database.sql, {
      organizationId: live.organizationId,
      createdBy: live.ownerId,
      name: 'to revoke',
      scopes: ['read'],
      mode: 'test',
    });
    await revokeKey(server.database.sql, { org: live.slug, key: revoked.id });
    for (const key of [revoked.key, `${TEST_MODE.keyPrefixes.test}${'x'.repeat(38)}`, TEST_MODE.keyPrefixes.test]) {
      const response = await call(server.baseUrl, 'GET', '/me', { key });
      expect(response.status, key).toBe(401);
      expect(mode(response), key).toBe('test');
    }
  });

  it('is absent from every answer to a live key', async () => {
    for (const [what, method, path] of answers) {
      const response = await call(server.baseUrl, method, path, { key: live.key });
      expect(response.status, what).not.toBe(401);
      expect(mode(response), what).toBeNull();
    }
  });

  it('can be read by a browser script (CORS exposes it)', async () => {
    const { CORS } = await import('@coinventory/contract');
    expect(CORS.exposedHeaders).toContain(TEST_MODE.header);
  });
});

describe('GET /me with a test key', () => {
  it('describes the sandbox and the test key; a live key of the same workspace describes the workspace', async () => {
    const test = await client(server.baseUrl, sandbox.key).get<Me>('/me');
    const own = await client(server.baseUrl, live.key).get<Me>('/me');
    expectStatus(test, 200);
    expect(test.body.organization).toEqual({ id: sandbox.organizationId, name: live.name, slug: live.slug });
    expect(test.body.apiKey.id).toBe(sandbox.keyId);
    expect(own.body.organization.id).toBe(live.organizationId);
    expect(test.body.organization.id).not.toBe(live.organizationId);
    expect(test.body.rateLimit).toEqual(own.body.rateLimit);
  });

  it('is refused like a live key once the workspace loses API access: the workspace decides', async () => {
    const workspace = await createTestOrganization(guarded.database.sql);
    const box = await createTestSandbox(guarded.database.sql, workspace);
    await guarded.database.sql`UPDATE organizations SET plan = 'starter' WHERE id = ${workspace.organizationId}`;
    const response = await call(guarded.baseUrl, 'GET', '/me', { key: box.key });
    expect(response.status).toBe(403);
    expect(mode(response)).toBe('test');
  });
});

describe('rate limits and scopes', () => {
  it('are per key: a live key out of requests leaves its workspace’s test key untouched', async () => {
    const workspace = await createTestOrganization(guarded.database.sql);
    const box = await createTestSandbox(guarded.database.sql, workspace);
    for (let n = 0; n < 3; n++) expectStatus(await call(guarded.baseUrl, 'GET', '/me', { key: workspace.key }), 200);
    expect((await call(guarded.baseUrl, 'GET', '/me', { key: workspace.key })).status).toBe(429);
    expectStatus(await call(guarded.baseUrl, 'GET', '/me', { key: box.key }), 200);
  });

  it('a read-only test key cannot write', async () => {
    const response = await call(server.baseUrl, 'POST', '/items', {
      key: sandbox.readKey,
      body: { sku: 'RO-1', title: 'Read-only' },
    });
    expect(response.status).toBe(403);
  });
});

describe('webhooks in test mode', () => {
  const receivers: WebhookReceiver[] = [];
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  const receiver = async () => {
    const started = new WebhookReceiver();
    await started.listen();
    receivers.push(started);
    return started;
  };
  const endpoint = async (key: string, url: string) => {
    const response = await client(server.baseUrl, key).post<WebhookEndpointWithSecret>('/webhook-endpoints', {
      body: { url, events: ['*'] },
    });
    expectStatus(response, 200);
    return response.body;
  };

  it('deliver a test key’s changes only to test endpoints, and a live key’s only to live ones', async () => {
    const [liveHook, testHook] = [await receiver(), await receiver()];
    liveHook.verifyWith((await endpoint(live.key, liveHook.url())).secret);
    testHook.verifyWith((await endpoint(sandbox.key, testHook.url())).secret);
    worker = startWebhookWorker({
      sql: server.database.sql,
      logger: testLogger(),
      policy,
      timeoutMs: 2_000,
      pollMs: 50,
      concurrency: 4,
      baseDelayMs: 20,
      maxDelayMs: 200,
    });

    const testItem = await createItem(client(server.baseUrl, sandbox.key), { sku: 'HOOK-TEST', title: 'Sandbox coin' });
    const liveItem = await createItem(client(server.baseUrl, live.key), { sku: 'HOOK-LIVE', title: 'Live coin' });
    await eventually('both deliveries', () => liveHook.received.length >= 1 && testHook.received.length >= 1);
    await worker.drain();

    const objectIds = (hook: WebhookReceiver) =>
      hook.received.map((r) => (JSON.parse(r.body) as { objectId: string }).objectId);
    expect(objectIds(testHook)).toEqual([testItem.id]);
    expect(objectIds(liveHook)).toEqual([liveItem.id]);
    expect([...liveHook.received, ...testHook.received].every((r) => r.verified[0])).toBe(true);
  });

  it('are held to the same address guard as live ones: no loopback exception for test keys', async () => {
    const workspace = await createTestOrganization(guarded.database.sql);
    const box = await createTestSandbox(guarded.database.sql, workspace);
    const url = 'http://127.0.0.1:9/hook';
    const body = { url, events: ['*'] };
    const asLive = await call(guarded.baseUrl, 'POST', '/webhook-endpoints', { key: workspace.key, body });
    const asTest = await call(guarded.baseUrl, 'POST', '/webhook-endpoints', { key: box.key, body });
    expect(asLive.status).toBe(400);
    expect(asTest.status).toBe(400);
    expect(asTest.text).toBe(asLive.text);
  });
});
