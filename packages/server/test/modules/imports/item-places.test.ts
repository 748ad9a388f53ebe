import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CategoryListSchema, ChangeListSchema, type Item, WarehouseListSchema } from '@coinventory/contract';
import { afterAll, describe, expect, it } from 'vitest';
import type { Sql } from '../../../src/db/types.js';
import { EXIT } from '../../../src/operator/index.js';
import { csvObjects, operatorCommands, SAMPLES } from '../../support/imports.js';
import { createItem, freshApi, getItem } from '../../support/items.js';
import { createTestOrganization } from '../../support/organization.js';
import { serverWithOrganization } from '../../support/server.js';

/**
 * `import item-places FILE`: items created through the API are filed under the categories, warehouses and zones
 * imported before, by the old system's ids, as a PATCH would file them (updatedAt, one item.updated each).
 */

const work = mkdtempSync(join(tmpdir(), 'coinventory-item-places-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('import item-places, run in-process on the suite’s database', () => {
  const ctx = serverWithOrganization({ policy: { maxRequests: 100_000, windowSeconds: 60 } });
  const sql = (): Sql => ctx.server.database.sql;
  const { run, json } = operatorCommands(sql);

  it('files the sample items by the old ids, twice: one change per item the first time, none the second', async () => {
    const ws = await createTestOrganization(sql());
    const api = await freshApi(ctx.server, ws);
    for (const [kind, name] of [
      ['categories', 'categories.csv'],
      ['warehouses', 'warehouses.csv'],
      ['zones', 'zones.ndjson'],
    ] as const) {
      await json('import', kind, join(SAMPLES, name), '--org', ws.slug);
    }
    const items = new Map<string, Item>();
    for (const row of csvObjects(join(SAMPLES, 'items.csv'))) {
      items.set(row.sku as string, await createItem(api, { sku: row.sku as string, title: row.title as string }));
    }
    const cursor = ((await api.get('/changes/cursor')).body as { cursor: string }).cursor;

    const places = join(SAMPLES, 'item-places.csv');
    expect(await json('import', 'item-places', places, '--org', ws.slug)).toMatchObject({
      rows: 5,
      created: 0,
      updated: 5,
      unchanged: 0,
      rejected: [],
    });
    expect(await json('import', 'item-places', places, '--org', ws.slug)).toMatchObject({ updated: 0, unchanged: 5 });

    // The ids the imports gave the old system's categories, warehouses and zones, read through the API.
    const categories = CategoryListSchema.parse((await api.get('/categories?limit=100')).body).items;
    const warehouses = WarehouseListSchema.parse((await api.get('/warehouses?limit=100')).body).items;
    const categoryByName = new Map(categories.map((category) => [category.name, category]));
    const categoryNames = new Map(csvObjects(join(SAMPLES, 'categories.csv')).map((row) => [row.externalId, row.name]));
    const warehouseNames = new Map(
      csvObjects(join(SAMPLES, 'warehouses.csv')).map((row) => [row.externalId, row.name]),
    );
    const zoneNames = new Map(
      readFileSync(join(SAMPLES, 'zones.ndjson'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, string>)
        .map((zone) => [`${zone.warehouse} ${zone.externalId}`, zone.name]),
    );
    const changed: Item[] = [];
    for (const row of csvObjects(places)) {
      const item = await getItem(api, (items.get(row.sku as string) as Item).id);
      changed.push(item);
      const category = categoryByName.get(categoryNames.get(row.category as string) as string);
      expect(item.category, row.sku).toEqual({ id: category?.id, name: category?.name });
      const warehouse = warehouses.find((candidate) => candidate.name === warehouseNames.get(row.warehouse as string));
      expect(item.location.warehouseId, row.sku).toBe(warehouse?.id);
      // No zone: the warehouse's first.
      const zone = row.zone
        ? warehouse?.zones.find((candidate) => candidate.name === zoneNames.get(`${row.warehouse} ${row.zone}`))
        : warehouse?.zones[0];
      expect(item.location.zoneId, row.sku).toBe(zone?.id);
      expect(item.updatedAt).not.toBeNull();
    }
    const changes = ChangeListSchema.parse((await api.get(`/changes?after=${cursor}`)).body).items;
    expect(changes.map((change) => [change.type, change.objectId, change.data])).toEqual(
      changed.map((item) => ['item.updated', item.id, item]),
    );
  });

  it('refuses rows naming what is not there, by row, and writes nothing', async () => {
    const ws = await createTestOrganization(sql());
    const api = await freshApi(ctx.server, ws);
    await json('import', 'categories', join(SAMPLES, 'categories.csv'), '--org', ws.slug);
    await json('import', 'warehouses', join(SAMPLES, 'warehouses.csv'), '--org', ws.slug);
    await json('import', 'zones', join(SAMPLES, 'zones.ndjson'), '--org', ws.slug);
    const item = await createItem(api, { sku: 'A-1', title: 'An item' });
    const path = join(work, 'bad-places.csv');
    writeFileSync(
      path,
      [
        'sku,category,warehouse,zone',
        'A-1,CAT-01,WH-MAIN,CASE-A',
        'NO-SUCH,CAT-01,,',
        'A-1,CAT-99,,',
        'A-2,,,CASE-A',
        'A-3,,WH-NOWHERE,',
        'A-4,,WH-VAULT,CASE-A',
      ].join('\n'),
    );
    const refused = await run('import', 'item-places', path, '--org', ws.slug);
    expect(refused.exitCode).toBe(EXIT.refused);
    expect(refused.stderr.split('\n').filter((line) => line.startsWith('  row '))).toEqual([
      '  row 3: sku: no item with SKU "NO-SUCH"',
      '  row 4: repeats row 2 (the same sku)',
      '  row 5: warehouse: needs the warehouse of the zone',
      '  row 6: sku: no item with SKU "A-3"',
      '  row 7: sku: no item with SKU "A-4"',
    ]);
    expect(await getItem(api, item.id)).toEqual(item);

    // With the items there, the rows' own references are what is refused.
    await createItem(api, { sku: 'A-3', title: 'Three' });
    await createItem(api, { sku: 'A-4', title: 'Four' });
    writeFileSync(
      path,
      ['sku,category,warehouse,zone', 'A-1,CAT-99,,', 'A-3,,WH-NOWHERE,', 'A-4,,WH-VAULT,CASE-A'].join('\n'),
    );
    const again = await run('import', 'item-places', path, '--org', ws.slug);
    expect(again.exitCode).toBe(EXIT.refused);
    expect(again.stderr.split('\n').filter((line) => line.startsWith('  row '))).toEqual([
      '  row 2: category: no category with externalId "CAT-99" (import categories first)',
      '  row 3: warehouse: no warehouse with externalId "WH-NOWHERE" (import warehouses first)',
      '  row 4: zone: no zone with externalId "CASE-A" in warehouse "WH-VAULT" (import zones first)',
    ]);
    expect(await getItem(api, item.id)).toEqual(item);
  });
});
