import { randomUUID } from 'node:crypto';
import {
  CONSIGNMENT_STATUSES,
  contractRoutes,
  INVOICE_SORTS,
  INVOICE_STATUSES,
  ITEM_SORTS,
  ITEM_STATUSES,
  type Item,
  LIMITS,
} from '@coinventory/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../src/modules/access/index.js';
import { expectBadRequest } from '../support/errors.js';
import { call, client } from '../support/http.js';
import { ITEM_TEXT_FIELDS } from '../support/items.js';
import { requestFor, routesTakingId, type SeededResources, seedResources, send, uniqueSku } from '../support/routes.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { createWorkspace, type TestWorkspace } from '../support/workspace.js';

let server: TestServer;
let workspace: TestWorkspace;
let data: SeededResources;
/** A fresh read/write key per test, so no test can run into a per-key rate limit because of the others. */
let key: string;

beforeAll(async () => {
  server = await startTestServer();
  workspace = await createWorkspace(server.database.sql);
  data = await seedResources(server.database.sql, server.baseUrl, workspace, 'VALID');
});
afterAll(() => server.close());
beforeEach(async () => {
  key = (
    await issueApiKey(server.database.sql, {
      organizationId: workspace.organizationId,
      createdBy: workspace.ownerId,
      name: 'validation',
      scopes: ['read', 'write'],
    })
  ).key;
});

const api = () => client(server.baseUrl, key);

const itemCount = async () => {
  const [row] = await server.database.sql<{ count: number }[]>`
    SELECT count(*)::int AS count FROM items WHERE organization_id = ${workspace.organizationId}
  `;
  return row?.count ?? -1;
};

const long = (length: number, char = 'x') => char.repeat(length);
const encode = encodeURIComponent;

describe('every route with query parameters is covered here', () => {
  it('the routes with a query schema are exactly the four below', () => {
    const withQuery = contractRoutes.filter((entry) => 'query' in entry.route && entry.route.query).map((e) => e.key);
    expect(withQuery.sort()).toEqual(['consignments.list', 'invoices.list', 'items.list', 'items.valuations'].sort());
  });
});

interface ListBody {
  items: unknown[];
  page: number;
  limit: number;
  hasMore: boolean;
}

/** `limit` values outside its bounds or not one whole number, each refused naming query.limit. */
const limitRejections = (bounds: { min: number; max: number }): [string, string][] =>
  [`${bounds.min - 1}`, `${bounds.max + 1}`, '-1', '1.5', 'abc', '', '1&limit=2'].map((value) => [
    `limit=${value}`,
    'query.limit',
  ]);

/** Bounds every paginated list shares. */
function paginationCases(): { accepted: [string, { page: number; limit: number }][]; rejected: [string, string][] } {
  return {
    accepted: [
      ['', { page: 1, limit: LIMITS.listLimit.default }],
      [`limit=${LIMITS.listLimit.min}`, { page: 1, limit: 1 }],
      [`limit=${LIMITS.listLimit.max}`, { page: 1, limit: 100 }],
      [`page=${LIMITS.page.min}`, { page: 1, limit: 20 }],
      ['page=2&limit=5', { page: 2, limit: 5 }],
      [`page=${LIMITS.page.max}&limit=${LIMITS.listLimit.max}`, { page: LIMITS.page.max, limit: 100 }],
    ],
    rejected: [
      ...limitRejections(LIMITS.listLimit),
      [`page=${LIMITS.page.min - 1}`, 'query.page'],
      ['page=-1', 'query.page'],
      ['page=1.5', 'query.page'],
      ['page=abc', 'query.page'],
      [`page=${LIMITS.page.max + 1}`, 'query.page'],
      ['q=', 'query.q'],
      [`q=${long(LIMITS.q.max + 1)}`, 'query.q'],
      ['q=a%00b', 'query.q'],
      ['status=bogus', 'query.status'],
      ['unknownParameter=1', 'query'],
      ['api_key=abc', 'query'],
    ],
  };
}

describe.each([
  {
    path: '/items',
    statuses: ITEM_STATUSES,
    sorts: ITEM_SORTS,
    accepted: [
      `q=${encode(long(LIMITS.q.max, 'é'))}`,
      `categoryId=${randomUUID()}`,
      `gradingService=${long(1)}`,
      `gradingService=${long(LIMITS.gradingService.max)}`,
      `grade=${long(1)}`,
      `grade=${long(LIMITS.grade.max)}`,
      `sku=${long(LIMITS.sku.min)}`,
      `sku=${long(LIMITS.sku.max)}`,
      `q=abc&status=in_stock&categoryId=${randomUUID()}&gradingService=PCGS&grade=MS65&sku=A&sort=sku&page=1&limit=5`,
    ],
    rejected: [
      ['status=IN_STOCK', 'query.status'],
      ['status=', 'query.status'],
      ['sort=bogus', 'query.sort'],
      ['sort=NEWEST', 'query.sort'],
      ['sort=', 'query.sort'],
      ['categoryId=not-a-uuid', 'query.categoryId'],
      ['categoryId=', 'query.categoryId'],
      ['gradingService=', 'query.gradingService'],
      [`gradingService=${long(LIMITS.gradingService.max + 1)}`, 'query.gradingService'],
      ['grade=', 'query.grade'],
      [`grade=${long(LIMITS.grade.max + 1)}`, 'query.grade'],
      ['sku=', 'query.sku'],
      [`sku=${long(LIMITS.sku.max + 1)}`, 'query.sku'],
      ['consignorId=x', 'query'],
    ] as [string, string][],
  },
  {
    path: '/consignments',
    statuses: CONSIGNMENT_STATUSES,
    sorts: [],
    accepted: [`consignorId=${randomUUID()}`, `q=a&status=listed&consignorId=${randomUUID()}&page=1&limit=5`],
    rejected: [
      ['status=LISTED', 'query.status'],
      ['status=in_stock', 'query.status'],
      ['consignorId=not-a-uuid', 'query.consignorId'],
      ['consignorId=', 'query.consignorId'],
      ['sort=newest', 'query'],
    ] as [string, string][],
  },
  {
    path: '/invoices',
    statuses: INVOICE_STATUSES,
    sorts: INVOICE_SORTS,
    accepted: ['q=a&status=paid&sort=oldest&page=1&limit=5'],
    rejected: [
      ['status=PAID', 'query.status'],
      ['status=listed', 'query.status'],
      ['sort=title', 'query.sort'],
      ['sort=value_desc', 'query.sort'],
      ['sort=', 'query.sort'],
      ['consignorId=x', 'query'],
    ] as [string, string][],
  },
])('GET $path query parameters', ({ path, statuses, sorts, accepted: own, rejected }) => {
  const pagination = paginationCases();
  // q at its bounds, every status and every sort; then the list's own.
  const accepted = [
    `q=${long(LIMITS.q.min)}`,
    `q=${long(LIMITS.q.max)}`,
    ...statuses.map((status) => `status=${status}`),
    ...sorts.map((sort) => `sort=${sort}`),
    ...own,
  ];

  it.each(pagination.accepted)('?%s → 200 with that page and limit', async (query, expected) => {
    const response = await api().get<ListBody>(`${path}?${query}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      items: expect.any(Array),
      page: expected.page,
      limit: expected.limit,
      hasMore: expect.any(Boolean),
    });
  });

  it.each(accepted)('?%s → 200', async (query) => {
    const response = await api().get<ListBody>(`${path}?${query}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ items: expect.any(Array), page: 1, limit: expect.any(Number), hasMore: false });
  });

  it.each([...pagination.rejected, ...rejected])('?%s → 400 naming %s', async (query, location) => {
    const response = await api().get(`${path}?${query}`);
    expectBadRequest(response, [location]);
  });

  it('several bad parameters → one issue each', async () => {
    const response = await api().get(`${path}?limit=0&page=0&q=`);
    expectBadRequest(response, ['query.limit', 'query.page', 'query.q']);
  });

  it('the unknown parameter is named in the issue', async () => {
    const response = await api().get(`${path}?frobnicate=1`);
    expectBadRequest(response, ['query'], ['frobnicate']);
  });
});

describe('GET /items/{id}/valuations?limit', () => {
  const path = () => `/items/${data.itemId}/valuations`;

  it.each([
    ['', 1],
    [`limit=${LIMITS.valuationLimit.min}`, 1],
    [`limit=${LIMITS.valuationLimit.max}`, 1],
  ])('?%s → 200', async (query, count) => {
    const response = await api().get<{ items: unknown[] }>(`${path()}?${query}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ items: expect.any(Array) });
    expect(response.body.items).toHaveLength(count);
  });

  it.each([...limitRejections(LIMITS.valuationLimit), ['page=1', 'query'], ['unknownParameter=1', 'query']])(
    '?%s → 400 naming %s',
    async (query, location) => {
      expectBadRequest(await api().get(`${path()}?${query}`), [location]);
    },
  );

  it('an unknown query parameter and a bad path id → one issue each', async () => {
    expectBadRequest(await api().get('/items/nope/valuations?limit=0'), ['path.id', 'query.limit']);
  });
});

describe('path ids', () => {
  it.each(
    routesTakingId.flatMap((entry) =>
      [
        'not-a-uuid',
        '12345',
        `${randomUUID()}0`,
        randomUUID().slice(0, -1),
        'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz',
        `${randomUUID()} `,
      ].map((id) => [entry.key, id, entry] as const),
    ),
  )('%s with id %j → 400 naming path.id', async (_key, id, entry) => {
    const before = await itemCount();
    expectBadRequest(await send(server.baseUrl, requestFor(entry, id), { key }), ['path.id']);
    expect(await itemCount()).toBe(before);
  });
});

describe('unknown query parameters on routes without any', () => {
  it.each(
    contractRoutes.filter((entry) => !('query' in entry.route && entry.route.query)).map((e) => [e.key, e] as const),
  )('%s?unknownParameter=1 → 400, nothing changed', async (_key, entry) => {
    // A throwaway item, so a route that wrongly ignores the parameter (DELETE) cannot break other tests.
    const target = await api().post<Item>('/items', { body: { sku: uniqueSku('QUERY'), title: 'Query target' } });
    expect(target.status, target.text).toBe(200);
    const request = requestFor(entry, { ...data, itemId: target.body.id });
    const count = await itemCount();
    const response = await send(server.baseUrl, { ...request, path: `${request.path}?unknownParameter=1` }, { key });
    expectBadRequest(response, ['query'], ['unknownParameter']);
    expect((await api().get(`/items/${target.body.id}`)).body).toEqual(target.body);
    expect(await itemCount()).toBe(count);
  });
});

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
    { name: 'categoryId of the workspace', fields: () => ({ categoryId: data.categoryId }) },
    { name: 'categoryId null', fields: () => ({ categoryId: null }) },
    {
      name: 'warehouseId and zoneId of the workspace',
      fields: () => ({ warehouseId: workspace.defaultWarehouseId, zoneId: workspace.defaultZoneId }),
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
    expectBadRequest(await call(server.baseUrl, 'POST', '/items', { key }), ['body.sku', 'body.title']);
    expect(await itemCount()).toBe(before);
  });

  it('defaults: quantity 1, valueInCents 0, the default warehouse and its first zone', async () => {
    const response = await api().post<Item>('/items', { body: baseBody() });
    expect(response.status).toBe(200);
    expect(response.body.quantity).toEqual({ available: LIMITS.quantity.default, sold: 0, reserved: 0 });
    expect(response.body.valueInCents).toBe(LIMITS.valueInCents.default);
    expect(response.body.location).toEqual({
      warehouseId: workspace.defaultWarehouseId,
      zoneId: workspace.defaultZoneId,
      details: null,
    });
  });
});

describe('PATCH /items/{id} body', () => {
  let itemId: string;
  beforeAll(async () => {
    const created = await call<Item>(server.baseUrl, 'POST', '/items', {
      key: workspace.key,
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
