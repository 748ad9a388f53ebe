import { type Consignment, type ListConsignmentsQuery, SOLD_INVOICE_STATUSES } from '@coinventory/contract';
import type { Queryable } from '../../db/types.js';
import { containsPattern, iso, offsetOf } from '../../db/sql-helpers.js';

interface ConsignmentRow {
  id: string;
  number: string | null;
  name: string | null;
  status: string;
  payment_status: string | null;
  consignor_id: string | null;
  consignor_name: string | null;
  consignor_email: string | null;
  commission_bps: number | null;
  buyer_premium_bps: number | null;
  num_items: number;
  num_items_sold: number;
  total_value_in_cents: number;
  total_sold_in_cents: number;
  total_commission_in_cents: number;
  received_at: Date | null;
  sold_at: Date | null;
  settled_at: Date | null;
  created_at: Date;
}

const toConsignment = (row: ConsignmentRow): Consignment => ({
  id: row.id,
  number: row.number,
  name: row.name,
  status: row.status,
  paymentStatus: row.payment_status,
  consignor:
    row.consignor_id === null ? null : { id: row.consignor_id, name: row.consignor_name, email: row.consignor_email },
  commissionBps: row.commission_bps,
  buyerPremiumBps: row.buyer_premium_bps,
  numItems: row.num_items,
  numItemsSold: row.num_items_sold,
  totalValueInCents: row.total_value_in_cents,
  totalSoldInCents: row.total_sold_in_cents,
  totalCommissionInCents: row.total_commission_in_cents,
  totalPayoutInCents: row.total_sold_in_cents - row.total_commission_in_cents,
  receivedAt: iso(row.received_at),
  soldAt: iso(row.sold_at),
  settledAt: iso(row.settled_at),
  createdAt: row.created_at.toISOString(),
});

/**
 * Totals are derived from the items and invoices, so they can never disagree with them:
 * - numItems, totalValueInCents: the consignment's items and the sum of their values;
 * - numItemsSold: those of its items with quantity.sold > 0;
 * - totalSoldInCents: the lines, on sold invoices (SOLD_INVOICE_STATUSES), for its items;
 * - totalCommissionInCents: totalSold × commissionBps / 10000, rounded half up to the cent;
 * - totalPayoutInCents: totalSold − totalCommission.
 */
const selectConsignments = (sql: Queryable) => sql`
  SELECT
    c.id, c.number, c.name, c.status, c.payment_status,
    c.consignor_id, co.name AS consignor_name, co.email AS consignor_email,
    c.commission_bps, c.buyer_premium_bps,
    held.num_items, held.num_items_sold, held.total_value_in_cents,
    sold.total_sold_in_cents,
    round(sold.total_sold_in_cents::numeric * coalesce(c.commission_bps, 0) / 10000)::bigint AS total_commission_in_cents,
    c.received_at, c.sold_at, c.settled_at, c.created_at
  FROM consignments c
  LEFT JOIN consignors co ON co.organization_id = c.organization_id AND co.id = c.consignor_id
  CROSS JOIN LATERAL (
    SELECT
      count(*)::int AS num_items,
      (count(*) FILTER (WHERE i.quantity_sold > 0))::int AS num_items_sold,
      coalesce(sum(i.value_in_cents), 0)::bigint AS total_value_in_cents
    FROM items i
    WHERE i.organization_id = c.organization_id AND i.consignment_id = c.id
  ) held
  CROSS JOIN LATERAL (
    SELECT coalesce(sum(l.total_price_in_cents), 0)::bigint AS total_sold_in_cents
    FROM items i
    JOIN invoice_lines l ON l.organization_id = i.organization_id AND l.item_id = i.id
    JOIN invoices inv ON inv.organization_id = l.organization_id AND inv.id = l.invoice_id
    WHERE i.organization_id = c.organization_id AND i.consignment_id = c.id
      AND inv.status IN ${sql(SOLD_INVOICE_STATUSES)}
  ) sold
`;

export async function listConsignments(
  sql: Queryable,
  organizationId: string,
  query: ListConsignmentsQuery,
): Promise<Consignment[]> {
  const pattern = query.q === undefined ? undefined : containsPattern(query.q);
  const rows = await sql<ConsignmentRow[]>`
    ${selectConsignments(sql)}
    WHERE c.organization_id = ${organizationId}
      ${
        pattern === undefined
          ? sql``
          : // The indexed search_text narrows; each field is then tested on its own (no match across fields).
            sql`AND (
              (c.search_text LIKE lower(${pattern}) AND (lower(c.number) LIKE lower(${pattern}) OR lower(c.name) LIKE lower(${pattern})))
              OR lower(co.name) LIKE lower(${pattern}) OR lower(co.email) LIKE lower(${pattern})
            )`
      }
      ${query.status === undefined ? sql`` : sql`AND c.status = ${query.status}`}
      ${query.consignorId === undefined ? sql`` : sql`AND c.consignor_id = ${query.consignorId}`}
    ORDER BY c.created_at DESC, c.id DESC
    LIMIT ${query.limit + 1} OFFSET ${offsetOf(query.page, query.limit)}
  `;
  return rows.map(toConsignment);
}

export async function findConsignment(sql: Queryable, organizationId: string, id: string): Promise<Consignment | null> {
  const [row] = await sql<ConsignmentRow[]>`
    ${selectConsignments(sql)}
    WHERE c.organization_id = ${organizationId} AND c.id = ${id}
  `;
  return row ? toConsignment(row) : null;
}
