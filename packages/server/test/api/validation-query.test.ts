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
import { describe, expect, it } from 'vitest';
import { expectBadRequest } from '../support/errors.js';
import { requestFor, routesTakingId, send, uniqueSku } from '../support/routes.js';
import { long, validationServer } from '../support/validation.js';

/** Query parameters and path ids: every list's bounds and filters, and every route's id and unknown parameters. */

const suite = validationServer();
const { api, itemCount } = suite;
const encode = encodeURIComponent;

describe('every route with query parameters is covered here', () => {
  it('the routes with a query schema are exactly the twenty below', () => {
    const withQuery = contractRoutes.filter((entry) => 'query' in entry.route && entry.route.query).map((e) => e.key);
    expect(withQuery.sort()).toEqual(
      [
        'consignments.list',
        'invoices.list',
        'items.list',
        'items.valuations',
        'categories.list',
        'warehouses.list',
        'changes.list',
        'webhookEndpoints.list',
        'webhookEndpoints.deliveries',
        'items.batch',
        // Issue 19: dryRun on every item write, and the export's filters.
        'items.create',
        'items.update',
        'items.delete',
        'items.export',
        // Issue 37: adjustments, the ledger and reservations.
        'items.adjust',
        'items.movements',
        'reservations.create',
        'reservations.list',
        'reservations.commit',
        'reservations.release',
      ].sort(),
    );
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

describe.each(['/categories', '/warehouses'])('GET %s: only page and limit', (path) => {
  const { accepted, rejected } = paginationCases();
  it.each(accepted)('?%s → 200 with that page and limit', async (query, expected) => {
    const response = await api().get<ListBody>(`${path}?${query}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ items: expect.any(Array), ...expected, hasMore: expect.any(Boolean) });
  });

  // No search, filters or sorts: each is an unknown parameter.
  const own = rejected.map(([query, location]): [string, string] => [
    query,
    location === 'query.q' || location === 'query.status' ? 'query' : location,
  ]);
  it.each([...own, ['sort=newest', 'query']])('?%s → 400 naming %s', async (query, location) => {
    expectBadRequest(await api().get(`${path}?${query}`), [location]);
  });
});

describe('GET /changes query parameters', () => {
  it.each([
    '',
    `limit=${LIMITS.changesLimit.min}`,
    `limit=${LIMITS.changesLimit.max}`,
    'types=item.created',
    'types=item.created,item.updated,item.deleted',
    'types=item.deleted,item.deleted',
  ])('?%s → 200', async (query) => {
    const response = await api().get<{ items: unknown[] }>(`/changes?${query}`);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({
      items: expect.any(Array),
      nextCursor: expect.any(String),
      hasMore: expect.any(Boolean),
    });
  });

  it.each([
    ...limitRejections(LIMITS.changesLimit),
    ['after=', 'query.after'],
    [`after=${long(LIMITS.cursor.max + 1)}`, 'query.after'],
    ['after=not-a-cursor', 'query.after'],
    ['types=', 'query.types'],
    ['types=item.sold', 'query.types'],
    ['types=ITEM.CREATED', 'query.types'],
    ['types=item.created&types=item.updated', 'query.types'],
    ['page=1', 'query'],
  ])('?%s → 400 naming %s', async (query, location) => {
    expectBadRequest(await api().get(`/changes?${query}`), [location]);
  });
});

describe('GET /items/{id}/valuations?limit', () => {
  const path = () => `/items/${suite.data.itemId}/valuations`;

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

describe.each(['items.create', 'items.update', 'items.delete', 'items.batch'])('%s?dryRun', (key) => {
  const entry = contractRoutes.find((route) => route.key === key);
  if (!entry) throw new Error(`no route ${key}`);
  it.each([
    ['dryRun=yes', 'query.dryRun'],
    ['dryRun=TRUE', 'query.dryRun'],
    ['dryRun=1', 'query.dryRun'],
    ['dryRun=', 'query.dryRun'],
    ['dryRun=true&dryRun=false', 'query.dryRun'],
    ['dryRun=true&unknownParameter=1', 'query'],
  ])('?%s → 400 naming %s, nothing changed', async (query, location) => {
    const target = await api().post<Item>('/items', { body: { sku: uniqueSku('DRY'), title: 'Dry-run target' } });
    expect(target.status, target.text).toBe(200);
    const request = requestFor(entry, { ...suite.data, itemId: target.body.id });
    const count = await itemCount();
    const response = await send(
      suite.server.baseUrl,
      { ...request, path: `${request.path}?${query}` },
      { key: suite.key },
    );
    expectBadRequest(response, [location]);
    expect((await api().get(`/items/${target.body.id}`)).body).toEqual(target.body);
    expect(await itemCount()).toBe(count);
  });
});

describe('GET /exports/items query parameters', () => {
  it.each([
    '',
    `q=${long(LIMITS.q.max)}`,
    ...ITEM_STATUSES.map((status) => `status=${status}`),
    `q=abc&status=in_stock&categoryId=${randomUUID()}&gradingService=PCGS&grade=MS65&sku=A`,
  ])('?%s → 200', async (query) => {
    const response = await fetch(`${suite.server.baseUrl}/exports/items?${query}`, {
      headers: { authorization: `Bearer ${suite.key}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    await response.text();
  });

  // A page, a limit or an order mean nothing to an export: they are unknown parameters, not ignored.
  it.each([
    ['page=1', 'query'],
    ['limit=10', 'query'],
    ['sort=newest', 'query'],
    ['status=bogus', 'query.status'],
    ['q=', 'query.q'],
    ['q=a%00b', 'query.q'],
    ['categoryId=not-a-uuid', 'query.categoryId'],
    [`sku=${long(LIMITS.sku.max + 1)}`, 'query.sku'],
  ])('?%s → 400 naming %s', async (query, location) => {
    expectBadRequest(await api().get(`/exports/items?${query}`), [location]);
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
    expectBadRequest(await send(suite.server.baseUrl, requestFor(entry, id), { key: suite.key }), ['path.id']);
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
    const request = requestFor(entry, { ...suite.data, itemId: target.body.id });
    const count = await itemCount();
    const response = await send(
      suite.server.baseUrl,
      { ...request, path: `${request.path}?unknownParameter=1` },
      { key: suite.key },
    );
    expectBadRequest(response, ['query'], ['unknownParameter']);
    expect((await api().get(`/items/${target.body.id}`)).body).toEqual(target.body);
    expect(await itemCount()).toBe(count);
  });
});
