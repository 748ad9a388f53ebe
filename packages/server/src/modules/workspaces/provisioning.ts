import type { Scope } from '@coinventory/contract';
import * as data from './store.js';
import { violatedUniqueConstraint } from '../../db/errors.js';
import type { Queryable, Sql } from '../../db/types.js';
import { DEMO_SLUG, seedDemoWorkspace } from '../../demo/seed.js';
import { issueApiKey } from '../access/issue-key.js';
import { API_PLANS, KEY_CREATOR_ROLES } from '../access/authenticate.js';

/** What the settings area refuses, and why, in words an operator can act on. */
export class ProvisioningError extends Error {
  override name = 'ProvisioningError';
  constructor(
    readonly kind: 'not_found' | 'conflict' | 'refused',
    message: string,
  ) {
    super(message);
  }
}

const notFound = (what: string, ref: string) => new ProvisioningError('not_found', `No ${what} "${ref}".`);

async function organization(sql: Queryable, ref: string) {
  const found = await data.findOrganization(sql, ref);
  if (!found) throw notFound('organization with id or slug', ref);
  return found;
}

async function user(sql: Queryable, ref: string) {
  const found = await data.findUser(sql, ref);
  if (!found) throw notFound('user with id or email', ref);
  return found;
}

/** Turns a unique violation into a conflict the operator can read. */
function conflictOn(constraint: string, message: string) {
  return (error: unknown): never => {
    if (violatedUniqueConstraint(error) === constraint) throw new ProvisioningError('conflict', message);
    throw error;
  };
}

export async function createOrganization(sql: Queryable, input: { name: string; slug: string; plan: data.Plan }) {
  const created = await data
    .createOrganization(sql, input)
    .catch(conflictOn('organizations_slug_key', `An organization with the slug "${input.slug}" already exists.`));
  const row = await organization(sql, created.id);
  return { ...row, defaultWarehouseId: created.defaultWarehouseId, defaultZoneId: created.defaultZoneId };
}

export const listOrganizations = (sql: Queryable) => data.listOrganizations(sql);

export async function setPlan(sql: Queryable, input: { org: string; plan: data.Plan }) {
  const org = await organization(sql, input.org);
  await data.setPlan(sql, org.id, input.plan);
  return { ...org, plan: input.plan };
}

export async function createUser(sql: Queryable, input: { email: string; name: string | null }) {
  const created = await data
    .createUser(sql, input)
    .catch(conflictOn('users_email_key', `A user with the email "${input.email}" already exists.`));
  return user(sql, created.id);
}

export async function addMember(sql: Queryable, input: { org: string; user: string; role: data.Role }) {
  const org = await organization(sql, input.org);
  const person = await user(sql, input.user);
  if (!(await data.addMember(sql, org.id, person.id, input.role))) {
    throw new ProvisioningError(
      'conflict',
      `${person.email} is already a member of ${org.slug}; use "member set-role" to change their role.`,
    );
  }
  return { organizationId: org.id, userId: person.id, email: person.email, role: input.role };
}

export async function setRole(sql: Queryable, input: { org: string; user: string; role: data.Role }) {
  const org = await organization(sql, input.org);
  const person = await user(sql, input.user);
  if (!(await data.setRole(sql, org.id, person.id, input.role))) {
    throw new ProvisioningError('not_found', `${person.email} is not a member of ${org.slug}.`);
  }
  return { organizationId: org.id, userId: person.id, email: person.email, role: input.role };
}

export async function removeMember(sql: Queryable, input: { org: string; user: string }) {
  const org = await organization(sql, input.org);
  const person = await user(sql, input.user);
  if (!(await data.removeMember(sql, org.id, person.id))) {
    throw new ProvisioningError('not_found', `${person.email} is not a member of ${org.slug}.`);
  }
  return { organizationId: org.id, userId: person.id, email: person.email, removed: true as const };
}

/**
 * Creates a key as the settings area does: only an owner or admin of a workspace whose plan includes the API
 * may create one. Returns the key's value, which is never shown again.
 */
export async function createKey(
  sql: Queryable,
  input: { org: string; creator: string; name: string; scopes: Scope[]; expiresAt: Date | null },
) {
  const org = await organization(sql, input.org);
  const creator = await user(sql, input.creator);
  if (!(API_PLANS as readonly string[]).includes(org.plan)) {
    throw new ProvisioningError(
      'refused',
      `${org.slug} is on the ${org.plan} plan, which does not include API access (${API_PLANS.join(' or ')} does).`,
    );
  }
  const role = await data.findRole(sql, org.id, creator.id);
  if (role === null || !(KEY_CREATOR_ROLES as readonly string[]).includes(role)) {
    throw new ProvisioningError(
      'refused',
      `${creator.email} is ${role === null ? 'not a member' : `a ${role}`} of ${org.slug}; only an owner or an admin can create keys.`,
    );
  }
  if (input.expiresAt !== null && input.expiresAt.getTime() <= Date.now()) {
    throw new ProvisioningError('refused', 'The expiry date is in the past.');
  }
  const issued = await issueApiKey(sql, {
    organizationId: org.id,
    createdBy: creator.id,
    name: input.name,
    scopes: input.scopes,
    expiresAt: input.expiresAt,
  });
  return { organizationId: org.id, organizationSlug: org.slug, createdBy: creator.email, ...issued };
}

export async function listKeys(sql: Queryable, input: { org: string }) {
  const org = await organization(sql, input.org);
  return { organization: org, keys: await data.listApiKeys(sql, org.id) };
}

export async function revokeKey(sql: Queryable, input: { org: string; key: string }) {
  const org = await organization(sql, input.org);
  if (!(await data.revokeApiKey(sql, org.id, input.key))) throw notFound(`key in ${org.slug} with id`, input.key);
  const key = await data.findApiKey(sql, org.id, input.key);
  if (!key) throw notFound(`key in ${org.slug} with id`, input.key);
  return key;
}

export async function seedDemo(sql: Sql) {
  const existing = await data.findOrganization(sql, DEMO_SLUG);
  if (existing) throw new ProvisioningError('conflict', `The demo workspace "${DEMO_SLUG}" already exists.`);
  return seedDemoWorkspace(sql);
}
