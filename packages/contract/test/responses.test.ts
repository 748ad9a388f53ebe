import { describe, expect, it } from 'vitest';
import { ERRORS, RATE_LIMIT } from '../src/constants.js';
import { ErrorBodySchema } from '../src/schemas/common.js';
import { consignment, ID, invoice, item, me, NOW, valuation } from './fixtures.js';
import { bad, ok, routes, schemaOf } from './schema-checks.js';

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
