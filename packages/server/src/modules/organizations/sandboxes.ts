import { inserted } from '../../db/sql-helpers.js';
import type { Queryable } from '../../db/types.js';
import type { Plan } from './store.js';

/**
 * Sandboxes: the organizations a workspace's test keys reach. A sandbox is an organization row of its own (so every
 * tenant query keeps its one filter) that names its workspace in `sandbox_of` and shares its name, slug and plan.
 */

export const SANDBOX_SOURCES = ['empty', 'demo', 'live'] as const;
export type SandboxSource = (typeof SANDBOX_SOURCES)[number];

export interface SandboxRow {
  id: string;
  source: SandboxSource;
  /** When it was made: created on first use, or by the last reset. */
  createdAt: Date;
}

/** The workspace's sandbox: the newest (those a reset replaced are kept a few minutes, and no key reaches them). */
export async function findSandbox(sql: Queryable, workspaceId: string): Promise<SandboxRow | null> {
  const [row] = await sql<SandboxRow[]>`
    SELECT id, sandbox_source AS source, created_at AS "createdAt" FROM organizations
    WHERE sandbox_of = ${workspaceId} ORDER BY created_at DESC, id LIMIT 1
  `;
  return row ?? null;
}

/**
 * Holds the workspace's row against other resets until the transaction ends. NO KEY UPDATE, so the rows that
 * reference the workspace (every insert of its items, keys …) are not held up meanwhile.
 */
export async function lockWorkspace(sql: Queryable, workspaceId: string): Promise<void> {
  await sql`SELECT 1 FROM organizations WHERE id = ${workspaceId} AND sandbox_of IS NULL FOR NO KEY UPDATE`;
}

/** A new, empty sandbox of the workspace (its rows are the caller's to add, in the same transaction). */
export async function insertSandbox(
  sql: Queryable,
  workspace: { id: string; name: string; slug: string; plan: Plan },
  source: SandboxSource,
): Promise<{ id: string; createdAt: Date }> {
  // clock_timestamp, not now(): a reset's new sandbox is newer than the one it replaces even within one transaction.
  const row = await inserted(sql<{ id: string; created_at: Date }[]>`
    INSERT INTO organizations (name, slug, plan, sandbox_of, sandbox_source, created_at)
    VALUES (${workspace.name}, ${workspace.slug}, ${workspace.plan}, ${workspace.id}, ${source}, clock_timestamp())
    RETURNING id, created_at
  `);
  return { id: row.id, createdAt: row.created_at };
}

/** Deletes a sandbox and, through the schema's cascades, every row it held. Never a workspace. */
export async function deleteSandbox(sql: Queryable, sandboxId: string): Promise<void> {
  await sql`DELETE FROM organizations WHERE id = ${sandboxId} AND sandbox_of IS NOT NULL`;
}

/** Whether an organization is a sandbox: fixed when it is made, so callers may remember the answer. */
export async function isSandbox(sql: Queryable, organizationId: string): Promise<boolean> {
  const [row] = await sql<{ sandbox: boolean }[]>`
    SELECT sandbox_of IS NOT NULL AS sandbox FROM organizations WHERE id = ${organizationId}
  `;
  return row?.sandbox ?? false;
}

/**
 * Sandboxes that a newer one of their workspace replaced before `replacedBefore` (of one workspace, or of all): the
 * ones a reset left for the requests that were still reading them, and that none can be reading any more.
 */
export async function replacedSandboxes(
  sql: Queryable,
  { replacedBefore, workspaceId }: { replacedBefore: Date; workspaceId?: string },
): Promise<string[]> {
  const rows = await sql<{ id: string }[]>`
    SELECT o.id FROM organizations o
    WHERE o.sandbox_of IS NOT NULL ${workspaceId === undefined ? sql`` : sql`AND o.sandbox_of = ${workspaceId}`}
      AND EXISTS (
        SELECT 1 FROM organizations n
        WHERE n.sandbox_of = o.sandbox_of AND n.created_at > o.created_at AND n.created_at < ${replacedBefore}
      )
  `;
  return rows.map((row) => row.id);
}
