// What a `<!-- sample: receiver -->` sample is put through: a webhook receiver, running, gets real deliveries from the
// live server and must verify them, answer them, act on each change once, and refuse what the server did not sign.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type Change,
  type ChangeList,
  generateWebhookSecret,
  signWebhook,
  type ValuationCreatedChange,
  type WebhookDelivery,
} from '@coinventory/sdk';
import { expect } from 'vitest';

/** Where a receiver sample takes deliveries: `POST http://127.0.0.1:$PORT/webhooks`. */
export const RECEIVER_PATH = '/webhooks';

type Api = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** Runs an operator command (`coinventory-server …`) against the live server on the demo organization; throws if it fails. */
export type Operator = (args: string[]) => Promise<void>;

/** The API as the test itself calls it (straight to the server, not through the samples' recording proxy). */
export function apiClient(baseUrl: string, apiKey: string): Api {
  return async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as T;
  };
}

/** Resolves once `predicate` holds, checking every 100 ms; fails naming `what` after `ms`. */
async function eventually(what: string, predicate: () => Promise<boolean> | boolean, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Resolves once something accepts connections on the port, or rejects after `ms`. */
export async function listening(port: number, ms = 60_000, alive: () => boolean = () => true): Promise<void> {
  await eventually(
    `a receiver listening on port ${port}`,
    () =>
      alive() &&
      new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => resolve(true));
        socket.once('error', () => resolve(false));
        socket.once('close', () => resolve(false));
        socket.setTimeout(1_000, () => socket.destroy());
      }).then((ok) => {
        if (!alive()) throw new Error('the receiver exited before listening');
        return ok;
      }),
    ms,
  );
}

interface Endpoint {
  id: string;
  secret: string;
}

/**
 * Makes the valuation engine value a new item of the demo organization, by importing three recent comparable sales of its
 * coin with `operator` (an import of sales values the items of the coins it changed), and resolves to that item's id.
 */
async function valuedItem(api: Api, operator: Operator, organization: string): Promise<string> {
  const coin = `Webhook Sample Dollar ${randomUUID().slice(0, 8)}`;
  const item = await api<{ id: string }>('POST', '/items', {
    sku: `DOC-RECEIVER-V-${Date.now()}-${process.pid}`,
    title: `${coin} PCGS MS64`,
    gradingService: 'PCGS',
    grade: 'MS64',
    attributes: { coin },
  });
  const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);
  const dir = mkdtempSync(join(tmpdir(), 'coinventory-docs-sales-'));
  const file = join(dir, 'sales.csv');
  const rows = [30_000, 31_000, 32_000].map(
    (price, i) => `docs_test,${coin}-${i},${coin},PCGS,MS64,${price},${daysAgo(i + 1)}`,
  );
  writeFileSync(file, ['source,externalId,coin,gradingService,grade,priceInCents,soldAt', ...rows, ''].join('\n'));
  try {
    await operator(['import', 'sales', file, '--org', organization]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return item.id;
}

/**
 * Runs the checks against a receiver listening on `port` with the secret of `endpoint` (whose URL is that port's
 * RECEIVER_PATH): a test ping, then item changes, a replay of them, a valuation's change (which the receiver must
 * accept though it has nothing to do with it), forged deliveries and a secret rotation. `output` is what the receiver
 * has printed so far; `operator` runs the server's operator commands on `organization`, the endpoint's own.
 * Tidies up the items it made.
 */
export async function exerciseReceiver(
  api: Api,
  endpoint: Endpoint,
  port: number,
  output: () => string,
  operator: Operator,
  organization: string,
) {
  const shown = () => `\n--- receiver output ---\n${output()}`;
  const deliveriesOf = async (changes: Change[]) => {
    const list = await api<{ items: WebhookDelivery[] }>(
      'GET',
      `/webhook-endpoints/${endpoint.id}/deliveries?limit=100`,
    );
    return changes.map((change) => list.items.find((delivery) => delivery.changeId === change.id));
  };
  const delivered = (what: string, changes: Change[]) =>
    eventually(what, async () => (await deliveriesOf(changes)).every((d) => d?.status === 'succeeded')).catch(
      async (error: Error) => {
        throw new Error(`${error.message}: ${JSON.stringify(await deliveriesOf(changes), null, 2)}${shown()}`);
      },
    );
  const changesAfter = async (cursor: string) =>
    (await api<ChangeList>('GET', `/changes?after=${encodeURIComponent(cursor)}`)).items;
  const itemChanges = async (label: string) => {
    const item = await api<{ id: string }>('POST', '/items', {
      sku: `DOC-RECEIVER-${label}-${Date.now()}-${process.pid}`,
      title: `1916-D Mercury Dime, webhook sample ${label}`,
    });
    await api('PATCH', `/items/${item.id}`, { quantity: 3 });
    await api('DELETE', `/items/${item.id}`);
  };

  // 1. A signed ping, sent now: the receiver verifies it and answers 2xx.
  const ping = await api<{
    succeeded: boolean;
    responseStatus: number | null;
    error: string | null;
    webhookId: string;
  }>('POST', `/webhook-endpoints/${endpoint.id}/test`);
  expect(ping, `the test ping${shown()}`).toMatchObject({ succeeded: true, error: null });

  // 2. Three changes (created, updated, deleted), each delivered by the server's worker and accepted.
  const { cursor: before } = await api<{ cursor: string }>('GET', '/changes/cursor');
  await itemChanges('A');
  const changes = await changesAfter(before);
  expect(changes.map((change) => change.type)).toEqual(['item.created', 'item.updated', 'item.deleted']);
  await delivered('the three changes to be delivered', changes);

  // 3. Replayed from before them: each is delivered again, with the same webhook-id, and accepted again.
  const replay = await api<{ queued: number }>('POST', `/webhook-endpoints/${endpoint.id}/replay`, { after: before });
  expect(replay.queued).toBe(3);
  await delivered('the replayed changes to be delivered again', changes);

  // 4. A change that is not an item's: a valuation the engine made. An endpoint on '*' gets every type, those added
  //    after the receiver was written too; it must answer them 2xx (a refusal is retried, and holds up the others).
  const { cursor: beforeValuation } = await api<{ cursor: string }>('GET', '/changes/cursor');
  const valued = await valuedItem(api, operator, organization);
  const valuations = (await changesAfter(beforeValuation)).filter(
    (change): change is ValuationCreatedChange => change.type === 'valuation.created',
  );
  expect(valuations.map((change) => change.data.itemId)).toEqual([valued]);
  await delivered('the valuation to be delivered', valuations);
  await api('DELETE', `/items/${valued}`);

  // 5. What the server did not sign is refused with 4xx: a wrong secret, a changed body, an old timestamp, none.
  const forgedId = randomUUID();
  const forged = JSON.stringify({ ...changes[0], id: forgedId });
  const post = (body: string, headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${port}${RECEIVER_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    }).then((response) => response.status);
  const otherSecret = generateWebhookSecret();
  const attempts = {
    'another secret': await post(forged, await signWebhook({ id: forgedId, body: forged, secret: otherSecret })),
    'a changed body': await post(
      forged.replace('webhook sample', 'webhook sampl3'),
      await signWebhook({ id: forgedId, body: forged, secret: endpoint.secret }),
    ),
    'a timestamp 10 minutes old': await post(
      forged,
      await signWebhook({
        id: forgedId,
        body: forged,
        secret: endpoint.secret,
        timestamp: new Date(Date.now() - 600_000),
      }),
    ),
    'no signature': await post(forged, {}),
  };
  for (const [what, status] of Object.entries(attempts))
    expect(status, `a delivery signed with ${what} must be refused with 4xx${shown()}`).toBeGreaterThanOrEqual(400);
  for (const status of Object.values(attempts)) expect(status).toBeLessThan(500);

  // 6. After a rotation the previous secret still signs (a second signature): the receiver, still on the old one,
  //    goes on accepting.
  const rotated = await api<{ secret: string }>('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`);
  expect(rotated.secret).not.toBe(endpoint.secret);
  const { cursor: beforeRotation } = await api<{ cursor: string }>('GET', '/changes/cursor');
  await itemChanges('B');
  const later = await changesAfter(beforeRotation);
  expect(later).toHaveLength(3);
  await delivered('the changes after a rotation to be delivered', later);

  // Each change acted on once, though three were delivered twice; the forged one never.
  await eventually(
    'the receiver to print every change',
    () => [...changes, ...later].every((c) => output().includes(c.id)),
    5_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message}${shown()}`);
  });
  for (const change of [...changes, ...later])
    expect(output().split(change.id).length - 1, `change ${change.id} printed once${shown()}`).toBe(1);
  expect(output(), 'the forged delivery was acted on').not.toContain(forgedId);
  expect(output(), 'the ping was acted on').toContain(ping.webhookId);
}
