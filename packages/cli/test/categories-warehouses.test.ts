import type { Category, Warehouse } from '@coinventory/sdk';
import { describe, expect, inject, it } from 'vitest';
import { scrub } from './support/cli.js';
import { parseCsv } from './support/csv.js';
import { json, listed, withKey } from './support/demo.js';

// `categories` and `warehouses` (list and get) on the demo organization's categories, warehouses and zones.

const { run, sdk } = withKey(inject('server').keys.places);

describe('categories', () => {
  it('list: by name, in a table, JSON, CSV and pages', async () => {
    const { code, stdout, stderr } = await run(['categories', 'list']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(scrub(stdout)).toMatchInlineSnapshot(`
      "ID                                    NAME
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  Ancient Coins
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  Bullion
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  Gold Eagles
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  Morgan Dollars
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  Proof Sets
      "
    `);
    const all = listed<Category>(await run(['categories', 'list', '--json']));
    expect(all).toEqual((await sdk.categories.list()).items);
    expect(listed<Category>(await run(['categories', 'ls', '--all', '--limit', '2', '--json']))).toEqual(all);
    expect(listed<Category>(await run(['categories', 'list', '--page', '2', '--limit', '2', '--json']))).toEqual(
      all.slice(2, 4),
    );
    expect(parseCsv((await run(['categories', 'list', '-o', 'csv'])).stdout)).toEqual([
      ['id', 'name'],
      ...all.map((category) => [category.id, category.name]),
    ]);
  });

  it('get: detail view and JSON; no search option', async () => {
    const [first] = (await sdk.categories.list()).items;
    if (!first) throw new Error('the demo has no categories');
    expect(await run(['categories', 'get', first.id])).toEqual({
      code: 0,
      stdout: `ID    ${first.id}\nName  ${first.name}\n`,
      stderr: '',
    });
    expect(json<Category>(await run(['categories', 'show', first.id, '--json']))).toEqual(first);
    const search = await run(['categories', 'list', '-q', 'gold']);
    expect(search.code).toBe(2);
    expect(search.stderr).toContain("unknown option '-q'");
  });
});

describe('warehouses', () => {
  it('list: the default first, each with its zones in order', async () => {
    const { code, stdout, stderr } = await run(['warehouses', 'list']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(scrub(stdout)).toMatchInlineSnapshot(`
      "ID                                    NAME            DEFAULT  ZONES  ZONE NAMES
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  Main            yes          3  Receiving, Vault A, Showcase
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  Show inventory  no           2  Travel case A (slabs), Travel case B (bullion & sets)
      "
    `);
    const all = listed<Warehouse>(await run(['warehouses', 'list', '--json']));
    expect(all).toEqual((await sdk.warehouses.list()).items);
    expect(listed<Warehouse>(await run(['warehouses', 'list', '--all', '--limit', '1', '--json']))).toEqual(all);
    const csv = parseCsv((await run(['warehouses', 'list', '--output', 'csv'])).stdout);
    expect(csv[0]).toEqual(['id', 'name', 'isDefault', 'zones']);
    expect(csv.slice(1).map((row) => JSON.parse(row[3] ?? ''))).toEqual(all.map((w) => w.zones));
  });

  it("get: the warehouse with each zone's id", async () => {
    const [main] = (await sdk.warehouses.list()).items;
    if (!main) throw new Error('the demo has no warehouses');
    const { code, stdout } = await run(['warehouses', 'get', main.id]);
    expect(code).toBe(0);
    expect(scrub(stdout)).toMatchInlineSnapshot(`
      "ID       xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
      Name     Main
      Default  yes (items created without --warehouse-id go here)

      Zones (3)
      ID                                    NAME
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  Receiving
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  Vault A
      xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx  Showcase
      "
    `);
    for (const zone of main.zones) expect(stdout).toContain(`${zone.id}  ${zone.name}`);
    expect(json<Warehouse>(await run(['warehouses', 'get', main.id, '--json']))).toEqual(main);
  });

  it('an unknown id is exit 4', async () => {
    const result = await run(['warehouses', 'get', '00000000-0000-4000-8000-000000000000']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /^Error: Not found: warehouse 00000000-0000-4000-8000-000000000000 \(NOT_FOUND, HTTP 404\)\nRequest ID: req_\S+\n$/,
    );
  });
});
