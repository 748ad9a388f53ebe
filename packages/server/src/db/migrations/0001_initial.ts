/**
 * The initial schema. Released migrations are never edited: change the schema with a new numbered file.
 *
 * Every tenant table carries organization_id and a composite primary key (organization_id, id), and every
 * foreign key between tenant tables includes organization_id, so rows of one workspace can only ever point at
 * rows of the same workspace and the schema can later be distributed by tenant.
 */
export const name = 'initial';

export const up = /* sql */ `
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE organizations (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL,
  slug text NOT NULL UNIQUE,
  plan text NOT NULL CHECK (plan IN ('free', 'starter', 'business', 'enterprise')),
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE users (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  email text NOT NULL,
  name text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_key ON users (lower(email));

CREATE TABLE memberships (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'member')),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

CREATE TABLE api_keys (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text,
  -- SHA-256 of the whole key; the key itself is never stored.
  key_hash bytea NOT NULL,
  -- The last characters of the key, so people can tell keys apart in listings.
  key_hint text NOT NULL,
  scopes text[] NOT NULL CHECK (scopes <@ ARRAY['read', 'write'] AND cardinality(scopes) > 0),
  created_by uuid NOT NULL REFERENCES users (id),
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz,
  revoked_at timestamptz,
  last_used_at timestamptz,
  PRIMARY KEY (organization_id, id)
);
CREATE UNIQUE INDEX api_keys_hash_key ON api_keys (key_hash);

CREATE TABLE warehouses (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  is_default boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id)
);
-- At most one default warehouse per workspace.
CREATE UNIQUE INDEX warehouses_default_key ON warehouses (organization_id) WHERE is_default;

CREATE TABLE zones (
  organization_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  warehouse_id uuid NOT NULL,
  name text NOT NULL,
  -- "The first zone of the warehouse" is the one with the lowest position.
  position integer NOT NULL,
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, warehouse_id, id),
  UNIQUE (organization_id, warehouse_id, position),
  FOREIGN KEY (organization_id, warehouse_id) REFERENCES warehouses (organization_id, id) ON DELETE CASCADE
);

CREATE TABLE categories (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  PRIMARY KEY (organization_id, id)
);

CREATE TABLE consignors (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text,
  email text,
  PRIMARY KEY (organization_id, id)
);

CREATE TABLE consignments (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  number text,
  name text,
  status text NOT NULL CHECK (status IN ('intake', 'cataloging', 'listed', 'partially_sold', 'sold', 'settled', 'withdrawn', 'returned')),
  payment_status text,
  consignor_id uuid,
  commission_bps integer CHECK (commission_bps BETWEEN 0 AND 10000),
  buyer_premium_bps integer CHECK (buyer_premium_bps >= 0),
  received_at timestamptz,
  sold_at timestamptz,
  settled_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  search_text text GENERATED ALWAYS AS (lower(coalesce(number, '') || E'\\n' || coalesce(name, ''))) STORED,
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, consignor_id) REFERENCES consignors (organization_id, id)
);
CREATE INDEX consignments_newest_idx ON consignments (organization_id, created_at DESC, id DESC);
CREATE INDEX consignments_status_idx ON consignments (organization_id, status, created_at DESC, id DESC);
CREATE INDEX consignments_consignor_idx ON consignments (organization_id, consignor_id);
CREATE INDEX consignments_search_idx ON consignments USING gin (search_text gin_trgm_ops);

CREATE TABLE items (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  sku text NOT NULL,
  title text NOT NULL,
  description text,
  category_id uuid,
  quantity_available integer NOT NULL DEFAULT 1 CHECK (quantity_available >= 0),
  quantity_sold integer NOT NULL DEFAULT 0 CHECK (quantity_sold >= 0),
  quantity_reserved integer NOT NULL DEFAULT 0 CHECK (quantity_reserved >= 0),
  value_in_cents bigint NOT NULL DEFAULT 0 CHECK (value_in_cents >= 0),
  acquisition_price_in_cents bigint CHECK (acquisition_price_in_cents >= 0),
  acquisition_date timestamptz,
  acquired_from text,
  acquisition_notes text,
  grading_service text,
  grade text,
  certificate_number text,
  grading_notes text,
  attributes jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(attributes) = 'object'),
  warehouse_id uuid NOT NULL,
  zone_id uuid NOT NULL,
  location_details text,
  consignment_id uuid,
  is_at_auction boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  -- The status filter's partition of items, kept by the database so it can be indexed (see ITEM_STATUS_RULES).
  status text GENERATED ALWAYS AS (
    CASE
      WHEN is_at_auction THEN 'at_auction'
      WHEN quantity_available > 0 THEN 'in_stock'
      WHEN quantity_sold > 0 THEN 'sold'
      ELSE 'out_of_stock'
    END
  ) STORED,
  -- What q searches (SEARCH_FIELDS.items), lower-cased, for a trigram index.
  search_text text GENERATED ALWAYS AS (
    lower(sku || E'\\n' || title || E'\\n' || coalesce(description, '') || E'\\n' || coalesce(certificate_number, ''))
  ) STORED,
  PRIMARY KEY (organization_id, id),
  CONSTRAINT items_category_fkey FOREIGN KEY (organization_id, category_id) REFERENCES categories (organization_id, id),
  CONSTRAINT items_warehouse_fkey FOREIGN KEY (organization_id, warehouse_id) REFERENCES warehouses (organization_id, id),
  -- The zone must belong to the item's warehouse.
  CONSTRAINT items_zone_fkey FOREIGN KEY (organization_id, warehouse_id, zone_id) REFERENCES zones (organization_id, warehouse_id, id),
  FOREIGN KEY (organization_id, consignment_id) REFERENCES consignments (organization_id, id)
);
-- SKU uniqueness is decided here, never by a read before the write. Byte order (C) keeps the sku sort identical
-- on every server, whatever its locale.
CREATE UNIQUE INDEX items_sku_key ON items (organization_id, sku COLLATE "C");
CREATE INDEX items_newest_idx ON items (organization_id, created_at DESC, id DESC);
CREATE INDEX items_title_idx ON items (organization_id, lower(title) COLLATE "C", id);
CREATE INDEX items_value_desc_idx ON items (organization_id, value_in_cents DESC, id);
CREATE INDEX items_value_asc_idx ON items (organization_id, value_in_cents, id);
CREATE INDEX items_status_newest_idx ON items (organization_id, status, created_at DESC, id DESC);
CREATE INDEX items_status_value_idx ON items (organization_id, status, value_in_cents DESC, id);
CREATE INDEX items_category_idx ON items (organization_id, category_id, created_at DESC, id DESC);
CREATE INDEX items_grading_service_idx ON items (organization_id, lower(grading_service));
CREATE INDEX items_grade_idx ON items (organization_id, lower(grade));
CREATE INDEX items_consignment_idx ON items (organization_id, consignment_id) WHERE consignment_id IS NOT NULL;
CREATE INDEX items_search_idx ON items USING gin (search_text gin_trgm_ops);

CREATE TABLE item_images (
  organization_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  item_id uuid NOT NULL,
  position integer NOT NULL,
  url text NOT NULL,
  width integer CHECK (width > 0),
  height integer CHECK (height > 0),
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, item_id, position),
  FOREIGN KEY (organization_id, item_id) REFERENCES items (organization_id, id) ON DELETE CASCADE
);

CREATE TABLE valuations (
  organization_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  item_id uuid NOT NULL,
  estimate_low_in_cents bigint CHECK (estimate_low_in_cents >= 0),
  estimate_in_cents bigint CHECK (estimate_in_cents >= 0),
  estimate_high_in_cents bigint CHECK (estimate_high_in_cents >= 0),
  confidence_percent integer CHECK (confidence_percent BETWEEN 0 AND 100),
  basis text,
  price_guide_value_in_cents bigint CHECK (price_guide_value_in_cents >= 0),
  melt_value_in_cents bigint CHECK (melt_value_in_cents >= 0),
  summary text,
  applied_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, item_id) REFERENCES items (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX valuations_item_idx ON valuations (organization_id, item_id, created_at DESC, id DESC);

CREATE TABLE valuation_comps (
  organization_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  valuation_id uuid NOT NULL,
  position integer NOT NULL,
  source text,
  title text,
  grade text,
  grading_service text,
  price_in_cents bigint CHECK (price_in_cents >= 0),
  sold_at text,
  venue text,
  url text,
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, valuation_id, position),
  FOREIGN KEY (organization_id, valuation_id) REFERENCES valuations (organization_id, id) ON DELETE CASCADE
);

CREATE TABLE customers (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text,
  email text,
  PRIMARY KEY (organization_id, id)
);

CREATE TABLE invoices (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  number integer,
  status text NOT NULL CHECK (status IN ('draft', 'sent', 'paid', 'partially_paid', 'overdue', 'void', 'cancelled')),
  source text NOT NULL DEFAULT 'manual',
  customer_id uuid,
  -- The name and email billed, kept on the invoice as issued (a walk-in customer has no customer row).
  customer_name text,
  customer_email text,
  discount_in_cents bigint NOT NULL DEFAULT 0 CHECK (discount_in_cents >= 0),
  shipping_in_cents bigint NOT NULL DEFAULT 0 CHECK (shipping_in_cents >= 0),
  tax_in_cents bigint NOT NULL DEFAULT 0 CHECK (tax_in_cents >= 0),
  due_at timestamptz,
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  search_text text GENERATED ALWAYS AS (
    lower(coalesce(number::text, '') || E'\\n' || coalesce(customer_name, '') || E'\\n' || coalesce(customer_email, '') || E'\\n' || source)
  ) STORED,
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, number),
  FOREIGN KEY (organization_id, customer_id) REFERENCES customers (organization_id, id)
);
CREATE INDEX invoices_newest_idx ON invoices (organization_id, created_at DESC, id DESC);
CREATE INDEX invoices_status_idx ON invoices (organization_id, status, created_at DESC, id DESC);
CREATE INDEX invoices_search_idx ON invoices USING gin (search_text gin_trgm_ops);

CREATE TABLE invoice_lines (
  organization_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  invoice_id uuid NOT NULL,
  position integer NOT NULL,
  item_id uuid,
  description text,
  quantity integer NOT NULL CHECK (quantity >= 0),
  unit_price_in_cents bigint NOT NULL CHECK (unit_price_in_cents >= 0),
  total_price_in_cents bigint GENERATED ALWAYS AS (quantity * unit_price_in_cents) STORED,
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, invoice_id, position),
  FOREIGN KEY (organization_id, invoice_id) REFERENCES invoices (organization_id, id) ON DELETE CASCADE,
  -- Deleting an item keeps the invoice line (it was sold) and forgets the link.
  FOREIGN KEY (organization_id, item_id) REFERENCES items (organization_id, id) ON DELETE SET NULL (item_id)
);
CREATE INDEX invoice_lines_item_idx ON invoice_lines (organization_id, item_id) WHERE item_id IS NOT NULL;

CREATE TABLE invoice_payments (
  organization_id uuid NOT NULL,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  invoice_id uuid NOT NULL,
  amount_in_cents bigint NOT NULL CHECK (amount_in_cents >= 0),
  method text,
  status text,
  paid_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  FOREIGN KEY (organization_id, invoice_id) REFERENCES invoices (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX invoice_payments_invoice_idx ON invoice_payments (organization_id, invoice_id);

CREATE TABLE marketplace_listings (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  -- Null once the item is deleted: the listing row keeps what the marketplace needs to remove it.
  item_id uuid,
  marketplace_listing_id text NOT NULL,
  external_url text,
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'removed')),
  last_synced_quantity integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, marketplace_listing_id),
  FOREIGN KEY (organization_id, item_id) REFERENCES items (organization_id, id) ON DELETE SET NULL (item_id)
);
CREATE INDEX marketplace_listings_item_idx ON marketplace_listings (organization_id, item_id) WHERE item_id IS NOT NULL;
`;
