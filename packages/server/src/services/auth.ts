import type { Scope } from '@coinventory/contract';
import { hashKey, isWellFormedKey } from '../auth/keys.js';
import { findKeyGrant } from '../data/api-keys.js';
import type { Queryable } from '../db/types.js';

/** Plans whose workspaces may use the API. */
export const API_PLANS: ReadonlySet<string> = new Set(['business', 'enterprise']);
/** Roles whose keys keep working: a key acts as the owner or admin who created it. */
export const KEY_CREATOR_ROLES: ReadonlySet<string> = new Set(['owner', 'admin']);

export interface AuthContext {
  organization: { id: string; name: string; slug: string };
  apiKey: { id: string; name: string | null; expiresAt: Date | null; scopes: Scope[] };
}

export type Authentication =
  /** No Authorization header. */
  | { kind: 'missing' }
  /** A header that is not `Bearer <key>`, or a key that is malformed, unknown, expired or revoked. */
  | { kind: 'invalid' }
  /** A valid key whose workspace lost API access or whose creator is no longer an owner or admin. */
  | { kind: 'forbidden' }
  | { kind: 'authenticated'; context: AuthContext };

const BEARER = /^Bearer +([^\s]+) *$/i;

export async function authenticate(sql: Queryable, authorization: string | undefined): Promise<Authentication> {
  if (authorization === undefined || authorization === '') return { kind: 'missing' };
  const key = BEARER.exec(authorization)?.[1];
  // A malformed or mistyped key is refused before any database work.
  if (key === undefined || !isWellFormedKey(key)) return { kind: 'invalid' };
  const grant = await findKeyGrant(sql, hashKey(key));
  if (!grant?.usable) return { kind: 'invalid' };
  if (!API_PLANS.has(grant.organization.plan) || !KEY_CREATOR_ROLES.has(grant.creatorRole ?? '')) {
    return { kind: 'forbidden' };
  }
  const { id, name, slug } = grant.organization;
  return {
    kind: 'authenticated',
    context: {
      organization: { id, name, slug },
      apiKey: { id: grant.keyId, name: grant.keyName, expiresAt: grant.expiresAt, scopes: grant.scopes },
    },
  };
}
