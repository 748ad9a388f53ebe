import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  BadRequestError,
  type Change,
  Coinventory,
  generateWebhookSecret,
  NotFoundError,
  PermissionDeniedError,
  verifyWebhook,
  WEBHOOKS,
  type WebhookEndpointWithSecret,
  type WebhookEvent,
  WebhookVerificationError,
} from '../src/index.js';
import { createKey, type RunningServer, startServer, stopServer, thrown } from './support/server.js';

// client.webhookEndpoints against the real server binary, delivering to a receiver on loopback (allowed by
// WEBHOOK_ALLOWED_HOSTS) that verifies every request with the SDK's own verifyWebhook, as a dealer's receiver would.

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

let server: RunningServer | undefined;
let client: Coinventory;
let receiver: Server;
let receiverUrl: string;
const deliveries: Delivery[] = [];
const waiters = new Set<() => void>();

beforeAll(async () => {
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      deliveries.push({ headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(204).end();
      for (const waiter of waiters) waiter();
    });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/coinventory`;
  server = await startServer({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1' });
  client = new Coinventory({ apiKey: server.apiKey, baseUrl: server.baseUrl, maxRetries: 0 });
});

afterAll(async () => {
  await stopServer(server);
  receiver?.closeAllConnections();
  receiver?.close();
});

/** The first delivery from `from` on that `secret` verifies and whose event has `id`, once it has arrived. */
function delivered(id: string, secret: string | readonly string[], from = 0): Promise<WebhookEvent> {
  return new Promise((resolve, reject) => {
    const check = async () => {
      for (const delivery of deliveries.slice(from)) {
        if (delivery.headers[WEBHOOKS.headers.id] !== id) continue;
        waiters.delete(check);
        clearTimeout(timer);
        verifyWebhook(delivery.body, delivery.headers, secret).then(resolve, reject);
        return;
      }
    };
    const timer = setTimeout(() => {
      waiters.delete(check);
      reject(new Error(`no delivery of ${id}`));
    }, 20_000);
    waiters.add(check);
    void check();
  });
}

/** The next change the feed records after `cursor`. */
async function changeAfter(cursor: string): Promise<Change> {
  return (await client.changes.list({ after: cursor })).items[0] ?? expect.fail('no change');
}

describe('webhookEndpoints', () => {
  let endpoint: WebhookEndpointWithSecret;

  it('create() returns the endpoint with its secret; get() and list() show it without', async () => {
    endpoint = await client.webhookEndpoints.create({ url: receiverUrl, events: ['*'], description: 'SDK tests' });
    expect(endpoint).toMatchObject({ url: receiverUrl, events: ['*'], enabled: true, description: 'SDK tests' });
    expect(endpoint.secret).toMatch(/^whsec_/);
    const { secret: _secret, ...shown } = endpoint;
    expect(await client.webhookEndpoints.get(endpoint.id)).toEqual(shown);
    expect((await client.webhookEndpoints.list()).items).toEqual([shown]);
  });

  it('each change is delivered, verified by verifyWebhook; deliveries() pages through them', async () => {
    const start = (await client.changes.cursor()).cursor;
    const item = await client.items.create({ sku: `SDK-WH-${randomUUID().slice(0, 8)}`, title: 'Webhook coin' });
    await client.items.update(item.id, { quantity: 4 });
    const [created, updated] = (await client.changes.list({ after: start })).items;
    for (const change of [created, updated]) {
      expect(await delivered(change?.id ?? '', endpoint.secret)).toEqual(change);
    }
    const deliveryList = await client.webhookEndpoints.deliveries(endpoint.id, { limit: 1 });
    expect(deliveryList).toMatchObject({ page: 1, limit: 1, hasMore: true });
    const seen: string[] = [];
    for await (const delivery of client.webhookEndpoints.deliveries(endpoint.id, { status: 'succeeded', limit: 1 })) {
      seen.push(delivery.changeId);
    }
    expect(seen).toEqual([updated?.id, created?.id]);
    // Verification refuses the same delivery under another secret.
    const other = deliveries.find((d) => d.headers[WEBHOOKS.headers.id] === created?.id);
    const error = await thrown(verifyWebhook(other?.body ?? '', other?.headers ?? {}, generateWebhookSecret()));
    expect(error).toBeInstanceOf(WebhookVerificationError);
  });

  it('test() sends a signed ping; replay() sends changes again, with the same webhook-id', async () => {
    const ping = await client.webhookEndpoints.test(endpoint.id);
    expect(ping).toMatchObject({ succeeded: true, responseStatus: 204, error: null });
    expect(await delivered(ping.webhookId, endpoint.secret)).toMatchObject({ type: 'ping', data: null });

    const start = (await client.changes.cursor()).cursor;
    const item = await client.items.create({ sku: `SDK-WH-${randomUUID().slice(0, 8)}`, title: 'Replayed coin' });
    const change = await changeAfter(start);
    await delivered(change.id, endpoint.secret);
    const from = deliveries.length;
    const replay = await client.webhookEndpoints.replay(endpoint.id, { after: start });
    expect(replay.queued).toBe(1);
    expect(await delivered(change.id, endpoint.secret, from)).toEqual(change);
    await client.items.delete(item.id);
  });

  it('rotateSecret(): the next deliveries verify with the old secret and with the new', async () => {
    const rotated = await client.webhookEndpoints.rotateSecret(endpoint.id);
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(rotated.previousSecretExpiresAt).not.toBeNull();
    const start = (await client.changes.cursor()).cursor;
    const item = await client.items.create({ sku: `SDK-WH-${randomUUID().slice(0, 8)}`, title: 'Rotated coin' });
    const change = await changeAfter(start);
    expect(await delivered(change.id, endpoint.secret)).toEqual(change);
    expect(await delivered(change.id, rotated.secret)).toEqual(change);
    expect(await delivered(change.id, [endpoint.secret, rotated.secret])).toEqual(change);
    await client.items.delete(item.id);
  });

  it('update() disables and enables; bad input, a read-only key and an unknown id are refused', async () => {
    expect(await client.webhookEndpoints.update(endpoint.id, { enabled: false, description: null })).toMatchObject({
      enabled: false,
      description: null,
    });
    expect(await client.webhookEndpoints.update(endpoint.id, { enabled: true })).toMatchObject({
      enabled: true,
      disabledReason: null,
    });
    expect(await thrown(client.webhookEndpoints.create({ url: 'ftp://example.com/x', events: ['*'] }))).toBeInstanceOf(
      BadRequestError,
    );
    const readOnly = new Coinventory({
      apiKey: await createKey(server ?? expect.fail('no server'), 'sdk webhooks read-only', 'read'),
      baseUrl: server?.baseUrl,
      maxRetries: 0,
    });
    expect((await readOnly.webhookEndpoints.list()).items).toHaveLength(1);
    expect(await thrown(readOnly.webhookEndpoints.rotateSecret(endpoint.id))).toBeInstanceOf(PermissionDeniedError);
    expect(await thrown(client.webhookEndpoints.get(randomUUID()))).toBeInstanceOf(NotFoundError);
  });

  it('delete() removes it: get() is then NotFoundError', async () => {
    expect(await client.webhookEndpoints.delete(endpoint.id)).toEqual({ id: endpoint.id, deleted: true });
    expect(await thrown(client.webhookEndpoints.get(endpoint.id))).toBeInstanceOf(NotFoundError);
  });
});
