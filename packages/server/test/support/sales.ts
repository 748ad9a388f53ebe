import type { Consignment } from '@coinventory/contract';
import type { Sql } from '../../src/db/types.js';
import type { TestOrganization } from './organization.js';

/**
 * Inserts for the read-only resources (consignments, invoices and what they hang off). The API cannot create
 * them, so tests write rows directly, with parameterised postgres.js templates. Generated columns
 * (search_text, total_price_in_cents, items.status) are never written.
 */

type Row = Record<string, string | number | boolean | null>;

async function insertOne(sql: Sql, table: string, row: Row): Promise<string> {
  const [inserted] = await sql<{ id: string }[]>`INSERT INTO ${sql(table)} ${sql(row)} RETURNING id`;
  if (!inserted) throw new Error(`INSERT INTO ${table} returned no row`);
  return inserted.id;
}

export interface ConsignorRow {
  name?: string | null;
  email?: string | null;
}

export async function insertConsignor(sql: Sql, organizationId: string, row: ConsignorRow = {}): Promise<string> {
  return insertOne(sql, 'consignors', {
    organization_id: organizationId,
    name: row.name ?? null,
    email: row.email ?? null,
  });
}

export interface ConsignmentRow {
  id?: string;
  number?: string | null;
  name?: string | null;
  status?: string;
  payment_status?: string | null;
  consignor_id?: string | null;
  commission_bps?: number | null;
  buyer_premium_bps?: number | null;
  received_at?: string | null;
  sold_at?: string | null;
  settled_at?: string | null;
  created_at?: string;
}

export async function insertConsignment(sql: Sql, organizationId: string, row: ConsignmentRow = {}): Promise<string> {
  return insertOne(sql, 'consignments', {
    ...row,
    organization_id: organizationId,
    status: row.status ?? 'intake',
  });
}

export interface ItemRow {
  sku: string;
  title?: string;
  value_in_cents?: number;
  quantity_available?: number;
  quantity_sold?: number;
  consignment_id?: string | null;
}

/** An item in the organization's default warehouse and zone. */
export async function insertItem(sql: Sql, organization: TestOrganization, row: ItemRow): Promise<string> {
  return insertOne(sql, 'items', {
    ...row,
    title: row.title ?? row.sku,
    organization_id: organization.organizationId,
    warehouse_id: organization.defaultWarehouseId,
    zone_id: organization.defaultZoneId,
  });
}

/** Links an existing item to a consignment and sets how many units of it sold. */
export async function linkItem(
  sql: Sql,
  organizationId: string,
  itemId: string,
  link: { consignmentId: string | null; quantitySold: number },
): Promise<void> {
  const rows = await sql`
    UPDATE items SET consignment_id = ${link.consignmentId}, quantity_sold = ${link.quantitySold}
    WHERE organization_id = ${organizationId} AND id = ${itemId}
    RETURNING id
  `;
  if (rows.length !== 1) throw new Error(`no item ${itemId} to link`);
}

export async function insertCustomer(sql: Sql, organizationId: string, row: ConsignorRow = {}): Promise<string> {
  return insertOne(sql, 'customers', {
    organization_id: organizationId,
    name: row.name ?? null,
    email: row.email ?? null,
  });
}

export interface InvoiceRow {
  id?: string;
  number?: number | null;
  status: string;
  source?: string;
  customer_id?: string | null;
  customer_name?: string | null;
  customer_email?: string | null;
  discount_in_cents?: number;
  shipping_in_cents?: number;
  tax_in_cents?: number;
  due_at?: string | null;
  paid_at?: string | null;
  created_at?: string;
}

export async function insertInvoice(sql: Sql, organizationId: string, row: InvoiceRow): Promise<string> {
  return insertOne(sql, 'invoices', { ...row, organization_id: organizationId });
}

export interface LineRow {
  position: number;
  item_id?: string | null;
  description?: string | null;
  quantity: number;
  unit_price_in_cents: number;
}

export async function insertLine(sql: Sql, organizationId: string, invoiceId: string, row: LineRow): Promise<string> {
  return insertOne(sql, 'invoice_lines', { ...row, organization_id: organizationId, invoice_id: invoiceId });
}

export interface PaymentRow {
  amount_in_cents: number;
  method?: string | null;
  status?: string | null;
  paid_at?: string | null;
  created_at?: string;
}

export async function insertPayment(
  sql: Sql,
  organizationId: string,
  invoiceId: string,
  row: PaymentRow,
): Promise<string> {
  return insertOne(sql, 'invoice_payments', { ...row, organization_id: organizationId, invoice_id: invoiceId });
}

/** An invoice of the given status with one line per entry; handy for consignment totals. */
export async function insertSale(
  sql: Sql,
  organizationId: string,
  status: string,
  lines: Array<{ itemId: string | null; quantity: number; unitPriceInCents: number }>,
): Promise<string> {
  const invoiceId = await insertInvoice(sql, organizationId, { status });
  for (const [index, line] of lines.entries()) {
    await insertLine(sql, organizationId, invoiceId, {
      position: index + 1,
      item_id: line.itemId,
      quantity: line.quantity,
      unit_price_in_cents: line.unitPriceInCents,
    });
  }
  return invoiceId;
}

/** Case-sensitive code-point order, which for lower-case UUIDs is PostgreSQL's uuid order. */
export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** A consignment as the API shows it with only `fields` set: no number, name, consignor, rates, dates or items. */
export const consignmentWith = (fields: Pick<Consignment, 'id' | 'status' | 'createdAt'> & Partial<Consignment>) => ({
  number: null,
  name: null,
  paymentStatus: null,
  consignor: null,
  commissionBps: null,
  buyerPremiumBps: null,
  numItems: 0,
  numItemsSold: 0,
  totalValueInCents: 0,
  totalSoldInCents: 0,
  totalCommissionInCents: 0,
  totalPayoutInCents: 0,
  receivedAt: null,
  soldAt: null,
  settledAt: null,
  ...fields,
});

/** An invoice's amounts, lines and payments when it has none. */
export const noAmounts = {
  subtotalInCents: 0,
  discountInCents: 0,
  shippingInCents: 0,
  taxInCents: 0,
  totalInCents: 0,
  paidInCents: 0,
  dueInCents: 0,
  lines: [],
  payments: [],
};
