/**
 * Selling one coin in several places: reservations, the ledger of every quantity movement, and who made each change.
 *
 * `reservations`: units of an item held for a customer. A held one's units are in the item's `quantity_reserved`,
 * which is always the sum of its held reservations (the API moves both in one transaction, under the item's lock).
 * Items that already had reserved units get one held reservation for them, expiring in seven days (the longest a
 * hold can be), so that the invariant holds from the start; the dealer commits or releases it before then.
 *
 * `item_movements`: the ledger. A trigger on `items` records a movement for every row inserted and every change of
 * its quantities, whichever statement made it, so none can be missed. What made it (`kind`, an adjustment's `reason`,
 * a `reference`) and who (`actor`) are the transaction's settings `coinventory.movement` and `coinventory.actor`
 * (set_config(…, true): they end with the transaction); without them an insert is `create` and an update `set`, by
 * the system. Items that already existed get an `opening` movement of their quantities, so an item's deltas always
 * add up to its quantities. Movements live as long as their item.
 *
 * `changes.actor`: who made each change, from the same setting; changes recorded before are the system's.
 */
export const name = 'inventory_ledger';

const SYSTEM = `'{"type":"system","id":null,"name":null}'`;

export const up = /* sql */ `
CREATE TABLE reservations (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  item_id uuid NOT NULL,
  quantity integer NOT NULL CHECK (quantity > 0),
  status text NOT NULL DEFAULT 'held' CHECK (status IN ('held', 'committed', 'released', 'expired')),
  reference text,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, item_id) REFERENCES items (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX reservations_list_idx ON reservations (organization_id, created_at DESC, id DESC);
CREATE INDEX reservations_item_idx ON reservations (organization_id, item_id, created_at DESC, id DESC);
-- What the expiry worker looks for: held reservations by when they expire.
CREATE INDEX reservations_due_idx ON reservations (expires_at) WHERE status = 'held';

CREATE TABLE item_movements (
  organization_id uuid NOT NULL,
  item_id uuid NOT NULL,
  position bigint GENERATED ALWAYS AS IDENTITY,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  kind text NOT NULL CHECK (kind IN (
    'opening', 'create', 'set', 'adjustment', 'reserve', 'commit', 'release', 'expire', 'batch', 'import', 'operator'
  )),
  reason text,
  reference text,
  delta_available integer NOT NULL,
  delta_sold integer NOT NULL,
  delta_reserved integer NOT NULL,
  after_available integer NOT NULL,
  after_sold integer NOT NULL,
  after_reserved integer NOT NULL,
  actor json NOT NULL,
  occurred_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, item_id, position),
  UNIQUE (id),
  FOREIGN KEY (organization_id, item_id) REFERENCES items (organization_id, id) ON DELETE CASCADE
);

CREATE FUNCTION record_item_movement() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  movement json := nullif(current_setting('coinventory.movement', true), '')::json;
  actor json := coalesce(nullif(current_setting('coinventory.actor', true), '')::json, ${SYSTEM}::json);
  was_available integer := 0;
  was_sold integer := 0;
  was_reserved integer := 0;
BEGIN
  IF TG_OP = 'UPDATE' THEN
    was_available := OLD.quantity_available;
    was_sold := OLD.quantity_sold;
    was_reserved := OLD.quantity_reserved;
  END IF;
  INSERT INTO item_movements (
    organization_id, item_id, kind, reason, reference,
    delta_available, delta_sold, delta_reserved, after_available, after_sold, after_reserved, actor
  ) VALUES (
    NEW.organization_id, NEW.id,
    coalesce(movement->>'kind', CASE TG_OP WHEN 'INSERT' THEN 'create' ELSE 'set' END),
    movement->>'reason', movement->>'reference',
    NEW.quantity_available - was_available, NEW.quantity_sold - was_sold, NEW.quantity_reserved - was_reserved,
    NEW.quantity_available, NEW.quantity_sold, NEW.quantity_reserved, actor
  );
  RETURN NULL;
END
$$;

CREATE TRIGGER items_movement_on_insert AFTER INSERT ON items
  FOR EACH ROW EXECUTE FUNCTION record_item_movement();
CREATE TRIGGER items_movement_on_update AFTER UPDATE OF quantity_available, quantity_sold, quantity_reserved ON items
  FOR EACH ROW
  WHEN (
    OLD.quantity_available IS DISTINCT FROM NEW.quantity_available
    OR OLD.quantity_sold IS DISTINCT FROM NEW.quantity_sold
    OR OLD.quantity_reserved IS DISTINCT FROM NEW.quantity_reserved
  )
  EXECUTE FUNCTION record_item_movement();

INSERT INTO reservations (organization_id, item_id, quantity, reference, expires_at)
SELECT organization_id, id, quantity_reserved, 'reserved before reservations existed', now() + interval '7 days'
FROM items WHERE quantity_reserved > 0;

INSERT INTO item_movements (
  organization_id, item_id, kind, delta_available, delta_sold, delta_reserved,
  after_available, after_sold, after_reserved, actor, occurred_at
)
SELECT organization_id, id, 'opening', quantity_available, quantity_sold, quantity_reserved,
  quantity_available, quantity_sold, quantity_reserved, ${SYSTEM}::json, coalesce(updated_at, created_at)
FROM items;

ALTER TABLE changes ADD COLUMN actor json NOT NULL DEFAULT ${SYSTEM};

ALTER TABLE changes DROP CONSTRAINT changes_type_check;
ALTER TABLE changes ADD CONSTRAINT changes_type_check CHECK (type IN (
  'item.created', 'item.updated', 'item.deleted', 'valuation.created',
  'consignment.created', 'consignment.updated', 'invoice.created', 'invoice.updated',
  'reservation.created', 'reservation.committed', 'reservation.released', 'reservation.expired'
));
`;
