import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CONSIGNMENT_STATUSES,
  INVOICE_SORTS,
  INVOICE_STATUSES,
  ITEM_SORTS,
  ITEM_STATUSES,
  LIMITS,
} from '../src/constants.js';
import { ID } from './fixtures.js';
import { bad, chars, lengthBound, ok, queryIntegerBound, routes, schemaOf, type TextBounds } from './schema-checks.js';

describe('GET /items query', () => {
  const query = schemaOf(routes.list.query);

  it('applies the defaults', () => {
    expect(query.parse({})).toEqual({ sort: 'newest', page: 1, limit: LIMITS.listLimit.default });
    expect(LIMITS.listLimit.default).toBe(20);
  });

  it('takes every filter and sort', () => {
    for (const status of ITEM_STATUSES) ok(query, { status });
    for (const sort of ITEM_SORTS) ok(query, { sort });
    ok(query, {
      q: 'morgan',
      categoryId: ID,
      gradingService: 'PCGS',
      grade: 'MS65',
      sku: 'A-1',
      page: '3',
      limit: '50',
    });
    expect(query.parse({ page: '3', limit: '50' })).toMatchObject({ page: 3, limit: 50 });
  });

  it('enforces every bound', () => {
    lengthBound(query, {}, 'q', LIMITS.q);
    lengthBound(query, {}, 'gradingService', { min: 1, max: LIMITS.gradingService.max });
    lengthBound(query, {}, 'grade', { min: 1, max: LIMITS.grade.max });
    lengthBound(query, {}, 'sku', LIMITS.sku);
    queryIntegerBound(query, 'page', { min: 1 });
    queryIntegerBound(query, 'limit', { min: 1, max: 100 });
    bad(query, { status: 'lost' });
    bad(query, { sort: 'price' });
    bad(query, { categoryId: 'not-a-uuid' });
    bad(query, { stauts: 'sold' });
    bad(query, { q: 'a\u0000b' });
  });
});

describe('POST /items body', () => {
  const body = schemaOf(routes.create.body);
  const minimal = { sku: 'A-1', title: 'Coin' };
  const full = {
    ...minimal,
    description: 'A coin',
    quantity: 3,
    valueInCents: 1250,
    acquisitionPriceInCents: 900,
    acquisitionDate: '2026-01-15T09:30:00+02:00',
    acquiredFrom: 'Show',
    acquisitionNotes: 'Paid cash',
    gradingService: 'NGC',
    grade: 'AU58',
    certificateNumber: '998877',
    gradingNotes: 'Light toning',
    categoryId: ID,
    attributes: { year: 1921, mint: 'D', proof: false, note: null },
    warehouseId: ID,
    zoneId: ID,
    locationDetails: 'Slot 9',
  };

  it('takes the minimal and the full item', () => {
    ok(body, minimal);
    ok(body, full);
  });

  it('requires sku and title', () => {
    bad(body, { title: 'Coin' });
    bad(body, { sku: 'A-1' });
    bad(body, {});
  });

  it('enforces every length bound', () => {
    // Every field that takes text and has an entry of its own name in LIMITS: sku, title and eight free-text fields.
    const fields = Object.keys((routes.create.body as z.AnyZodObject).shape);
    const textFields = fields.filter(
      (field) => field in LIMITS && body.safeParse({ ...minimal, [field]: 'x' }).success,
    );
    expect(textFields).toHaveLength(10);
    for (const field of textFields)
      lengthBound(body, minimal, field, LIMITS[field as keyof typeof LIMITS] as TextBounds);
    expect([
      LIMITS.description.max,
      LIMITS.acquiredFrom.max,
      LIMITS.acquisitionNotes.max,
      LIMITS.gradingNotes.max,
    ]).toEqual([20_000, 200, 2_000, 2_000]);
    expect([
      LIMITS.gradingService.max,
      LIMITS.grade.max,
      LIMITS.certificateNumber.max,
      LIMITS.locationDetails.max,
    ]).toEqual([50, 50, 50, 500]);
  });

  it('takes only non-negative integers for quantity and money', () => {
    for (const field of ['quantity', 'valueInCents', 'acquisitionPriceInCents']) {
      ok(body, { ...minimal, [field]: 0 });
      bad(body, { ...minimal, [field]: -1 });
      bad(body, { ...minimal, [field]: 1.5 });
      bad(body, { ...minimal, [field]: '5' });
    }
    ok(body, { ...minimal, quantity: LIMITS.quantity.max });
    bad(body, { ...minimal, quantity: LIMITS.quantity.max + 1 });
    ok(body, { ...minimal, valueInCents: Number.MAX_SAFE_INTEGER });
    bad(body, { ...minimal, valueInCents: Number.MAX_SAFE_INTEGER + 1 });
  });

  /** Each date-time is taken, or refused, as `acquisitionDate`. */
  const acquisitionDates = (taken: readonly string[], refused: readonly string[]) => {
    for (const acquisitionDate of taken) ok(body, { ...minimal, acquisitionDate });
    for (const acquisitionDate of refused) bad(body, { ...minimal, acquisitionDate });
  };

  it('takes date-times only with Z or a numeric offset, on real dates', () => {
    acquisitionDates(
      ['2026-01-15T09:30:00Z', '2026-01-15T09:30:00.123Z', '2026-01-15T09:30:00-05:00'],
      ['2026-01-15T09:30:00', '2026-01-15', '2026-02-30T00:00:00Z', 'yesterday', '2026-13-01T00:00:00Z'],
    );
  });

  it('takes date-times only between the years 1000 and 9999 in UTC', () => {
    acquisitionDates(
      ['1000-01-01T00:00:00Z', '9999-12-31T23:59:59Z'],
      ['0999-12-31T23:59:59Z', '0001-01-01T00:00:00Z', '9999-12-31T23:59:00-01:00', '1000-01-01T00:00:00+00:01'],
    );
  });

  it('refuses __proto__ as an attribute key (it could not be stored as sent)', () => {
    bad(body, { ...minimal, attributes: JSON.parse('{"__proto__": "x", "a": 1}') });
  });

  it('takes uuids for category, warehouse and zone', () => {
    for (const field of ['categoryId', 'warehouseId', 'zoneId']) bad(body, { ...minimal, [field]: 'main' });
  });

  it('takes attributes of strings, numbers, booleans and null only, within bounds', () => {
    bad(body, { ...minimal, attributes: { nested: { a: 1 } } });
    bad(body, { ...minimal, attributes: { list: [1] } });
    bad(body, { ...minimal, attributes: [] });
    bad(body, { ...minimal, attributes: { '': 1 } });
    const many = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));
    ok(body, { ...minimal, attributes: many(LIMITS.attributes.maxKeys) });
    bad(body, { ...minimal, attributes: many(LIMITS.attributes.maxKeys + 1) });
    ok(body, { ...minimal, attributes: { note: chars(LIMITS.attributes.stringValueMax) } });
    bad(body, { ...minimal, attributes: { note: chars(LIMITS.attributes.stringValueMax + 1) } });
  });

  it('counts length in characters, not UTF-16 code units', () => {
    ok(body, { ...minimal, sku: '🪙'.repeat(LIMITS.sku.max) });
    bad(body, { ...minimal, sku: '🪙'.repeat(LIMITS.sku.max + 1) });
    ok(body, { ...minimal, gradingService: 'é'.repeat(LIMITS.gradingService.max) });
  });

  it('reports one issue per failing field', () => {
    for (const acquisitionDate of ['yesterday', '2026-02-30T00:00:00Z', '2026-01-15T09:30:00', '']) {
      expect(body.safeParse({ ...minimal, acquisitionDate }).error?.issues, acquisitionDate).toHaveLength(1);
    }
    expect(body.safeParse({ ...minimal, title: `${chars(LIMITS.title.max)}\u0000` }).error?.issues).toHaveLength(1);
  });

  it('refuses unknown fields and text PostgreSQL cannot store', () => {
    bad(body, { ...minimal, status: 'sold' });
    bad(body, { ...minimal, title: 'bad\u0000title' });
    bad(body, { ...minimal, title: 'lone \ud800 surrogate' });
    ok(body, { ...minimal, title: 'O\'Brien "quoted" 🪙; DROP TABLE items; --' });
  });
});

describe('PATCH /items/{id} body', () => {
  const body = schemaOf(routes.update.body);

  it('takes any subset of the fields, including none', () => {
    ok(body, {});
    ok(body, { quantity: 3 });
    ok(body, { sku: 'B-2', title: 'Other' });
  });

  it('takes null to clear a nullable field, and refuses null for required ones', () => {
    ok(body, { description: null, categoryId: null, acquisitionDate: null, gradingService: null });
    for (const field of ['sku', 'title', 'quantity', 'valueInCents', 'attributes', 'warehouseId', 'zoneId'])
      bad(body, { [field]: null });
  });

  it('enforces the same bounds as POST', () => {
    lengthBound(body, {}, 'sku', LIMITS.sku);
    lengthBound(body, {}, 'title', LIMITS.title);
    lengthBound(body, {}, 'description', LIMITS.description);
    lengthBound(body, {}, 'locationDetails', LIMITS.locationDetails);
    bad(body, { quantity: -1 });
    bad(body, { valueInCents: -1 });
    bad(body, { acquisitionDate: '2026-01-15T09:30:00' });
    bad(body, { color: 'red' });
  });
});

describe('GET /items/{id}/valuations query', () => {
  const query = schemaOf(routes.valuations.query);
  it('defaults to 10 and takes 1 to 50', () => {
    expect(query.parse({})).toEqual({ limit: 10 });
    queryIntegerBound(query, 'limit', { min: 1, max: 50 });
    bad(query, { page: '2' });
  });
});

describe('GET /consignments query', () => {
  const query = schemaOf(routes.consignments.query);
  it('takes every filter, with defaults and bounds', () => {
    expect(query.parse({})).toEqual({ page: 1, limit: 20 });
    for (const status of CONSIGNMENT_STATUSES) ok(query, { status });
    ok(query, { q: 'smith', consignorId: ID });
    bad(query, { status: 'lost' });
    bad(query, { consignorId: 'smith' });
    bad(query, { sort: 'newest' });
    lengthBound(query, {}, 'q', LIMITS.q);
    queryIntegerBound(query, 'page', { min: 1 });
    queryIntegerBound(query, 'limit', { min: 1, max: 100 });
  });
});

describe('GET /invoices query', () => {
  const query = schemaOf(routes.invoices.query);
  it('takes every filter and sort, with defaults and bounds', () => {
    expect(query.parse({})).toEqual({ sort: 'newest', page: 1, limit: 20 });
    for (const status of INVOICE_STATUSES) ok(query, { status });
    for (const sort of INVOICE_SORTS) ok(query, { sort });
    bad(query, { status: 'unpaid' });
    bad(query, { sort: 'title' });
    lengthBound(query, {}, 'q', LIMITS.q);
    queryIntegerBound(query, 'page', { min: 1 });
    queryIntegerBound(query, 'limit', { min: 1, max: 100 });
  });
});
