import { inserted } from '../../db/sql-helpers.js';
import type { Queryable } from '../../db/types.js';
import { looksLikeUuid } from '../../ids.js';

/** The two things the marketplace is told. */
export type SyncKind = 'set_quantity' | 'delete_listing';
/** A sync job's states (the table's CHECK constraint holds the same list; a test ties them). */
export const SYNC_STATES = ['pending', 'done', 'dead', 'superseded'] as const;
export type SyncState = (typeof SYNC_STATES)[number];

export interface SyncJob {
  organizationId: string;
  id: string;
  listingId: string;
  marketplaceListingId: string;
  kind: SyncKind;
  quantity: number | null;
  sequence: number;
  state: SyncState;
  attempts: number;
  nextAttemptAt: Date;
  lastError: string | null;
  createdAt: Date;
  completedAt: Date | null;
  /** When the current run of failed attempts began; null when the last attempt (if any) did not fail. */
  failingSince: Date | null;
}

const JOB_COLUMNS = (sql: Queryable) => sql`
  organization_id AS "organizationId", id, listing_id AS "listingId",
  marketplace_listing_id AS "marketplaceListingId", kind, quantity, sequence, state, attempts,
  next_attempt_at AS "nextAttemptAt", last_error AS "lastError", created_at AS "createdAt",
  completed_at AS "completedAt", failing_since AS "failingSince"
`;

/**
 * Writes one job per active listing of the item, each with the listing's next sequence number. Call it inside
 * the transaction that changes the item (and before deleting it: the listing keeps its row, its item link does not).
 */
export async function enqueueForItem(
  sql: Queryable,
  organizationId: string,
  itemId: string,
  job: { kind: 'set_quantity'; quantity: number } | { kind: 'delete_listing' },
): Promise<number> {
  const quantity = job.kind === 'set_quantity' ? job.quantity : null;
  const rows = await sql`
    WITH listings AS (
      UPDATE marketplace_listings SET sync_sequence = sync_sequence + 1
      WHERE organization_id = ${organizationId} AND item_id = ${itemId} AND status = 'active'
      RETURNING organization_id, id, marketplace_listing_id, sync_sequence
    )
    INSERT INTO marketplace_sync_jobs (organization_id, listing_id, marketplace_listing_id, kind, quantity, sequence)
    SELECT organization_id, id, marketplace_listing_id, ${job.kind}, ${quantity}, sync_sequence FROM listings
    RETURNING id
  `;
  return rows.length;
}

export interface ClaimedListing {
  organizationId: string;
  listingId: string;
  deliveredSequence: number;
}

/**
 * Leases one listing that has a due pending job and no live lease. SKIP LOCKED lets several workers claim
 * different listings at once; the lease (not a lock) is what keeps others off it during the HTTP call.
 */
export async function claimListing(sql: Queryable, owner: string, leaseMs: number): Promise<ClaimedListing | null> {
  const [row] = await sql<{ organization_id: string; id: string; delivered_sequence: number }[]>`
    UPDATE marketplace_listings l
    SET lease_owner = ${owner}, lease_until = clock_timestamp() + make_interval(secs => ${leaseMs / 1000})
    FROM (
      SELECT l2.organization_id, l2.id
      FROM marketplace_sync_jobs j
      JOIN marketplace_listings l2 ON l2.organization_id = j.organization_id AND l2.id = j.listing_id
      WHERE j.state = 'pending' AND j.next_attempt_at <= clock_timestamp()
        AND (l2.lease_until IS NULL OR l2.lease_until < clock_timestamp())
      ORDER BY j.next_attempt_at
      LIMIT 1
      FOR UPDATE OF l2 SKIP LOCKED
    ) due
    WHERE l.organization_id = due.organization_id AND l.id = due.id
    RETURNING l.organization_id, l.id, l.delivered_sequence
  `;
  return row
    ? { organizationId: row.organization_id, listingId: row.id, deliveredSequence: row.delivered_sequence }
    : null;
}

/**
 * The newest pending job of a leased listing, after marking every older pending one superseded: only the
 * latest state of a listing is worth sending. Null when the newest one is not due yet (it waits for its retry).
 */
export async function takeNewestJob(sql: Queryable, listing: ClaimedListing): Promise<SyncJob | null> {
  const [newest] = await sql<(SyncJob & { due: boolean })[]>`
    SELECT ${JOB_COLUMNS(sql)}, next_attempt_at <= clock_timestamp() AS due FROM marketplace_sync_jobs
    WHERE organization_id = ${listing.organizationId} AND listing_id = ${listing.listingId} AND state = 'pending'
    ORDER BY sequence DESC
    LIMIT 1
  `;
  if (!newest) return null;
  await sql`
    UPDATE marketplace_sync_jobs SET state = 'superseded', completed_at = now(), updated_at = now()
    WHERE organization_id = ${listing.organizationId} AND listing_id = ${listing.listingId}
      AND state = 'pending' AND sequence < ${newest.sequence}
  `;
  if (newest.sequence <= listing.deliveredSequence) {
    // Already delivered something as new: sending this would move the listing backwards.
    await sql`
      UPDATE marketplace_sync_jobs SET state = 'superseded', completed_at = now(), updated_at = now()
      WHERE organization_id = ${newest.organizationId} AND id = ${newest.id}
    `;
    return null;
  }
  // Due by the database's clock, the one claimListing used: the two must agree.
  const { due, ...job } = newest;
  return due ? job : null;
}

/**
 * Marks a job delivered and moves its listing's delivered state forward (never backwards), in one statement:
 * a crash can never leave the job done while its listing still shows an older sequence.
 */
export async function completeJob(sql: Queryable, job: SyncJob, owner: string): Promise<void> {
  await sql`
    WITH done AS (
      UPDATE marketplace_sync_jobs
      SET state = 'done', attempts = attempts + 1, last_error = NULL, completed_at = now(), updated_at = now()
      WHERE organization_id = ${job.organizationId} AND id = ${job.id}
      RETURNING organization_id, listing_id, sequence, kind, quantity
    )
    UPDATE marketplace_listings l SET
      delivered_sequence = greatest(l.delivered_sequence, done.sequence),
      last_synced_quantity = CASE WHEN done.sequence > l.delivered_sequence AND done.kind = 'set_quantity'
        THEN done.quantity ELSE l.last_synced_quantity END,
      last_synced_at = now(),
      status = CASE WHEN done.kind = 'delete_listing' THEN 'removed' ELSE l.status END,
      lease_until = CASE WHEN l.lease_owner = ${owner} THEN NULL ELSE l.lease_until END,
      lease_owner = CASE WHEN l.lease_owner = ${owner} THEN NULL ELSE l.lease_owner END
    FROM done
    WHERE l.organization_id = done.organization_id AND l.id = done.listing_id
  `;
}

/** What a failed attempt leads to: another attempt after a delay, unless the failure is permanent. */
export type FailedAttempt = { permanent: true } | { permanent: false; retryInMs: number; giveUpMs: number };

/**
 * Records a failed attempt. A permanent refusal makes the job dead at once; a transient failure only once
 * `giveUpMs` has passed since the first failure of its current run (`failing_since`), however many attempts that
 * took; otherwise it is due again after `retryInMs`. Answers whether the job is now dead.
 */
export async function failJob(
  sql: Queryable,
  job: SyncJob,
  error: string,
  attempt: FailedAttempt,
): Promise<{ dead: boolean; failingSince: Date }> {
  const permanent = attempt.permanent;
  const retryInMs = attempt.permanent ? 0 : attempt.retryInMs;
  const giveUpMs = attempt.permanent ? 0 : attempt.giveUpMs;
  const [row] = await sql<{ dead: boolean; failingSince: Date }[]>`
    WITH verdict AS (
      SELECT organization_id, id,
        ${permanent}::boolean OR coalesce(failing_since, now()) <= now() - make_interval(secs => ${giveUpMs / 1000})
          AS dead
      FROM marketplace_sync_jobs
      WHERE organization_id = ${job.organizationId} AND id = ${job.id}
    )
    UPDATE marketplace_sync_jobs j SET
      attempts = j.attempts + 1,
      last_error = ${error.slice(0, 2000)},
      failing_since = coalesce(j.failing_since, now()),
      state = CASE WHEN verdict.dead THEN 'dead' ELSE 'pending' END,
      next_attempt_at = CASE WHEN verdict.dead THEN j.next_attempt_at
        ELSE now() + make_interval(secs => ${retryInMs / 1000}) END,
      completed_at = CASE WHEN verdict.dead THEN now() END,
      updated_at = now()
    FROM verdict
    WHERE j.organization_id = verdict.organization_id AND j.id = verdict.id
    RETURNING verdict.dead, j.failing_since AS "failingSince"
  `;
  return row ?? { dead: false, failingSince: new Date() };
}

/** Ends a lease this worker holds. */
export async function releaseListing(sql: Queryable, listing: ClaimedListing, owner: string): Promise<void> {
  await sql`
    UPDATE marketplace_listings SET lease_owner = NULL, lease_until = NULL
    WHERE organization_id = ${listing.organizationId} AND id = ${listing.listingId} AND lease_owner = ${owner}
  `;
}

export async function listJobs(
  sql: Queryable,
  organizationId: string,
  filter: { state?: SyncState | undefined; limit: number },
): Promise<SyncJob[]> {
  return sql<SyncJob[]>`
    SELECT ${JOB_COLUMNS(sql)} FROM marketplace_sync_jobs
    WHERE organization_id = ${organizationId} ${filter.state ? sql`AND state = ${filter.state}` : sql``}
    ORDER BY created_at DESC, sequence DESC
    LIMIT ${filter.limit}
  `;
}

/** Puts a dead job back in line, with a fresh set of attempts; false when it is not dead. */
export async function retryDeadJob(sql: Queryable, organizationId: string, jobId: string): Promise<SyncJob | null> {
  const [job] = await sql<SyncJob[]>`
    UPDATE marketplace_sync_jobs
    SET state = 'pending', attempts = 0, failing_since = NULL, next_attempt_at = now(), completed_at = NULL,
        updated_at = now()
    WHERE organization_id = ${organizationId} AND id = ${jobId} AND state = 'dead'
    RETURNING ${JOB_COLUMNS(sql)}
  `;
  return job ?? null;
}

/** What `sync status` reports of an organization's sync jobs. */
export interface SyncSummary {
  /** Jobs in each state (done and superseded ones are kept as history). */
  counts: Record<SyncState, number>;
  /** The pending job waiting longest, or null when none is pending. */
  oldestPending: SyncJob | null;
  /**
   * The newest job of each listing whose newest job is dead, most recent death first: those listings stay as they
   * were on the marketplace until the job is retried (or a newer change queues another).
   */
  stale: SyncJob[];
}

export async function syncSummary(sql: Queryable, organizationId: string): Promise<SyncSummary> {
  const counted = await sql<{ state: SyncState; count: number }[]>`
    SELECT state, count(*)::int AS count FROM marketplace_sync_jobs
    WHERE organization_id = ${organizationId}
    GROUP BY state
  `;
  const counts = Object.fromEntries(SYNC_STATES.map((state) => [state, 0])) as Record<SyncState, number>;
  for (const { state, count } of counted) counts[state] = count;
  const [oldestPending] = await sql<SyncJob[]>`
    SELECT ${JOB_COLUMNS(sql)} FROM marketplace_sync_jobs
    WHERE organization_id = ${organizationId} AND state = 'pending'
    ORDER BY created_at, sequence
    LIMIT 1
  `;
  const stale = await sql<SyncJob[]>`
    SELECT * FROM (
      SELECT DISTINCT ON (listing_id) ${JOB_COLUMNS(sql)} FROM marketplace_sync_jobs
      WHERE organization_id = ${organizationId}
      ORDER BY listing_id, sequence DESC
    ) newest
    WHERE state = 'dead'
    ORDER BY "completedAt" DESC, id
  `;
  return { counts, oldestPending: oldestPending ?? null, stale };
}

/** A job's state, or null when the organization has no such job. */
export async function findJobState(sql: Queryable, organizationId: string, jobId: string): Promise<string | null> {
  const [job] = await sql<{ state: string }[]>`
    SELECT state FROM marketplace_sync_jobs WHERE organization_id = ${organizationId} AND id = ${jobId}
  `;
  return job?.state ?? null;
}

export interface ListingRow {
  id: string;
  itemId: string | null;
  sku: string | null;
  marketplaceListingId: string;
  externalUrl: string | null;
  status: string;
  lastSyncedQuantity: number | null;
  lastSyncedAt: Date | null;
  createdAt: Date;
}

export async function listListings(sql: Queryable, organizationId: string): Promise<ListingRow[]> {
  return sql<ListingRow[]>`
    SELECT l.id, l.item_id AS "itemId", i.sku, l.marketplace_listing_id AS "marketplaceListingId",
           l.external_url AS "externalUrl", l.status, l.last_synced_quantity AS "lastSyncedQuantity",
           l.last_synced_at AS "lastSyncedAt", l.created_at AS "createdAt"
    FROM marketplace_listings l
    LEFT JOIN items i ON i.organization_id = l.organization_id AND i.id = l.item_id
    WHERE l.organization_id = ${organizationId}
    ORDER BY l.created_at, l.id
  `;
}

export async function linkListing(
  sql: Queryable,
  input: {
    organizationId: string;
    itemId: string;
    marketplaceListingId: string;
    externalUrl: string | null;
    quantity: number;
  },
): Promise<string> {
  const row = await inserted(sql<{ id: string }[]>`
    INSERT INTO marketplace_listings (organization_id, item_id, marketplace_listing_id, external_url, last_synced_quantity)
    VALUES (${input.organizationId}, ${input.itemId}, ${input.marketplaceListingId}, ${input.externalUrl}, ${input.quantity})
    RETURNING id
  `);
  return row.id;
}

/** Detaches a listing from its item without telling the marketplace; pending jobs for it are dropped. */
export async function unlinkListing(
  sql: Queryable,
  organizationId: string,
  marketplaceListingId: string,
): Promise<boolean> {
  const rows = await sql`
    DELETE FROM marketplace_listings
    WHERE organization_id = ${organizationId} AND marketplace_listing_id = ${marketplaceListingId}
    RETURNING 1
  `;
  return rows.length > 0;
}

export async function recordLocalDelivery(
  sql: Queryable,
  delivery: {
    organizationId: string;
    jobId: string;
    marketplaceListingId: string;
    action: string;
    quantity: number | null;
    sequence: number;
  },
): Promise<void> {
  await sql`
    INSERT INTO marketplace_local_deliveries (organization_id, job_id, marketplace_listing_id, action, quantity, sequence)
    VALUES (${delivery.organizationId}, ${delivery.jobId}, ${delivery.marketplaceListingId}, ${delivery.action},
            ${delivery.quantity}, ${delivery.sequence})
    ON CONFLICT (organization_id, job_id) DO NOTHING
  `;
}

/** The item an operator links, named by id or SKU, with the quantity the listing starts from. */
export async function findLinkableItem(
  sql: Queryable,
  organizationId: string,
  ref: string,
): Promise<{ id: string; sku: string; available: number } | null> {
  const [row] = await sql<{ id: string; sku: string; available: number }[]>`
    SELECT id, sku, quantity_available AS available FROM items
    WHERE organization_id = ${organizationId} AND ${looksLikeUuid(ref) ? sql`id = ${ref}` : sql`sku = ${ref}`}
  `;
  return row ?? null;
}

/** A listing as stored. */
export interface MarketplaceListingRow {
  organization_id: string;
  id: string;
  item_id: string;
  marketplace_listing_id: string;
  external_url: string;
  status: 'active';
  last_synced_quantity: number;
  created_at: Date;
}

/** Stored rows in one multi-row INSERT, for a caller that loads an organization's data at once (the demo). */
export async function insertListingRows(sql: Queryable, listings: readonly MarketplaceListingRow[]): Promise<void> {
  if (listings.length > 0) await sql`INSERT INTO marketplace_listings ${sql(listings)}`;
}
