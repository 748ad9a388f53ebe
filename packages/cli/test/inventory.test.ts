import { randomUUID } from 'node:crypto';
import type { Item, Movement, Reservation } from '@coinventory/sdk';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseCsv } from './support/csv.js';
import { json, listed, withKey } from './support/demo.js';

// Issue 37 through the built binary: `items adjust` (signed numbers, both ways of writing them), `items movements`,
// and `reservations`, each checked with the SDK. Only items this file creates are touched. Each run of the binary costs
// about 0.4 s of CPU, so each test asks several things of one run.

const { run, sdk } = withKey(inject('server').keys.inventory);

// The items are made in the demo organization that other files list and snapshot: each is deleted once its tests ran
// (its reservations and movements with it).
const created: Item[] = [];
async function createItem(input: Parameters<typeof sdk.items.create>[0]): Promise<Item> {
  const item = await sdk.items.create(input);
  created.push(item);
  return item;
}
afterAll(async () => {
  for (const item of created) await sdk.items.delete(item.id);
});
const REQUEST_ID = 'Request ID: req_\\S+';

describe('items adjust', () => {
  const sku = `ADJ-${randomUUID().slice(0, 8)}`;
  let item: Item;

  beforeAll(async () => {
    item = await createItem({ sku, title: 'Sold in several places', quantity: 2 });
  });

  it('takes signed numbers after a space (--available -1 --sold +1), by SKU, and prints the item', async () => {
    const sold = json<Item>(
      await run([
        'items',
        'adjust',
        sku,
        '--available',
        '-1',
        '--sold',
        '+1',
        '--reason',
        'sale',
        '--reference',
        'ORD-1',
        '--json',
      ]),
    );
    expect(sold).toMatchObject({ id: item.id, quantity: { available: 1, sold: 1, reserved: 0 } });
    expect(await sdk.items.get(item.id)).toEqual(sold);
  });

  it('takes them after = too (--available=-1 --sold=+1), by id, as a detail view', async () => {
    const { code, stdout, stderr } = await run([
      'items',
      'adjust',
      item.id,
      '--available=-1',
      '--sold=+1',
      '--reason=sale',
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toMatch(/^Quantity +0 available, 2 sold, 0 reserved$/m);
  });

  it('a dry run prints the item as it would be, says so on stderr, and writes nothing', async () => {
    const before = await sdk.items.get(item.id);
    const { code, stdout, stderr } = await run([
      'items',
      'adjust',
      sku,
      '--available',
      '+3',
      '--reason',
      'restock',
      '--dry-run',
      '--json',
    ]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: 'Dry run: nothing was written.\n' });
    expect((JSON.parse(stdout) as Item).quantity).toEqual({ ...before.quantity, available: 3 });
    expect(await sdk.items.get(item.id)).toEqual(before);
  });

  it('too few units: exit 5, the code, and how many the item has; nothing is written', async () => {
    const before = await sdk.items.get(item.id);
    const result = await run(['items', 'adjust', sku, '--available', '-1', '--sold', '+1', '--reason', 'sale']);
    expect(result.code).toBe(5);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^Error: Not enough quantity available: 0 available \\(INSUFFICIENT_QUANTITY, HTTP 409\\)\n${REQUEST_ID}\nNothing was written\\. The item's movements: coinventory items movements ${sku}\n$`,
      ),
    );
    expect(await sdk.items.get(item.id)).toEqual(before);
  });

  it('a stale --if-match is a conflict too (exit 5)', async () => {
    const stale = await run([
      'items',
      'adjust',
      item.id,
      '--available',
      '1',
      '--reason',
      'received',
      '--if-match',
      '"stale"',
    ]);
    expect(stale.code).toBe(5);
    expect(stale.stderr).toMatch(/^Error: .* \(PRECONDITION_FAILED, HTTP 412\)\n/);
  });

  it('refuses before any request: nothing to adjust, a number that is not whole, no reason (exit 2)', async () => {
    const [nothing, fraction, reasonless] = await Promise.all([
      run(['items', 'adjust', sku, '--available', '0', '--sold=-0', '--reason', 'correction']),
      run(['items', 'adjust', sku, '--available', '-1.5', '--reason', 'lost']),
      run(['items', 'adjust', sku, '--available', '-1']),
    ]);
    expect(nothing).toEqual({
      code: 2,
      stdout: '',
      stderr:
        "error: Nothing to adjust: give --available or --sold a number of units other than 0 (-1 takes one away).\n(run 'coinventory items adjust --help' for usage and examples)\n",
    });
    expect(fraction.code).toBe(2);
    expect(fraction.stderr).toContain(
      "error: option '--available <n>' argument '-1.5' is invalid. Must be a whole number from -2,147,483,647 to 2,147,483,647, written in digits with an optional sign: -1, +1.",
    );
    expect(reasonless.code).toBe(2);
    expect(reasonless.stderr).toContain("error: required option '--reason <reason>' not specified");
  });
});

describe('items movements', () => {
  const sku = `MOV-${randomUUID().slice(0, 8)}`;
  let item: Item;
  let ledger: Movement[];

  beforeAll(async () => {
    item = await createItem({ sku, title: 'A ledger', quantity: 5 });
    await sdk.items.adjust(item.id, { available: -1, sold: 1, reason: 'sale', reference: 'POS-1' });
    await sdk.items.adjust(item.id, { available: -1, reason: 'damaged' });
    ledger = (await sdk.items.movements(item.id)).items;
  });

  it('a table, newest first: what moved each quantity, what they were after, and which key', async () => {
    const { code, stdout, stderr } = await run(['items', 'movements', sku]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const [header, ...rows] = stdout.trimEnd().split('\n');
    expect(header?.split(/ {2,}/)).toEqual([
      'WHEN',
      'KIND',
      'REASON',
      'AVAIL',
      'SOLD',
      'RESERVED',
      'AFTER (A/S/R)',
      'BY',
      'REFERENCE',
    ]);
    expect(rows.map((row) => row.split(/ {2,}/).slice(1))).toEqual([
      ['adjustment', 'damaged', '-1', '0', '0', '3/1/0', 'key cli inventory tests', '-'],
      ['adjustment', 'sale', '-1', '+1', '0', '4/1/0', 'key cli inventory tests', 'POS-1'],
      ['create', '-', '+5', '0', '0', '5/0/0', 'key cli inventory tests', '-'],
    ]);
  });

  it('--json is the API objects; --all --limit 1 --output csv walks every page, one row a movement', async () => {
    const [asJson, asCsv] = await Promise.all([
      run(['items', 'movements', item.id, '--json']),
      run(['items', 'movements', sku, '--all', '--limit', '1', '--output', 'csv']),
    ]);
    expect(listed<Movement>(asJson)).toEqual(ledger);
    expect(asCsv.code).toBe(0);
    const [header, ...rows] = parseCsv(asCsv.stdout);
    expect(header).toEqual([
      'id',
      'itemId',
      'kind',
      'reason',
      'reference',
      'delta.available',
      'delta.sold',
      'delta.reserved',
      'after.available',
      'after.sold',
      'after.reserved',
      'actor.type',
      'actor.id',
      'actor.name',
      'occurredAt',
    ]);
    expect(rows.map((row) => row[0])).toEqual(ledger.map((movement) => movement.id));
  });
});

describe('reservations', () => {
  const sku = `RES-${randomUUID().slice(0, 8)}`;
  const reference = `WEB-${randomUUID().slice(0, 8)}`;
  let item: Item;
  let held: Reservation;
  let cursor: string;

  beforeAll(async () => {
    ({ cursor } = await sdk.changes.cursor());
    item = await createItem({ sku, title: 'Held while a customer pays', quantity: 2 });
  });

  it('create <sku> holds units and prints the reservation; list and get find it', async () => {
    held = json<Reservation>(
      await run(['reservations', 'create', sku, '--quantity', '2', '--reference', reference, '--json']),
    );
    expect(held).toMatchObject({ itemId: item.id, quantity: 2, status: 'held', reference });
    expect((await sdk.items.get(item.id)).quantity).toEqual({ available: 0, sold: 0, reserved: 2 });
    const [reservations, shown] = await Promise.all([
      run(['reservations', 'list', '--item-id', item.id, '--status', 'held', '--json']),
      run(['reservations', 'get', held.id]),
    ]);
    expect(listed<Reservation>(reservations)).toEqual([held]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^ID +${held.id}$`, 'm'));
    expect(shown.stdout).toMatch(/^Status +held$/m);
    expect(shown.stdout).toMatch(new RegExp(`^Reference +${reference}$`, 'm'));
  });

  it('create with too few available: exit 5, and how many there are', async () => {
    const result = await run(['reservations', 'create', item.id]);
    expect(result.code).toBe(5);
    expect(result.stderr).toMatch(
      /^Error: Not enough quantity available: 0 available \(INSUFFICIENT_QUANTITY, HTTP 409\)\n/,
    );
  });

  it('commit sells the units; releasing it then is exit 5 and says what became of it', async () => {
    const committed = json<Reservation>(await run(['reservations', 'commit', held.id, '--json']));
    expect(committed).toMatchObject({ id: held.id, status: 'committed' });
    expect((await sdk.items.get(item.id)).quantity).toEqual({ available: 0, sold: 2, reserved: 0 });
    const again = await run(['reservations', 'release', held.id]);
    expect(again.code).toBe(5);
    expect(again.stdout).toBe('');
    expect(again.stderr).toMatch(
      new RegExp(
        `^Error: The reservation is no longer held: it was committed, released or has expired \\(RESERVATION_NOT_HELD, HTTP 409\\)\n${REQUEST_ID}\nReservation ${held.id} is committed since \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}; nothing moved\\.\n$`,
      ),
    );
  });

  it('release gives the units back; a dry run first moves nothing', async () => {
    await sdk.items.adjust(item.id, { available: 1, reason: 'return' });
    const hold = await sdk.reservations.create(item.id, { quantity: 1 });
    const dry = await run(['reservations', 'release', hold.id, '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/^Status +released$/m);
    expect(dry.stderr).toBe('Dry run: nothing was written.\n');
    expect((await sdk.reservations.get(hold.id)).status).toBe('held');
    expect(json<Reservation>(await run(['reservations', 'release', hold.id, '--json'])).status).toBe('released');
    expect((await sdk.items.get(item.id)).quantity).toEqual({ available: 1, sold: 2, reserved: 0 });
  });

  it('the changes feed shows each step: its units and reference in the table, the key as actor in --json', async () => {
    const types = 'reservation.created,reservation.committed';
    const [table, lines] = await Promise.all([
      run(['changes', '--after', cursor, '--types', types]),
      run(['changes', '--after', cursor, '--types', types, '--json']),
    ]);
    expect(table.code).toBe(0);
    const rows = table.stdout
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((row) => row.split(/ {2,}/).slice(1));
    expect(rows).toEqual([
      ['reservation.created', held.id, '-', `2 units for ${reference}`],
      ['reservation.committed', held.id, '-', `2 units for ${reference}`],
      ['reservation.created', expect.any(String), '-', '1 unit'],
    ]);
    const { apiKey } = await sdk.me();
    const actors = lines.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { actor: unknown }).actor);
    expect(actors).toEqual(rows.map(() => ({ type: 'key', id: apiKey.id, name: apiKey.name })));
  });
});
