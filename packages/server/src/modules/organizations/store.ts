import { inserted } from '../../db/sql-helpers.js';
import type { Queryable } from '../../db/types.js';
import { looksLikeUuid } from '../../ids.js';

/**
 * What the organization's settings area does to organizations and people. Used by the operator commands, the demo
 * organization and tests; never reachable through the API.
 */

export const PLANS = ['free', 'starter', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];
export const ROLES = ['owner', 'admin', 'member'] as const;
export type Role = (typeof ROLES)[number];

export interface CreatedOrganization {
  id: string;
  name: string;
  slug: string;
  plan: Plan;
}

/**
 * Creates an organization. Its default warehouse and receiving zone are the warehouses module's
 * (`createDefaultWarehouse`): whoever opens an organization makes both in one transaction. `createdAt` dates it back
 * (the demo's); absent, it is the column's default, now.
 */
export async function createOrganization(
  sql: Queryable,
  input: { name: string; slug: string; plan: Plan; createdAt?: Date },
): Promise<CreatedOrganization> {
  const row = await inserted(sql<{ id: string }[]>`
    INSERT INTO organizations (name, slug, plan, created_at)
    VALUES (${input.name}, ${input.slug}, ${input.plan}, ${input.createdAt ?? sql`DEFAULT`})
    RETURNING id
  `);
  return { id: row.id, name: input.name, slug: input.slug, plan: input.plan };
}

export async function createUser(
  sql: Queryable,
  input: { email: string; name: string | null },
): Promise<{ id: string }> {
  return inserted(
    sql<{ id: string }[]>`INSERT INTO users (email, name) VALUES (${input.email}, ${input.name}) RETURNING id`,
  );
}

/** Adds a member; false when the user already is one (their role is left as it is). */
export async function addMember(sql: Queryable, organizationId: string, userId: string, role: Role): Promise<boolean> {
  const rows = await sql`
    INSERT INTO memberships (organization_id, user_id, role) VALUES (${organizationId}, ${userId}, ${role})
    ON CONFLICT (organization_id, user_id) DO NOTHING
    RETURNING 1
  `;
  return rows.length > 0;
}

/** Changes an existing member's role; false when the user is not a member. */
export async function setRole(sql: Queryable, organizationId: string, userId: string, role: Role): Promise<boolean> {
  const rows = await sql`
    UPDATE memberships SET role = ${role} WHERE organization_id = ${organizationId} AND user_id = ${userId} RETURNING 1
  `;
  return rows.length > 0;
}

export async function removeMember(sql: Queryable, organizationId: string, userId: string): Promise<boolean> {
  const rows =
    await sql`DELETE FROM memberships WHERE organization_id = ${organizationId} AND user_id = ${userId} RETURNING 1`;
  return rows.length > 0;
}

export async function setPlan(sql: Queryable, organizationId: string, plan: Plan): Promise<boolean> {
  const rows = await sql`UPDATE organizations SET plan = ${plan} WHERE id = ${organizationId} RETURNING 1`;
  return rows.length > 0;
}

export interface OrganizationRow {
  id: string;
  name: string;
  slug: string;
  plan: Plan;
  createdAt: Date;
}

/** A workspace (never a sandbox) by id or slug. */
export async function findOrganization(sql: Queryable, idOrSlug: string): Promise<OrganizationRow | null> {
  const [row] = await sql<OrganizationRow[]>`
    SELECT id, name, slug, plan, created_at AS "createdAt" FROM organizations
    WHERE ${looksLikeUuid(idOrSlug) ? sql`id = ${idOrSlug}` : sql`slug = ${idOrSlug}`} AND sandbox_of IS NULL
  `;
  return row ?? null;
}

export async function listOrganizations(sql: Queryable): Promise<OrganizationRow[]> {
  return sql<OrganizationRow[]>`
    SELECT id, name, slug, plan, created_at AS "createdAt" FROM organizations
    WHERE sandbox_of IS NULL ORDER BY created_at, id
  `;
}

export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  createdAt: Date;
}

/** A user by id or email (case-insensitive). */
export async function findUser(sql: Queryable, idOrEmail: string): Promise<UserRow | null> {
  const [row] = await sql<UserRow[]>`
    SELECT id, email, name, created_at AS "createdAt" FROM users
    WHERE ${looksLikeUuid(idOrEmail) ? sql`id = ${idOrEmail}` : sql`lower(email) = lower(${idOrEmail})`}
  `;
  return row ?? null;
}

export async function findRole(sql: Queryable, organizationId: string, userId: string): Promise<Role | null> {
  const [row] = await sql<{ role: Role }[]>`
    SELECT role FROM memberships WHERE organization_id = ${organizationId} AND user_id = ${userId}
  `;
  return row?.role ?? null;
}
