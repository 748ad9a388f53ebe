import type { WebhookDeliveryList, WebhookEndpointWithSecret } from '@coinventory/contract';
import { afterEach, describe, expect, it } from 'vitest';
import { fromStderr, type Running, removeTempDirs, start, stop, tempDir } from '../../support/binary.js';
import { client, expectStatus } from '../../support/http.js';
import { eventually, WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * The outbox across a crash, with the real binary: deliveries committed with their changes survive the server being
 * killed before it sent them (SIGKILL: no shutdown, no flush), and the restarted server sends them.
 */

const running: Running[] = [];
const receiver = new WebhookReceiver();

afterEach(async () => {
  for (const server of running.splice(0)) await stop(server, 'SIGKILL');
  await receiver.close();
  removeTempDirs();
});

describe('a server killed between commit and delivery', () => {
  it('sends every committed change after it restarts', async () => {
    await receiver.listen();
    const dataDir = tempDir();
    const env = {
      COINVENTORY_DATA_DIR: dataDir,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      // The first run sends nothing: every delivery is committed and waiting when it dies.
      SYNC_WORKER: 'off',
    };
    const first = await start(env);
    running.push(first);
    const key = (await fromStderr(first, /(cvk_live_[0-9A-Za-z]{38})/))?.[1];
    if (!key) throw new Error(`no demo key printed:\n${first.stderr()}`);
    const api = client(first.baseUrl, key);
    const created = await api.post<WebhookEndpointWithSecret>('/webhook-endpoints', {
      body: { url: receiver.url(), events: ['item.created'] },
    });
    expectStatus(created, 200);
    receiver.verifyWith(created.body.secret);
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const item = await api.post<{ id: string }>('/items', { body: { sku: `CRASH-${i}`, title: 'Crash coin' } });
      expectStatus(item, 200);
      ids.push(item.body.id);
    }
    expect(await stop(first, 'SIGKILL')).toBeNull();
    running.splice(0);
    expect(receiver.received).toHaveLength(0);

    const second = await start({ ...env, SYNC_WORKER: 'on' });
    running.push(second);
    await eventually('the five creations', () => receiver.verifiedIds().size === 5);
    const bodies = receiver.received.map((r) => JSON.parse(r.body) as { type: string; objectId: string });
    expect(bodies.map((body) => body.objectId).sort()).toEqual([...ids].sort());
    expect(bodies.every((body) => body.type === 'item.created')).toBe(true);
    const deliveries = await client(second.baseUrl, key).get<WebhookDeliveryList>(
      `/webhook-endpoints/${created.body.id}/deliveries`,
    );
    expect(deliveries.body.items.map((d) => d.status)).toEqual(Array(5).fill('succeeded'));
  });
});
