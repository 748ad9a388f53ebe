import type { KeyMode, Scope } from '@coinventory/contract';
import { inserted } from '../../db/sql-helpers.js';
import type { Fragment } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import { looksLikeUuid } from '../../ids.js';
import type { RateDecision, RatePolicy } from './rate-limit.js';

/** Everything needed to decide whether a key may call, read with the database's clock. */
export interface KeyGrant {
  keyId: string;
  keyName: string | null;
  scopes: Scope[];
  expiresAt: Date | null;
  /** Neither expired nor revoked. */
  usable: boolean;
  /** Usable, on a plan with API access, and created by someone who is still an owner or admin. */
  permitted: boolean;
  lastUsedAt: Date | null;
  /** The organization the key reaches: its workspace, or the workspace's sandbox for a test key. */
  organization: { id: string; name: string; slug: string };
  mode: KeyMode;
  /** Present exactly when the key is permitted: the request was counted against the key's limit. */
  rate: RateDecision | null;
  /**
   * What the read asked for returned, as JSON (null: no row), when the request was admitted with the read's scope
   * and the read ran; undefined when no read was asked, or it did not run (the caller then reads by itself).
   */
  resource?: unknown;
}

interface GrantRow {
  key_id: string;
  key_name: string | null;
  scopes: Scope[];
  expires_at: Date | null;
  last_used_at: Date | null;
  usable: boolean;
  permitted: boolean;
  organization_id: string;
  organization_name: string;
  organization_slug: string;
  mode: KeyMode;
  rate: { admitted: boolean; remaining: number; reset_ms: number; retry_after_ms: number } | null;
  read_ran?: boolean | null;
  resource?: unknown;
}

/** A read to run in the same statement, for an admitted caller holding `scope` only. */
export interface ReadWithGrant {
  scope: Scope;
  /** The query, given the key's organization as an SQL expression. */
  query: (organizationId: Fragment) => Fragment;
}

/** The key's row with what decides whether it may call, read with the database's clock: no lock taken. */
const grantRow = (
  sql: Queryable,
  keyHash: Buffer,
  rules: { apiPlans: readonly string[]; creatorRoles: readonly string[] },
) => sql`
  SELECT
    k.id AS key_id, k.name AS key_name, k.scopes, k.expires_at, k.last_used_at,
    (k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())) AS usable,
    (
      k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
      AND o.plan = ANY(${rules.apiPlans as string[]}) AND m.role = ANY(${rules.creatorRoles as string[]})
    ) IS TRUE AS permitted,
    coalesce(s.id, o.id) AS organization_id, o.name AS organization_name, o.slug AS organization_slug,
    k.mode
  FROM api_keys k
  JOIN organizations o ON o.id = k.organization_id
  LEFT JOIN memberships m ON m.organization_id = k.organization_id AND m.user_id = k.created_by
  -- A test key reaches its workspace's sandbox, the newest one (a reset's new sandbox replaces the old in the
  -- transaction that makes it); whether the key works is still the live workspace's plan and people.
  LEFT JOIN LATERAL (
    SELECT s.id FROM organizations s
    WHERE k.mode = 'test' AND s.sandbox_of = o.id ORDER BY s.created_at DESC LIMIT 1
  ) s ON true
  WHERE k.key_hash = ${keyHash} AND (k.mode = 'live' OR s.id IS NOT NULL)
`;

/**
 * Whether the grant row's key would be admitted now, by a look at its ring without its lock: the slot its next
 * admission takes is free, or holds one that left the window. Only for a ring of this policy's size (the usual case);
 * any other answers yes.
 */
const likelyAdmitted = (sql: Queryable, policy: RatePolicy) => sql`
  NOT EXISTS (
    SELECT 1 FROM rate_limit_state s
    WHERE s.key_id = g.key_id AND s.max_requests = ${policy.maxRequests}
      -- The next slot looked up by its whole key, per state row (a subplan): as a join, a plan made while the ring
      -- was small could read every slot of the key, and a raised limit's ring grows to hundreds of thousands.
      AND (
        SELECT r.admitted_at FROM rate_limit_slots r
        WHERE r.key_id = s.key_id AND r.slot = (s.admitted + 1) % s.max_requests
      ) > clock_timestamp() - make_interval(secs => ${policy.windowSeconds})
  )
`;

/**
 * Looks a key up by its hash and, when it may call, counts the request against its rate limit: one round trip.
 * Only a permitted key is counted; the function call sits behind that filter.
 *
 * With `read`, the same statement reads the route's resource too (request/gated-read.ts), before the count: no read
 * runs while the key's row is locked, or a slow read would hold the key's other requests behind it. The read runs
 * only for a permitted caller with the read's scope whose next admission is free by a look at its ring without the
 * lock, so a request over its limit reads nothing. The count may disagree with that look (another request of the
 * key took the slot, or the slot left the window, in between): `resource` is then absent from an admitted grant,
 * and the caller reads by itself.
 */
export async function findKeyGrantAndCount(
  sql: Queryable,
  keyHash: Buffer,
  rules: { apiPlans: readonly string[]; creatorRoles: readonly string[]; policy: RatePolicy },
  read?: ReadWithGrant,
): Promise<KeyGrant | null> {
  const [row] = await (read
    ? sql<GrantRow[]>`
        WITH grant_row AS MATERIALIZED (${grantRow(sql, keyHash, rules)}),
        fetched AS MATERIALIZED (
          -- "reader": an alias no route's read uses, so the organization it is given cannot be taken for one of
          -- the read's own columns.
          SELECT reader.ran, CASE WHEN reader.ran THEN (
            SELECT row_to_json(x) FROM (${read.query(sql`reader.organization_id`)}) x
          ) END AS resource
          FROM (
            SELECT g.organization_id,
              g.permitted AND ${read.scope} = ANY(g.scopes) AND ${likelyAdmitted(sql, rules.policy)} AS ran
            FROM grant_row g
          ) reader
        )
        -- The join is made before the count is projected: the read is done before the key's row is locked.
        SELECT g.*, CASE WHEN g.permitted THEN (
          SELECT to_jsonb(r) FROM rate_limit_admit(g.key_id, ${rules.policy.maxRequests}, ${rules.policy.windowSeconds * 1000}) r
        ) END AS rate, f.ran AS read_ran, f.resource
        FROM grant_row g CROSS JOIN fetched f
      `
    : sql<GrantRow[]>`
        WITH grant_row AS MATERIALIZED (${grantRow(sql, keyHash, rules)})
        SELECT g.*,
          -- CASE evaluates its branch only when the key may call, so refused requests are never counted. (A lateral
          -- join filtered on g.permitted is not enough: the planner may call the function before filtering.) The
          -- count locks the key's row until the statement commits.
          CASE WHEN g.permitted THEN (
            SELECT to_jsonb(r) FROM rate_limit_admit(g.key_id, ${rules.policy.maxRequests}, ${rules.policy.windowSeconds * 1000}) r
          ) END AS rate
        FROM grant_row g
      `);
  if (!row) return null;
  return {
    keyId: row.key_id,
    keyName: row.key_name,
    scopes: row.scopes,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    usable: row.usable,
    permitted: row.permitted,
    organization: { id: row.organization_id, name: row.organization_name, slug: row.organization_slug },
    mode: row.mode,
    rate:
      row.rate === null
        ? null
        : {
            admitted: row.rate.admitted,
            remaining: row.rate.remaining,
            resetMs: row.rate.reset_ms,
            retryAfterMs: row.rate.retry_after_ms,
          },
    ...(read && row.read_ran && row.rate?.admitted ? { resource: row.resource ?? null } : {}),
  };
}

/**
 * Records that a key was used, at most once per interval across every process (the condition is checked by
 * the database), so busy keys do not turn every request into a write.
 */
export async function touchKey(sql: Queryable, keyId: string, intervalSeconds: number): Promise<void> {
  await sql`
    UPDATE api_keys SET last_used_at = now()
    WHERE id = ${keyId}
      AND (last_used_at IS NULL OR last_used_at < now() - make_interval(secs => ${intervalSeconds}))
  `;
}

/** The organization of the key with this hash while it has never been used, is not revoked and has not expired. */
export async function findUnusedKeyOrganization(sql: Queryable, keyHash: Buffer): Promise<string | null> {
  const [row] = await sql<{ organizationId: string }[]>`
    SELECT organization_id AS "organizationId" FROM api_keys
    WHERE key_hash = ${keyHash} AND last_used_at IS NULL AND revoked_at IS NULL
      AND (expires_at IS NULL OR expires_at > now())
  `;
  return row?.organizationId ?? null;
}

export interface InsertKeyInput {
  organizationId: string;
  name: string | null;
  keyHash: Buffer;
  keyHint: string;
  scopes: Scope[];
  createdBy: string;
  expiresAt: Date | null;
  mode: KeyMode;
}

export async function insertApiKey(sql: Queryable, input: InsertKeyInput): Promise<{ id: string; createdAt: Date }> {
  const row = await inserted(sql<{ id: string; created_at: Date }[]>`
    INSERT INTO api_keys (organization_id, name, key_hash, key_hint, scopes, created_by, expires_at, mode)
    VALUES (${input.organizationId}, ${input.name}, ${input.keyHash}, ${input.keyHint}, ${input.scopes},
            ${input.createdBy}, ${input.expiresAt}, ${input.mode})
    RETURNING id, created_at
  `);
  return { id: row.id, createdAt: row.created_at };
}

export async function revokeApiKey(sql: Queryable, organizationId: string, keyId: string): Promise<boolean> {
  const rows = await sql`
    UPDATE api_keys SET revoked_at = coalesce(revoked_at, now())
    WHERE organization_id = ${organizationId} AND id = ${keyId}
    RETURNING 1
  `;
  return rows.length > 0;
}

/** A key as the operator sees it: never its hash, only the hint. */
export interface ApiKeyRow {
  id: string;
  name: string | null;
  mode: KeyMode;
  hint: string;
  scopes: Scope[];
  createdBy: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

const selectKeys = (sql: Queryable) => sql`
  SELECT id, name, mode, key_hint AS hint, scopes, created_by AS "createdBy", created_at AS "createdAt",
         expires_at AS "expiresAt", revoked_at AS "revokedAt", last_used_at AS "lastUsedAt"
  FROM api_keys
`;

export async function listApiKeys(sql: Queryable, organizationId: string): Promise<ApiKeyRow[]> {
  return sql<ApiKeyRow[]>`${selectKeys(sql)} WHERE organization_id = ${organizationId} ORDER BY created_at, id`;
}

export async function findApiKey(sql: Queryable, organizationId: string, keyId: string): Promise<ApiKeyRow | null> {
  if (!looksLikeUuid(keyId)) return null;
  const [row] = await sql<ApiKeyRow[]>`${selectKeys(sql)} WHERE organization_id = ${organizationId} AND id = ${keyId}`;
  return row ?? null;
}

/** Each organization's keys that still work or may (neither revoked nor expired), by mode. */
export async function countUsableKeys(sql: Queryable): Promise<Map<string, Record<KeyMode, number>>> {
  const rows = await sql<{ organizationId: string; live: number; test: number }[]>`
    SELECT organization_id AS "organizationId",
      count(*) FILTER (WHERE mode = 'live')::int AS live, count(*) FILTER (WHERE mode = 'test')::int AS test
    FROM api_keys
    WHERE revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())
    GROUP BY organization_id
  `;
  return new Map(rows.map(({ organizationId, live, test }) => [organizationId, { live, test }]));
}
