import { type Item, WarehouseListSchema, WarehouseSchema } from '@coinventory/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY } from '../../support/errors.js';
import { expectStatus } from '../../support/http.js';
import { type Api, freshApi } from '../../support/items.js';
import { createTestOrganization } from '../../support/organization.js';
import { uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';

const ctx = serverWithOrganization();
let api: Api;
let annex: { id: string; zones: string[] };
let otherId: string;

async function insertWarehouse(organizationId: string, name: string, zones: Array<[name: string, position: number]>) {
  const sql = ctx.server.database.sql;
  const [warehouse] = await sql<{ id: string }[]>`
    INSERT INTO warehouses (organization_id, name) VALUES (${organizationId}, ${name}) RETURNING id
  `;
  const id = warehouse?.id ?? '';
  const ids: string[] = [];
  for (const [zone, position] of zones) {
    const [row] = await sql<{ id: string }[]>`
      INSERT INTO zones (organization_id, warehouse_id, name, position)
      VALUES (${organizationId}, ${id}, ${zone}, ${position}) RETURNING id
    `;
    ids.push(row?.id ?? '');
  }
  return { id, zones: ids };
}

beforeAll(async () => {
  // Inserted out of order: the list orders zones by position, not by insertion.
  annex = await insertWarehouse(ctx.organization.organizationId, 'Annex', [
    ['Back room', 2],
    ['Front safe', 1],
  ]);
  await insertWarehouse(ctx.organization.organizationId, 'Aardvark storage', []);
  otherId = (
    await insertWarehouse((await createTestOrganization(ctx.server.database.sql)).organizationId, 'Theirs', [['Z', 1]])
  ).id;
  api = await freshApi(ctx.server, ctx.organization);
});

describe('GET /warehouses', () => {
  it('lists the default warehouse first, then by name, each with its zones in order', async () => {
    const response = await api.get('/warehouses');
    expectStatus(response, 200);
    const page = WarehouseListSchema.parse(response.body);
    expect(page).toMatchObject({ page: 1, limit: 20, hasMore: false });
    const [main, aardvark, second] = page.items;
    expect(main).toMatchObject({ id: ctx.organization.defaultWarehouseId, isDefault: true });
    expect(main?.zones.map((zone) => zone.id)).toEqual([ctx.organization.defaultZoneId]);
    expect(aardvark).toMatchObject({ name: 'Aardvark storage', isDefault: false, zones: [] });
    expect(second).toEqual({
      id: annex.id,
      name: 'Annex',
      isDefault: false,
      zones: [
        { id: annex.zones[1], name: 'Front safe' },
        { id: annex.zones[0], name: 'Back room' },
      ],
    });
    expect(page.items.map((warehouse) => warehouse.id)).not.toContain(otherId);
    const paged = WarehouseListSchema.parse((await api.get('/warehouses?limit=2&page=2')).body);
    expect(paged.items.map((warehouse) => warehouse.id)).toEqual([annex.id]);
  });

  it('gets one by id with its zones; another organization’s is 404', async () => {
    const response = await api.get(`/warehouses/${annex.id}`);
    expectStatus(response, 200);
    expect(WarehouseSchema.parse(response.body).zones.map((zone) => zone.name)).toEqual(['Front safe', 'Back room']);
    const theirs = await api.get(`/warehouses/${otherId}`);
    expect([theirs.status, theirs.body]).toEqual([404, ERROR_BODY.NOT_FOUND]);
  });

  it('gives the ids POST /items takes: a warehouse alone places the item in its first zone', async () => {
    const created = await api.post<Item>('/items', {
      body: { sku: uniqueSku('WH'), title: 'In the annex', warehouseId: annex.id },
    });
    expectStatus(created, 200);
    expect(created.body.location).toMatchObject({ warehouseId: annex.id, zoneId: annex.zones[1] });
    const placed = await api.post<Item>('/items', {
      body: { sku: uniqueSku('WH'), title: 'At the back', warehouseId: annex.id, zoneId: annex.zones[0] },
    });
    expect(placed.body.location).toMatchObject({ warehouseId: annex.id, zoneId: annex.zones[0] });
  });
});
