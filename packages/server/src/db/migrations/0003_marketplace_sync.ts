/**
 * Marketplace sync: a transactional outbox.
 *
 * An item change that must reach the marketplace (a new quantity, a deletion) writes a job here in the same
 * transaction as the change, so a committed change always has its job and a rolled-back one never does. Jobs
 * carry everything the delivery needs (the marketplace's listing id), so deleting the item loses nothing.
 *
 * Ordering: every job takes the next number of its listing's sequence. A worker leases one listing at a time
 * (a short lease column, not a row lock held across the HTTP call), delivers only the newest pending job of that
 * listing and marks the older ones superseded, so an older quantity can never overwrite a newer one; the
 * listing remembers the last sequence delivered.
 */
export const name = 'marketplace_sync';

export const up = /* sql */ `
ALTER TABLE marketplace_listings
  ADD COLUMN sync_sequence bigint NOT NULL DEFAULT 0,
  ADD COLUMN delivered_sequence bigint NOT NULL DEFAULT 0,
  ADD COLUMN last_synced_at timestamptz,
  ADD COLUMN lease_owner text,
  ADD COLUMN lease_until timestamptz;

CREATE TABLE marketplace_sync_jobs (
  organization_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  listing_id uuid NOT NULL,
  -- Copied from the listing so the job stands on its own after the item is deleted.
  marketplace_listing_id text NOT NULL,
  kind text NOT NULL CHECK (kind IN ('set_quantity', 'delete_listing')),
  quantity integer CHECK ((kind = 'set_quantity') = (quantity IS NOT NULL) AND quantity >= 0),
  sequence bigint NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'done', 'dead', 'superseded')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, listing_id, sequence),
  FOREIGN KEY (organization_id, listing_id) REFERENCES marketplace_listings (organization_id, id) ON DELETE CASCADE
);
-- What a worker looks for: due pending jobs.
CREATE INDEX marketplace_sync_jobs_due_idx ON marketplace_sync_jobs (next_attempt_at) WHERE state = 'pending';
CREATE INDEX marketplace_sync_jobs_listing_idx ON marketplace_sync_jobs (organization_id, listing_id, sequence DESC);
CREATE INDEX marketplace_sync_jobs_state_idx ON marketplace_sync_jobs (organization_id, state, created_at DESC);

-- Deliveries made by the local adapter (the embedded demo's stand-in for a marketplace), to watch a sync happen.
CREATE TABLE marketplace_local_deliveries (
  organization_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  job_id uuid NOT NULL,
  marketplace_listing_id text NOT NULL,
  action text NOT NULL,
  quantity integer,
  sequence bigint NOT NULL,
  delivered_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  -- The idempotency key: a job delivered twice is recorded once.
  UNIQUE (organization_id, job_id)
);
`;
