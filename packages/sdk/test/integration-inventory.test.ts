import { randomUUID } from 'node:crypto';
import { ERRORS, RESERVATIONS } from '@coinventory/contract/constants';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Actor,
  Coinventory,
  ConflictError,
  InsufficientQuantityError,
  type Item,
  type Movement,
  PreconditionFailedError,
  ReservationNotHeldError,
} from '../src/index.js';
import { type RunningServer, startServer, stopServer, thrown } from './support/server.js';

// Issue 37 against the real server binary (embedded database, demo organization): adjusting an item's quantities, its
// ledger of movements, and reservations, each step named by the key that took it. It touches only items it creates.
// About 50 requests: well under the key's rate limit (120 a minute).
let server: RunningServer | undefined;
let client: Coinventory;
/** The demo key, as a Change or a Movement names it. */
let actor: Actor;

beforeAll(async () => {
  server = await startServer();
  client = new Coinventory({ apiKey: server.apiKey, baseUrl: server.baseUrl, maxRetries: 0 });
  const { apiKey } = await client.me();
  actor = { type: 'key', id: apiKey.id, name: apiKey.name };
});

afterAll(async () => {
  await stopServer(server);
});

const newItem = (quantity: number): Promise<Item> =>
  client.items.create({ sku: `SDK-INV-${randomUUID()}`, title: 'Sold in several places', quantity });

/** What the movements' deltas add up to: the item's quantities, by the ledger's rule. */
const summed = (movements: readonly Movement[]) =>
  movements.reduce(
    (sum, { delta }) => ({
      available: sum.available + delta.available,
      sold: sum.sold + delta.sold,
      reserved: sum.reserved + delta.reserved,
    }),
    { available: 0, sold: 0, reserved: 0 },
  );

describe('client.items.adjust and client.items.movements', () => {
  let item: Item;

  beforeAll(async () => {
    item = await newItem(2);
  });

  it('sells one (available down, sold up, together); the ledger records it first, with its reason and key', async () => {
    const sold = await client.items.adjust(item.id, { available: -1, sold: 1, reason: 'sale', reference: 'ORD-1' });
    expect(sold).toMatchObject({ id: item.id, quantity: { available: 1, sold: 1, reserved: 0 } });
    const page = await client.items.movements(item.id);
    expect(page).toMatchObject({ page: 1, hasMore: false });
    expect(page.items.map((movement) => movement.kind)).toEqual(['adjustment', 'create']);
    expect(page.items[0]).toEqual({
      id: expect.any(String),
      itemId: item.id,
      kind: 'adjustment',
      reason: 'sale',
      reference: 'ORD-1',
      delta: { available: -1, sold: 1, reserved: 0 },
      after: { available: 1, sold: 1, reserved: 0 },
      actor,
      occurredAt: expect.any(String),
    });
    expect(page.items[1]).toMatchObject({
      kind: 'create',
      reason: null,
      delta: { available: 2, sold: 0, reserved: 0 },
    });
  });

  it('refuses to take a quantity below 0 with InsufficientQuantityError, and writes nothing', async () => {
    const before = await client.items.get(item.id);
    const error = await thrown(client.items.adjust(item.id, { available: -2, sold: 2, reason: 'sale' }));
    expect(error).toBeInstanceOf(InsufficientQuantityError);
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({
      status: 409,
      code: 'INSUFFICIENT_QUANTITY',
      apiMessage: ERRORS.INSUFFICIENT_QUANTITY.message,
      resource: { type: 'item', id: item.id },
    });
    expect(await client.items.get(item.id)).toEqual(before);
  });

  it('a dry run answers the item as it would be and writes nothing; ifMatch guards a real one', async () => {
    const { data: before, etag } = await client.items.get(item.id).withResponse();
    const wouldBe = await client.items.adjust(item.id, { available: 3, reason: 'restock' }, { dryRun: true });
    expect(wouldBe.quantity).toEqual({ ...before.quantity, available: before.quantity.available + 3 });
    expect(await client.items.get(item.id)).toEqual(before);
    const stale = await thrown(
      client.items.adjust(item.id, { available: 1, reason: 'received' }, { ifMatch: '"stale"' }),
    );
    expect(stale).toBeInstanceOf(PreconditionFailedError);
    const received = await client.items.adjust(item.id, { available: 1, reason: 'received' }, { ifMatch: etag });
    expect(received.quantity.available).toBe(before.quantity.available + 1);
  });

  it('movements page themselves: iterating one a page walks the whole ledger, whose deltas add up', async () => {
    const walked: Movement[] = [];
    for await (const movement of client.items.movements(item.id, { limit: 1 })) walked.push(movement);
    const all = await client.items.movements(item.id, { limit: 100 });
    expect(walked).toEqual(all.items);
    expect(walked.map((movement) => movement.kind)).toEqual(['adjustment', 'adjustment', 'create']);
    expect(summed(walked)).toEqual((await client.items.get(item.id)).quantity);
  });
});

describe('client.reservations', () => {
  let item: Item;
  let cursor: string;
  const reference = `WEB-${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    ({ cursor } = await client.changes.cursor());
    item = await newItem(3);
  });

  it('create holds units for the default time; get and list find it; commit sells them', async () => {
    const held = await client.reservations.create(item.id, { quantity: 2, reference });
    expect(held).toMatchObject({ itemId: item.id, quantity: 2, status: 'held', reference, updatedAt: null });
    expect(Date.parse(held.expiresAt) - Date.parse(held.createdAt)).toBe(RESERVATIONS.expiresInSeconds.default * 1000);
    expect((await client.items.get(item.id)).quantity).toEqual({ available: 1, sold: 0, reserved: 2 });
    expect(await client.reservations.get(held.id)).toEqual(held);
    expect((await client.reservations.list({ itemId: item.id })).items).toEqual([held]);
    expect((await client.reservations.list({ reference })).items).toEqual([held]);
    expect((await client.reservations.list({ itemId: item.id, status: 'committed' })).items).toEqual([]);

    const committed = await client.reservations.commit(held.id);
    expect(committed).toMatchObject({ id: held.id, status: 'committed', updatedAt: expect.any(String) });
    expect((await client.items.get(item.id)).quantity).toEqual({ available: 1, sold: 2, reserved: 0 });
    for (const step of [client.reservations.commit, client.reservations.release]) {
      const error = await thrown(step.call(client.reservations, held.id));
      expect(error).toBeInstanceOf(ReservationNotHeldError);
      expect(error).toMatchObject({
        status: 409,
        code: 'RESERVATION_NOT_HELD',
        resource: { type: 'reservation', id: held.id },
      });
    }
  });

  it('more than available is InsufficientQuantityError; dry runs hold and release nothing; release gives back', async () => {
    expect(await thrown(client.reservations.create(item.id, { quantity: 2 }))).toBeInstanceOf(
      InsufficientQuantityError,
    );
    const wouldHold = await client.reservations.create(
      item.id,
      { quantity: 1, expiresInSeconds: 60 },
      { dryRun: true },
    );
    expect(wouldHold).toMatchObject({ itemId: item.id, quantity: 1, status: 'held' });
    expect((await client.reservations.list({ itemId: item.id, status: 'held' })).items).toEqual([]);

    const held = await client.reservations.create(item.id, { quantity: 1, expiresInSeconds: 3600 });
    expect((await client.reservations.release(held.id, { dryRun: true })).status).toBe('released');
    expect((await client.reservations.get(held.id)).status).toBe('held');
    expect((await client.reservations.release(held.id)).status).toBe('released');
    expect((await client.items.get(item.id)).quantity).toEqual({ available: 1, sold: 2, reserved: 0 });
    const walked = [];
    for await (const reservation of client.reservations.list({ itemId: item.id, limit: 1 })) walked.push(reservation);
    expect(walked.map((reservation) => reservation.status)).toEqual(['released', 'committed']);
  });

  it('the ledger and the changes feed record each step, and the key that took it', async () => {
    const { items: movements } = await client.items.movements(item.id);
    expect(movements.map((movement) => movement.kind)).toEqual(['release', 'reserve', 'commit', 'reserve', 'create']);
    expect(movements[3]).toMatchObject({ reference, delta: { available: -2, sold: 0, reserved: 2 }, actor });
    expect(summed(movements)).toEqual((await client.items.get(item.id)).quantity);

    const types = ['reservation.created', 'reservation.committed', 'reservation.released'] as const;
    const { items: changes } = await client.changes.list({ after: cursor, types: [...types] });
    expect(changes.map((change) => [change.type, change.actor])).toEqual([
      ['reservation.created', actor],
      ['reservation.committed', actor],
      ['reservation.created', actor],
      ['reservation.released', actor],
    ]);
  });
});
