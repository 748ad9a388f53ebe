import type { KeyMode, Scope } from '@coinventory/contract';
import type { Queryable } from '../../db/types.js';
import { noSuch, ProvisioningError } from '../../errors.js';
import { findRole, requireOrganization, requireUser } from '../organizations/index.js';
import { API_PLANS, KEY_CREATOR_ROLES } from './authenticate.js';
import { generateKey, hashKey, keyHint } from './key-format.js';
import {
  countUsableKeys,
  findApiKey,
  findUnusedKeyOrganization,
  insertApiKey,
  listApiKeys,
  revokeApiKey,
} from './store.js';

export interface IssuedKey {
  id: string;
  /** The key itself: shown once, never stored. */
  key: string;
  name: string | null;
  scopes: Scope[];
  expiresAt: Date | null;
  createdAt: Date;
  mode: KeyMode;
}

/** Creates a key for an organization on behalf of one of its people; returns the only copy of its value. */
export async function issueApiKey(
  sql: Queryable,
  input: {
    organizationId: string;
    createdBy: string;
    name: string | null;
    scopes: Scope[];
    expiresAt?: Date | null;
    mode?: KeyMode;
  },
): Promise<IssuedKey> {
  const mode = input.mode ?? 'live';
  const key = generateKey(mode);
  const scopes = [...new Set(input.scopes)].sort() as Scope[];
  const expiresAt = input.expiresAt ?? null;
  const { id, createdAt } = await insertApiKey(sql, {
    organizationId: input.organizationId,
    name: input.name,
    keyHash: hashKey(key),
    keyHint: keyHint(key),
    scopes,
    createdBy: input.createdBy,
    expiresAt,
    mode,
  });
  return { id, key, name: input.name, scopes, expiresAt, createdAt, mode };
}

/**
 * Creates a key as the settings area does: only an owner or admin of an organization whose plan includes the API
 * may create one. Returns the key's value, which is never shown again.
 */
export async function createKey(
  sql: Queryable,
  input: { org: string; creator: string; name: string; scopes: Scope[]; expiresAt: Date | null; mode: KeyMode },
) {
  const org = await requireOrganization(sql, input.org);
  const creator = await requireUser(sql, input.creator);
  if (!(API_PLANS as readonly string[]).includes(org.plan)) {
    throw new ProvisioningError(
      'refused',
      `${org.slug} is on the ${org.plan} plan, which does not include API access (${API_PLANS.join(' or ')} does).`,
    );
  }
  const role = await findRole(sql, org.id, creator.id);
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
    mode: input.mode,
  });
  return { organizationId: org.id, organizationSlug: org.slug, organization: org, createdBy: creator.email, ...issued };
}

export async function listKeys(sql: Queryable, input: { org: string }) {
  const org = await requireOrganization(sql, input.org);
  return { organization: org, keys: await listApiKeys(sql, org.id) };
}

export async function revokeKey(sql: Queryable, input: { org: string; key: string }) {
  const org = await requireOrganization(sql, input.org);
  if (!(await revokeApiKey(sql, org.id, input.key))) throw noSuch(`key in ${org.slug} with id`, input.key);
  const key = await findApiKey(sql, org.id, input.key);
  if (!key) throw noSuch(`key in ${org.slug} with id`, input.key);
  return key;
}

/** The organization id of `key` while nobody has used it and it may still be used (the demo key); null otherwise. */
export function unusedKeyOrganization(sql: Queryable, key: string): Promise<string | null> {
  return findUnusedKeyOrganization(sql, hashKey(key));
}

/** Each organization's usable keys by mode, for the operator's organization list. */
export const usableKeyCounts = (sql: Queryable) => countUsableKeys(sql);
