import { CategoryListSchema, CategorySchema, type Item } from '@coinventory/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { ERROR_BODY } from '../../support/errors.js';
import { expectStatus } from '../../support/http.js';
import { type Api, freshApi } from '../../support/items.js';
import { createTestOrganization } from '../../support/organization.js';
import { uniqueSku } from '../../support/routes.js';
import { serverWithOrganization } from '../../support/server.js';

const ctx = serverWithOrganization();
// Byte order: upper case before lower case, whatever the server's collation.
const NAMES = ['Morgan Dollars', 'Bullion', 'ancient coins', 'Peace Dollars', 'Bullion'];
let api: Api;
let otherId: string;

beforeAll(async () => {
  const sql = ctx.server.database.sql;
  for (const name of NAMES) {
    await sql`INSERT INTO categories (organization_id, name) VALUES (${ctx.organization.organizationId}, ${name})`;
  }
  const other = await createTestOrganization(sql);
  const [row] = await sql<{ id: string }[]>`
    INSERT INTO categories (organization_id, name) VALUES (${other.organizationId}, 'Bullion') RETURNING id
  `;
  otherId = row?.id ?? '';
  api = await freshApi(ctx.server, ctx.organization);
});

describe('GET /categories', () => {
  it("lists the organization's categories by name in byte order, then id, 20 to a page", async () => {
    const response = await api.get('/categories');
    expectStatus(response, 200);
    const page = CategoryListSchema.parse(response.body);
    expect(page).toMatchObject({ page: 1, limit: 20, hasMore: false });
    expect(page.items.map((category) => category.name)).toEqual([
      'Bullion',
      'Bullion',
      'Morgan Dollars',
      'Peace Dollars',
      'ancient coins',
    ]);
    const [first, second] = page.items;
    expect((first?.id ?? '') < (second?.id ?? '')).toBe(true);
    expect(page.items.map((category) => category.id)).not.toContain(otherId);
  });

  it('pages without skipping or repeating', async () => {
    const all = CategoryListSchema.parse((await api.get('/categories')).body).items;
    const pages = [];
    for (let page = 1; page <= 3; page += 1)
      pages.push(CategoryListSchema.parse((await api.get(`/categories?limit=2&page=${page}`)).body));
    expect(pages.map((page) => page.hasMore)).toEqual([true, true, false]);
    expect(pages.flatMap((page) => page.items)).toEqual(all);
  });

  it('gets one by id; another organization’s is 404', async () => {
    const [category] = CategoryListSchema.parse((await api.get('/categories')).body).items;
    const response = await api.get(`/categories/${category?.id}`);
    expectStatus(response, 200);
    expect(CategorySchema.parse(response.body)).toEqual(category);
    const theirs = await api.get(`/categories/${otherId}`);
    expect([theirs.status, theirs.body]).toEqual([404, ERROR_BODY.NOT_FOUND]);
  });

  it('gives the ids POST /items takes as categoryId', async () => {
    const [, , morgan] = CategoryListSchema.parse((await api.get('/categories')).body).items;
    const created = await api.post<Item>('/items', {
      body: { sku: uniqueSku('CAT'), title: '1881-S Morgan', categoryId: morgan?.id },
    });
    expectStatus(created, 200);
    expect(created.body.category).toEqual(morgan);
  });
});
