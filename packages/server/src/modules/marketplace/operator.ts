import type { KeyMode } from '@coinventory/contract';
import { violatedUniqueConstraint } from '../../db/errors.js';
import type { Queryable } from '../../db/types.js';
import { ProvisioningError } from '../../errors.js';
import { requireOrganization } from '../organizations/index.js';
import { listGates } from './gate.js';
import { listSimulatedListings } from './simulator.js';
import * as data from './store.js';

/** Links an item (by id or SKU) to a listing on the marketplace; its current quantity is taken as in sync. */
export async function linkListing(
  sql: Queryable,
  input: { org: string; mode?: KeyMode | undefined; item: string; listingId: string; url: string | null },
) {
  const org = await requireOrganization(sql, input.org, input.mode);
  const item = await data.findLinkableItem(sql, org.id, input.item);
  if (!item) throw new ProvisioningError('not_found', `No item with id or SKU "${input.item}" in ${org.slug}.`);
  const id = await data
    .linkListing(sql, {
      organizationId: org.id,
      itemId: item.id,
      marketplaceListingId: input.listingId,
      externalUrl: input.url,
      quantity: item.available,
    })
    .catch((error: unknown) => {
      if (violatedUniqueConstraint(error) === 'marketplace_listings_organization_id_marketplace_listing_id_key') {
        throw new ProvisioningError('conflict', `The listing "${input.listingId}" is already linked in ${org.slug}.`);
      }
      throw error;
    });
  return { id, itemId: item.id, sku: item.sku, marketplaceListingId: input.listingId, externalUrl: input.url };
}

export async function unlinkListing(
  sql: Queryable,
  input: { org: string; mode?: KeyMode | undefined; listingId: string },
) {
  const org = await requireOrganization(sql, input.org, input.mode);
  if (!(await data.unlinkListing(sql, org.id, input.listingId))) {
    throw new ProvisioningError('not_found', `No listing "${input.listingId}" in ${org.slug}.`);
  }
  return { marketplaceListingId: input.listingId, unlinked: true as const };
}

export async function listListings(sql: Queryable, input: { org: string; mode?: KeyMode | undefined }) {
  const org = await requireOrganization(sql, input.org, input.mode);
  return data.listListings(sql, org.id);
}

export async function listJobs(
  sql: Queryable,
  input: { org: string; mode?: KeyMode | undefined; state?: data.SyncState | undefined; limit: number },
) {
  const org = await requireOrganization(sql, input.org, input.mode);
  return data.listJobs(sql, org.id, { state: input.state, limit: input.limit });
}

export async function retryJob(sql: Queryable, input: { org: string; mode?: KeyMode | undefined; job: string }) {
  const org = await requireOrganization(sql, input.org, input.mode);
  const job = await data.retryDeadJob(sql, org.id, input.job);
  if (job) return job;
  const existing = await data.findJobState(sql, org.id, input.job);
  if (!existing) throw new ProvisioningError('not_found', `No sync job "${input.job}" in ${org.slug}.`);
  throw new ProvisioningError('refused', `Sync job ${input.job} is ${existing}, not dead; only dead jobs are retried.`);
}

/** The organization's sync jobs at a glance: counts by state, the longest wait, and the listings a dead job left stale. */
export async function syncStatus(sql: Queryable, input: { org: string; mode?: KeyMode | undefined }) {
  const org = await requireOrganization(sql, input.org, input.mode);
  const summary = await data.syncSummary(sql, org.id);
  const waiting = summary.oldestPending;
  // The marketplace's pause and circuit are the deployment's, shared by every organization.
  const now = Date.now();
  const marketplaces = (await listGates(sql)).map((gate) => ({
    ...gate,
    paused: gate.pausedUntil.getTime() > now,
  }));
  return {
    organization: org.slug,
    ...summary,
    marketplaces,
    // Measured here, so the JSON says how long rather than only since when.
    oldestPendingSeconds: waiting ? Math.max(0, Math.round((Date.now() - waiting.createdAt.getTime()) / 1000)) : null,
  };
}

/** What the local simulator (test mode's marketplace, or any when none is configured) holds for each listing. */
export async function simulatedListings(sql: Queryable, input: { org: string; mode?: KeyMode | undefined }) {
  const org = await requireOrganization(sql, input.org, input.mode);
  return listSimulatedListings(sql, org.id);
}
