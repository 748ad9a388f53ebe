import type { Scope } from '@coinventory/contract';
import { generateKey, hashKey, keyHint } from './key-format.js';
import { insertApiKey } from '../workspaces/store.js';
import type { Queryable } from '../../db/types.js';

export interface IssuedKey {
  id: string;
  /** The key itself: shown once, never stored. */
  key: string;
  name: string | null;
  scopes: Scope[];
  expiresAt: Date | null;
  createdAt: Date;
}

/** Creates a key for an organization on behalf of one of its people; returns the only copy of its value. */
export async function issueApiKey(
  sql: Queryable,
  input: { organizationId: string; createdBy: string; name: string | null; scopes: Scope[]; expiresAt?: Date | null },
): Promise<IssuedKey> {
  const key = generateKey();
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
  });
  return { id, key, name: input.name, scopes, expiresAt, createdAt };
}
