import { randomUUID } from 'node:crypto';
import type { Item, Valuation } from '@coinventory/sdk';
import { describe, expect, inject, it } from 'vitest';
import { json, listed, withKey } from './support/demo.js';

// `items get`, `update`, `delete` and `valuations` take an item's id or its SKU: a UUID is an id (one request, as
// before), anything else an exact SKU looked up first. They change only items this file creates.

const { run, sdk } = withKey(inject('server').keys.bySku);

describe('items by SKU', () => {
  const sku = `SKU-${randomUUID().slice(0, 8)}`;

  it('get by SKU is get by id', async () => {
    const item = await sdk.items.create({ sku, title: 'Found by SKU', quantity: 2 });
    const bySku = await run(['items', 'get', sku]);
    expect(bySku).toEqual(await run(['items', 'get', item.id]));
    expect(bySku.code).toBe(0);
    expect(bySku.stdout).toContain(`SKU                ${sku}\n`);
    expect(json<Item>(await run(['items', 'show', sku, '--json']))).toEqual(await sdk.items.get(item.id));
  });

  it('update by SKU and by id', async () => {
    const updated = json<Item>(await run(['items', 'update', sku, '--quantity', '5', '--json']));
    expect(updated).toMatchObject({ sku, quantity: { available: 5 } });
    expect(await sdk.items.get(updated.id)).toEqual(updated);
    const byId = json<Item>(await run(['items', 'edit', updated.id, '--title', 'Renamed', '--json']));
    expect(byId).toMatchObject({ id: updated.id, sku, title: 'Renamed', quantity: { available: 5 } });
  });

  it('valuations by SKU', async () => {
    const [demo] = (await sdk.items.list({ sku: 'MOR-1893-S-30' })).items;
    if (!demo) throw new Error('demo item MOR-1893-S-30 is missing');
    expect(listed<Valuation>(await run(['items', 'valuations', 'MOR-1893-S-30', '--json']))).toEqual(
      (await sdk.items.valuations(demo.id)).items,
    );
  });

  it('an unknown SKU is not found, exit 4 as for an unknown id, for every command', async () => {
    const missing = `${sku}-missing`;
    for (const args of [
      ['items', 'get', missing],
      ['items', 'update', missing, '--quantity', '1'],
      ['items', 'delete', missing, '--yes'],
      ['items', 'valuations', missing],
    ]) {
      const result = await run(args);
      expect(result, args.join(' ')).toEqual({
        code: 4,
        stdout: '',
        stderr: `Error: Not found: item with SKU "${missing}" (NOT_FOUND, HTTP 404)\nRequest ID: ${/Request ID: (\S+)/.exec(result.stderr)?.[1]}\nSKUs match exactly, case included.\nTo search: coinventory items list -q ${missing}\n`,
      });
    }
    // Exact: the SKU in another case is another SKU.
    expect((await run(['items', 'get', sku.toLowerCase()])).code).toBe(4);
    const id = randomUUID();
    const unknownId = await run(['items', 'get', id]);
    expect(unknownId.code).toBe(4);
    expect(unknownId.stderr).toMatch(new RegExp(`^Error: Not found: item ${id} \\(NOT_FOUND, HTTP 404\\)\n`));
  });

  it('delete by SKU names the item; by id as before', async () => {
    const item = await sdk.items.get((await sdk.items.list({ sku })).items[0]?.id ?? '');
    expect(await run(['items', 'delete', sku, '--yes'])).toEqual({
      code: 0,
      stdout: `Deleted item ${item.id} (${sku})\n`,
      stderr: '',
    });
    expect((await sdk.items.list({ sku })).items).toEqual([]);
    const other = await sdk.items.create({ sku: `${sku}-B`, title: 'Deleted by id' });
    expect(json(await run(['items', 'rm', other.id, '--yes', '--json']))).toEqual({ id: other.id, deleted: true });
  });
});
