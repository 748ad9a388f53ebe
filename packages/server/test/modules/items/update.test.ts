import { DeletedItemSchema, ErrorBodySchema, type Item, ItemSchema, type UpdateItemInput } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { ERROR_BODY, expectBadRequest } from '../../support/errors.js';
import { expectStatus } from '../../support/http.js';
import { countSku, ISO_UTC, itemWritesFixture } from '../../support/item-writes.js';
import { createItem, getItem, randomId } from '../../support/items.js';

const fx = itemWritesFixture();

describe('PATCH /items/:id', () => {
  it('changes only the field sent, one field at a time, and sets updatedAt each time', async () => {
    const start = await createItem(fx.api, {
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
      categoryId: fx.categoryId,
      attributes: { year: 1885 },
      locationDetails: 'Drawer 1',
    });
    // Fields the API cannot set must survive every PATCH.
    const sql = fx.server.database.sql;
    await sql`
      UPDATE items SET quantity_sold = 2, quantity_reserved = 1, is_at_auction = true
      WHERE organization_id = ${fx.org.organizationId} AND id = ${start.id}
    `;
    await sql`
      INSERT INTO item_images (organization_id, item_id, position, url, width, height) VALUES
        (${fx.org.organizationId}, ${start.id}, 2, 'https://img.example/back.jpg', null, null),
        (${fx.org.organizationId}, ${start.id}, 1, 'https://img.example/front.jpg', 800, 600)
    `;
    let previous = await getItem(fx.api, start.id);
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
        { categoryId: fx.category2Id },
        (i) => {
          i.category = { id: fx.category2Id, name: 'Peace Dollars' };
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
        { warehouseId: fx.warehouse2.id },
        (i) => {
          i.location = { warehouseId: fx.warehouse2.id, zoneId: fx.warehouse2.zonePos3, details: 'Drawer 2' };
        },
      ],
      [
        { zoneId: fx.defaultZonePos5 },
        (i) => {
          i.location = { warehouseId: fx.org.defaultWarehouseId, zoneId: fx.defaultZonePos5, details: 'Drawer 2' };
        },
      ],
    ];
    for (const [body, change] of steps) {
      const response = await fx.api.patch(`/items/${start.id}`, { body });
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
      expect(await getItem(fx.api, start.id)).toEqual(updated);
      previous = updated;
    }
    expect(previous.createdAt).toBe(start.createdAt);
  });

  it('clears every nullable field sent as null', async () => {
    const start = await createItem(fx.api, {
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
      categoryId: fx.categoryId,
      attributes: { a: 1 },
      locationDetails: 'l',
    });
    const response = await fx.api.patch(`/items/${start.id}`, {
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
    expect(await getItem(fx.api, start.id)).toEqual(cleared);
  });

  it.each(['sku', 'title', 'quantity', 'valueInCents', 'attributes', 'warehouseId', 'zoneId'] as const)(
    'refuses null for the non-nullable %s with 400 and changes nothing',
    async (field) => {
      const start = await createItem(fx.api, { sku: `NN-${field}`, title: 'Not nullable' });
      const response = await fx.api.patch(`/items/${start.id}`, { body: { [field]: null } });
      expectBadRequest(response, [`body.${field}`]);
      expect(await getItem(fx.api, start.id)).toEqual(start);
    },
  );

  it('replaces attributes wholesale rather than merging them', async () => {
    const start = await createItem(fx.api, {
      sku: 'ATTR-1',
      title: 'Attributes',
      attributes: { year: 1921, mint: 'S', proof: false },
    });
    const response = await fx.api.patch(`/items/${start.id}`, {
      body: { attributes: { finish: 'matte', note: null } },
    });
    expectStatus(response, 200);
    expect(ItemSchema.parse(response.body).attributes).toEqual({ finish: 'matte', note: null });
    const emptied = await fx.api.patch(`/items/${start.id}`, { body: { attributes: {} } });
    expectStatus(emptied, 200);
    expect(ItemSchema.parse(emptied.body).attributes).toEqual({});
    expect((await getItem(fx.api, start.id)).attributes).toEqual({});
  });

  it('accepts an empty body: only updatedAt changes', async () => {
    const start = await createItem(fx.api, { sku: 'EMPTY-1', title: 'Empty patch', description: 'kept', quantity: 2 });
    expect(start.updatedAt).toBeNull();
    const response = await fx.api.patch(`/items/${start.id}`, { body: {} });
    expectStatus(response, 200);
    const touched = ItemSchema.parse(response.body);
    expect(touched).toEqual({ ...start, updatedAt: expect.stringMatching(ISO_UTC) });
    expect(Date.parse(touched.updatedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(start.createdAt));
    expect(await getItem(fx.api, start.id)).toEqual(touched);
  });

  it("refuses another item's SKU with 409 and leaves both items unchanged", async () => {
    const first = await createItem(fx.api, { sku: 'TAKEN-A', title: 'A' });
    const second = await createItem(fx.api, { sku: 'TAKEN-B', title: 'B' });
    const response = await fx.api.patch(`/items/${second.id}`, { body: { sku: 'TAKEN-A', title: 'Changed' } });
    expectStatus(response, 409);
    expect(ErrorBodySchema.parse(response.body)).toEqual(ERROR_BODY.CONFLICT);
    expect(await getItem(fx.api, first.id)).toEqual(first);
    expect(await getItem(fx.api, second.id)).toEqual(second);
    // Its own SKU is not a conflict.
    const same = await fx.api.patch(`/items/${second.id}`, { body: { sku: 'TAKEN-B' } });
    expectStatus(same, 200);
    expect(ItemSchema.parse(same.body).sku).toBe('TAKEN-B');
  });

  it('refuses a mismatched location or unknown references with 400 and changes nothing', async () => {
    const start = await createItem(fx.api, { sku: 'LOC-BAD', title: 'Location' });
    expectBadRequest(
      await fx.api.patch(`/items/${start.id}`, {
        body: { warehouseId: fx.warehouse2.id, zoneId: fx.org.defaultZoneId },
      }),
      ['body.zoneId'],
    );
    expectBadRequest(await fx.api.patch(`/items/${start.id}`, { body: { warehouseId: randomId() } }), [
      'body.warehouseId',
    ]);
    expectBadRequest(await fx.api.patch(`/items/${start.id}`, { body: { categoryId: randomId() } }), [
      'body.categoryId',
    ]);
    expectBadRequest(await fx.api.patch(`/items/${start.id}`, { body: { categoryId: fx.otherCategoryId } }), [
      'body.categoryId',
    ]);
    expect(await getItem(fx.api, start.id)).toEqual(start);
  });

  it('answers 404 with the exact body for an unknown id', async () => {
    const response = await fx.api.patch(`/items/${randomId()}`, { body: { title: 'Nobody' } });
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
  });

  it('answers 404 with the exact body for a deleted item', async () => {
    const item = await createItem(fx.api, { sku: 'PATCH-DELETED', title: 'Gone' });
    expectStatus(await fx.api.delete(`/items/${item.id}`), 200);
    const response = await fx.api.patch(`/items/${item.id}`, { body: { title: 'Back' } });
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    expect(await countSku(fx.server, fx.org, 'PATCH-DELETED')).toBe(0);
  });

  it("answers 404 for another organization's item and leaves it unchanged", async () => {
    const theirs = await createItem(fx.otherApi, { sku: 'THEIRS-PATCH', title: 'Theirs' });
    const response = await fx.api.patch(`/items/${theirs.id}`, { body: { title: 'Mine now' } });
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    expect(await getItem(fx.otherApi, theirs.id)).toEqual(theirs);
  });
});

describe('DELETE /items/:id', () => {
  it('deletes, then GET and a second DELETE answer 404', async () => {
    const item = await createItem(fx.api, { sku: 'DEL-1', title: 'Delete me' });
    const response = await fx.api.delete(`/items/${item.id}`);
    expectStatus(response, 200);
    expect(DeletedItemSchema.parse(response.body)).toEqual({ id: item.id, deleted: true });
    expect(response.body).toEqual({ id: item.id, deleted: true });

    for (const again of [await fx.api.get(`/items/${item.id}`), await fx.api.delete(`/items/${item.id}`)]) {
      expectStatus(again, 404);
      expect(again.body).toEqual(ERROR_BODY.NOT_FOUND);
    }
    expect(await countSku(fx.server, fx.org, 'DEL-1')).toBe(0);
    // The SKU is free again.
    const reused = await createItem(fx.api, { sku: 'DEL-1', title: 'Reborn' });
    expect(reused.id).not.toBe(item.id);
  });

  it('answers 404 with the exact body for an unknown id', async () => {
    const response = await fx.api.delete(`/items/${randomId()}`);
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
  });

  it("answers 404 for another organization's item and does not delete it", async () => {
    const theirs = await createItem(fx.otherApi, { sku: 'THEIRS-DEL', title: 'Theirs' });
    const response = await fx.api.delete(`/items/${theirs.id}`);
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    expect(await getItem(fx.otherApi, theirs.id)).toEqual(theirs);
  });
});
