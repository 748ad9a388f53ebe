/**
 * Webhooks: endpoints a workspace's changes are pushed to, and one delivery row per change and endpoint.
 *
 * A delivery is written in the change's own transaction (by recordChange, for every enabled endpoint that
 * subscribes to the change's type), so a committed change always has its deliveries and a rolled-back one never
 * does: the same transactional outbox as marketplace sync. It points at its change rather than copying it, and goes
 * with it when retention removes the change.
 *
 * Workers claim an endpoint (not a delivery) with a lease, as marketplace sync claims a listing: one endpoint's
 * deliveries are sent one at a time, in change order, and a slow or failing endpoint holds only its own claim.
 * `retry_at` pauses the whole endpoint after a failure (exponential, by `consecutive_failures`), so a receiver that
 * is down gets one probe per pause rather than every pending delivery. `claimed_at` lets workers take endpoints in
 * turn.
 *
 * The signing secret is kept as issued: HMAC needs it (a hash would not do). `previous_secret` signs too until
 * `previous_secret_expires_at`, after a rotation.
 */
export const name = 'webhooks';

export const up = /* sql */ `
CREATE TABLE webhook_endpoints (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  url text NOT NULL,
  description text,
  events text[] NOT NULL CHECK (cardinality(events) > 0),
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  disabled_at timestamptz,
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  failing_since timestamptz,
  consecutive_failures integer NOT NULL DEFAULT 0 CHECK (consecutive_failures >= 0),
  retry_at timestamptz,
  lease_owner text,
  lease_until timestamptz,
  claimed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  PRIMARY KEY (organization_id, id),
  CHECK (enabled = (disabled_at IS NULL))
);

CREATE TABLE webhook_deliveries (
  organization_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  endpoint_id uuid NOT NULL,
  change_position bigint NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  attempts integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  first_attempt_at timestamptz,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  last_attempt_at timestamptz,
  last_response_status integer,
  last_duration_ms integer,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  delivered_at timestamptz,
  -- Raised by each replay: a worker still sending an earlier queuing does not record its outcome over it.
  generation integer NOT NULL DEFAULT 0,
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, endpoint_id, change_position),
  FOREIGN KEY (organization_id, endpoint_id) REFERENCES webhook_endpoints (organization_id, id) ON DELETE CASCADE,
  FOREIGN KEY (organization_id, change_position) REFERENCES changes (organization_id, position) ON DELETE CASCADE
);
-- What workers look for: an endpoint's pending deliveries, in change order.
CREATE INDEX webhook_deliveries_pending_idx ON webhook_deliveries (organization_id, endpoint_id, change_position)
  WHERE status = 'pending';
-- Retention removes changes, and their deliveries with them.
CREATE INDEX webhook_deliveries_change_idx ON webhook_deliveries (organization_id, change_position);
`;
