import { type CreateItemInput, ErrorBodySchema, ItemSchema, LIMITS } from '@coinventory/contract';
import { describe, expect, it } from 'vitest';
import { ERROR_BODY, expectBadRequest } from '../../support/errors.js';
import { expectStatus } from '../../support/http.js';
import { countSku, ISO_UTC, itemWritesFixture, NASTY, NASTY_SHORT } from '../../support/item-writes.js';
import { createItem, freshApi, getItem, listItems, randomId } from '../../support/items.js';
import { addZone, createTestOrganization } from '../../support/organization.js';

const fx = itemWritesFixture();

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
      categoryId: fx.categoryId,
      attributes: { year: 1921, mint: 'S', proof: false, cac: true, pedigree: null, weightGrams: 26.73, delta: -5 },
      warehouseId: fx.warehouse2.id,
      zoneId: fx.warehouse2.zonePos7,
      locationDetails: 'Tray 4, slot 12',
    };
    const before = Date.now();
    const response = await fx.api.post('/items', { body });
    expectStatus(response, 200);
    const created = ItemSchema.parse(response.body);
    expect(created).toEqual({
      id: expect.any(String),
      sku: 'RT-1921-S',
      title: '1921-S Morgan Dollar',
      description: 'Lustrous, light toning.',
      category: { id: fx.categoryId, name: 'Morgan Dollars' },
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
      location: { warehouseId: fx.warehouse2.id, zoneId: fx.warehouse2.zonePos7, details: 'Tray 4, slot 12' },
      consignmentId: null,
      isAtAuction: false,
      images: [],
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: null,
    });
    expect(Math.abs(Date.parse(created.createdAt) - before)).toBeLessThan(60_000);
    expect(await getItem(fx.api, created.id)).toEqual(created);
  });

  it('applies the defaults when only sku and title are sent', async () => {
    const created = await createItem(fx.api, { sku: 'DEF-1', title: 'Defaults' });
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
      location: { warehouseId: fx.org.defaultWarehouseId, zoneId: fx.org.defaultZoneId, details: null },
      consignmentId: null,
      isAtAuction: false,
      images: [],
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: null,
    });
    expect(created.location.zoneId).not.toBe(fx.defaultZonePos5);
    expect(await getItem(fx.api, created.id)).toEqual(created);
  });

  it("places an item without a location in the default warehouse's lowest-position zone, whatever the insert order", async () => {
    const sql = fx.server.database.sql;
    const fresh = await createTestOrganization(sql);
    // Added after the default zone (position 1) but with a lower position: it becomes the first zone.
    const zonePos0 = await addZone(sql, fresh.organizationId, fresh.defaultWarehouseId, 0);
    await addZone(sql, fresh.organizationId, fresh.defaultWarehouseId, 9);
    const created = await createItem(await freshApi(fx.server, fresh), { sku: 'LOW-ZONE', title: 'Low zone' });
    expect(created.location).toEqual({ warehouseId: fresh.defaultWarehouseId, zoneId: zonePos0, details: null });
  });

  it("with warehouseId only, uses that warehouse's first zone (lowest position)", async () => {
    const created = await createItem(fx.api, {
      sku: 'WH-ONLY',
      title: 'Warehouse only',
      warehouseId: fx.warehouse2.id,
    });
    expect(created.location).toEqual({ warehouseId: fx.warehouse2.id, zoneId: fx.warehouse2.zonePos3, details: null });
  });

  it('with zoneId only, uses that zone and its warehouse', async () => {
    const created = await createItem(fx.api, { sku: 'ZONE-ONLY', title: 'Zone only', zoneId: fx.warehouse2.zonePos7 });
    expect(created.location).toEqual({ warehouseId: fx.warehouse2.id, zoneId: fx.warehouse2.zonePos7, details: null });
    const inDefault = await createItem(fx.api, { sku: 'ZONE-ONLY-5', title: 'Zone only', zoneId: fx.defaultZonePos5 });
    expect(inDefault.location).toEqual({
      warehouseId: fx.org.defaultWarehouseId,
      zoneId: fx.defaultZonePos5,
      details: null,
    });
  });

  it('refuses a zone that is not in the given warehouse with 400 naming zoneId, and creates nothing', async () => {
    const response = await fx.api.post('/items', {
      body: {
        sku: 'MISMATCH',
        title: 'Mismatch',
        warehouseId: fx.org.defaultWarehouseId,
        zoneId: fx.warehouse2.zonePos3,
      },
    });
    expectBadRequest(response, ['body.zoneId']);
    expect(await countSku(fx.server, fx.org, 'MISMATCH')).toBe(0);
  });

  it.each([
    ['categoryId', () => ({ categoryId: randomId() })],
    ['warehouseId', () => ({ warehouseId: randomId() })],
    ['zoneId', () => ({ zoneId: randomId() })],
    ['categoryId', () => ({ categoryId: fx.otherCategoryId })],
    ['warehouseId', () => ({ warehouseId: fx.other.defaultWarehouseId })],
    ['zoneId', () => ({ zoneId: fx.other.defaultZoneId })],
  ] as const)('refuses an unknown or foreign %s with 400 naming the field (case %#)', async (field, extra) => {
    const sku = `UNKNOWN-${field}-${randomId()}`;
    const response = await fx.api.post('/items', { body: { sku, title: 'Unknown reference', ...extra() } });
    expectBadRequest(response, [`body.${field}`]);
    expect(await countSku(fx.server, fx.org, sku)).toBe(0);
  });

  it('refuses a duplicate SKU with 409 and leaves the original unchanged', async () => {
    const original = await createItem(fx.api, { sku: 'DUP-1', title: 'Original', valueInCents: 100 });
    const response = await fx.api.post('/items', { body: { sku: 'DUP-1', title: 'Impostor', valueInCents: 999 } });
    expectStatus(response, 409);
    expect(ErrorBodySchema.parse(response.body)).toEqual(ERROR_BODY.CONFLICT);
    expect(await getItem(fx.api, original.id)).toEqual(original);
    expect(await countSku(fx.server, fx.org, 'DUP-1')).toBe(1);
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
    const created = await createItem(fx.api, body);
    const expectedText = {
      sku: body.sku,
      title: NASTY,
      description: `${NASTY}\n${NASTY}`,
      acquisition: { priceInCents: null, date: '2001-01-01T00:00:00.000Z', from: NASTY, notes: NASTY },
      grading: { service: NASTY_SHORT, grade: NASTY_SHORT, certificateNumber: NASTY_SHORT, notes: NASTY },
      attributes: body.attributes,
      location: { warehouseId: fx.org.defaultWarehouseId, zoneId: fx.org.defaultZoneId, details: NASTY },
    };
    expect(created).toMatchObject(expectedText);
    expect(created.attributes).toEqual(body.attributes);
    expect(await getItem(fx.api, created.id)).toEqual(created);
    // The sku filter finds it by its exact, metacharacter-laden value.
    const bySku = await listItems(fx.api, { sku: body.sku });
    expect(bySku.items.map((item) => item.id)).toEqual([created.id]);
    // The table is still there.
    expect(await countSku(fx.server, fx.org, body.sku)).toBe(1);
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
    const created = await createItem(fx.api, body);
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
    expect(await getItem(fx.api, created.id)).toEqual(created);
  });

  it.each([
    ['sku', 'x'.repeat(LIMITS.sku.max + 1)],
    ['title', 'x'.repeat(LIMITS.title.max + 1)],
    ['description', 'x'.repeat(LIMITS.description.max + 1)],
    ['gradingService', 'x'.repeat(LIMITS.gradingService.max + 1)],
    ['locationDetails', 'x'.repeat(LIMITS.locationDetails.max + 1)],
  ] as const)('refuses %s one character over its maximum', async (field, value) => {
    const response = await fx.api.post('/items', { body: { sku: 'OVER-1', title: 'Over', [field]: value } });
    expectBadRequest(response, [`body.${field}`]);
    expect(await countSku(fx.server, fx.org, 'OVER-1')).toBe(0);
  });
});

describe('GET /items/:id', () => {
  it('answers 404 with the exact body for an unknown id', async () => {
    const response = await fx.api.get(`/items/${randomId()}`);
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
  });

  it("answers 404 for another organization's item", async () => {
    const theirs = await createItem(fx.otherApi, { sku: 'THEIRS-GET', title: 'Theirs' });
    const response = await fx.api.get(`/items/${theirs.id}`);
    expectStatus(response, 404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
  });

  it('answers 400 naming path.id for an id that is not a uuid', async () => {
    expectBadRequest(await fx.api.get('/items/not-a-uuid'), ['path.id']);
  });
});
