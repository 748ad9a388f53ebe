/**
 * Back-pressure from the marketplace, shared by every worker through the database.
 *
 * `marketplace_gates` holds one row per marketplace (named as its adapter names it): no delivery to it starts before
 * `paused_until`, which a 429 or 503 with Retry-After moves forward. `consecutive_failures` counts transient failures
 * (network, timeout, 5xx) across all its listings; at the threshold the circuit opens, and once `paused_until` has
 * passed one worker takes `probe_owner` and sends a single request: success closes the circuit, failure reopens it
 * for longer (`open_count`). It is not a workspace's data: one marketplace serves every workspace of a deployment.
 *
 * `failing_since` on a job is when its current run of failed attempts began (reset by `sync retry`): a transient
 * failure makes the job dead only once the give-up period has passed since then, whatever the number of attempts.
 */
export const name = 'marketplace_back_pressure';

export const up = /* sql */ `
CREATE TABLE marketplace_gates (
  marketplace text PRIMARY KEY,
  paused_until timestamptz NOT NULL DEFAULT '-infinity',
  pause_reason text,
  consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
  circuit text NOT NULL DEFAULT 'closed' CHECK (circuit IN ('closed', 'open')),
  open_count integer NOT NULL DEFAULT 0 CHECK (open_count >= 0),
  opened_at timestamptz,
  probe_owner text,
  probe_until timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

ALTER TABLE marketplace_sync_jobs ADD COLUMN failing_since timestamptz;
`;
