import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CONSIGNMENT_STATUSES,
  ERRORS,
  INVOICE_SORTS,
  INVOICE_STATUSES,
  ITEM_SORTS,
  ITEM_STATUSES,
  LIMITS,
  RATE_LIMIT,
} from '../src/constants.js';
import { contract } from '../src/contract.js';
import { contractRoutes, declaredStatuses } from '../src/routes.js';
import { ErrorBodySchema } from '../src/schemas/common.js';
import { consignment, ID, invoice, item, me, NOW, valuation } from './fixtures.js';

type Schema = z.ZodTypeAny;
const schemaOf = (value: unknown): Schema => value as Schema;
const ok = (schema: Schema, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value).slice(0, 200)).toBe(true);
const bad = (schema: Schema, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value).slice(0, 200)).toBe(false);
const chars = (n: number) => 'x'.repeat(n);

type TextBounds = { min?: number; max: number };

/** A field's length bound holds exactly: at the bound passes, one past it fails. */
function lengthBound(schema: Schema, base: Record<string, unknown>, field: string, bounds: TextBounds) {
  ok(schema, { ...base, [field]: chars(bounds.max) });
  bad(schema, { ...base, [field]: chars(bounds.max + 1) });
  if (bounds.min !== undefined) {
    ok(schema, { ...base, [field]: chars(bounds.min) });
    bad(schema, { ...base, [field]: chars(bounds.min - 1) });
  }
}

/** A query integer: at each bound passes, one past fails, and non-integers fail. */
function queryIntegerBound(schema: Schema, field: string, bounds: { min: number; max?: number }) {
  ok(schema, { [field]: String(bounds.min) });
  bad(schema, { [field]: String(bounds.min - 1) });
  if (bounds.max !== undefined) {
    ok(schema, { [field]: String(bounds.max) });
    bad(schema, { [field]: String(bounds.max + 1) });
  }
  for (const value of ['1.5', 'abc', '', '-1', '1e1', '0x10', ' 5', '5 ']) bad(schema, { [field]: value });
  // One issue per failing field, whatever made it fail.
  expect(schema.safeParse({ [field]: 'abc' }).error?.issues).toHaveLength(1);
}

const routes = {
  me: contract.me,
  list: contract.items.list,
  create: contract.items.create,
  get: contract.items.get,
  update: contract.items.update,
  remove: contract.items.delete,
  valuations: contract.items.valuations,
  consignments: contract.consignments.list,
  consignment: contract.consignments.get,
  invoices: contract.invoices.list,
  invoice: contract.invoices.get,
};

describe('contract', () => {
  it('has the eleven endpoints of the specification, under paths relative to the /v1 base', () => {
    expect(contractRoutes.map(({ route }) => `${route.method} ${route.path}`)).toEqual([
      'GET /me',
      'GET /items',
      'POST /items',
      'GET /items/:id',
      'PATCH /items/:id',
      'DELETE /items/:id',
      'GET /items/:id/valuations',
      'GET /consignments',
      'GET /consignments/:id',
      'GET /invoices',
      'GET /invoices/:id',
    ]);
  });

  it('declares 200 and the error statuses each endpoint can return', () => {
    expect(declaredStatuses(routes.me)).toEqual([200, 400, 401, 403, 429, 500, 503]);
    for (const route of [routes.list, routes.consignments, routes.invoices])
      expect(declaredStatuses(route)).toEqual([200, 400, 401, 403, 429, 500, 503]);
    for (const route of [routes.get, routes.remove, routes.valuations, routes.consignment, routes.invoice]) {
      expect(declaredStatuses(route)).toEqual([200, 400, 401, 403, 404, 429, 500, 503]);
    }
    expect(declaredStatuses(routes.create)).toEqual([200, 400, 401, 403, 408, 409, 413, 415, 429, 500, 503]);
    expect(declaredStatuses(routes.update)).toEqual([200, 400, 401, 403, 404, 408, 409, 413, 415, 429, 500, 503]);
    for (const { route } of contractRoutes) {
      for (const [status, schema] of Object.entries(route.responses)) {
        if (status !== '200') expect(schema).toBe(ErrorBodySchema);
      }
    }
  });

  it('gates GET on read and every change on write', () => {
    for (const { route } of contractRoutes)
      expect(route.metadata.scope).toBe(route.method === 'GET' ? 'read' : 'write');
  });
});

describe('path ids', () => {
  it.each(contractRoutes.filter(({ route }) => route.pathParams).map(({ key, route }) => [key, route] as const))(
    '%s takes a uuid id',
    (_key, route) => {
      const params = schemaOf(route.pathParams);
      ok(params, { id: ID });
      for (const id of ['abc', '', '3f1c2b9e-8a4d-4c6e-9b7a-1d2e3f4a5b6', `${ID}0`]) bad(params, { id });
    },
  );
});

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

/** Fields the specification marks nullable, by path (`[]` stands for any array entry). */
const NULLABLE: Record<string, readonly string[]> = {
  me: ['apiKey.name', 'apiKey.expiresAt'],
  item: [
    'description',
    'category',
    'acquisition.priceInCents',
    'acquisition.date',
    'acquisition.from',
    'acquisition.notes',
    'grading.service',
    'grading.grade',
    'grading.certificateNumber',
    'grading.notes',
    'location.details',
    'consignmentId',
    'images[].width',
    'images[].height',
    'updatedAt',
  ],
  valuation: [
    'estimateLowInCents',
    'estimateInCents',
    'estimateHighInCents',
    'confidencePercent',
    'basis',
    'priceGuideValueInCents',
    'meltValueInCents',
    'summary',
    'appliedAt',
    ...['source', 'title', 'grade', 'gradingService', 'priceInCents', 'soldAt', 'venue', 'url'].map(
      (f) => `comps[].${f}`,
    ),
  ],
  consignment: [
    'number',
    'name',
    'paymentStatus',
    'consignor',
    'consignor.name',
    'consignor.email',
    'commissionBps',
    'buyerPremiumBps',
    'receivedAt',
    'soldAt',
    'settledAt',
  ],
  invoice: [
    'number',
    'customer.id',
    'customer.name',
    'customer.email',
    'lines[].itemId',
    'lines[].description',
    'payments[].method',
    'payments[].status',
    'payments[].paidAt',
    'dueAt',
    'paidAt',
  ],
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every object inside a sample, with the path to it and a function that rebuilds the sample around a changed copy. */
function objectsIn(sample: Json): Array<{ path: string; object: Json; replace: (next: Json) => Json }> {
  const found: Array<{ path: string; object: Json; replace: (next: Json) => Json }> = [];
  const visit = (object: Json, path: string, replace: (next: Json) => Json) => {
    found.push({ path, object, replace });
    for (const [key, value] of Object.entries(object)) {
      const childPath = path ? `${path}.${key}` : key;
      if (key === 'attributes') continue; // a free-form map, not a fixed object
      if (isObject(value)) visit(value, childPath, (next) => replace({ ...object, [key]: next }));
      if (Array.isArray(value) && isObject(value[0])) {
        visit(value[0], `${childPath}[]`, (next) => replace({ ...object, [key]: [next, ...value.slice(1)] }));
      }
    }
  };
  visit(sample, '', (next) => next);
  return found;
}

describe.each([
  ['me', routes.me, me, NULLABLE.me],
  ['item', routes.get, item, NULLABLE.item],
  ['consignment', routes.consignment, consignment, NULLABLE.consignment],
  ['invoice', routes.invoice, invoice, NULLABLE.invoice],
] as const)('%s response', (_name, route, sample, nullable) => {
  const schema = schemaOf(route.responses[200]);
  const nullableSet = new Set(nullable);

  it('accepts the sample', () => ok(schema, sample));

  it('rejects an extra field and a missing field at every level', () => {
    for (const { path, object, replace } of objectsIn(sample as Json)) {
      bad(schema, replace({ ...object, unexpected: 1 }));
      for (const key of Object.keys(object)) {
        const { [key]: _removed, ...rest } = object;
        expect(schema.safeParse(replace(rest)).success, `without ${path}.${key}`).toBe(false);
      }
    }
  });

  it('takes null exactly where the specification says nullable', () => {
    for (const { path, object, replace } of objectsIn(sample as Json)) {
      for (const key of Object.keys(object)) {
        const at = path ? `${path}.${key}` : key;
        const accepted = schema.safeParse(replace({ ...object, [key]: null })).success;
        expect(accepted, at).toBe(nullableSet.has(at));
      }
    }
  });
});

describe('list responses', () => {
  it.each([
    ['items', routes.list, item],
    ['consignments', routes.consignments, consignment],
    ['invoices', routes.invoices, invoice],
  ] as const)('%s: envelope with page, limit and hasMore, exactly', (_name, route, entry) => {
    const schema = schemaOf(route.responses[200]);
    const page = { items: [entry], page: 1, limit: 20, hasMore: false };
    ok(schema, page);
    ok(schema, { ...page, items: [] });
    bad(schema, { ...page, total: 1 });
    for (const key of Object.keys(page)) {
      const { [key as keyof typeof page]: _removed, ...rest } = page;
      bad(schema, rest);
    }
    bad(schema, { ...page, items: [{ ...entry, extra: true }] });
  });

  it('valuations: { items } only, each with its comparable sales', () => {
    const schema = schemaOf(routes.valuations.responses[200]);
    ok(schema, { items: [valuation] });
    bad(schema, { items: [valuation], page: 1 });
    bad(schema, { items: [{ ...valuation, comps: [{ ...valuation.comps[0], extra: 1 }] }] });
    for (const { path, object, replace } of objectsIn(valuation as unknown as Json)) {
      bad(schema, { items: [replace({ ...object, unexpected: 1 })] });
      for (const key of Object.keys(object)) {
        const at = path ? `${path}.${key}` : key;
        const { [key]: _removed, ...rest } = object;
        expect(schema.safeParse({ items: [replace(rest)] }).success, `without ${at}`).toBe(false);
        const accepted = schema.safeParse({ items: [replace({ ...object, [key]: null })] }).success;
        expect(accepted, `${at} = null`).toBe(NULLABLE.valuation?.includes(at));
      }
    }
  });

  it('delete: { id, deleted: true } exactly', () => {
    const schema = schemaOf(routes.remove.responses[200]);
    ok(schema, { id: ID, deleted: true });
    bad(schema, { id: ID, deleted: false });
    bad(schema, { id: ID });
    bad(schema, { id: ID, deleted: true, extra: 1 });
  });
});

describe('response values', () => {
  const itemSchema = schemaOf(routes.get.responses[200]);
  it('money is a non-negative integer, and date-times are UTC', () => {
    bad(itemSchema, { ...item, valueInCents: -1 });
    bad(itemSchema, { ...item, valueInCents: 1.5 });
    bad(itemSchema, { ...item, createdAt: '2026-11-22T10:00:00' });
    ok(itemSchema, { ...item, createdAt: NOW });
  });
});

describe('error body', () => {
  it('is { code, message, issues? } exactly', () => {
    ok(ErrorBodySchema, { code: 'NOT_FOUND', message: 'Not found' });
    ok(ErrorBodySchema, {
      code: 'BAD_REQUEST',
      message: 'Invalid input data',
      issues: [{ message: 'body.sku: Required' }],
    });
    bad(ErrorBodySchema, { code: 'NOT_FOUND' });
    bad(ErrorBodySchema, { message: 'Not found' });
    bad(ErrorBodySchema, { code: 'NOT_FOUND', message: 'Not found', detail: 'x' });
    bad(ErrorBodySchema, {
      code: 'BAD_REQUEST',
      message: 'Invalid input data',
      issues: [{ message: 'x', path: ['a'] }],
    });
  });

  it('carries the exact messages of the specification', () => {
    expect(ERRORS.BAD_REQUEST).toEqual({ status: 400, message: 'Invalid input data' });
    expect(ERRORS.UNAUTHORIZED).toEqual({ status: 401, message: 'Authorization not provided' });
    expect(ERRORS.FORBIDDEN).toEqual({ status: 403, message: 'Insufficient access' });
    expect(ERRORS.NOT_FOUND).toEqual({ status: 404, message: 'Not found' });
    expect(ERRORS.CONFLICT.status).toBe(409);
    expect(ERRORS.TOO_MANY_REQUESTS.status).toBe(429);
    expect(ERRORS.INTERNAL_SERVER_ERROR).toEqual({ status: 500, message: 'Internal server error' });
    expect(RATE_LIMIT).toEqual({ maxRequests: 120, windowSeconds: 60 });
  });
});
