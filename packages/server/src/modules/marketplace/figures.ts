import type { Queryable } from '../../db/types.js';
import { SYNC_STATES, type SyncState } from './store.js';

/** The deployment's sync figures that metrics read at each scrape: every organization's jobs, whichever process sends. */

/** Sync jobs by state, every state present (0 when none). */
export async function syncJobCounts(sql: Queryable): Promise<Record<SyncState, number>> {
  const rows = await sql<{ state: SyncState; count: number }[]>`
    SELECT state, count(*)::int AS count FROM marketplace_sync_jobs GROUP BY state
  `;
  const counts = Object.fromEntries(SYNC_STATES.map((state) => [state, 0])) as Record<SyncState, number>;
  for (const { state, count } of rows) if (state in counts) counts[state] = count;
  return counts;
}

/** Age in seconds of the oldest pending sync job (0 when none is pending): how far the marketplace is behind. */
export async function oldestPendingSyncSeconds(sql: Queryable): Promise<number> {
  const [row] = await sql<{ age: number | null }[]>`
    SELECT extract(epoch FROM now() - min(created_at))::float8 AS age FROM marketplace_sync_jobs
    WHERE state = 'pending'
  `;
  return Math.max(0, row?.age ?? 0);
}
