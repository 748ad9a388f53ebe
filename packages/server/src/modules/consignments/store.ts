import {
  type Consignment,
  type ConsignmentList,
  type ListConsignmentsQuery,
  SOLD_INVOICE_STATUSES,
} from '@coinventory/contract';
import { integer, json, nullable, text, timestamp } from '../../db/column-types.js';
import { organizationPage, organizationRowById, selectFrom } from '../../db/organization-rows.js';
import { containsPattern } from '../../db/sql-helpers.js';
import { defineTable, type StoredRowOf } from '../../db/table.js';
import type { Queryable } from '../../db/types.js';
import type { ById } from '../../request/gated-read.js';

/**
 * The consignments table, once, in the API's field order. Totals are derived from the items and invoices, so they
 * can never disagree with them:
 * - numItems, totalValueInCents: the consignment's items and the sum of their values;
 * - numItemsSold: those of its items with quantity.sold > 0;
 * - totalSoldInCents: the lines, on sold invoices (SOLD_INVOICE_STATUSES), for its items;
 * - totalCommissionInCents: totalSold × commissionBps / 10000, rounded half up to the cent;
 * - totalPayoutInCents: totalSold − totalCommission.
 */
export const CONSIGNMENTS = defineTable<Consignment>()({
  name: 'consignments',
  alias: 'c',
  columns: {
    number: { type: nullable(text), field: 'number' },
    name: { type: nullable(text), field: 'name' },
    status: { type: text, field: 'status' },
    payment_status: { type: nullable(text), field: 'paymentStatus' },
    consignor_id: { type: nullable(text) },
    consignor: {
      type: json<Consignment['consignor']>(),
      field: 'consignor',
      computed: (sql) =>
        sql`CASE WHEN c.consignor_id IS NULL THEN NULL ELSE json_build_object('id', c.consignor_id, 'name', co.name, 'email', co.email) END`,
    },
    commission_bps: { type: nullable(integer), field: 'commissionBps' },
    buyer_premium_bps: { type: nullable(integer), field: 'buyerPremiumBps' },
    num_items: { type: integer, field: 'numItems', computed: (sql) => sql`held.num_items` },
    num_items_sold: { type: integer, field: 'numItemsSold', computed: (sql) => sql`held.num_items_sold` },
    total_value_in_cents: {
      type: integer,
      field: 'totalValueInCents',
      computed: (sql) => sql`held.total_value_in_cents`,
    },
    total_sold_in_cents: { type: integer, field: 'totalSoldInCents', computed: (sql) => sql`sold.total_sold_in_cents` },
    total_commission_in_cents: {
      type: integer,
      field: 'totalCommissionInCents',
      computed: (sql) => sql`commission.total_commission_in_cents`,
    },
    total_payout_in_cents: {
      type: integer,
      field: 'totalPayoutInCents',
      computed: (sql) => sql`sold.total_sold_in_cents - commission.total_commission_in_cents`,
    },
    received_at: { type: nullable(timestamp), field: 'receivedAt' },
    sold_at: { type: nullable(timestamp), field: 'soldAt' },
    settled_at: { type: nullable(timestamp), field: 'settledAt' },
    created_at: { type: timestamp, field: 'createdAt' },
  },
});

const selectConsignments = (sql: Queryable) => sql`
  ${selectFrom(sql, CONSIGNMENTS)}
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
  CROSS JOIN LATERAL (
    SELECT round(sold.total_sold_in_cents::numeric * coalesce(c.commission_bps, 0) / 10000)::bigint AS total_commission_in_cents
  ) commission
`;

export async function listConsignments(
  sql: Queryable,
  organizationId: string,
  query: ListConsignmentsQuery,
): Promise<ConsignmentList> {
  const pattern = query.q === undefined ? undefined : containsPattern(query.q);
  return organizationPage(sql, CONSIGNMENTS, organizationId, query, {
    from: selectConsignments(sql),
    where: sql`
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
    `,
    order: sql`c.created_at DESC, c.id DESC`,
  });
}

/** One row by id: what its GET reads (the gated read is declared beside the route). */
export const consignmentById: ById = (sql, organizationId, id) =>
  organizationRowById(sql, CONSIGNMENTS, organizationId, id, { from: selectConsignments(sql) });

export async function findConsignment(sql: Queryable, organizationId: string, id: string): Promise<Consignment | null> {
  return CONSIGNMENTS.first(consignmentById(sql, organizationId, id));
}

/** The organization's consignments with these ids, as GET returns each (an id not of the organization is absent). */
export async function findConsignments(
  sql: Queryable,
  organizationId: string,
  ids: readonly string[],
): Promise<Consignment[]> {
  if (ids.length === 0) return [];
  return CONSIGNMENTS.all(
    sql`${selectConsignments(sql)} WHERE c.organization_id = ${organizationId} AND c.id = ANY(${ids as string[]}::uuid[])
      ORDER BY c.created_at, c.id`,
  );
}

/** A consignor as stored. */
export interface ConsignorRow {
  organization_id: string;
  id: string;
  name: string;
  email: string | null;
}

export type ConsignmentRow = StoredRowOf<typeof CONSIGNMENTS.columns>;

/**
 * Stored rows in one multi-row INSERT per table, for a caller that loads an organization's data at once (the demo).
 */
export async function insertConsignmentRows(
  sql: Queryable,
  rows: { consignors: readonly ConsignorRow[]; consignments: readonly ConsignmentRow[] },
): Promise<void> {
  if (rows.consignors.length > 0) await sql`INSERT INTO consignors ${sql(rows.consignors)}`;
  if (rows.consignments.length > 0) await sql`INSERT INTO consignments ${sql(rows.consignments)}`;
}
