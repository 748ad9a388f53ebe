import {
  type Invoice,
  type InvoiceList,
  type InvoiceSort,
  type ListInvoicesQuery,
  SETTLED_PAYMENT_STATUS,
} from '@coinventory/contract';
import type postgres from 'postgres';
import { integer, json, nullable, text, timestamp } from '../../db/column-types.js';
import { organizationPage, organizationRowById, selectFrom } from '../../db/organization-rows.js';
import { containsPattern } from '../../db/sql-helpers.js';
import { defineTable, type StoredRowOf } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import type { ById } from '../../request/gated-read.js';

/**
 * The invoices table, once, in the API's field order. Amounts are derived, never stored, so they always agree:
 * subtotal = Σ line totals (each quantity × unit price); total = max(subtotal − discount + shipping + tax, 0);
 * paid = Σ payments with status `succeeded`; due = max(total − paid, 0).
 */
export const INVOICES = defineTable<Invoice>()({
  name: 'invoices',
  alias: 'inv',
  columns: {
    number: { type: nullable(integer), field: 'number' },
    status: { type: text, field: 'status' },
    source: { type: text, field: 'source' },
    customer_id: { type: nullable(text), field: 'customer.id' },
    customer_name: { type: nullable(text), field: 'customer.name' },
    customer_email: { type: nullable(text), field: 'customer.email' },
    subtotal_in_cents: { type: integer, field: 'subtotalInCents', computed: (sql) => sql`lines.subtotal_in_cents` },
    discount_in_cents: { type: integer, field: 'discountInCents' },
    shipping_in_cents: { type: integer, field: 'shippingInCents' },
    tax_in_cents: { type: integer, field: 'taxInCents' },
    total_in_cents: { type: integer, field: 'totalInCents', computed: (sql) => sql`total.total_in_cents` },
    paid_in_cents: { type: integer, field: 'paidInCents', computed: (sql) => sql`payments.paid_in_cents` },
    due_in_cents: {
      type: integer,
      field: 'dueInCents',
      computed: (sql) => sql`greatest(total.total_in_cents - payments.paid_in_cents, 0)`,
    },
    lines: { type: json<Invoice['lines']>(), field: 'lines', computed: (sql) => sql`lines.lines` },
    payments: { type: json<Invoice['payments']>(), field: 'payments', computed: (sql) => sql`payments.payments` },
    due_at: { type: nullable(timestamp), field: 'dueAt' },
    paid_at: { type: nullable(timestamp), field: 'paidAt' },
    created_at: { type: timestamp, field: 'createdAt' },
  },
});

const selectInvoices = (sql: Queryable) => sql`
  ${selectFrom(sql, INVOICES)}
  CROSS JOIN LATERAL (
    SELECT
      coalesce(json_agg(json_build_object(
        'id', l.id, 'itemId', l.item_id, 'description', l.description, 'quantity', l.quantity,
        'unitPriceInCents', l.unit_price_in_cents, 'totalPriceInCents', l.total_price_in_cents
      ) ORDER BY l.position), '[]'::json) AS lines,
      coalesce(sum(l.total_price_in_cents), 0)::bigint AS subtotal_in_cents
    FROM invoice_lines l
    WHERE l.organization_id = inv.organization_id AND l.invoice_id = inv.id
  ) lines
  CROSS JOIN LATERAL (
    SELECT
      coalesce(json_agg(json_build_object(
        'id', p.id, 'amountInCents', p.amount_in_cents, 'method', p.method, 'status', p.status,
        'paidAt', to_char(p.paid_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      ) ORDER BY p.paid_at NULLS LAST, p.created_at, p.id), '[]'::json) AS payments,
      coalesce(sum(p.amount_in_cents) FILTER (WHERE p.status = ${SETTLED_PAYMENT_STATUS}), 0)::bigint AS paid_in_cents
    FROM invoice_payments p
    WHERE p.organization_id = inv.organization_id AND p.invoice_id = inv.id
  ) payments
  CROSS JOIN LATERAL (
    SELECT greatest(
      lines.subtotal_in_cents - inv.discount_in_cents + inv.shipping_in_cents + inv.tax_in_cents, 0
    )::bigint AS total_in_cents
  ) total
`;

const ORDER_BY: Record<InvoiceSort, (sql: Queryable) => postgres.PendingQuery<postgres.Row[]>> = {
  newest: (sql) => sql`inv.created_at DESC, inv.id DESC`,
  oldest: (sql) => sql`inv.created_at ASC, inv.id ASC`,
};

/** `q` over SEARCH_FIELDS.invoices: the indexed search_text narrows, then each field is tested on its own. */
const searchInvoices = (sql: Queryable, pattern: string) => sql`
  AND inv.search_text LIKE lower(${pattern})
  AND (lower(inv.number::text) LIKE lower(${pattern}) OR lower(inv.customer_name) LIKE lower(${pattern})
    OR lower(inv.customer_email) LIKE lower(${pattern}) OR lower(inv.source) LIKE lower(${pattern}))
`;

export async function listInvoices(
  sql: Queryable,
  organizationId: string,
  query: ListInvoicesQuery,
): Promise<InvoiceList> {
  return organizationPage(sql, INVOICES, organizationId, query, {
    from: selectInvoices(sql),
    where: sql`
      ${query.q === undefined ? sql`` : searchInvoices(sql, containsPattern(query.q))}
      ${query.status === undefined ? sql`` : sql`AND inv.status = ${query.status}`}
    `,
    order: ORDER_BY[query.sort](sql),
  });
}

/** One row by id: what its GET reads (the gated read is declared beside the route). */
export const invoiceById: ById = (sql, organizationId, id) =>
  organizationRowById(sql, INVOICES, organizationId, id, { from: selectInvoices(sql) });

export async function findInvoice(sql: Queryable, organizationId: string, id: string): Promise<Invoice | null> {
  return INVOICES.first(invoiceById(sql, organizationId, id));
}

/** A customer as stored. */
export interface CustomerRow {
  organization_id: string;
  id: string;
  name: string;
  email: string | null;
}

export type InvoiceRow = StoredRowOf<typeof INVOICES.columns>;

/** An invoice's line as stored. */
export interface InvoiceLineRow {
  organization_id: string;
  id: string;
  invoice_id: string;
  position: number;
  item_id: string | null;
  description: string | null;
  quantity: number;
  unit_price_in_cents: number;
}

/** An invoice's payment as stored. */
export interface InvoicePaymentRow {
  organization_id: string;
  id: string;
  invoice_id: string;
  amount_in_cents: number;
  method: string;
  status: string;
  paid_at: Date | null;
  created_at: Date;
}

/**
 * Stored rows in one multi-row INSERT per table, parents first, for a caller that loads an organization's data at once
 * (the demo).
 */
export async function insertInvoiceRows(
  sql: Queryable,
  rows: {
    customers: readonly CustomerRow[];
    invoices: readonly InvoiceRow[];
    lines: readonly InvoiceLineRow[];
    payments: readonly InvoicePaymentRow[];
  },
): Promise<void> {
  if (rows.customers.length > 0) await sql`INSERT INTO customers ${sql(rows.customers)}`;
  if (rows.invoices.length > 0) await sql`INSERT INTO invoices ${sql(rows.invoices)}`;
  if (rows.lines.length > 0) await sql`INSERT INTO invoice_lines ${sql(rows.lines)}`;
  if (rows.payments.length > 0) await sql`INSERT INTO invoice_payments ${sql(rows.payments)}`;
}
