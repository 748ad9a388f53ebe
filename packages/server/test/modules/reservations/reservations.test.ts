import {
  type Actor,
  type Change,
  IDEMPOTENCY,
  type Item,
  RESERVATIONS,
  type Reservation,
  ReservationListSchema,
  ReservationSchema,
} from '@coinventory/contract';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { startReservationExpiry } from '../../../src/modules/reservations/index.js';
import { quietNotifier } from '../../../src/request/pipeline.js';
import { feedCursor, readToEnd } from '../../support/changes.js';
import { ERROR_BODY, expectBadRequest } from '../../support/errors.js';
import { client, expectStatus } from '../../support/http.js';
import {
  EXPIRY_ACTOR,
  expectInvariants,
  keyedApi,
  movementsOf,
  reservationsOf,
  reserve,
  reserveRequest,
  step,
} from '../../support/inventory.js';
import { type Api, createItem, getItem, randomId } from '../../support/items.js';
import { createTestOrganization, type TestOrganization } from '../../support/organization.js';
import { uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';
import { eventually } from '../../support/webhook-receiver.js';

/**
 * Reservations (issue 37): holding units of an item while a customer pays, committing or releasing the hold, and the
 * server giving expired holds back. Real HTTP on a real database; the expiry worker runs in-process where a test
 * starts it, as a server process runs it.
 */

const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });

let api: Api;
let actor: Actor;
let other: TestOrganization;
let otherApi: Api;

beforeAll(async () => {
  ({ api, actor } = await keyedApi(ctx.server.database.sql, ctx.server.baseUrl, ctx.organization, 'web checkout'));
  other = await createTestOrganization(ctx.server.database.sql);
  otherApi = client(ctx.server.baseUrl, other.key);
});

const newItem = (quantity: number, prefix = 'RSV') =>
  createItem(api, { sku: uniqueSku(prefix), title: `Reserved ${prefix}`, quantity });

async function getReservation(id: string, through: Api = api): Promise<Reservation> {
  const response = await through.get(`/reservations/${id}`);
  expectStatus(response, 200);
  return ReservationSchema.parse(response.body);
}

/** A step that must succeed: the reservation it answers. */
async function stepped(id: string, action: 'commit' | 'release'): Promise<Reservation> {
  const response = await step(api, id, action);
  expectStatus(response, 200);
  return ReservationSchema.parse(response.body);
}

const seconds = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 1000;

/** The changes after `cursor` about these objects, in feed order. */
async function changesAbout(cursor: string, ...ids: string[]): Promise<Change[]> {
  const { changes } = await readToEnd(api, cursor);
  return changes.filter((change) => ids.includes(change.objectId));
}

/** Makes a held reservation due now, as if its expiresAt had come (it was made for at least 60 s). */
async function makeDue(id: string): Promise<void> {
  await ctx.server.database.sql`
    UPDATE reservations SET expires_at = now() - interval '1 millisecond'
    WHERE organization_id = ${ctx.organization.organizationId} AND id = ${id}
  `;
}

describe('holding, committing and releasing', () => {
  it('a hold moves units from available to reserved and answers the reservation, as GET shows it', async () => {
    const item = await newItem(5);
    const held = await reserve(api, item.id, { quantity: 2, reference: 'CART-1' });
    expect(held).toEqual({
      id: expect.any(String),
      itemId: item.id,
      quantity: 2,
      status: 'held',
      reference: 'CART-1',
      expiresAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: null,
    });
    expect(seconds(held.createdAt, held.expiresAt)).toBeCloseTo(RESERVATIONS.expiresInSeconds.default, 0);
    expect(await getReservation(held.id)).toEqual(held);
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 3, sold: 0, reserved: 2 });

    const short = await reserve(api, item.id, { quantity: 1, expiresInSeconds: RESERVATIONS.expiresInSeconds.min });
    expect(short.reference).toBeNull();
    expect(seconds(short.createdAt, short.expiresAt)).toBeCloseTo(RESERVATIONS.expiresInSeconds.min, 0);
    const long = await reserve(api, item.id, { quantity: 2, expiresInSeconds: RESERVATIONS.expiresInSeconds.max });
    expect(seconds(long.createdAt, long.expiresAt)).toBeCloseTo(RESERVATIONS.expiresInSeconds.max, 0);
    // Every unit is held now.
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 0, sold: 0, reserved: 5 });
    await expectInvariants(api, item.id);
  });

  it('commit moves the held units to sold; release gives them back to available', async () => {
    const item = await newItem(4);
    const sale = await reserve(api, item.id, { quantity: 3, reference: 'ORD-7' });
    const cart = await reserve(api, item.id, { quantity: 1, reference: 'CART-9' });
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 0, sold: 0, reserved: 4 });

    const committed = await stepped(sale.id, 'commit');
    expect(committed).toEqual({ ...sale, status: 'committed', updatedAt: expect.any(String) });
    expect(Date.parse(committed.updatedAt ?? '')).toBeGreaterThan(Date.parse(sale.createdAt));
    expect(await getReservation(sale.id)).toEqual(committed);
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 0, sold: 3, reserved: 1 });

    const released = await stepped(cart.id, 'release');
    expect(released).toEqual({ ...cart, status: 'released', updatedAt: expect.any(String) });
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 1, sold: 3, reserved: 0 });
    await expectInvariants(api, item.id);
  });

  it('refuses a hold of more than is available with 409 INSUFFICIENT_QUANTITY, and holds nothing', async () => {
    const item = await newItem(3);
    await reserve(api, item.id, { quantity: 2 });
    const before = await getItem(api, item.id);
    const cursor = await feedCursor(api);
    for (const quantity of [2, 3, 1_000]) {
      const refused = await reserveRequest(api, item.id, { quantity });
      expectStatus(refused, 409);
      expect(refused.body).toEqual(ERROR_BODY.INSUFFICIENT_QUANTITY);
    }
    expect(await getItem(api, item.id)).toEqual(before);
    expect(await reservationsOf(api, { itemId: item.id })).toHaveLength(1);
    expect(await movementsOf(api, item.id)).toHaveLength(2);
    expect(await changesAbout(cursor, item.id)).toEqual([]);
    // The last unit can still be held.
    await reserve(api, item.id, { quantity: 1 });
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 0, sold: 0, reserved: 3 });
  });

  it('refuses with 409 RESERVATION_NOT_HELD a commit or release of a reservation that is no longer held; nothing moves', async () => {
    const item = await newItem(5);
    const sold = await reserve(api, item.id, { quantity: 2 });
    const given = await reserve(api, item.id, { quantity: 1 });
    await stepped(sold.id, 'commit');
    await stepped(given.id, 'release');
    const before = await getItem(api, item.id);
    const cursor = await feedCursor(api);
    for (const id of [sold.id, given.id]) {
      for (const action of ['commit', 'release'] as const) {
        const refused = await step(api, id, action);
        expectStatus(refused, 409);
        expect(refused.body).toEqual(ERROR_BODY.RESERVATION_NOT_HELD);
      }
    }
    expect(await getItem(api, item.id)).toEqual(before);
    expect((await getReservation(sold.id)).status).toBe('committed');
    expect((await getReservation(given.id)).status).toBe('released');
    expect(await changesAbout(cursor, item.id, sold.id, given.id)).toEqual([]);
    await expectInvariants(api, item.id);
  });

  it('never commits or releases a hold past its expiresAt, even before the server has given its units back', async () => {
    const item = await newItem(3);
    const late = await reserve(api, item.id, { quantity: 2, expiresInSeconds: 60 });
    // No expiry worker runs here: the hold is due, and still counted as reserved.
    await makeDue(late.id);
    const before = await getItem(api, item.id);
    for (const action of ['commit', 'release'] as const) {
      const refused = await step(api, late.id, action);
      expectStatus(refused, 409);
      expect(refused.body).toEqual(ERROR_BODY.RESERVATION_NOT_HELD);
    }
    const after = await getItem(api, item.id);
    expect(after).toEqual(before);
    expect(after.quantity.sold).toBe(0);
  });
});

describe('validation, scope and organizations', () => {
  it('refuses bad bodies with 400 naming each field, and holds nothing', async () => {
    const item = await newItem(10);
    const { min, max } = RESERVATIONS.expiresInSeconds;
    const cases: [unknown, string[], string[]][] = [
      [{}, ['body.quantity'], []],
      [{ quantity: 0 }, ['body.quantity'], []],
      [{ quantity: -1 }, ['body.quantity'], []],
      [{ quantity: 1.5 }, ['body.quantity'], []],
      [{ quantity: 1, expiresInSeconds: min - 1 }, ['body.expiresInSeconds'], []],
      [{ quantity: 1, expiresInSeconds: max + 1 }, ['body.expiresInSeconds'], []],
      [{ quantity: 1, reference: 'x'.repeat(201) }, ['body.reference'], []],
      [{ quantity: 1, reference: '' }, ['body.reference'], []],
      [{ quantity: 1, status: 'committed' }, ['body'], ["'status'"]],
    ];
    for (const [body, locations, mentions] of cases) {
      expectBadRequest(await api.post(`/items/${item.id}/reservations`, { body }), locations, mentions);
    }
    expectBadRequest(await api.post('/items/not-a-uuid/reservations', { body: { quantity: 1 } }), ['path.id']);
    expectBadRequest(await api.post('/reservations/not-a-uuid/commit'), ['path.id']);
    expectBadRequest(await api.get('/reservations?status=pending'), ['query.status']);
    expectBadRequest(await api.get('/reservations?itemId=nope'), ['query.itemId']);
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 10, sold: 0, reserved: 0 });
    expect(await reservationsOf(api, { itemId: item.id })).toEqual([]);
  });

  it('answers 404 for an unknown item or reservation', async () => {
    const missingItem = await reserveRequest(api, randomId(), { quantity: 1 });
    expectStatus(missingItem, 404);
    expect(missingItem.body).toEqual(ERROR_BODY.NOT_FOUND);
    for (const response of [
      await api.get(`/reservations/${randomId()}`),
      await step(api, randomId(), 'commit'),
      await step(api, randomId(), 'release'),
    ]) {
      expectStatus(response, 404);
      expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    }
  });

  it("another organization's items and reservations are 404, unlisted, and left as they were", async () => {
    const theirs = await createItem(otherApi, { sku: uniqueSku('THEIRS'), title: 'Not yours', quantity: 3 });
    const theirHold = await reserve(otherApi, theirs.id, { quantity: 1, reference: 'SHARED-REF' });
    const mine = await newItem(2);
    const myHold = await reserve(api, mine.id, { quantity: 1, reference: 'SHARED-REF' });
    expectStatus(await reserveRequest(api, theirs.id, { quantity: 1 }), 404);
    for (const response of [
      await api.get(`/reservations/${theirHold.id}`),
      await step(api, theirHold.id, 'commit'),
      await step(api, theirHold.id, 'release'),
    ]) {
      expectStatus(response, 404);
      expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    }
    expect(await getReservation(theirHold.id, otherApi)).toEqual(theirHold);
    expect((await getItem(otherApi, theirs.id)).quantity).toEqual({ available: 2, sold: 0, reserved: 1 });
    expect(await reservationsOf(api, { reference: 'SHARED-REF' })).toEqual([myHold]);
    expect(await reservationsOf(api, { itemId: theirs.id })).toEqual([]);
    expect(await reservationsOf(otherApi, { reference: 'SHARED-REF' })).toEqual([theirHold]);
  });

  it('needs the write scope to hold, commit or release; a read-only key may read', async () => {
    const item = await newItem(2);
    const hold = await reserve(api, item.id, { quantity: 1 });
    const reader = client(ctx.server.baseUrl, ctx.organization.readKey);
    for (const response of [
      await reserveRequest(reader, item.id, { quantity: 1 }),
      await step(reader, hold.id, 'commit'),
      await step(reader, hold.id, 'release'),
    ]) {
      expectStatus(response, 403);
      expect(response.body).toEqual(ERROR_BODY.FORBIDDEN);
    }
    expect(await getReservation(hold.id, reader)).toEqual(hold);
    expect(await reservationsOf(reader, { itemId: item.id })).toEqual([hold]);
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 1, sold: 0, reserved: 1 });
  });

  it('?dryRun=true answers as it would and writes nothing: no hold, no movement, no change', async () => {
    const item = await newItem(3);
    const hold = await reserve(api, item.id, { quantity: 1 });
    const cursor = await feedCursor(api);
    const before = await getItem(api, item.id);
    const dry = await reserveRequest(api, item.id, { quantity: 2, reference: 'DRY' }, '?dryRun=true');
    expectStatus(dry, 200);
    expect(ReservationSchema.parse(dry.body)).toMatchObject({ itemId: item.id, quantity: 2, status: 'held' });
    const tooMany = await reserveRequest(api, item.id, { quantity: 3 }, '?dryRun=true');
    expectStatus(tooMany, 409);
    expect(tooMany.body).toEqual(ERROR_BODY.INSUFFICIENT_QUANTITY);
    for (const action of ['commit', 'release'] as const) {
      const answer = await step(api, hold.id, action, '?dryRun=true');
      expectStatus(answer, 200);
      expect(ReservationSchema.parse(answer.body).status).toBe(action === 'commit' ? 'committed' : 'released');
    }
    expect(await getItem(api, item.id)).toEqual(before);
    expect(await getReservation(hold.id)).toEqual(hold);
    expect(await reservationsOf(api, { itemId: item.id })).toEqual([hold]);
    expect(await movementsOf(api, item.id)).toHaveLength(2);
    expect(await changesAbout(cursor, item.id, hold.id)).toEqual([]);
  });
});

describe('GET /reservations', () => {
  it('lists newest first, narrowed by item, status and reference, a page at a time', async () => {
    const first = await newItem(10, 'LIST-A');
    const second = await newItem(10, 'LIST-B');
    const made: Reservation[] = [];
    for (let i = 0; i < 7; i += 1) {
      const item = i % 2 === 0 ? first : second;
      made.push(await reserve(api, item.id, { quantity: 1, reference: i < 4 ? 'BATCH-LOW' : `ONE-${i}` }));
    }
    const [r0, r1, r2, r3, r4] = made;
    if (!r0 || !r1 || !r2 || !r3 || !r4) throw new Error('not made');
    const committed = await stepped(r1.id, 'commit');
    const released = await stepped(r2.id, 'release');
    const now = (r: Reservation) => (r.id === committed.id ? committed : r.id === released.id ? released : r);
    const newestFirst = [...made].reverse().map(now);
    const mine = new Set(made.map((r) => r.id));

    const all = (await reservationsOf(api)).filter((r) => mine.has(r.id));
    expect(all).toEqual(newestFirst);
    expect(await reservationsOf(api, { itemId: first.id })).toEqual(newestFirst.filter((r) => r.itemId === first.id));
    expect(await reservationsOf(api, { itemId: second.id, status: 'held' })).toEqual(
      newestFirst.filter((r) => r.itemId === second.id && r.status === 'held'),
    );
    expect(await reservationsOf(api, { itemId: second.id, status: 'committed' })).toEqual([committed]);
    expect(await reservationsOf(api, { itemId: first.id, status: 'released' })).toEqual([released]);
    expect(await reservationsOf(api, { itemId: first.id, status: 'expired' })).toEqual([]);
    expect(await reservationsOf(api, { reference: 'BATCH-LOW' })).toEqual(
      newestFirst.filter((r) => r.reference === 'BATCH-LOW'),
    );
    expect(await reservationsOf(api, { reference: 'ONE-5', itemId: second.id })).toEqual(
      newestFirst.filter((r) => r.reference === 'ONE-5'),
    );

    // Pages of 3 of the first item's 4: the envelope, and no entry twice or missed.
    const pages = [];
    for (let page = 1; page <= 2; page += 1) {
      const response = await api.get(`/reservations?itemId=${first.id}&limit=3&page=${page}`);
      expectStatus(response, 200);
      pages.push(ReservationListSchema.parse(response.body));
    }
    expect(pages.map(({ page, limit, hasMore, items }) => ({ page, limit, hasMore, n: items.length }))).toEqual([
      { page: 1, limit: 3, hasMore: true, n: 3 },
      { page: 2, limit: 3, hasMore: false, n: 1 },
    ]);
    expect(pages.flatMap((page) => page.items)).toEqual(newestFirst.filter((r) => r.itemId === first.id));
  });
});

describe('the ledger and the feed', () => {
  it('each step leaves a movement and a reservation change followed by item.updated, all naming the key', async () => {
    const item = await newItem(6);
    const cursor = await feedCursor(api);
    const sale = await reserve(api, item.id, { quantity: 2, reference: 'ORD-55' });
    const cart = await reserve(api, item.id, { quantity: 3, reference: 'CART-55' });
    const committed = await stepped(sale.id, 'commit');
    const released = await stepped(cart.id, 'release');

    const movements = await movementsOf(api, item.id);
    expect(
      movements.map(({ kind, reference, delta, after, actor: by }) => ({ kind, reference, delta, after, by })),
    ).toEqual([
      {
        kind: 'release',
        reference: 'CART-55',
        delta: { available: 3, sold: 0, reserved: -3 },
        after: { available: 4, sold: 2, reserved: 0 },
        by: actor,
      },
      {
        kind: 'commit',
        reference: 'ORD-55',
        delta: { available: 0, sold: 2, reserved: -2 },
        after: { available: 1, sold: 2, reserved: 3 },
        by: actor,
      },
      {
        kind: 'reserve',
        reference: 'CART-55',
        delta: { available: -3, sold: 0, reserved: 3 },
        after: { available: 1, sold: 0, reserved: 5 },
        by: actor,
      },
      {
        kind: 'reserve',
        reference: 'ORD-55',
        delta: { available: -2, sold: 0, reserved: 2 },
        after: { available: 4, sold: 0, reserved: 2 },
        by: actor,
      },
      {
        kind: 'create',
        reference: null,
        delta: { available: 6, sold: 0, reserved: 0 },
        after: { available: 6, sold: 0, reserved: 0 },
        by: actor,
      },
    ]);
    for (const movement of movements) expect(movement.reason).toBeNull();

    const changes = await changesAbout(cursor, item.id, sale.id, cart.id);
    for (const change of changes) expect(change.actor).toEqual(actor);
    // Each reservation change carries the reservation as it was then; each item.updated the item's quantities.
    const reservationChanges = changes.filter((change) => change.type.startsWith('reservation.'));
    expect(reservationChanges.map((change) => [change.type, change.objectId, change.data])).toEqual([
      ['reservation.created', sale.id, sale],
      ['reservation.created', cart.id, cart],
      ['reservation.committed', sale.id, committed],
      ['reservation.released', cart.id, released],
    ]);
    const itemChanges = changes.filter((change) => change.type === 'item.updated');
    expect(itemChanges.map((change) => (change.data as Item).quantity)).toEqual(
      [...movements]
        .reverse()
        .slice(1)
        .map((movement) => movement.after),
    );
    await expectInvariants(api, item.id);
  });

  it('records each reservation change, then the item.updated it causes, in one transaction', async () => {
    const item = await newItem(2);
    const cursor = await feedCursor(api);
    const hold = await reserve(api, item.id, { quantity: 1 });
    await stepped(hold.id, 'commit');
    const changes = await changesAbout(cursor, item.id, hold.id);
    expect(changes.map((change) => change.type)).toEqual([
      'reservation.created',
      'item.updated',
      'reservation.committed',
      'item.updated',
    ]);
    // One transaction each: the pair shares its occurredAt (the transaction's start).
    expect(changes[0]?.occurredAt).toBe(changes[1]?.occurredAt);
    expect(changes[2]?.occurredAt).toBe(changes[3]?.occurredAt);
  });
});

describe('races', () => {
  it('20 checkouts holding one unit each of 5 at once: exactly 5 held, 15 refused, reserved 5', async () => {
    const item = await newItem(5, 'RUSH');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => reserveRequest(api, item.id, { quantity: 1, reference: `RUSH-${i}` })),
    );
    expect(
      responses.map((response) => response.status).sort(),
      responses.map((response) => response.text).join('\n'),
    ).toEqual([...Array(5).fill(200), ...Array(15).fill(409)]);
    for (const refused of responses.filter((response) => response.status === 409)) {
      expect(refused.body).toEqual(ERROR_BODY.INSUFFICIENT_QUANTITY);
    }
    const { item: after } = await expectInvariants(api, item.id);
    expect(after.quantity).toEqual({ available: 0, sold: 0, reserved: 5 });
    expect(await reservationsOf(api, { itemId: item.id, status: 'held' })).toHaveLength(5);
  });

  it('a commit and a release of one hold at once: exactly one ends it, the other is refused', async () => {
    const item = await newItem(6, 'BOTH');
    const holds = await Promise.all(
      [1, 2, 3].map((i) => reserve(api, item.id, { quantity: 2, reference: `BOTH-${i}` })),
    );
    const outcomes = await Promise.all(
      holds.map(async (hold) => {
        const [commit, release] = await Promise.all([step(api, hold.id, 'commit'), step(api, hold.id, 'release')]);
        return { hold, commit, release };
      }),
    );
    let sold = 0;
    for (const { hold, commit, release } of outcomes) {
      expect([commit.status, release.status].sort(), `${commit.text} ${release.text}`).toEqual([200, 409]);
      const loser = commit.status === 409 ? commit : release;
      expect(loser.body).toEqual(ERROR_BODY.RESERVATION_NOT_HELD);
      const status = commit.status === 200 ? 'committed' : 'released';
      expect((await getReservation(hold.id)).status).toBe(status);
      if (status === 'committed') sold += 2;
    }
    const { item: after } = await expectInvariants(api, item.id);
    expect(after.quantity).toEqual({ available: 6 - sold, sold, reserved: 0 });
  });

  it('with an Idempotency-Key, a retried hold holds once and answers the same reservation', async () => {
    const item = await newItem(3, 'RETRY');
    const key = randomId();
    const send = () =>
      api.post(`/items/${item.id}/reservations`, {
        body: { quantity: 2, reference: 'CART-RETRY' },
        headers: { [IDEMPOTENCY.header]: key },
      });
    const first = await send();
    expectStatus(first, 200);
    const again = await send();
    expect([again.status, again.text]).toEqual([200, first.text]);
    expect(again.headers.get(IDEMPOTENCY.replayedHeader)).toBe('true');
    expect(await reservationsOf(api, { itemId: item.id })).toEqual([ReservationSchema.parse(first.body)]);
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 1, sold: 0, reserved: 2 });
  });
});

describe('expiry', () => {
  it('the worker gives an expired hold back within seconds, as the system, and leaves the others held', async () => {
    const item = await newItem(6);
    const due = await reserve(api, item.id, { quantity: 2, expiresInSeconds: 60, reference: 'CART-LATE' });
    const kept = await reserve(api, item.id, { quantity: 1, expiresInSeconds: 60, reference: 'CART-PAYING' });
    const cursor = await feedCursor(api);
    const worker = startReservationExpiry({
      sql: ctx.server.database.sql,
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      pollMs: 50,
      notify: quietNotifier,
    });
    try {
      await makeDue(due.id);
      const dueAt = Date.now();
      await eventually('the expired hold given back', async () => (await getReservation(due.id)).status === 'expired');
      expect(Date.now() - dueAt).toBeLessThan(5_000);
    } finally {
      await worker.stop();
    }
    const expired = await getReservation(due.id);
    expect(expired).toEqual({
      ...due,
      expiresAt: expect.any(String),
      status: 'expired',
      updatedAt: expect.any(String),
    });
    expect(await getReservation(kept.id)).toEqual(kept);
    expect((await getItem(api, item.id)).quantity).toEqual({ available: 5, sold: 0, reserved: 1 });
    const [expiry] = await movementsOf(api, item.id);
    expect(expiry).toMatchObject({
      kind: 'expire',
      reason: null,
      reference: 'CART-LATE',
      delta: { available: 2, sold: 0, reserved: -2 },
      after: { available: 5, sold: 0, reserved: 1 },
      actor: EXPIRY_ACTOR,
    });
    const changes = await changesAbout(cursor, item.id, due.id, kept.id);
    expect(changes.map((change) => [change.type, change.actor]).sort()).toEqual(
      [
        ['reservation.expired', EXPIRY_ACTOR],
        ['item.updated', EXPIRY_ACTOR],
      ].sort(),
    );
    expect(changes.find((change) => change.type === 'reservation.expired')?.data).toEqual(expired);
    // Once expired, it is not held: neither committed nor released.
    for (const action of ['commit', 'release'] as const) {
      const refused = await step(api, due.id, action);
      expectStatus(refused, 409);
      expect(refused.body).toEqual(ERROR_BODY.RESERVATION_NOT_HELD);
    }
    await expectInvariants(api, item.id);
  });
});
