import type { Sql } from '../../db/types.js';
import { ProvisioningError } from '../../errors.js';
import { requireOrganization } from '../organizations/index.js';
import * as store from './store.js';

/** The operator's view of an organization's endpoints: each one's state, why it is disabled, and its backlog. */
export async function listEndpoints(sql: Sql, input: { org: string }) {
  const org = await requireOrganization(sql, input.org);
  return store.endpointSummaries(sql, org.id);
}

/** Enables or disables an endpoint, as PATCH /webhook-endpoints/{id} does. */
export async function setEnabled(sql: Sql, input: { org: string; endpoint: string; enabled: boolean }) {
  const org = await requireOrganization(sql, input.org);
  const endpoint = await sql.begin(async (tx) => {
    if (!(await store.updateEndpoint(tx, org.id, input.endpoint, { enabled: input.enabled }, 'operator'))) return null;
    return store.findEndpoint(tx, org.id, input.endpoint);
  });
  if (!endpoint) throw new ProvisioningError('not_found', `No webhook endpoint "${input.endpoint}" in ${org.slug}.`);
  return endpoint;
}

export async function removeEndpoint(sql: Sql, input: { org: string; endpoint: string }) {
  const org = await requireOrganization(sql, input.org);
  if (!(await store.deleteEndpoint(sql, org.id, input.endpoint))) {
    throw new ProvisioningError('not_found', `No webhook endpoint "${input.endpoint}" in ${org.slug}.`);
  }
  return { id: input.endpoint, deleted: true as const };
}
