import type { KeyMode } from '@coinventory/contract';
import { violatedUniqueConstraint } from '../../db/errors.js';
import type { Queryable } from '../../db/types.js';
import { noSuch, ProvisioningError } from '../../errors.js';
import { findSandbox } from './sandboxes.js';
import * as data from './store.js';

/**
 * The organization an operator names by id or slug; not found is the operator's error. With mode `test`, the
 * workspace's sandbox (under the workspace's name and slug), which must have been made.
 */
export async function requireOrganization(sql: Queryable, ref: string, mode: KeyMode = 'live') {
  const found = await data.findOrganization(sql, ref);
  if (!found) throw noSuch('organization with id or slug', ref);
  if (mode === 'live') return found;
  const sandbox = await findSandbox(sql, found.id);
  if (!sandbox) {
    throw new ProvisioningError(
      'not_found',
      `${found.slug} has no sandbox yet; create a test key (key create --mode test) or run "sandbox reset --org ${found.slug}".`,
    );
  }
  return { ...found, id: sandbox.id, createdAt: sandbox.createdAt };
}

/** The user an operator names by id or email. */
export async function requireUser(sql: Queryable, ref: string) {
  const found = await data.findUser(sql, ref);
  if (!found) throw noSuch('user with id or email', ref);
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
  return requireOrganization(sql, created.id);
}

export const listOrganizations = (sql: Queryable) => data.listOrganizations(sql);

export async function setPlan(sql: Queryable, input: { org: string; plan: data.Plan }) {
  const org = await requireOrganization(sql, input.org);
  await data.setPlan(sql, org.id, input.plan);
  return { ...org, plan: input.plan };
}

export async function createUser(sql: Queryable, input: { email: string; name: string | null }) {
  const created = await data
    .createUser(sql, input)
    .catch(conflictOn('users_email_key', `A user with the email "${input.email}" already exists.`));
  return requireUser(sql, created.id);
}

export async function addMember(sql: Queryable, input: { org: string; user: string; role: data.Role }) {
  const org = await requireOrganization(sql, input.org);
  const person = await requireUser(sql, input.user);
  if (!(await data.addMember(sql, org.id, person.id, input.role))) {
    throw new ProvisioningError(
      'conflict',
      `${person.email} is already a member of ${org.slug}; use "member set-role" to change their role.`,
    );
  }
  return { organizationId: org.id, userId: person.id, email: person.email, role: input.role };
}

export async function setRole(sql: Queryable, input: { org: string; user: string; role: data.Role }) {
  const org = await requireOrganization(sql, input.org);
  const person = await requireUser(sql, input.user);
  if (!(await data.setRole(sql, org.id, person.id, input.role))) {
    throw new ProvisioningError('not_found', `${person.email} is not a member of ${org.slug}.`);
  }
  return { organizationId: org.id, userId: person.id, email: person.email, role: input.role };
}

export async function removeMember(sql: Queryable, input: { org: string; user: string }) {
  const org = await requireOrganization(sql, input.org);
  const person = await requireUser(sql, input.user);
  if (!(await data.removeMember(sql, org.id, person.id))) {
    throw new ProvisioningError('not_found', `${person.email} is not a member of ${org.slug}.`);
  }
  return { organizationId: org.id, userId: person.id, email: person.email, removed: true as const };
}
