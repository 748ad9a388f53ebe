/**
 * What the valuation engine values items from (modules/valuations): a workspace's comparable sales and price guide,
 * and the deployment's spot prices.
 *
 * `comparable_sales`: auction and dealer results the operator imports. `(source, external_id)` is the natural key a
 * re-import updates instead of duplicating. `coin_identity` is the coin's identity normalised as the engine compares
 * it (engine.ts, identityOf), indexed with the sale date for "this coin's recent sales". `sold_at_text` keeps the date
 * as the file gave it, which is what a valuation's comps show.
 *
 * `price_guide_entries`: a value per coin identity and grade (`grade_key`, the grade as the engine compares it).
 *
 * `spot_prices`: cents per troy ounce by metal. Not a workspace's data: one market price serves every workspace.
 *
 * `valuation_policies`: a workspace's operator policy for the engine: whether its estimates become items' values
 * (`apply`, off unless set), and how often every item is valued again (`every_hours`, never unless set). A scheduled
 * run is claimed with a lease (`lease_owner`, `lease_until`), so one process of many runs it, and another takes it
 * over if that one dies.
 */
export const name = 'valuation_sources';

export const up = /* sql */ `
CREATE TABLE comparable_sales (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  source text NOT NULL,
  external_id text NOT NULL,
  coin text NOT NULL,
  coin_identity text NOT NULL,
  title text,
  grading_service text,
  grade text,
  price_in_cents bigint NOT NULL CHECK (price_in_cents >= 0),
  sold_at timestamptz NOT NULL,
  sold_at_text text NOT NULL,
  venue text,
  url text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz,
  PRIMARY KEY (organization_id, id),
  UNIQUE (organization_id, source, external_id)
);
CREATE INDEX comparable_sales_coin_idx ON comparable_sales (organization_id, coin_identity, sold_at DESC);

CREATE TABLE price_guide_entries (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  coin_identity text NOT NULL,
  grade_key text NOT NULL,
  coin text NOT NULL,
  grade text NOT NULL,
  value_in_cents bigint NOT NULL CHECK (value_in_cents >= 0),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, coin_identity, grade_key)
);

CREATE TABLE valuation_policies (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
  apply boolean NOT NULL DEFAULT false,
  every_hours integer CHECK (every_hours BETWEEN 1 AND 8760),
  last_run_at timestamptz,
  lease_owner text,
  lease_until timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE spot_prices (
  metal text PRIMARY KEY CHECK (metal = lower(metal) AND metal <> ''),
  cents_per_oz bigint NOT NULL CHECK (cents_per_oz > 0),
  updated_at timestamptz NOT NULL DEFAULT now()
);
`;
