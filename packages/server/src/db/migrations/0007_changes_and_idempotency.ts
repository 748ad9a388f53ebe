/**
 * The changes feed and safe retries of writes.
 *
 * change_feeds holds one row per workspace: the position of its last change. A transaction that records a change
 * takes the next position by updating that row, and holds the row's lock until it commits, so positions are handed
 * out in commit order: a reader that sees position 11 committed also sees 10 (a plain sequence does not give this;
 * 11 can commit before 10). The lock is taken last in every writing transaction and held only for its commit.
 * `pruned_through` is the highest position removed by retention: a cursor before it may have missed a change.
 *
 * changes holds each change with the object as the API showed it right after the change (`data`, JSON text kept as
 * sent, so its field order is the API's), written in the change's own transaction.
 *
 * idempotency_keys keeps the first answer to a write sent with Idempotency-Key, per API key, written in the write's
 * own transaction: a stored answer always means the write committed, and a write that rolled back left no answer.
 */
export const name = 'changes_and_idempotency';

export const up = /* sql */ `
CREATE TABLE change_feeds (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  last_position bigint NOT NULL DEFAULT 0 CHECK (last_position >= 0),
  pruned_through bigint NOT NULL DEFAULT 0 CHECK (pruned_through >= 0 AND pruned_through <= last_position)
);

CREATE TABLE changes (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  position bigint NOT NULL CHECK (position > 0),
  id uuid NOT NULL,
  type text NOT NULL CHECK (type IN ('item.created', 'item.updated', 'item.deleted')),
  object_id uuid NOT NULL,
  occurred_at timestamptz NOT NULL,
  data json,
  PRIMARY KEY (organization_id, position),
  UNIQUE (id)
);
-- Retention removes the oldest changes of each workspace.
CREATE INDEX changes_occurred_at_idx ON changes (occurred_at);

CREATE TABLE idempotency_keys (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  api_key_id uuid NOT NULL,
  key text NOT NULL,
  fingerprint text NOT NULL,
  status integer NOT NULL CHECK (status >= 200 AND status < 500),
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, api_key_id, key),
  FOREIGN KEY (organization_id, api_key_id) REFERENCES api_keys (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX idempotency_keys_created_at_idx ON idempotency_keys (created_at);
`;
