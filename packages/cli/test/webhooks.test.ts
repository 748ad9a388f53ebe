import { randomUUID } from 'node:crypto';
import { CHANGE_TYPES, WEBHOOKS } from '@coinventory/contract/constants';
import type { Change, WebhookDelivery, WebhookEndpoint, WebhookEndpointWithSecret } from '@coinventory/sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { scrub } from './support/cli.js';
import { json, listed, withKey } from './support/demo.js';
import { type Received, type Receiver, startReceiver, verifiedWith } from './support/receiver.js';

// `webhooks …` against the real server, delivering to a real receiver on loopback (the shared server allows
// 127.0.0.1) that verifies every request with the `standardwebhooks` package.

const { run, sdk } = withKey(inject('server').keys.webhooks);

let receiver: Receiver;
let endpoint: WebhookEndpointWithSecret;

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  // The shared server's other tests make changes: nothing of this file's may be delivered to a closed receiver.
  for await (const left of sdk.webhookEndpoints.list()) await sdk.webhookEndpoints.delete(left.id);
  await receiver.close();
});

/** The verified delivery of `changeId`, once the receiver has one after `from` requests. */
async function deliveryOf(changeId: string, from = 0): Promise<Received> {
  const find = (received: readonly Received[]) =>
    received.slice(from).find((r) => r.headers[WEBHOOKS.headers.id] === changeId && r.verified !== undefined);
  await receiver.waitFor((received) => find(received) !== undefined);
  return find(receiver.received) ?? expect.fail('no delivery');
}

/** The change the feed records next after `cursor`. */
async function changeAfter(cursor: string): Promise<Change> {
  const [change] = (await sdk.changes.list({ after: cursor })).items;
  return change ?? expect.fail('no change after the cursor');
}

describe('webhooks', () => {
  it('create prints the endpoint with its secret, once; list and get show it without', async () => {
    const created = await run([
      'webhooks',
      'create',
      '--url',
      receiver.url,
      '--events',
      'item.created,item.deleted',
      '--description',
      'CLI tests',
      '--json',
    ]);
    expect(created.code).toBe(0);
    expect(created.stderr).toContain('Store the secret now: it is not shown again.');
    endpoint = JSON.parse(created.stdout) as WebhookEndpointWithSecret;
    expect(endpoint).toMatchObject({
      url: receiver.url,
      events: ['item.created', 'item.deleted'],
      description: 'CLI tests',
      enabled: true,
      secret: expect.stringMatching(/^whsec_/),
    });
    receiver.secrets = [endpoint.secret];

    const endpoints = listed<WebhookEndpoint>(await run(['webhooks', 'list', '--json']));
    const { secret: _secret, ...withoutSecret } = endpoint;
    expect(endpoints).toEqual([withoutSecret]);
    const table = await run(['webhooks', 'get', endpoint.id]);
    expect(scrub(table.stdout)).toContain(`URL                    ${receiver.url}`);
    expect(table.stdout).toContain('Events                 item.created, item.deleted');
    expect(table.stdout).not.toContain('whsec_');
    const rows = (await run(['webhooks', 'list'])).stdout.split('\n');
    expect(rows[0]).toMatch(/^ID +URL +EVENTS +STATUS +DESCRIPTION +CREATED$/);
    expect(rows[1]).toContain(`${endpoint.id}  ${receiver.url}  item.created,item.deleted  enabled  CLI tests`);
  });

  it('test sends a signed ping; exit 1 when the receiver does not answer 2xx', async () => {
    const passed = await run(['webhooks', 'test', endpoint.id, '--json']);
    expect(passed.code).toBe(0);
    const result = JSON.parse(passed.stdout) as { webhookId: string; succeeded: boolean; responseStatus: number };
    expect(result).toMatchObject({ succeeded: true, responseStatus: 204, error: null });
    const ping = await deliveryOf(result.webhookId);
    expect(ping.verified).toMatchObject({ id: result.webhookId, type: WEBHOOKS.pingType, data: null });

    receiver.answer = 503;
    const failed = await run(['webhooks', 'test', endpoint.id]);
    receiver.answer = 204;
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/^Result +failed$/m);
    expect(failed.stdout).toMatch(/^Status +503$/m);
  });

  it('a change is delivered, verified; deliveries lists it; replay sends it again with the same webhook-id', async () => {
    const start = (await sdk.changes.cursor()).cursor;
    const item = await sdk.items.create({ sku: `WHK-${randomUUID().slice(0, 8)}`, title: 'Hooked coin' });
    const change = await changeAfter(start);
    const first = await deliveryOf(change.id);
    expect(first.body).toBe(JSON.stringify(change));
    expect(first.verified).toEqual(change);

    const deliveries = await run(['webhooks', 'deliveries', endpoint.id, '--json']);
    const sent = listed<WebhookDelivery>(deliveries);
    expect(sent.find((d) => d.changeId === change.id)).toMatchObject({
      endpointId: endpoint.id,
      changeType: 'item.created',
      status: 'succeeded',
      attempts: 1,
      lastResponseStatus: 204,
    });
    const table = await run(['webhooks', 'deliveries', endpoint.id, '--status', 'succeeded', '--limit', '1']);
    expect(table.stdout).toMatch(/^QUEUED +TYPE +CHANGE +STATUS +ATTEMPTS +LAST +MS +NEXT ATTEMPT +ERROR$/m);
    expect(table.stdout).toContain(`item.created  ${change.id}  succeeded`);

    const seen = receiver.received.length;
    const replayed = await run(['webhooks', 'replay', endpoint.id, '--after', start, '--json']);
    expect(json<{ queued: number }>(replayed).queued).toBeGreaterThanOrEqual(1);
    const again = await deliveryOf(change.id, seen);
    expect(again.body).toBe(first.body);
    await sdk.items.delete(item.id);
  });

  it('rotate-secret: both the old and the new secret sign the next delivery', async () => {
    const rotated = await run(['webhooks', 'rotate-secret', endpoint.id, '--json']);
    expect(rotated.code).toBe(0);
    const { secret, previousSecretExpiresAt } = JSON.parse(rotated.stdout) as WebhookEndpointWithSecret;
    expect(secret).not.toBe(endpoint.secret);
    expect(previousSecretExpiresAt).not.toBeNull();
    receiver.secrets = [endpoint.secret, secret];
    const start = (await sdk.changes.cursor()).cursor;
    const item = await sdk.items.create({ sku: `WHK-${randomUUID().slice(0, 8)}`, title: 'Rotated coin' });
    const change = await changeAfter(start);
    const delivered = await deliveryOf(change.id);
    expect(String(delivered.headers[WEBHOOKS.headers.signature]).split(' ')).toHaveLength(2);
    // A receiver still on the old secret, and one already on the new: each accepts it.
    expect(verifiedWith(endpoint.secret, delivered)).toEqual(change);
    expect(verifiedWith(secret, delivered)).toEqual(change);
    endpoint = { ...endpoint, secret };
    await sdk.items.delete(item.id);
  });

  it('update changes the fields given; --disable and --enable; nothing to change is exit 2', async () => {
    const disabled = json<WebhookEndpoint>(
      await run(['webhooks', 'update', endpoint.id, '--disable', '--events', '*', '--clear-description', '--json']),
    );
    expect(disabled).toMatchObject({ enabled: false, events: ['*'], description: null });
    expect(disabled.disabledReason).not.toBeNull();
    const enabled = json<WebhookEndpoint>(await run(['webhooks', 'update', endpoint.id, '--enable', '--json']));
    expect(enabled).toMatchObject({ enabled: true, disabledReason: null });
    // The types beyond items: the valuation engine's, and the consignments and invoices an operator imports.
    const others = ['valuation.created', 'consignment.created', 'consignment.updated', 'invoice.updated'];
    for (const type of others) expect(CHANGE_TYPES).toContain(type);
    const subscribed = json<WebhookEndpoint>(
      await run([
        'webhooks',
        'update',
        endpoint.id,
        '--events',
        others.slice(0, 2).join(','),
        '--events',
        others.slice(2).join(','),
        '--json',
      ]),
    );
    expect(subscribed.events).toEqual(others);
    expect((await run(['webhooks', 'get', endpoint.id])).stdout).toContain(
      `Events                 ${others.join(', ')}`,
    );
    const nothing = await run(['webhooks', 'update', endpoint.id]);
    expect(nothing.code).toBe(2);
    expect(nothing.stderr).toContain('Nothing to update');
  });

  it('refuses bad values before any request (exit 2), and an unknown endpoint is exit 4', async () => {
    for (const args of [
      ['create'],
      ['create', '--url', 'shop.example/hooks'],
      ['create', '--url', receiver.url, '--events', 'item.sold'],
      ['create', '--url', receiver.url, '--events', '*,item.created'],
      ['get', 'not-a-uuid'],
      ['replay', randomUUID()],
      ['deliveries', randomUUID(), '--status', 'lost'],
      ['update', randomUUID(), '--enable', '--disable'],
    ]) {
      const result = await run(['webhooks', ...args]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
    const unknown = await run(['webhooks', 'get', randomUUID()]);
    expect(unknown.code).toBe(4);
  });

  it('delete asks for --yes when not on a terminal, then removes the endpoint', async () => {
    const refused = await run(['webhooks', 'delete', endpoint.id]);
    expect(refused.code).toBe(2);
    const deleted = await run(['webhooks', 'delete', endpoint.id, '--yes']);
    expect(deleted).toEqual({ code: 0, stdout: `Deleted webhook endpoint ${endpoint.id}\n`, stderr: '' });
    expect((await run(['webhooks', 'get', endpoint.id])).code).toBe(4);
  });
});
