import { randomUUID } from 'node:crypto';
import { type Item, LIMITS } from '@coinventory/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectBadRequest } from '../support/errors.js';
import { call } from '../support/http.js';
import { ITEM_TEXT_FIELDS } from '../support/items.js';
import { uniqueSku } from '../support/routes.js';
import { long, validationServer } from '../support/validation.js';

/** Request bodies: each writable field of POST and PATCH /items at its bounds, one step past, and of the wrong kind. */

const suite = validationServer();
const { api, itemCount } = suite;

/** Where each writable field shows up on the Item: its path there. */
const SHOWN_AT: Record<string, string> = {
  sku: 'sku',
  title: 'title',
  description: 'description',
  quantity: 'quantity.available',
  valueInCents: 'valueInCents',
  acquisitionPriceInCents: 'acquisition.priceInCents',
  acquisitionDate: 'acquisition.date',
  acquiredFrom: 'acquisition.from',
  acquisitionNotes: 'acquisition.notes',
  gradingService: 'grading.service',
  grade: 'grading.grade',
  certificateNumber: 'grading.certificateNumber',
  gradingNotes: 'grading.notes',
  categoryId: 'category.id',
  attributes: 'attributes',
  warehouseId: 'location.warehouseId',
  zoneId: 'location.zoneId',
  locationDetails: 'location.details',
};

/** The value a writable field shows on the Item (null where the path runs into a null, as a removed category). */
function shownValue(item: Item, field: string): unknown {
  const path = SHOWN_AT[field];
  if (!path) throw new Error(`no place for ${field}`);
  return path
    .split('.')
    .reduce<unknown>((value, key) => (value === null ? null : (value as Record<string, unknown>)[key]), item);
}

const STRING_FIELDS = ITEM_TEXT_FIELDS;
const REQUIRED = new Set<string>(['sku', 'title']);
/** The item's whole-number write fields, with their largest value. */
const INTEGER_FIELDS = [
  ['quantity', LIMITS.quantity.max],
  ['valueInCents', LIMITS.cents.max],
  ['acquisitionPriceInCents', LIMITS.cents.max],
] as const;

let shortSkus = 0;
/** A string of exactly `length` characters; SKUs stay unique (one-character ones too, from a counter). */
function stringOf(field: string, length: number): string {
  if (field !== 'sku') return long(length, 'y');
  if (length === 1) {
    shortSkus += 1;
    return 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[shortSkus % 26] ?? 'Z';
  }
  return uniqueSku('S').padEnd(length, 'x').slice(0, length);
}

interface Case {
  name: string;
  fields: () => Record<string, unknown>;
  /** What the Item shows for each field sent, when it differs from the value sent. */
  shown?: () => Record<string, unknown>;
}
interface RejectedCase {
  name: string;
  fields: () => Record<string, unknown>;
  locations: string[];
  mentions?: string[];
}

/** Accepted values at every bound, shared by POST and PATCH. */
function acceptedCases(): Case[] {
  const cases: Case[] = [];
  for (const field of STRING_FIELDS) {
    const { max } = LIMITS[field];
    cases.push({ name: `${field} of ${max} chars (the maximum)`, fields: () => ({ [field]: stringOf(field, max) }) });
    if (REQUIRED.has(field)) {
      cases.push({ name: `${field} of 1 char (the minimum)`, fields: () => ({ [field]: stringOf(field, 1) }) });
    } else {
      cases.push({ name: `${field} null`, fields: () => ({ [field]: null }) });
      cases.push({ name: `${field} empty`, fields: () => ({ [field]: '' }) });
    }
  }
  cases.push({
    name: `title of ${LIMITS.title.max} two-byte chars`,
    fields: () => ({ title: long(LIMITS.title.max, 'é') }),
  });
  for (const [field, max] of INTEGER_FIELDS) {
    cases.push({ name: `${field} 0`, fields: () => ({ [field]: 0 }) });
    cases.push({ name: `${field} ${max} (the maximum)`, fields: () => ({ [field]: max }) });
  }
  cases.push({ name: 'acquisitionPriceInCents null', fields: () => ({ acquisitionPriceInCents: null }) });
  cases.push(
    {
      name: 'acquisitionDate with Z',
      fields: () => ({ acquisitionDate: '2024-01-02T03:04:05Z' }),
      shown: () => ({ acquisitionDate: '2024-01-02T03:04:05.000Z' }),
    },
    {
      name: 'acquisitionDate with +02:00',
      fields: () => ({ acquisitionDate: '2024-01-02T03:04:05+02:00' }),
      shown: () => ({ acquisitionDate: '2024-01-02T01:04:05.000Z' }),
    },
    {
      name: 'acquisitionDate with milliseconds and -05:30',
      fields: () => ({ acquisitionDate: '2024-02-29T23:59:59.123-05:30' }),
      shown: () => ({ acquisitionDate: '2024-03-01T05:29:59.123Z' }),
    },
    { name: 'acquisitionDate null', fields: () => ({ acquisitionDate: null }) },
    { name: 'categoryId of the organization', fields: () => ({ categoryId: suite.data.categoryId }) },
    { name: 'categoryId null', fields: () => ({ categoryId: null }) },
    {
      name: 'warehouseId and zoneId of the organization',
      fields: () => ({ warehouseId: suite.organization.defaultWarehouseId, zoneId: suite.organization.defaultZoneId }),
    },
    {
      name: 'attributes of every value type',
      fields: () => ({ attributes: { s: 'text', n: 1.5, i: -3, t: true, f: false, z: null, e: '' } }),
    },
    { name: 'attributes empty', fields: () => ({ attributes: {} }) },
    {
      name: `attributes with ${LIMITS.attributes.maxKeys} keys`,
      fields: () => ({
        attributes: Object.fromEntries(Array.from({ length: LIMITS.attributes.maxKeys }, (_, i) => [`k${i}`, i])),
      }),
    },
    {
      name: `attribute key of ${LIMITS.attributes.keyMax} chars and string value of ${LIMITS.attributes.stringValueMax}`,
      fields: () => ({
        attributes: { [long(LIMITS.attributes.keyMax, 'k')]: long(LIMITS.attributes.stringValueMax, 'v') },
      }),
    },
  );
  return cases;
}

/** Values one step past every bound, and values of the wrong kind, shared by POST and PATCH. */
function rejectedCases(): RejectedCase[] {
  const cases: RejectedCase[] = [];
  for (const field of STRING_FIELDS) {
    const { max } = LIMITS[field];
    const at = [`body.${field}`];
    cases.push({
      name: `${field} of ${max + 1} chars`,
      fields: () => ({ [field]: stringOf(field, max + 1) }),
      locations: at,
    });
    cases.push({ name: `${field} a number`, fields: () => ({ [field]: 5 }), locations: at });
    cases.push({ name: `${field} an array`, fields: () => ({ [field]: ['a'] }), locations: at });
    cases.push({ name: `${field} with a NUL character`, fields: () => ({ [field]: 'a\u0000b' }), locations: at });
    cases.push({ name: `${field} with an unpaired surrogate`, fields: () => ({ [field]: 'a\uD800b' }), locations: at });
    if (REQUIRED.has(field)) {
      cases.push({ name: `${field} empty`, fields: () => ({ [field]: '' }), locations: at });
      cases.push({ name: `${field} null`, fields: () => ({ [field]: null }), locations: at });
    }
  }
  for (const [field, max] of INTEGER_FIELDS) {
    const at = [`body.${field}`];
    cases.push({ name: `${field} -1`, fields: () => ({ [field]: -1 }), locations: at });
    cases.push({
      name: `${field} ${max + 1} (one past the maximum)`,
      fields: () => ({ [field]: max + 1 }),
      locations: at,
    });
    cases.push({ name: `${field} 1.5`, fields: () => ({ [field]: 1.5 }), locations: at });
    cases.push({ name: `${field} "1"`, fields: () => ({ [field]: '1' }), locations: at });
    cases.push({ name: `${field} true`, fields: () => ({ [field]: true }), locations: at });
  }
  cases.push(
    { name: 'quantity null', fields: () => ({ quantity: null }), locations: ['body.quantity'] },
    { name: 'valueInCents null', fields: () => ({ valueInCents: null }), locations: ['body.valueInCents'] },
    { name: 'quantity as an object', fields: () => ({ quantity: { available: 1 } }), locations: ['body.quantity'] },
  );
  for (const value of [
    '2024-01-02T03:04:05',
    '2024-01-02',
    '2024-01-02 03:04:05Z',
    '2024-02-30T00:00:00Z',
    '2023-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    'yesterday',
    '',
    1704164645000,
  ]) {
    cases.push({
      name: `acquisitionDate ${JSON.stringify(value)}`,
      fields: () => ({ acquisitionDate: value }),
      locations: ['body.acquisitionDate'],
    });
  }
  for (const field of ['categoryId', 'warehouseId', 'zoneId']) {
    cases.push({
      name: `${field} not a uuid`,
      fields: () => ({ [field]: 'not-a-uuid' }),
      locations: [`body.${field}`],
    });
    cases.push({ name: `${field} a number`, fields: () => ({ [field]: 1 }), locations: [`body.${field}`] });
  }
  cases.push(
    { name: 'warehouseId null', fields: () => ({ warehouseId: null }), locations: ['body.warehouseId'] },
    { name: 'zoneId null', fields: () => ({ zoneId: null }), locations: ['body.zoneId'] },
    { name: 'categoryId unknown', fields: () => ({ categoryId: randomUUID() }), locations: ['body.categoryId'] },
    { name: 'warehouseId unknown', fields: () => ({ warehouseId: randomUUID() }), locations: ['body.warehouseId'] },
    { name: 'zoneId unknown', fields: () => ({ zoneId: randomUUID() }), locations: ['body.zoneId'] },
    { name: 'attributes an array', fields: () => ({ attributes: ['a'] }), locations: ['body.attributes'] },
    { name: 'attributes a string', fields: () => ({ attributes: 'a' }), locations: ['body.attributes'] },
    { name: 'attributes null', fields: () => ({ attributes: null }), locations: ['body.attributes'] },
    {
      name: 'an attribute holding an object',
      fields: () => ({ attributes: { nested: { a: 1 } } }),
      locations: ['body.attributes.nested'],
    },
    {
      name: 'an attribute holding an array',
      fields: () => ({ attributes: { list: [1, 2] } }),
      locations: ['body.attributes.list'],
    },
    {
      name: `an attribute string of ${LIMITS.attributes.stringValueMax + 1} chars`,
      fields: () => ({ attributes: { long: long(LIMITS.attributes.stringValueMax + 1) } }),
      locations: ['body.attributes.long'],
    },
    {
      name: `an attribute key of ${LIMITS.attributes.keyMax + 1} chars`,
      fields: () => ({ attributes: { [long(LIMITS.attributes.keyMax + 1, 'k')]: 1 } }),
      locations: [`body.attributes.${long(LIMITS.attributes.keyMax + 1, 'k')}`],
    },
    {
      name: `attributes with ${LIMITS.attributes.maxKeys + 1} keys`,
      fields: () => ({
        attributes: Object.fromEntries(Array.from({ length: LIMITS.attributes.maxKeys + 1 }, (_, i) => [`k${i}`, i])),
      }),
      locations: ['body.attributes'],
    },
    { name: 'an unknown field', fields: () => ({ colour: 'gold' }), locations: ['body'], mentions: ['colour'] },
    { name: 'a read-only field (id)', fields: () => ({ id: randomUUID() }), locations: ['body'], mentions: ['id'] },
    { name: 'a read-only field (images)', fields: () => ({ images: [] }), locations: ['body'], mentions: ['images'] },
    {
      name: 'a read-only field (consignmentId)',
      fields: () => ({ consignmentId: null }),
      locations: ['body'],
      mentions: ['consignmentId'],
    },
    {
      name: 'three bad fields at once',
      fields: () => ({ title: '', quantity: -1, gradingService: long(LIMITS.gradingService.max + 1) }),
      locations: ['body.title', 'body.quantity', 'body.gradingService'],
    },
  );
  return cases;
}

/** What the Item must show after a write of `sent`. */
function expectShown(item: Item, sent: Record<string, unknown>, shown: Record<string, unknown> = {}) {
  for (const [field, value] of Object.entries(sent)) {
    expect(shownValue(item, field), field).toEqual(field in shown ? shown[field] : value);
  }
}

describe('POST /items body', () => {
  const baseBody = () => ({ sku: uniqueSku('POST'), title: 'Validation probe' });

  it.each(acceptedCases().map((c) => [c.name, c] as const))('%s → 200', async (_name, c) => {
    const sent = c.fields();
    const response = await api().post<Item>('/items', { body: { ...baseBody(), ...sent } });
    expect(response.status, response.text).toBe(200);
    expectShown(response.body, sent, c.shown?.());
    expect((await api().get(`/items/${response.body.id}`)).body).toEqual(response.body);
  });

  it.each(rejectedCases().map((c) => [c.name, c] as const))('%s → 400, nothing created', async (_name, c) => {
    const before = await itemCount();
    const response = await api().post('/items', { body: { ...baseBody(), ...c.fields() } });
    expectBadRequest(response, c.locations, c.mentions);
    expect(await itemCount()).toBe(before);
  });

  it.each([
    ['an empty object', {}, ['body.sku', 'body.title']],
    ['no sku', { title: 'No SKU' }, ['body.sku']],
    ['no title', { sku: 'NO-TITLE' }, ['body.title']],
  ] as const)('%s → 400 naming the missing fields, nothing created', async (_name, body, locations) => {
    const before = await itemCount();
    expectBadRequest(await api().post('/items', { body }), [...locations]);
    expect(await itemCount()).toBe(before);
  });

  it('no body at all → 400 naming sku and title, nothing created', async () => {
    const before = await itemCount();
    expectBadRequest(await call(suite.server.baseUrl, 'POST', '/items', { key: suite.key }), [
      'body.sku',
      'body.title',
    ]);
    expect(await itemCount()).toBe(before);
  });

  it('defaults: quantity 1, valueInCents 0, the default warehouse and its first zone', async () => {
    const response = await api().post<Item>('/items', { body: baseBody() });
    expect(response.status).toBe(200);
    expect(response.body.quantity).toEqual({ available: LIMITS.quantity.default, sold: 0, reserved: 0 });
    expect(response.body.valueInCents).toBe(LIMITS.valueInCents.default);
    expect(response.body.location).toEqual({
      warehouseId: suite.organization.defaultWarehouseId,
      zoneId: suite.organization.defaultZoneId,
      details: null,
    });
  });
});

describe('PATCH /items/{id} body', () => {
  let itemId: string;
  beforeAll(async () => {
    const created = await call<Item>(suite.server.baseUrl, 'POST', '/items', {
      key: suite.organization.key,
      body: { sku: uniqueSku('PATCH'), title: 'Patch target', description: 'kept', quantity: 2, valueInCents: 100 },
    });
    if (created.status !== 200) throw new Error(created.text);
    itemId = created.body.id;
  });

  it.each(acceptedCases().map((c) => [c.name, c] as const))('%s → 200 and only that changes', async (_name, c) => {
    const before = await api().get<Item>(`/items/${itemId}`);
    const sent = c.fields();
    const response = await api().patch<Item>(`/items/${itemId}`, { body: sent });
    expect(response.status, response.text).toBe(200);
    expectShown(response.body, sent, c.shown?.());
    // Everything not sent is as it was; updatedAt moves.
    expect(response.body.id).toBe(itemId);
    expect(response.body.createdAt).toBe(before.body.createdAt);
    expect(response.body.updatedAt).toEqual(expect.any(String));
    expect((await api().get(`/items/${itemId}`)).body).toEqual(response.body);
  });

  it.each(rejectedCases().map((c) => [c.name, c] as const))('%s → 400, item unchanged', async (_name, c) => {
    const before = await api().get(`/items/${itemId}`);
    expectBadRequest(await api().patch(`/items/${itemId}`, { body: c.fields() }), c.locations, c.mentions);
    expect((await api().get(`/items/${itemId}`)).body).toEqual(before.body);
  });

  it('an empty object is accepted and changes no field', async () => {
    const before = await api().get<Item>(`/items/${itemId}`);
    const response = await api().patch<Item>(`/items/${itemId}`, { body: {} });
    expect(response.status, response.text).toBe(200);
    expect({ ...response.body, updatedAt: null }).toEqual({ ...before.body, updatedAt: null });
  });

  it('a bad body on an unknown id is 400 (validation comes before lookup)', async () => {
    expectBadRequest(await api().patch(`/items/${randomUUID()}`, { body: { quantity: -1 } }), ['body.quantity']);
  });
});
