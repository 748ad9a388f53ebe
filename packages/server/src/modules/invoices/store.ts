import { type Invoice, type InvoiceSort, type ListInvoicesQuery, SETTLED_PAYMENT_STATUS } from '@coinventory/contract';
import type postgres from 'postgres';
import type { Queryable } from '../../db/types.js';
import { containsPattern, iso, offsetOf } from '../../db/sql-helpers.js';

interface InvoiceRow {
  id: string;
  number: number | null;
  status: string;
  source: string;
  customer_id: string | null;
  customer_name: string | null;
  customer_email: string | null;
  subtotal_in_cents: number;
  discount_in_cents: number;
  shipping_in_cents: number;
  tax_in_cents: number;
  paid_in_cents: number;
  lines: Invoice['lines'];
  payments: Invoice['payments'];
  due_at: Date | null;
  paid_at: Date | null;
  created_at: Date;
}

/**
 * Amounts are derived, never stored, so they always agree:
 * subtotal = Σ line totals (each quantity × unit price); total = max(subtotal − discount + shipping + tax, 0);
 * paid = Σ payments with status `succeeded`; due = max(total − paid, 0).
 */
function toInvoice(row: InvoiceRow): Invoice {
  const total = Math.max(row.subtotal_in_cents - row.discount_in_cents + row.shipping_in_cents + row.tax_in_cents, 0);
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    source: row.source,
    customer: { id: row.customer_id, name: row.customer_name, email: row.customer_email },
    subtotalInCents: row.subtotal_in_cents,
    discountInCents: row.discount_in_cents,
    shippingInCents: row.shipping_in_cents,
    taxInCents: row.tax_in_cents,
    totalInCents: total,
    paidInCents: row.paid_in_cents,
    dueInCents: Math.max(total - row.paid_in_cents, 0),
    lines: row.lines,
    payments: row.payments,
    dueAt: iso(row.due_at),
    paidAt: iso(row.paid_at),
    createdAt: row.created_at.toISOString(),
  };
}

const selectInvoices = (sql: Queryable) => sql`
  SELECT
    inv.id, inv.number, inv.status, inv.source, inv.customer_id, inv.customer_name, inv.customer_email,
    lines.subtotal_in_cents, inv.discount_in_cents, inv.shipping_in_cents, inv.tax_in_cents,
    payments.paid_in_cents, lines.lines, payments.payments,
    inv.due_at, inv.paid_at, inv.created_at
  FROM invoices inv
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
`;

const ORDER_BY: Record<InvoiceSort, (sql: Queryable) => postgres.PendingQuery<postgres.Row[]>> = {
  newest: (sql) => sql`ORDER BY inv.created_at DESC, inv.id DESC`,
  oldest: (sql) => sql`ORDER BY inv.created_at ASC, inv.id ASC`,
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
): Promise<Invoice[]> {
  const rows = await sql<InvoiceRow[]>`
    ${selectInvoices(sql)}
    WHERE inv.organization_id = ${organizationId}
      ${query.q === undefined ? sql`` : searchInvoices(sql, containsPattern(query.q))}
      ${query.status === undefined ? sql`` : sql`AND inv.status = ${query.status}`}
    ${ORDER_BY[query.sort](sql)}
    LIMIT ${query.limit + 1} OFFSET ${offsetOf(query.page, query.limit)}
  `;
  return rows.map(toInvoice);
}

export async function findInvoice(sql: Queryable, organizationId: string, id: string): Promise<Invoice | null> {
  const [row] = await sql<InvoiceRow[]>`
    ${selectInvoices(sql)}
    WHERE inv.organization_id = ${organizationId} AND inv.id = ${id}
  `;
  return row ? toInvoice(row) : null;
}
