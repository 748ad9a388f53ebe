import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type Api, freshApi } from './items.js';
import { addCategory, addZone, createTestOrganization, type TestOrganization } from './organization.js';
import { startTestServer, type TestServer } from './server.js';

/** What the item write suites (create and get, update and delete) share: the organizations and text they write. */

export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Text with SQL, LIKE and JSON metacharacters, quotes, a backslash, newlines, an emoji and accents. */
export const NASTY = `O'Brien "quoted" \\ %_ ; DROP TABLE items; -- 🪙 ünïcödé\nline two\r\n\t{"json": [1, null]}`;
/** The same spirit within the 50-character grading fields. */
export const NASTY_SHORT = `O'B "q" \\ %_;DROP TABLE items;--🪙ü\n\t`;

interface ItemWrites {
  server: TestServer;
  org: TestOrganization;
  other: TestOrganization;
  categoryId: string;
  category2Id: string;
  otherCategoryId: string;
  /** A second warehouse whose zones were inserted highest position first: position 7, then position 3. */
  warehouse2: { id: string; zonePos7: string; zonePos3: string };
  /** A later zone of the default warehouse: the default location must stay the first zone (position 1). */
  defaultZonePos5: string;
  /** Fresh keys for each test: each key has its own rate-limit budget. */
  api: Api;
  otherApi: Api;
}

/**
 * For the calling file: a server with an organization (two categories, a second warehouse, a later zone) and another
 * organization (a category of its own), and clients on fresh keys of both for each test.
 */
export function itemWritesFixture() {
  let started: Omit<ItemWrites, 'api' | 'otherApi'> | undefined;
  let apis: Pick<ItemWrites, 'api' | 'otherApi'> | undefined;
  beforeAll(async () => {
    const server = await startTestServer();
    const sql = server.database.sql;
    const org = await createTestOrganization(sql);
    const other = await createTestOrganization(sql);
    const [warehouse] = await sql<{ id: string }[]>`
      INSERT INTO warehouses (organization_id, name) VALUES (${org.organizationId}, 'Vault') RETURNING id
    `;
    if (!warehouse) throw new Error('no warehouse');
    started = {
      server,
      org,
      other,
      categoryId: await addCategory(sql, org.organizationId, 'Morgan Dollars'),
      category2Id: await addCategory(sql, org.organizationId, 'Peace Dollars'),
      otherCategoryId: await addCategory(sql, other.organizationId, 'Not yours'),
      warehouse2: {
        id: warehouse.id,
        zonePos7: await addZone(sql, org.organizationId, warehouse.id, 7),
        zonePos3: await addZone(sql, org.organizationId, warehouse.id, 3),
      },
      defaultZonePos5: await addZone(sql, org.organizationId, org.defaultWarehouseId, 5),
    };
  });
  afterAll(() => started?.server.close());
  beforeEach(async () => {
    if (!started) throw new Error('the item writes server did not start');
    apis = {
      api: await freshApi(started.server, started.org),
      otherApi: await freshApi(started.server, started.other),
    };
  });
  const current = (): ItemWrites => {
    if (!started || !apis) throw new Error('the item writes fixture is read inside tests');
    return { ...started, ...apis };
  };
  return readThrough(current);
}

/** Rows of the organization with this SKU (0 or 1). */
export async function countSku(server: TestServer, organization: TestOrganization, sku: string): Promise<number> {
  const [row] = await server.database.sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM items WHERE organization_id = ${organization.organizationId} AND sku = ${sku}
  `;
  return row?.n ?? -1;
}

/** An object whose every property is read from `read()` when used, so hooks can fill it after tests are defined. */
function readThrough<T extends object>(read: () => T): T {
  return new Proxy({} as T, { get: (_target, property) => read()[property as keyof T] });
}
