/**
 * What operator imports (modules/imports) need to bring a dealer's records from the system they are leaving, and the
 * change types those records report.
 *
 * `external_id`: the record's id in that system, the natural key a re-import updates by (categories, warehouses,
 * zones within their warehouse, consignors, customers, and payments within their invoice). Null for records made here
 * (the demo, a workspace's first warehouse), which an import never matches.
 *
 * A consignment's `number` becomes unique within the workspace when given, as an invoice's already is: it is what
 * consignments are imported by.
 *
 * `changes.type` also takes the types of imported consignments and invoices, and of the engine's valuations.
 */
export const name = 'imported_records';

export const up = /* sql */ `
ALTER TABLE categories ADD COLUMN external_id text;
CREATE UNIQUE INDEX categories_external_id_key ON categories (organization_id, external_id) WHERE external_id IS NOT NULL;

ALTER TABLE warehouses ADD COLUMN external_id text;
CREATE UNIQUE INDEX warehouses_external_id_key ON warehouses (organization_id, external_id) WHERE external_id IS NOT NULL;

ALTER TABLE zones ADD COLUMN external_id text;
CREATE UNIQUE INDEX zones_external_id_key ON zones (organization_id, warehouse_id, external_id) WHERE external_id IS NOT NULL;

ALTER TABLE consignors ADD COLUMN external_id text;
CREATE UNIQUE INDEX consignors_external_id_key ON consignors (organization_id, external_id) WHERE external_id IS NOT NULL;

ALTER TABLE customers ADD COLUMN external_id text;
CREATE UNIQUE INDEX customers_external_id_key ON customers (organization_id, external_id) WHERE external_id IS NOT NULL;

ALTER TABLE invoice_payments ADD COLUMN external_id text;
CREATE UNIQUE INDEX invoice_payments_external_id_key ON invoice_payments (organization_id, invoice_id, external_id)
  WHERE external_id IS NOT NULL;

CREATE UNIQUE INDEX consignments_number_key ON consignments (organization_id, number) WHERE number IS NOT NULL;

ALTER TABLE changes DROP CONSTRAINT changes_type_check;
ALTER TABLE changes ADD CONSTRAINT changes_type_check CHECK (type IN (
  'item.created', 'item.updated', 'item.deleted', 'valuation.created',
  'consignment.created', 'consignment.updated', 'invoice.created', 'invoice.updated'
));
`;
