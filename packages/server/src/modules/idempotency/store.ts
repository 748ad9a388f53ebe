import { IDEMPOTENCY } from '@coinventory/contract';
import type { Queryable } from '../../db/types.js';

/** Whose key it is: keys belong to the API key that sent them, in its organization. */
export interface KeyScope {
  organizationId: string;
  apiKeyId: string;
  key: string;
}

/** The first answer to a write sent with the key, and the request it answered. */
export interface StoredAnswer {
  fingerprint: string;
  status: number;
  body: string;
}

const RETENTION = `${IDEMPOTENCY.retentionHours} hours`;

/** The kept answer for the key, if one was kept within the retention period (an older one is as good as gone). */
export async function findAnswer(sql: Queryable, scope: KeyScope): Promise<StoredAnswer | null> {
  const [row] = await sql<StoredAnswer[]>`
    SELECT fingerprint, status, body FROM idempotency_keys
    WHERE organization_id = ${scope.organizationId} AND api_key_id = ${scope.apiKeyId} AND key = ${scope.key}
      AND created_at > now() - ${RETENTION}::interval
  `;
  return row ?? null;
}

/**
 * Takes the key for this transaction, across server processes: false when another transaction holds it (the same
 * request, still running elsewhere). Released when the transaction ends.
 */
export async function lockKey(tx: Queryable, scope: KeyScope): Promise<boolean> {
  const [row] = await tx<{ locked: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(
      hashtextextended(${`idempotency:${scope.organizationId}:${scope.apiKeyId}:${scope.key}`}, 0)
    ) AS locked
  `;
  return row?.locked === true;
}

/** Keeps the answer, in the transaction of the write it answers (replacing an expired one of the same key). */
export async function keepAnswer(tx: Queryable, scope: KeyScope, answer: StoredAnswer): Promise<void> {
  await tx`
    INSERT INTO idempotency_keys (organization_id, api_key_id, key, fingerprint, status, body)
    VALUES (${scope.organizationId}, ${scope.apiKeyId}, ${scope.key}, ${answer.fingerprint}, ${answer.status},
      ${answer.body})
    ON CONFLICT (organization_id, api_key_id, key) DO UPDATE
      SET fingerprint = excluded.fingerprint, status = excluded.status, body = excluded.body, created_at = now()
      WHERE idempotency_keys.created_at <= now() - ${RETENTION}::interval
  `;
}

/** Removes answers older than the retention period; returns how many. */
export async function pruneAnswers(sql: Queryable): Promise<number> {
  const rows = await sql`
    DELETE FROM idempotency_keys WHERE created_at <= now() - ${RETENTION}::interval RETURNING 1
  `;
  return rows.length;
}
