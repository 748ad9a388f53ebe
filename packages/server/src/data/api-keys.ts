import type { Scope } from '@coinventory/contract';
import type { Queryable } from '../db/types.js';

/** Everything needed to decide whether a key may call, read in one query with the database's clock. */
export interface KeyGrant {
  keyId: string;
  keyName: string | null;
  scopes: Scope[];
  expiresAt: Date | null;
  /** Expired or revoked, judged by the database's clock so every process agrees. */
  usable: boolean;
  organization: { id: string; name: string; slug: string; plan: string };
  /** The creator's current role in the key's organization, or null when they are no longer a member. */
  creatorRole: string | null;
}

interface GrantRow {
  key_id: string;
  key_name: string | null;
  scopes: Scope[];
  expires_at: Date | null;
  usable: boolean;
  organization_id: string;
  organization_name: string;
  organization_slug: string;
  plan: string;
  creator_role: string | null;
}

export async function findKeyGrant(sql: Queryable, keyHash: Buffer): Promise<KeyGrant | null> {
  const [row] = await sql<GrantRow[]>`
    SELECT
      k.id AS key_id, k.name AS key_name, k.scopes, k.expires_at,
      (k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())) AS usable,
      o.id AS organization_id, o.name AS organization_name, o.slug AS organization_slug, o.plan,
      m.role AS creator_role
    FROM api_keys k
    JOIN organizations o ON o.id = k.organization_id
    LEFT JOIN memberships m ON m.organization_id = k.organization_id AND m.user_id = k.created_by
    WHERE k.key_hash = ${keyHash}
  `;
  if (!row) return null;
  return {
    keyId: row.key_id,
    keyName: row.key_name,
    scopes: row.scopes,
    expiresAt: row.expires_at,
    usable: row.usable,
    organization: { id: row.organization_id, name: row.organization_name, slug: row.organization_slug, plan: row.plan },
    creatorRole: row.creator_role,
  };
}
