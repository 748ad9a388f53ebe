import { organizationRowCount } from '../../db/organization-rows.js';
import { sandboxCopy } from '../../db/sandbox-copy.js';
import type { Queryable } from '../../db/types.js';

/**
 * Test mode: a sandbox's endpoints moved to the sandbox that replaces it (modules/sandbox), with their ids, secrets
 * and enabled state, so a developer's receivers keep working across resets. Their deliveries do not move: they were
 * of the old sandbox's changes, and go with its endpoints, which are deleted, so nothing more is sent for them. Nor
 * does their failing state or a worker's lease: the moved endpoint has nothing to deliver yet.
 */
export async function moveEndpointsToSandbox(tx: Queryable, from: string, to: string) {
  const fresh = {
    failing_since: tx`NULL`,
    consecutive_failures: tx`0`,
    retry_at: tx`NULL`,
    lease_owner: tx`NULL`,
    lease_until: tx`NULL`,
    claimed_at: tx`NULL`,
  };
  const endpoints = await sandboxCopy(
    tx,
    'webhook_endpoints',
    { from, to, set: fresh, ids: 'kept' },
    (rows) => tx`INSERT INTO webhook_endpoints ${rows}`,
  );
  await tx`DELETE FROM webhook_endpoints WHERE organization_id = ${from}`;
  return { webhookEndpoints: endpoints };
}

export const countEndpoints = (sql: Queryable, organizationId: string): Promise<number> =>
  organizationRowCount(sql, 'webhook_endpoints', organizationId);
