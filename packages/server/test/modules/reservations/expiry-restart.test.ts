import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Actor,
  type ChangeList,
  ChangeListSchema,
  MeSchema,
  type Reservation,
  type WebhookEndpointWithSecret,
} from '@coinventory/contract';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT } from '../../support/admin.js';
import { type Running, removeTempDirs, runToEnd, start, stop } from '../../support/binary.js';
import { type BinaryDatabase, startOnOwnDatabase } from '../../support/binary-database.js';
import { ERROR_BODY } from '../../support/errors.js';
import { client, expectStatus } from '../../support/http.js';
import { EXPIRY_ACTOR, expectInvariants, reservationsOf, reserve, step } from '../../support/inventory.js';
import { type Api, createItem, getItem } from '../../support/items.js';
import { eventually, WebhookReceiver } from '../../support/webhook-receiver.js';

/**
 * Holds that expire while no server runs (issue 37): the real binary is killed (SIGKILL: no shutdown) with holds
 * about to expire, and the restarted server gives their units back within seconds, as the system, with the changes
 * and webhooks that say so. On either database.
 */

const running: Running[] = [];
const receiver = new WebhookReceiver();
let database: BinaryDatabase | undefined;

afterAll(async () => {
  for (const server of running.splice(0)) await stop(server, 'SIGKILL');
  await receiver.close();
  await database?.drop();
  removeTempDirs();
});

/** Polls gently: the key's requests count against its 120 a minute. */
const gently = () => sleep(200);

/** Every change of the feed from its start, a page at a time. */
async function wholeFeed(api: Api) {
  const changes: ChangeList['items'] = [];
  for (let after: string | undefined; ; ) {
    const response = await api.get(`/changes?limit=100${after === undefined ? '' : `&after=${after}`}`);
    expectStatus(response, 200);
    const page = ChangeListSchema.parse(response.body);
    changes.push(...page.items);
    if (!page.hasMore) return changes;
    after = page.nextCursor;
  }
}

describe('a server killed with holds about to expire', () => {
  it('is restarted, and the restart gives the expired holds back within seconds', async () => {
    await receiver.listen();
    database = await startOnOwnDatabase({ WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', RESERVATION_EXPIRY_INTERVAL_MS: '100' });
    const { env, key, first, open } = database;
    running.push(first);
    let api = client(first.baseUrl, key);
    const me = await api.get('/me');
    expectStatus(me, 200);
    const { apiKey, organization } = MeSchema.parse(me.body);
    const keyActor: Actor = { type: 'key', id: apiKey.id, name: apiKey.name };

    const endpoint = await api.post<WebhookEndpointWithSecret>('/webhook-endpoints', {
      body: { url: receiver.url(), events: ['reservation.created', 'reservation.expired'] },
    });
    expectStatus(endpoint, 200);
    receiver.verifyWith(endpoint.body.secret);
    const item = await createItem(api, { sku: 'RESTART-HOLDS', title: 'Held through a crash', quantity: 5 });
    const soon = [
      await reserve(api, item.id, { quantity: 2, expiresInSeconds: 60, reference: 'SOON-1' }),
      await reserve(api, item.id, { quantity: 1, expiresInSeconds: 60, reference: 'SOON-2' }),
    ];
    const later = await reserve(api, item.id, { quantity: 1, reference: 'LATER' });
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 1, sold: 0, reserved: 4 });

    expect(await stop(first, 'SIGKILL')).toBeNull();
    running.splice(0);
    // While no server runs, two holds come within a second of their expiresAt (they were made for 60 s).
    const soonIds = soon.map((reservation) => reservation.id);
    const stillHeld = await open(async (sql) => {
      await sql`UPDATE reservations SET expires_at = now() + interval '1 second' WHERE id IN ${sql(soonIds)}`;
      return sql<{ id: string }[]>`SELECT id FROM reservations WHERE item_id = ${item.id} AND status = 'held'`;
    });
    expect(stillHeld.map((row) => row.id).sort()).toEqual([...soonIds, later.id].sort());

    const second = await start(env);
    running.push(second);
    const listening = Date.now();
    api = client(second.baseUrl, key);
    let expired: Reservation[] = [];
    await eventually(
      'the two holds given back',
      async () => {
        await gently();
        expired = await reservationsOf(api, { itemId: item.id, status: 'expired' });
        return expired.length === 2;
      },
      30_000,
    );
    // Within seconds of their expiresAt, however long the restart itself took.
    expect(Date.now() - listening).toBeLessThan(15_000);
    expect(expired.map((reservation) => reservation.reference).sort()).toEqual(['SOON-1', 'SOON-2']);
    for (const reservation of expired) {
      expect(Date.parse(reservation.updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(reservation.expiresAt));
    }
    expect(await reservationsOf(api, { itemId: item.id, status: 'held' })).toEqual([later]);
    const { item: after, movements } = await expectInvariants(api, item.id);
    expect(after.quantity).toEqual({ available: 4, sold: 0, reserved: 1 });
    const expiries = movements.filter((movement) => movement.kind === 'expire');
    expect(
      expiries
        .map(({ reference, delta, actor }) => ({ reference, delta, actor }))
        .sort((a, b) => String(a.reference).localeCompare(String(b.reference))),
    ).toEqual([
      { reference: 'SOON-1', delta: { available: 2, sold: 0, reserved: -2 }, actor: EXPIRY_ACTOR },
      { reference: 'SOON-2', delta: { available: 1, sold: 0, reserved: -1 }, actor: EXPIRY_ACTOR },
    ]);
    for (const movement of movements.filter((m) => m.kind !== 'expire')) expect(movement.actor).toEqual(keyActor);

    // An expired hold can no longer be committed.
    const late = await step(api, soonIds[0] ?? '', 'commit');
    expectStatus(late, 409);
    expect(late.body).toEqual(ERROR_BODY.RESERVATION_NOT_HELD);

    // The feed names who did what: the key held, the system gave back.
    const feed = (await wholeFeed(api)).filter(
      (change) => change.objectId === item.id || soonIds.includes(change.objectId) || change.objectId === later.id,
    );
    const byType = (type: string) => feed.filter((change) => change.type === type);
    expect(byType('reservation.created').map((change) => change.actor)).toEqual(Array(3).fill(keyActor));
    expect(
      byType('reservation.expired')
        .map((change) => [change.objectId, change.actor])
        .sort(),
    ).toEqual(soonIds.map((id) => [id, EXPIRY_ACTOR]).sort());
    expect(byType('item.updated').filter((change) => change.actor.type === 'system')).toHaveLength(2);
    for (const change of byType('item.updated').filter((c) => c.actor.type !== 'system')) {
      expect(change.actor).toEqual(keyActor);
    }

    // And so do the webhooks: each expiry delivered, naming the system, each hold naming the key.
    await eventually('both expiries delivered', () =>
      soonIds.every((id) =>
        receiver.received.some((r) => r.body.includes('"reservation.expired"') && r.body.includes(id)),
      ),
    );
    const payloads = receiver.received
      .filter((r) => r.verified[0])
      .map((r) => JSON.parse(r.body) as { type: string; objectId: string; actor: Actor });
    for (const payload of payloads) {
      expect(payload.actor).toEqual(payload.type === 'reservation.expired' ? EXPIRY_ACTOR : keyActor);
    }
    expect(
      payloads
        .filter((p) => p.type === 'reservation.expired')
        .map((p) => p.objectId)
        .sort(),
    ).toEqual([...soonIds].sort());

    // The operator's check, through the binary (on the embedded database, by the running server's socket), finds
    // every item of the organization keeping the invariants: these, and on the embedded one the demo's.
    const checked = await runToEnd(['check', '--org', organization.slug], env);
    expect(checked.code, checked.stderr).toBe(EXIT.ok);
    expect(checked.stdout).toMatch(
      new RegExp(`^All \\d+ items of ${organization.slug} keep the inventory invariants\\.\\n$`),
    );
  }, 120_000);
});
