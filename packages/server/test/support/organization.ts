import type { KeyMode, Scope } from '@coinventory/contract';
import type { Sql } from '../../src/db/types.js';
import { issueApiKey } from '../../src/modules/access/index.js';
import {
  addMember,
  createOrganization,
  createUser,
  findOrganization,
  type Plan,
  type Role,
} from '../../src/modules/organizations/store.js';
import { ensureSandbox } from '../../src/modules/sandbox/index.js';
import { createDefaultWarehouse } from '../../src/modules/warehouses/index.js';

let sequence = 0;

export interface TestOrganization {
  /** The organization the keys reach: the workspace, or its sandbox for test keys. */
  organizationId: string;
  /** The workspace the keys belong to (the organization itself, unless this is its sandbox). */
  workspaceId: string;
  mode: KeyMode;
  name: string;
  slug: string;
  ownerId: string;
  defaultWarehouseId: string;
  defaultZoneId: string;
  /** A read and write key. */
  key: string;
  keyId: string;
  /** A key with only the read scope. */
  readKey: string;
}

/** An organization on an API plan with an owner and two keys, as the settings area would create it. */
export async function createTestOrganization(sql: Sql, options: { plan?: Plan } = {}): Promise<TestOrganization> {
  sequence += 1;
  const suffix = `${process.pid}-${sequence}-${Math.random().toString(36).slice(2, 8)}`;
  const organization = await createOrganization(sql, {
    name: `Test Coins ${suffix}`,
    slug: `test-${suffix}`,
    plan: options.plan ?? 'business',
  });
  const { defaultWarehouseId, defaultZoneId } = await createDefaultWarehouse(sql, organization.id);
  const owner = await createUser(sql, { email: `owner-${suffix}@example.test`, name: 'Owner' });
  await addMember(sql, organization.id, owner.id, 'owner');
  const issue = (scopes: Scope[], name: string) =>
    issueApiKey(sql, { organizationId: organization.id, createdBy: owner.id, name, scopes });
  const full = await issue(['read', 'write'], 'test read/write');
  const readOnly = await issue(['read'], 'test read-only');
  return {
    organizationId: organization.id,
    workspaceId: organization.id,
    mode: 'live',
    name: organization.name,
    slug: organization.slug,
    ownerId: owner.id,
    defaultWarehouseId,
    defaultZoneId,
    key: full.key,
    keyId: full.id,
    readKey: readOnly.key,
  };
}

/**
 * The test mode side of a workspace: its sandbox (made as the first test key makes it) with two test keys of the
 * workspace's owner, shaped like a TestOrganization so any suite can run against it.
 */
export async function createTestSandbox(sql: Sql, workspace: TestOrganization): Promise<TestOrganization> {
  const row = await findOrganization(sql, workspace.organizationId);
  if (!row) throw new Error(`no workspace ${workspace.organizationId}`);
  const organizationId = await ensureSandbox(sql, row);
  const [warehouse] = await sql<{ warehouseId: string; zoneId: string }[]>`
    SELECT w.id AS "warehouseId", z.id AS "zoneId" FROM warehouses w JOIN zones z ON z.warehouse_id = w.id
    WHERE w.organization_id = ${organizationId} AND w.is_default ORDER BY z.position LIMIT 1
  `;
  if (!warehouse) throw new Error('the sandbox has no default warehouse');
  const issue = (scopes: Scope[], name: string) =>
    issueApiKey(sql, {
      organizationId: workspace.organizationId,
      createdBy: workspace.ownerId,
      name,
      scopes,
      mode: 'test',
    });
  const full = await issue(['read', 'write'], 'test mode read/write');
  const readOnly = await issue(['read'], 'test mode read-only');
  return {
    ...workspace,
    organizationId,
    mode: 'test',
    defaultWarehouseId: warehouse.warehouseId,
    defaultZoneId: warehouse.zoneId,
    key: full.key,
    keyId: full.id,
    readKey: readOnly.key,
  };
}

/** A new user, a member of the organization in `role`, with a read/write key of their own. */
export async function addMemberWithKey(
  sql: Sql,
  organizationId: string,
  member: { email: string; name: string | null; role: Role },
): Promise<{ userId: string; key: string }> {
  const user = await createUser(sql, { email: member.email, name: member.name });
  await addMember(sql, organizationId, user.id, member.role);
  const issued = await issueApiKey(sql, {
    organizationId,
    createdBy: user.id,
    name: `${member.role}'s key`,
    scopes: ['read', 'write'],
  });
  return { userId: user.id, key: issued.key };
}

/** Adds a second warehouse with two zones; returns their ids (zones in position order). */
export async function addWarehouse(sql: Sql, organizationId: string, name = 'Second') {
  const [warehouse] = await sql<{ id: string }[]>`
    INSERT INTO warehouses (organization_id, name) VALUES (${organizationId}, ${name}) RETURNING id
  `;
  if (!warehouse) throw new Error('no warehouse');
  const zones = await sql<{ id: string }[]>`
    INSERT INTO zones (organization_id, warehouse_id, name, position)
    VALUES (${organizationId}, ${warehouse.id}, 'Z1', 1), (${organizationId}, ${warehouse.id}, 'Z2', 2)
    RETURNING id
  `;
  return { warehouseId: warehouse.id, zoneIds: zones.map((z) => z.id) };
}

/** Adds a zone to the default warehouse after the existing ones. */
export async function addZone(sql: Sql, organizationId: string, warehouseId: string, position: number) {
  const [zone] = await sql<{ id: string }[]>`
    INSERT INTO zones (organization_id, warehouse_id, name, position)
    VALUES (${organizationId}, ${warehouseId}, ${`Zone ${position}`}, ${position}) RETURNING id
  `;
  if (!zone) throw new Error('no zone');
  return zone.id;
}

export async function addCategory(sql: Sql, organizationId: string, name: string): Promise<string> {
  const [category] = await sql<{ id: string }[]>`
    INSERT INTO categories (organization_id, name) VALUES (${organizationId}, ${name}) RETURNING id
  `;
  if (!category) throw new Error('no category');
  return category.id;
}
