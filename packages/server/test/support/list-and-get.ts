import { LIMITS } from '@coinventory/contract';
import { beforeAll, expect, it } from 'vitest';
import type { Sql } from '../../src/db/types.js';
import { badRequestBody, ERROR_BODY } from './errors.js';
import { type ApiResponse, client, expectStatus } from './http.js';
import { createTestOrganization, type TestOrganization } from './organization.js';
import { compareIds } from './sales.js';
import type { TestServer } from './server.js';

/**
 * The checks every read-only resource's list and get routes share (the contract builds both routes with one
 * `listAndGet()`): defaults, order and its tie-break, status filters, search, pages, other organizations, bad queries
 * and bad ids. A resource's own test file calls `listAndGetSuite` inside its `describe` and adds what is its own.
 */

type Sort = 'newest' | 'oldest';

interface Listed {
  id: string;
  createdAt: string;
}
interface ListPage {
  items: Listed[];
  page: number;
  limit: number;
  hasMore: boolean;
}

/** A seeded row: its id, and its created_at as inserted. */
export interface SeededRow {
  id: string;
  createdAt: string;
}

export interface ReadOnlyResource {
  /** The collection's path, `/consignments`. */
  path: string;
  /** What one row is called in the tests' names. */
  noun: string;
  listSchema: { parse(value: unknown): ListPage };
  /** Every status, as the contract lists them: the seed holds one row of each, labelled by its status. */
  statuses: readonly string[];
  /** The values of the list's `sort` parameter, when it has one; without it the list is newest first. */
  sorts?: readonly Sort[];
  /**
   * Inserts the rows into `org`, labelled by status, and into `other` one row that looks like ours and is newer
   * than all of them; returns ours by label, and the other's id.
   */
  seed(
    sql: Sql,
    org: TestOrganization,
    other: TestOrganization,
  ): Promise<{ rows: Record<string, SeededRow>; otherId: string }>;
  /** The labels of the newest and the oldest row, and of the rows created at one instant (the id decides). */
  newest: string;
  oldest: string;
  tied: readonly string[];
  /** `q` values, each with the labels it matches. */
  search: readonly (readonly [what: string, q: string, labels: readonly string[]])[];
  /** Text that would match only across two fields, which `q` never does. */
  spanningTwoFields: string;
  /** A `q` that matches our row `label` and the other organization's look-alike. */
  lookAlike: { q: string; label: string };
  /** A query parameter the list does not take. */
  unknownParameter: string;
  /** The list's own bad queries, with the exact issue message, beside the ones every list shares. */
  badQueries: readonly (readonly [what: string, query: string, message: string])[];
}

export interface ListAndGet {
  readonly org: TestOrganization;
  readonly other: TestOrganization;
  id(label: string): string;
  /** The ids of these rows in the list's order: created_at, then id, both in the sort's direction. */
  ordered(labels: readonly string[], sort?: Sort): string[];
  list(query: string): Promise<ListPage>;
  listIds(query: string): Promise<string[]>;
}

const expectedEnum = (values: readonly string[]) => values.map((value) => `'${value}'`).join(' | ');

/** Registers the shared tests in the calling `describe`; what they seeded is on the returned handle. */
export function listAndGetSuite(server: () => TestServer, resource: ReadOnlyResource): ListAndGet {
  const { path, noun } = resource;
  let org: TestOrganization;
  let other: TestOrganization;
  let rows: Record<string, SeededRow>;
  let otherId: string;
  let api: ReturnType<typeof client>;

  const id = (label: string) => {
    const row = rows[label];
    if (!row) throw new Error(`no ${noun} labelled ${label}`);
    return row.id;
  };
  const ordered = (labels: readonly string[], sort: Sort = 'newest') => {
    const ascending = [...labels].sort((a, b) => {
      const byTime = Date.parse(rows[a]?.createdAt ?? '') - Date.parse(rows[b]?.createdAt ?? '');
      return byTime !== 0 ? byTime : compareIds(id(a), id(b));
    });
    return (sort === 'newest' ? ascending.reverse() : ascending).map(id);
  };
  const list = async (query: string): Promise<ListPage> => {
    const response = await api.get(`${path}${query}`);
    expectStatus(response, 200);
    return resource.listSchema.parse(response.body);
  };
  const listIds = async (query: string) => (await list(query)).items.map((entry) => entry.id);
  const all = () => Object.keys(rows);

  beforeAll(async () => {
    const { sql } = server().database;
    org = await createTestOrganization(sql);
    other = await createTestOrganization(sql);
    api = client(server().baseUrl, org.readKey);
    ({ rows, otherId } = await resource.seed(sql, org, other));
    expect(Object.keys(rows).sort()).toEqual([...resource.statuses].sort());
  });

  it('returns the envelope with defaults, newest first, ties on createdAt broken by id descending', async () => {
    const body = await list('');
    expect(body.page).toBe(LIMITS.page.default);
    expect(body.limit).toBe(LIMITS.listLimit.default);
    expect(body.hasMore).toBe(false);
    expect(body.items.map((entry) => entry.id)).toEqual(ordered(all()));
    if (resource.sorts?.includes('newest')) expect(await listIds('?sort=newest')).toEqual(ordered(all()));
    // Sanity: the tied rows really are adjacent and in descending id order.
    const tiedAt = rows[resource.tied[0] ?? '']?.createdAt;
    const tied = body.items.filter((entry) => entry.createdAt === tiedAt).map((entry) => entry.id);
    expect(tied).toHaveLength(resource.tied.length);
    expect(tied).toEqual([...tied].sort(compareIds).reverse());
    expect(body.items[0]?.id).toBe(id(resource.newest));
    expect(body.items.at(-1)?.id).toBe(id(resource.oldest));
  });

  if (resource.sorts?.includes('oldest')) {
    it('sorts oldest first with sort=oldest, ties on createdAt broken by id ascending', async () => {
      const body = await list('?sort=oldest');
      expect(body.items.map((entry) => entry.id)).toEqual(ordered(all(), 'oldest'));
      const tiedAt = rows[resource.tied[0] ?? '']?.createdAt;
      const tied = body.items.filter((entry) => entry.createdAt === tiedAt).map((entry) => entry.id);
      expect(tied).toEqual([...tied].sort(compareIds));
      expect(body.items[0]?.id).toBe(id(resource.oldest));
      expect(body.items.at(-1)?.id).toBe(id(resource.newest));
    });
  }

  it(`shows each listed ${noun} exactly as GET ${path}/{id} does`, async () => {
    const body = await list('');
    for (const entry of body.items) {
      const single = await api.get(`${path}/${entry.id}`);
      expect(single.status).toBe(200);
      expect(single.body).toEqual(entry);
    }
  });

  it.each(resource.statuses)('filters on status %s', async (status) => {
    expect(await listIds(`?status=${status}`)).toEqual([id(status)]);
  });

  it.each(resource.search)('q matches %s', async (_what, q, labels) => {
    expect(await listIds(`?q=${encodeURIComponent(q)}`)).toEqual(ordered(labels));
  });

  it('q does not match text that spans two fields', async () => {
    expect(await listIds(`?q=${encodeURIComponent(resource.spanningTwoFields)}`)).toEqual([]);
  });

  it.each((resource.sorts ?? [undefined]).map((sort) => [sort ?? 'the default order', sort] as const))(
    'pages with page and limit (%s), hasMore true while another page follows',
    async (_name, sort) => {
      const expected = ordered(all(), sort);
      const total = expected.length;
      // Pages of 3 end mid-list; half the list ends a page on the last row; then one row short, all, and more.
      for (const limit of [3, Math.ceil(total / 2), total - 1, total, LIMITS.listLimit.max]) {
        for (let page = 1; page <= Math.ceil(total / limit) + 1; page += 1) {
          const body = await list(`?${sort ? `sort=${sort}&` : ''}limit=${limit}&page=${page}`);
          const items = expected.slice((page - 1) * limit, page * limit);
          expect({ ...body, items: body.items.map((entry) => entry.id) }, `limit ${limit}, page ${page}`).toEqual({
            items,
            page,
            limit,
            hasMore: page * limit < total,
          });
        }
      }
    },
  );

  it(`never lists or shows another organization’s ${noun}s`, async () => {
    expect(await listIds(`?q=${encodeURIComponent(resource.lookAlike.q)}`)).toEqual([id(resource.lookAlike.label)]);
    expect(await listIds('')).not.toContain(otherId);
    const response = await api.get(`${path}/${otherId}`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
    // And the other organization sees only its own.
    const theirs = await client(server().baseUrl, other.readKey).get(path);
    expect(theirs.status).toBe(200);
    expect(resource.listSchema.parse(theirs.body).items.map((entry) => entry.id)).toEqual([otherId]);
  });

  const badQueries: (readonly [what: string, query: string, message: string])[] = [
    [
      'status',
      '?status=open',
      `query.status: Invalid enum value. Expected ${expectedEnum(resource.statuses)}, received 'open'`,
    ],
    ['limit 0', '?limit=0', 'query.limit: Number must be greater than or equal to 1'],
    ['limit 101', '?limit=101', 'query.limit: Number must be less than or equal to 100'],
    ['page 0', '?page=0', 'query.page: Number must be greater than or equal to 1'],
    ['page not a number', '?page=two', 'query.page: must be a whole number written in digits'],
    ['empty q', '?q=', 'query.q: must be at least 1 character'],
    ['q of 201 chars', `?q=${'a'.repeat(LIMITS.q.max + 1)}`, 'query.q: must be at most 200 characters'],
    [
      'unknown parameter',
      `?${resource.unknownParameter}=x`,
      `query: Unrecognized key(s) in object: '${resource.unknownParameter}'`,
    ],
    ...(resource.sorts
      ? [
          [
            'sort',
            '?sort=title',
            `query.sort: Invalid enum value. Expected ${expectedEnum(resource.sorts)}, received 'title'`,
          ] as const,
        ]
      : []),
    ...resource.badQueries,
  ];
  it.each(badQueries)('answers 400 for a bad %s', async (_what, query, message) => {
    const response = await api.get(`${path}${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(badRequestBody(message));
  });

  it('accepts q of exactly 200 chars', async () => {
    expect(await list(`?q=${'a'.repeat(LIMITS.q.max)}`)).toEqual({ items: [], page: 1, limit: 20, hasMore: false });
  });

  it(`answers 404 for an unknown ${noun} id`, async () => {
    const response = await api.get(`${path}/00000000-0000-4000-8000-000000000000`);
    expect(response.status).toBe(404);
    expect(response.body).toEqual(ERROR_BODY.NOT_FOUND);
  });

  it.each(['not-a-uuid', '5001'])('answers 400 for an id that is not a uuid (%s)', async (notUuid) => {
    const response: ApiResponse = await api.get(`${path}/${notUuid}`);
    expect(response.status).toBe(400);
    expect(response.body).toEqual(badRequestBody('path.id: Invalid uuid'));
  });

  return {
    get org() {
      return org;
    },
    get other() {
      return other;
    },
    id,
    ordered,
    list,
    listIds,
  };
}
