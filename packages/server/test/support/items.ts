import { randomUUID } from 'node:crypto';
import {
  type CreateItemInput,
  type Item,
  type ItemList,
  ItemListSchema,
  ItemSchema,
  type ItemSort,
} from '@coinventory/contract';
import type { Sql } from '../../src/db/types.js';
import { issueApiKey } from '../../src/modules/access/index.js';
import { client, expectStatus } from './http.js';
import type { TestOrganization } from './organization.js';
import type { TestServer } from './server.js';

export type Api = ReturnType<typeof client>;

/** The item's free-text write fields, each bounded by the `LIMITS` entry of its name. */
export const ITEM_TEXT_FIELDS = [
  'sku',
  'title',
  'description',
  'acquiredFrom',
  'acquisitionNotes',
  'gradingService',
  'grade',
  'certificateNumber',
  'gradingNotes',
  'locationDetails',
] as const;

/**
 * A client on a brand-new read/write key of the organization. Each key has its own rate-limit budget, so tests that
 * make many requests take a fresh key instead of sharing one.
 */
export async function freshApi(
  server: TestServer,
  organization: TestOrganization,
  name = 'test extra key',
): Promise<Api> {
  const issued = await issueApiKey(server.database.sql, {
    organizationId: organization.workspaceId,
    createdBy: organization.ownerId,
    name,
    scopes: ['read', 'write'],
    mode: organization.mode,
  });
  return client(server.baseUrl, issued.key);
}

export async function createItem(api: Api, body: CreateItemInput): Promise<Item> {
  const response = await api.post('/items', { body });
  expectStatus(response, 200);
  return ItemSchema.parse(response.body);
}

export async function getItem(api: Api, id: string): Promise<Item> {
  const response = await api.get(`/items/${id}`);
  expectStatus(response, 200);
  return ItemSchema.parse(response.body);
}

export async function listItems(api: Api, query: Record<string, string | number> = {}): Promise<ItemList> {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]));
  const search = params.toString();
  const response = await api.get(`/items${search ? `?${search}` : ''}`);
  expectStatus(response, 200);
  return ItemListSchema.parse(response.body);
}

/** Columns a test may set when seeding items directly. */
export interface SeedItem {
  sku: string;
  title: string;
  description?: string | null;
  categoryId?: string | null;
  available?: number;
  sold?: number;
  reserved?: number;
  valueInCents?: number;
  gradingService?: string | null;
  grade?: string | null;
  certificateNumber?: string | null;
  acquiredFrom?: string | null;
  gradingNotes?: string | null;
  isAtAuction?: boolean;
  createdAt?: string;
}

/** Inserts items with one parameterised multi-row INSERT; returns their ids in input order. */
export async function insertItems(sql: Sql, organization: TestOrganization, seeds: SeedItem[]): Promise<string[]> {
  if (seeds.length === 0) return [];
  const rows = seeds.map((seed) => ({
    organization_id: organization.organizationId,
    sku: seed.sku,
    title: seed.title,
    description: seed.description ?? null,
    category_id: seed.categoryId ?? null,
    quantity_available: seed.available ?? 1,
    quantity_sold: seed.sold ?? 0,
    quantity_reserved: seed.reserved ?? 0,
    value_in_cents: seed.valueInCents ?? 0,
    grading_service: seed.gradingService ?? null,
    grade: seed.grade ?? null,
    certificate_number: seed.certificateNumber ?? null,
    acquired_from: seed.acquiredFrom ?? null,
    grading_notes: seed.gradingNotes ?? null,
    is_at_auction: seed.isAtAuction ?? false,
    created_at: seed.createdAt ?? '2024-01-01T00:00:00.000Z',
    warehouse_id: organization.defaultWarehouseId,
    zone_id: organization.defaultZoneId,
  }));
  const ids: string[] = [];
  // Chunks keep the statement's parameter count well under PostgreSQL's 65535.
  for (let start = 0; start < rows.length; start += 500) {
    const chunk = rows.slice(start, start + 500);
    const inserted = await sql<{ id: string; sku: string }[]>`INSERT INTO items ${sql(chunk)} RETURNING id, sku`;
    const bySku = new Map(inserted.map((row) => [row.sku, row.id]));
    for (const row of chunk) {
      const id = bySku.get(row.sku);
      if (id === undefined) throw new Error(`no id returned for ${row.sku}`);
      ids.push(id);
    }
  }
  return ids;
}

/** Byte-order comparison, as PostgreSQL's COLLATE "C" and uuid ordering (ASCII text only). */
export const compareBytes = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A random v4 uuid that names nothing. */
export const randomId = (): string => randomUUID();

/** What the sorts look at, taken from the seeds (not from the API under test). */
export interface SortKey {
  id: string;
  sku: string;
  title: string;
  valueInCents: number;
  createdAt: string;
}

/** ITEM_SORT_RULES, restated in JavaScript. Text compares by code unit (byte order for ASCII), as COLLATE "C". */
const COMPARATORS: Record<ItemSort, (a: SortKey, b: SortKey) => number> = {
  newest: (a, b) => compareBytes(b.createdAt, a.createdAt) || compareBytes(b.id, a.id),
  oldest: (a, b) => compareBytes(a.createdAt, b.createdAt) || compareBytes(a.id, b.id),
  title: (a, b) => compareBytes(a.title.toLowerCase(), b.title.toLowerCase()) || compareBytes(a.id, b.id),
  value_desc: (a, b) => b.valueInCents - a.valueInCents || compareBytes(a.id, b.id),
  value_asc: (a, b) => a.valueInCents - b.valueInCents || compareBytes(a.id, b.id),
  sku: (a, b) => compareBytes(a.sku, b.sku) || compareBytes(a.id, b.id),
};

export const expectedOrder = (keys: SortKey[], sort: ItemSort): string[] =>
  [...keys].sort(COMPARATORS[sort]).map((key) => key.id);

/** Seeds with fixed (millisecond) created_at values, so the expected order never depends on microseconds. */
export const at = (second: number) => new Date(Date.UTC(2024, 4, 1, 10, 0, second)).toISOString();

/** Inserts the seeds; returns what each sort looks at, for expectedOrder. */
export async function seedSortKeys(sql: Sql, organization: TestOrganization, seeds: SeedItem[]): Promise<SortKey[]> {
  const ids = await insertItems(sql, organization, seeds);
  return seeds.map((s, index) => ({
    id: ids[index] ?? '',
    sku: s.sku,
    title: s.title,
    valueInCents: s.valueInCents ?? 0,
    createdAt: s.createdAt ?? '2024-01-01T00:00:00.000Z',
  }));
}
