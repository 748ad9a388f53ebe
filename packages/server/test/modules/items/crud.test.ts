import {
  type CreateItemInput,
  DeletedItemSchema,
  ErrorBodySchema,
  type Item,
  ItemSchema,
  LIMITS,
  type UpdateItemInput,
} from '@coinventory/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ERROR_BODY, expectBadRequest } from '../../support/errors.js';
import { expectStatus } from '../../support/http.js';
import { type Api, createItem, freshApi, getItem, listItems, randomId } from '../../support/items.js';
import { startTestServer, type TestServer } from '../../support/server.js';
import { addCategory, addZone, createWorkspace, type TestWorkspace } from '../../support/workspace.js';

let server: TestServer;
let ws: TestWorkspace;
let other: TestWorkspace;
let api: Api;
let otherApi: Api;
let categoryId: string;
let category2Id: string;
let otherCategoryId: string;
/** A second warehouse whose zones were inserted highest position first: position 7, then position 3. */
let warehouse2: { id: string; zonePos7: string; zonePos3: string };
let defaultZonePos5: string;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Text with SQL, LIKE and JSON metacharacters, quotes, a backslash, newlines, an emoji and accents. */
const NASTY = `O'Brien "quoted" \\ %_ ; DROP TABLE items; -- 🪙 ünïcödé\nline two\r\n\t{"json": [1, null]}`;
/** The same spirit within the 50-character grading fields. */
const NASTY_SHORT = `O'B "q" \\ %_;DROP TABLE items;--🪙ü\n\t`;

async function addWarehouseHighZoneFirst(workspace: TestWorkspace) {
  const sql = server.database.sql;
  const [warehouse] = await sql<{ id: string }[]>`
    INSERT INTO warehouses (organization_id, name) VALUES (${workspace.organizationId}, 'Vault') RETURNING id
  `;
  if (!warehouse) throw new Error('no warehouse');
  const zonePos7 = await addZone(sql, workspace.organizationId, warehouse.id, 7);
  const zonePos3 = await addZone(sql, workspace.organizationId, warehouse.id, 3);
  return { id: warehouse.id, zonePos7, zonePos3 };
}

async function countSku(workspace: TestWorkspace, sku: string): Promise<number> {
  const [row] = await server.database.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM items WHERE organization_id = ${workspace.organizationId} AND sku = ${sku}
  `;
  return row?.n ?? -1;
}

beforeAll(async () => {
  server = await startTestServer();
  const sql = server.database.sql;
  ws = await createWorkspace(sql);
  other = await createWorkspace(sql);
  categoryId = await addCategory(sql, ws.organizationId, 'Morgan Dollars');
  category2Id = await addCategory(sql, ws.organizationId, 'Peace Dollars');
  otherCategoryId = await addCategory(sql, other.organizationId, 'Not yours');
  warehouse2 = await addWarehouseHighZoneFirst(ws);
  // A later zone of the default warehouse: the default location must stay the first zone (position 1).
  defaultZonePos5 = await addZone(sql, ws.organizationId, ws.defaultWarehouseId, 5);
});
afterAll(() => server.close());
beforeEach(async () => {
  api = await freshApi(server, ws);
  otherApi = await freshApi(server, other);
});

describe('POST /items', () => {
  it('round-trips every field, normalising acquisitionDate to UTC, and GET returns the same item', async () => {
    const body: CreateItemInput = {
      sku: 'RT-1921-S',
      title: '1921-S Morgan Dollar',
      description: 'Lustrous, light toning.',
      quantity: 3,
      valueInCents: 12_345,
      acquisitionPriceInCents: 9_900,
      acquisitionDate: '2023-06-15T14:30:00+02:00',
      acquiredFrom: 'Estate of J. Smith',
      acquisitionNotes: 'Bought as a lot of 3.',
      gradingService: 'PCGS',
      grade: 'MS64',
      certificateNumber: '12345678',
      gradingNotes: 'CAC sticker.',
      categoryId,
      attributes: { year: 1921, mint: 'S', proof: false, cac: true, pedigree: null, weightGrams: 26.73, delta: -5 },
      warehouseId: warehouse2.id,
      zoneId: warehouse2.zonePos7,
      locationDetails: 'Tray 4, slot 12',
    };
    const before = Date.now();
    const response = await api.post('/items', { body });
    expectStatus(response, 200);
    const created = ItemSchema.parse(response.body);
    expect(created).toEqual({
      id: expect.any(String),
      sku: 'RT-1921-S',
      title: '1921-S Morgan Dollar',
      description: 'Lustrous, light toning.',
      category: { id: categoryId, name: 'Morgan Dollars' },
      quantity: { available: 3, sold: 0, reserved: 0 },
      valueInCents: 12_345,
      acquisition: {
        priceInCents: 9_900,
        date: '2023-06-15T12:30:00.000Z',
        from: 'Estate of J. Smith',
        notes: 'Bought as a lot of 3.',
      },
      grading: { service: 'PCGS', grade: 'MS64', certificateNumber: '12345678', notes: 'CAC sticker.' },
      attributes: { year: 1921, mint: 'S', proof: false, cac: true, pedigree: null, weightGrams: 26.73, delta: -5 },
      location: { warehouseId: warehouse2.id, zoneId: warehouse2.zonePos7, details: 'Tray 4, slot 12' },
      consignmentId: null,
      isAtAuction: false,
      images: [],
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: null,
    });
    expect(Math.abs(Date.parse(created.createdAt) - before)).toBeLessThan(60_000);
    expect(await getItem(api, created.id)).toEqual(created);
  });

  it('applies the defaults when only sku and title are sent', async () => {
    const created = await createItem(api, { sku: 'DEF-1', title: 'Defaults' });
    expect(created).toEqual({
      id: expect.any(String),
      sku: 'DEF-1',
      title: 'Defaults',
      description: null,
      category: null,
      quantity: { available: 1, sold: 0, reserved: 0 },
      valueInCents: 0,
      acquisition: { priceInCents: null, date: null, from: null, notes: null },
      grading: { service: null, grade: null, certificateNumber: null, notes: null },
      attributes: {},
      location: { warehouseId: ws.defaultWarehouseId, zoneId: ws.defaultZoneId, details: null },
      consignmentId: null,
      isAtAuction: false,
      images: [],
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: null,
    });
    expect(created.location.zoneId).not.toBe(defaultZonePos5);
    expect(await getItem(api, created.id)).toEqual(created);
  });

  it("places an item without a location in the default warehouse's lowest-position zone, whatever the insert order", async () => {
    const sql = server.database.sql;
    const fresh = await createWorkspace(sql);
    // Added after the default zone (position 1) but with a lower position: it becomes the first zone.
    const zonePos0 = await addZone(sql, fresh.organizationId, fresh.defaultWarehouseId, 0);
    await addZone(sql, fresh.organizationId, fresh.defaultWarehouseId, 9);
    const created = await createItem(await freshApi(server, fresh), { sku: 'LOW-ZONE', title: 'Low zone' });
    expect(created.location).toEqual({ warehouseId: fresh.defaultWarehouseId, zoneId: zonePos0, details: null });
  });

  it("with warehouseId only, uses that warehouse's first zone (lowest position)", async () => {
    const created = await createItem(api, { sku: 'WH-ONLY', title: 'Warehouse only', warehouseId: warehouse2.id });
    expect(created.location).toEqual({ warehouseId: warehouse2.id, zoneId: warehouse2.zonePos3, details: null });
  });

  it('with zoneId only, uses that zone and its warehouse', async () => {
    const created = await createItem(api, { sku: 'ZONE-ONLY', title: 'Zone only', zoneId: warehouse2.zonePos7 });
    expect(created.location).toEqual({ warehouseId: warehouse2.id, zoneId: warehouse2.zonePos7, details: null });
    const inDefault = await createItem(api, { sku: 'ZONE-ONLY-5', title: 'Zone only', zoneId: defaultZonePos5 });
    expect(inDefault.location).toEqual({ warehouseId: ws.defaultWarehouseId, zoneId: defaultZonePos5, details: null });
  });

  it('refuses a zone that is not in the given warehouse with 400 naming zoneId, and creates nothing', async () => {
    const response = await api.post('/items', {
      body: { sku: 'MISMATCH', title: 'Mismatch', warehouseId: ws.defaultWarehouseId, zoneId: warehouse2.zonePos3 },
    });
    expectBadRequest(response, ['body.zoneId']);
    expect(await countSku(ws, 'MISMATCH')).toBe(0);
  });

  it.each([
    ['categoryId', () => ({ categoryId: randomId() })],
    ['warehouseId', () => ({ warehouseId: randomId() })],
    ['zoneId', () => ({ zoneId: randomId() })],
    ['categoryId', () => ({ categoryId: otherCategoryId })],
    ['warehouseId', () => ({ warehouseId: other.defaultWarehouseId })],
    ['zoneId', () => ({ zoneId: other.defaultZoneId })],
  ] as const)('refuses an unknown or foreign %s with 400 naming the field (case %#)', async (field, extra) => {
    const sku = `UNKNOWN-${field}-${randomId()}`;
    const response = await api.post('/items', { body: { sku, title: 'Unknown reference', ...extra() } });
    expectBadRequest(response, [`body.${field}`]);
    expect(await countSku(ws, sku)).toBe(0);
  });

  it('refuses a duplicate SKU with 409 and leaves the original unchanged', async () => {
    const original = await createItem(api, { sku: 'DUP-1', title: 'Original', valueInCents: 100 });
    const response = await api.post('/items', { body: { sku: 'DUP-1', title: 'Impostor', valueInCents: 999 } });
    expectStatus(response, 409);
    expect(ErrorBodySchema.parse(response.body)).toEqual(ERROR_BODY.CONFLICT);
    expect(await getItem(api, original.id)).toEqual(original);
    expect(await countSku(ws, 'DUP-1')).toBe(1);
  });

  it('round-trips SQL and JSON metacharacters, unicode and newlines in every text field', async () => {
    const body = {
      sku: `${NASTY}`.slice(0, LIMITS.sku.max),
      title: NASTY,
      description: `${NASTY}\n${NASTY}`,
      acquisitionDate: '2001-01-01T00:00:00Z',
      acquiredFrom: NASTY,
      acquisitionNotes: NASTY,
      gradingService: NASTY_SHORT,
      grade: NASTY_SHORT,
      certificateNumber: NASTY_SHORT,
      gradingNotes: NASTY,
      attributes: { [NASTY]: NASTY, "'; DROP TABLE items; --": '%_\\', 'ünï 🪙': 'x"y' },
      locationDetails: NASTY,
    } satisfies CreateItemInput;
    const created = await createItem(api, body);
    const expectedText = {
      sku: body.sku,
      title: NASTY,
      description: `${NASTY}\n${NASTY}`,
      acquisition: { priceInCents: null, date: '2001-01-01T00:00:00.000Z', from: NASTY, notes: NASTY },
      grading: { service: NASTY_SHORT, grade: NASTY_SHORT, certificateNumber: NASTY_SHORT, notes: NASTY },
      attributes: body.attributes,
      location: { warehouseId: ws.defaultWarehouseId, zoneId: ws.defaultZoneId, details: NASTY },
    };
    expect(created).toMatchObject(expectedText);
    expect(created.attributes).toEqual(body.attributes);
    expect(await getItem(api, created.id)).toEqual(created);
    // The sku filter finds it by its exact, metacharacter-laden value.
    const bySku = await listItems(api, { sku: body.sku });
    expect(bySku.items.map((item) => item.id)).toEqual([created.id]);
    // The table is still there.
    expect(await countSku(ws, body.sku)).toBe(1);
  });

  it('round-trips values at every maximum length', async () => {
    const body = {
      sku: 'S'.repeat(LIMITS.sku.max),
      title: 'T'.repeat(LIMITS.title.max),
      description: 'D'.repeat(LIMITS.description.max),
      acquiredFrom: 'F'.repeat(LIMITS.acquiredFrom.max),
      acquisitionNotes: 'N'.repeat(LIMITS.acquisitionNotes.max),
      gradingService: 'G'.repeat(LIMITS.gradingService.max),
      grade: 'R'.repeat(LIMITS.grade.max),
      certificateNumber: 'C'.repeat(LIMITS.certificateNumber.max),
      gradingNotes: 'O'.repeat(LIMITS.gradingNotes.max),
      locationDetails: 'L'.repeat(LIMITS.locationDetails.max),
    } satisfies CreateItemInput;
    const created = await createItem(api, body);
    expect(created).toMatchObject({
      sku: body.sku,
      title: body.title,
      description: body.description,
      acquisition: { from: body.acquiredFrom, notes: body.acquisitionNotes },
      grading: {
        service: body.gradingService,
        grade: body.grade,
        certificateNumber: body.certificateNumber,
        notes: body.gradingNotes,
      },
      location: { details: body.locationDetails },
    });
    expect(created.sku).toHaveLength(100);
    expect(created.title).toHaveLength(300);
    expect(created.description).toHaveLength(20_000);
    expect(await getItem(api, created.id)).toEqual(created);
  });

  it.each([
    ['sku', 'x'.repeat(LIMITS.sku.max + 1)],
    ['title', 'x'.repeat(LIMITS.title.max + 1)],
    ['description', 'x'.repeat(LIMITS.description.max + 1)],
    ['gradingService', 'x'.repeat(LIMITS.gradingService.max + 1)],
    ['locationDetails', 'x'.repeat(LIMITS.locationDetails.max + 1)],
  ] as const)('refuses %s one character over its maximum', async (field, value) => {
    const response = await api.post('/items', { body: { sku: 'OVER-1', title: 'Over', [field]: value } });
    expectBadRequest(response, [`body.${field}`]);
    expect(await countSku(ws, 'OVER-1')).toBe(0);
  });
});

describe('PATCH /items/:id', () => {
  it('changes only the field sent, one field at a time, and sets updatedAt each time', async () => {
    const start = await createItem(api, {
      sku: 'PATCH-1',
      title: 'Patch me',
      description: 'Before',
      quantity: 4,
      valueInCents: 500,
      acquisitionPriceInCents: 300,
      acquisitionDate: '2022-01-01T00:00:00Z',
      acquiredFrom: 'Show',
      acquisitionNotes: 'Cash',
      gradingService: 'NGC',
      grade: 'AU58',
      certificateNumber: 'C-1',
      gradingNotes: 'Old holder',
      categoryId,
      attributes: { year: 1885 },
      locationDetails: 'Drawer 1',
    });
    // Fields the API cannot set must survive every PATCH.
    const sql = server.database.sql;
    await sql`
      UPDATE items SET quantity_sold = 2, quantity_reserved = 1, is_at_auction = true
      WHERE organization_id = ${ws.organizationId} AND id = ${start.id}
    `;
    await sql`
      INSERT INTO item_images (organization_id, item_id, position, url, width, height) VALUES
        (${ws.organizationId}, ${start.id}, 2, 'https://img.example/back.jpg', null, null),
        (${ws.organizationId}, ${start.id}, 1, 'https://img.example/front.jpg', 800, 600)
    `;
    let previous = await getItem(api, start.id);
    expect(previous).toEqual({
      ...start,
      quantity: { available: 4, sold: 2, reserved: 1 },
      isAtAuction: true,
      images: [
        { url: 'https://img.example/front.jpg', width: 800, height: 600 },
        { url: 'https://img.example/back.jpg', width: null, height: null },
      ],
    });

    const steps: [UpdateItemInput, (item: Item) => void][] = [
      [
        { sku: 'PATCH-1-RENAMED' },
        (i) => {
          i.sku = 'PATCH-1-RENAMED';
        },
      ],
      [
        { title: 'New title' },
        (i) => {
          i.title = 'New title';
        },
      ],
      [
        { description: 'After' },
        (i) => {
          i.description = 'After';
        },
      ],
      [
        { quantity: 7 },
        (i) => {
          i.quantity = { available: 7, sold: 2, reserved: 1 };
        },
      ],
      [
        { quantity: 0 },
        (i) => {
          i.quantity = { available: 0, sold: 2, reserved: 1 };
        },
      ],
      [
        { valueInCents: 123_456 },
        (i) => {
          i.valueInCents = 123_456;
        },
      ],
      [
        { acquisitionPriceInCents: 999 },
        (i) => {
          i.acquisition.priceInCents = 999;
        },
      ],
      [
        { acquisitionDate: '2020-02-29T23:30:00-05:00' },
        (i) => {
          i.acquisition.date = '2020-03-01T04:30:00.000Z';
        },
      ],
      [
        { acquiredFrom: 'Auction' },
        (i) => {
          i.acquisition.from = 'Auction';
        },
      ],
      [
        { acquisitionNotes: 'Wire' },
        (i) => {
          i.acquisition.notes = 'Wire';
        },
      ],
      [
        { gradingService: 'PCGS' },
        (i) => {
          i.grading.service = 'PCGS';
        },
      ],
      [
        { grade: 'MS65' },
        (i) => {
          i.grading.grade = 'MS65';
        },
      ],
      [
        { certificateNumber: 'C-2' },
        (i) => {
          i.grading.certificateNumber = 'C-2';
        },
      ],
      [
        { gradingNotes: 'Regraded' },
        (i) => {
          i.grading.notes = 'Regraded';
        },
      ],
      [
        { categoryId: category2Id },
        (i) => {
          i.category = { id: category2Id, name: 'Peace Dollars' };
        },
      ],
      [
        { attributes: { mint: 'CC', key: true } },
        (i) => {
          i.attributes = { mint: 'CC', key: true };
        },
      ],
      [
        { locationDetails: 'Drawer 2' },
        (i) => {
          i.location.details = 'Drawer 2';
        },
      ],
      [
        { warehouseId: warehouse2.id },
        (i) => {
          i.location = { warehouseId: warehouse2.id, zoneId: warehouse2.zonePos3, details: 'Drawer 2' };
        },
      ],
      [
        { zoneId: defaultZonePos5 },
        (i) => {
          i.location = { warehouseId: ws.defaultWarehouseId, zoneId: defaultZonePos5, details: 'Drawer 2' };
        },
      ],
    ];
    for (const [body, change] of steps) {
      const response = await api.patch(`/items/${start.id}`, { body });
      expectStatus(response, 200);
      const updated = ItemSchema.parse(response.body);
      const expected = structuredClone(previous);
      change(expected);
      expect(updated.updatedAt, JSON.stringify(body)).not.toBeNull();
      expected.updatedAt = updated.updatedAt;
      expect(updated, JSON.stringify(body)).toEqual(expected);
      expect(Date.parse(updated.updatedAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(previous.updatedAt ?? previous.createdAt),
      );
      expect(await getItem(api, start.id)).toEqual(updated);
      previous = updated;
    }
    expect(previous.createdAt).toBe(start.createdAt);
  });

  it('clears every nullable field sent as null', async () => {
    const start = await createItem(api, {
      sku: 'CLEAR-1',
      title: 'Clear me',
      description: 'd',
      acquisitionPriceInCents: 1,
      acquisitionDate: '2022-01-01T00:00:00Z',
      acquiredFrom: 'f',
      acquisitionNotes: 'n',
      gradingService: 's',
      grade: 'g',
      certificateNumber: 'c',
      gradingNotes: 'gn',
      categoryId,
      attributes: { a: 1 },
      locationDetails: 'l',
    });
    const response = await api.patch(`/items/${start.id}`, {
      body: {
        description: null,
        acquisitionPriceInCents: null,
        acquisitionDate: null,
        acquiredFrom: null,
        acquisitionNotes: null,
        gradingService: null,
        grade: null,
        certificateNumber: null,
        gradingNotes: null,
        categoryId: null,
        locationDetails: null,
      },
    });
    expectStatus(response, 200);
    const cleared = ItemSchema.parse(response.body);
    expect(cleared).toEqual({
      ...start,
      description: null,
      category: null,
      acquisition: { priceInCents: null, date: null, from: null, notes: null },
      grading: { service: null, grade: null, certificateNumber: null, notes: null },
      location: { ...start.location, details: null },
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(await getItem(api, start.id)).toEqual(cleared);
  });

  it.each(['sku', 'title', 'quantity', 'valueInCents', 'attributes', 'warehouseId', 'zoneId'] as const)(
    'refuses null for the non-nullable %s with 400 and changes nothing',
    async (field) => {
      const start = await createItem(api, { sku: `NN-${field}`, title: 'Not nullable' });
      const response = await api.patch(`/items/${start.id}`, { body: { [field]: null } });
      expectBadRequest(response, [`body.${field}`]);
      expect(await getItem(api, start.id)).toEqual(start);
    },
  );

  it('replaces attributes wholesale rather than merging them', async () => {
    const start = await createItem(api, {
      sku: 'ATTR-1',
      title: 'Attributes',
      attributes: { year: 1921, mint: 'S', proof: false },
    });
    const response = await api.patch(`/items/${start.id}`, { body: { attributes: { finish: 'matte', note: null } } });
    expectStatus(response, 200);
    expect(ItemSchema.parse(response.body).attributes).toEqual({ finish: 'matte', note: null });
    const emptied = await api.patch(`/items/${start.id}`, { body: { attributes: {} } });
    expectStatus(emptied, 200);
    expect(ItemSchema.parse(emptied.body).attributes).toEqual({});
    expect((await getItem(api, start.id)).attributes).toEqual({});
  });

  it('accepts an empty body: only updatedAt changes', async () => {
    const start = await createItem(api, { sku: 'EMPTY-1', title: 'Empty patch', description: 'kept', quantity: 2 });
    expect(start.updatedAt).toBeNull();
    const response = await api.patch(`/items/${start.id}`, { body: {} });
    expectStatus(response, 200);
    const touched = ItemSchema.parse(response.body);
    expect(touched).toEqual({ ...start, updatedAt: expect.stringMatching(ISO_UTC) });
    expect(Date.parse(touched.updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(start.createdAt));
    expect(await getItem(api, start.id)).toEqual(touched);
  });

  it("refuses another item's SKU with 409 and leaves both items unchanged", async () => {
    const first = await createItem(api, { sku: 'TAKEN-A', title: 'A' });
    const second = await createItem(api, { sku: 'TAKEN-B', title: 'B' });
    const response = await api.patch(`/items/${second.id}`, { body: { sku: 'TAKEN-A', title: 'Changed' } });
    expectStatus(response, 409);
    expect(ErrorBodySchema.parse(response.body)).toEqual(ERROR_BODY.CONFLICT);
    expect(await getItem(api, first.id)).toEqual(first);
    expect(await getItem(api, second.id)).toEqual(second);
    // Its own SKU is not a conflict.
    const same = await api.patch(`/items/${second.id}`, { body: { sku: 'TAKEN-B' } });
    expectStatus(same, 200);
    expect(ItemSchema.parse(same.body).sku).toBe('TAKEN-B');
  });

  it('refuses a mismatched location or unknown references with 400 and changes nothing', async () => {
    const start = await createItem(api, { sku: 'LOC-BAD', title: 'Location' });
    expectBadRequest(
      await api.patch(`/items/${start.id}`, {
        body: { warehouseId: warehouse2.id, zoneId: ws.defaultZoneId },
      }),
      ['body.zoneId'],
    );
    expectBadRequest(await api.patch(`/items/${start.id}`, { body: { warehouseId: randomId() } }), [
      'body.warehouseId',
    ]);
    expectBadRequest(await api.patch(`/items/${start.id}`, { body: { categoryId: randomId() } }), ['body.categoryId']);
    expectBadRequest(await api.patch(`/items/${start.id}`, { body: { categoryId: otherCategoryId } }), [
      'body.categoryId',
    ]);
    expect(await getItem(api, start.id)).toEqual(start);
  });

  it('answers 404 with the exact body for an unknown id', async () => {
    const response = await api.patch(`/items/${randomId()}`, { body: { title: 'Nobody' } });
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
  });

  it('answers 404 with the exact body for a deleted item', async () => {
    const item = await createItem(api, { sku: 'PATCH-DELETED', title: 'Gone' });
    expectStatus(await api.delete(`/items/${item.id}`), 200);
    const response = await api.patch(`/items/${item.id}`, { body: { title: 'Back' } });
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    expect(await countSku(ws, 'PATCH-DELETED')).toBe(0);
  });

  it("answers 404 for another organization's item and leaves it unchanged", async () => {
    const theirs = await createItem(otherApi, { sku: 'THEIRS-PATCH', title: 'Theirs' });
    const response = await api.patch(`/items/${theirs.id}`, { body: { title: 'Mine now' } });
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    expect(await getItem(otherApi, theirs.id)).toEqual(theirs);
  });
});

describe('GET /items/:id', () => {
  it('answers 404 with the exact body for an unknown id', async () => {
    const response = await api.get(`/items/${randomId()}`);
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
  });

  it("answers 404 for another organization's item", async () => {
    const theirs = await createItem(otherApi, { sku: 'THEIRS-GET', title: 'Theirs' });
    const response = await api.get(`/items/${theirs.id}`);
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
  });

  it('answers 400 naming path.id for an id that is not a uuid', async () => {
    expectBadRequest(await api.get('/items/not-a-uuid'), ['path.id']);
  });
});

describe('DELETE /items/:id', () => {
  it('deletes, then GET and a second DELETE answer 404', async () => {
    const item = await createItem(api, { sku: 'DEL-1', title: 'Delete me' });
    const response = await api.delete(`/items/${item.id}`);
    expectStatus(response, 200);
    expect(DeletedItemSchema.parse(response.body)).toEqual({ id: item.id, deleted: true });
    expect(response.body).toEqual({ id: item.id, deleted: true });

    for (const again of [await api.get(`/items/${item.id}`), await api.delete(`/items/${item.id}`)]) {
      expectStatus(again, 404);
      expect(again.body).toEqual(ERROR_BODY.NOT_FOUND);
    }
    expect(await countSku(ws, 'DEL-1')).toBe(0);
    // The SKU is free again.
    const reused = await createItem(api, { sku: 'DEL-1', title: 'Reborn' });
    expect(reused.id).not.toBe(item.id);
  });

  it('answers 404 with the exact body for an unknown id', async () => {
    const response = await api.delete(`/items/${randomId()}`);
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
  });

  it("answers 404 for another organization's item and does not delete it", async () => {
    const theirs = await createItem(otherApi, { sku: 'THEIRS-DEL', title: 'Theirs' });
    const response = await api.delete(`/items/${theirs.id}`);
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    expect(await getItem(otherApi, theirs.id)).toEqual(theirs);
  });
});
