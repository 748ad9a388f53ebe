import type { Item } from '@coinventory/sdk';
import { describe, expect, inject, it } from 'vitest';
import { parseCsv } from './support/csv.js';
import { json, listed, withKey } from './support/demo.js';

// `--fields` on lists and gets: the columns of a table or CSV and the keys of JSON.

const { keys } = inject('server');
const { run, sdk } = withKey(keys.raw);

describe('--fields', () => {
  it('keeps only the keys named in JSON, nested ones nested', async () => {
    const page = await sdk.items.list({ sort: 'sku', limit: 3 });
    const picked = listed(
      await run([
        'items',
        'list',
        '--sort',
        'sku',
        '--limit',
        '3',
        '--json',
        '--fields',
        'sku,quantity.available,grading',
      ]),
    );
    expect(picked).toEqual(
      page.items.map((item) => ({
        sku: item.sku,
        quantity: { available: item.quantity.available },
        grading: item.grading,
      })),
    );
  });

  it('makes one table column per field, an object spread into its fields, amounts in dollars', async () => {
    const [item] = (await sdk.items.list({ sort: 'sku', limit: 1 })).items;
    if (!item) throw new Error('no demo items');
    const { code, stdout } = await run([
      'items',
      'list',
      '--sort',
      'sku',
      '--limit',
      '1',
      '--fields',
      'sku,quantity,valueInCents',
    ]);
    expect(code).toBe(0);
    const [header, row] = stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.trim().split(/\s{2,}/));
    expect(header).toEqual(['SKU', 'QUANTITY.AVAILABLE', 'QUANTITY.SOLD', 'QUANTITY.RESERVED', 'VALUE']);
    expect(row?.slice(0, 4)).toEqual([
      item.sku,
      ...[item.quantity.available, item.quantity.sold, item.quantity.reserved].map(String),
    ]);
    expect(row?.[4]).toMatch(/^\$[\d,]+\.\d\d$/);
  });

  it('chooses the CSV columns, in the order given', async () => {
    const page = await sdk.items.list({ sort: 'sku', limit: 2 });
    const { code, stdout } = await run([
      'items',
      'list',
      '--sort',
      'sku',
      '--limit',
      '2',
      '-o',
      'csv',
      '--fields',
      'valueInCents,sku,attributes.year',
    ]);
    expect(code).toBe(0);
    expect(parseCsv(stdout)).toEqual([
      ['valueInCents', 'sku', 'attributes.year'],
      ...page.items.map((item) => [String(item.valueInCents), item.sku, String(item.attributes.year ?? '')]),
    ]);
  });

  it('works on get: the detail view and JSON', async () => {
    const [item] = (await sdk.items.list({ sort: 'sku', limit: 1 })).items as [Item];
    expect(json(await run(['items', 'get', item.sku, '--json', '--fields', 'id,title']))).toEqual({
      id: item.id,
      title: item.title,
    });
    const { code, stdout } = await run(['items', 'get', item.id, '--fields', 'id,title']);
    expect(code).toBe(0);
    expect(stdout).toBe(`id     ${item.id}\ntitle  ${item.title}\n`);
  });

  it('works on every other list and get too', async () => {
    const [category] = (await sdk.categories.list({ limit: 1 })).items;
    expect(listed(await run(['categories', 'list', '--limit', '1', '--json', '--fields', 'name']))).toEqual([
      { name: category?.name },
    ]);
    const [invoice] = (await sdk.invoices.list({ limit: 1 })).items;
    expect(json(await run(['invoices', 'get', invoice?.id ?? '', '--json', '--fields', 'id,status']))).toEqual({
      id: invoice?.id,
      status: invoice?.status,
    });
    for (const args of [
      ['consignments', 'list'],
      ['warehouses', 'list'],
      ['webhooks', 'list'],
      ['items', 'valuations', '--help'],
      ['webhooks', 'deliveries', '--help'],
    ]) {
      const help = await run([...args, '--help']);
      expect(help.stdout, args.join(' ')).toContain('--fields <names>');
    }
  });

  it('refuses unknown fields with exit 2, naming the fields there are', async () => {
    const { code, stdout, stderr } = await run(['items', 'list', '--fields', 'sku,price,quantity.lost']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain("Unknown fields 'price', 'quantity.lost'. The fields are: id, sku, title,");
    expect((await run(['items', 'list', '--fields', 'sku,,title'])).stderr).toContain(
      'Give field names separated by commas.',
    );
  });
});
