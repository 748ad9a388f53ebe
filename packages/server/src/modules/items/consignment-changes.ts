import type { Consignment } from '@coinventory/contract';
import type { Queryable } from '../../db/types.js';
import { recordChange } from '../changes/index.js';

/**
 * A consignment's totals are derived from its items and the invoices that sold them (consignments/store.ts), so a
 * write to an item or an invoice can change a consignment as GET shows it without touching its row. Such a write
 * reads the consignments it may change before it writes (`consignmentsHolding…`), and once it has written, records a
 * `consignment.updated` for each that now reads differently (`recordConsignmentsChanged`): a copy of the
 * consignments that follows the feed sees its totals move when they move, and only then.
 *
 * Here, beside the item writes that call it, rather than in the consignments module, which depends on items (its
 * imports set items' consignments): that module gives its read of consignments to `readConsignmentsWith` instead.
 */

/** Consignments as GET shows them, these ids of the organization (those that exist). */
export type ConsignmentReader = (
  sql: Queryable,
  organizationId: string,
  ids: readonly string[],
) => Promise<Consignment[]>;

let findConsignments: ConsignmentReader = async () => {
  // Without the reader a consigned item's write would leave its consignment's change unrecorded: refused instead.
  throw new Error('consignments were read before the consignments module gave its reader (readConsignmentsWith)');
};

/** Gives the consignments' read; the consignments module calls it when its index is loaded. */
export function readConsignmentsWith(reader: ConsignmentReader): void {
  findConsignments = reader;
}

/** Consignments as they read before a write, by id. */
export type ConsignmentsBefore = ReadonlyMap<string, Consignment>;

const NONE: ConsignmentsBefore = new Map();

/** The consignments holding any of these items, as they read now. */
export async function consignmentsHoldingItems(
  sql: Queryable,
  organizationId: string,
  itemIds: readonly string[],
): Promise<ConsignmentsBefore> {
  if (itemIds.length === 0) return NONE;
  const rows = await sql<{ id: string }[]>`
    SELECT DISTINCT consignment_id AS id FROM items
    WHERE organization_id = ${organizationId} AND id = ANY(${itemIds as string[]}::uuid[]) AND consignment_id IS NOT NULL
  `;
  return consignmentsById(sql, organizationId, idsOf(rows));
}

/** The consignments holding an item on a line of any of these invoices, as they read now. */
export async function consignmentsHoldingItemsOnInvoices(
  sql: Queryable,
  organizationId: string,
  invoiceIds: readonly string[],
): Promise<ConsignmentsBefore> {
  if (invoiceIds.length === 0) return NONE;
  const rows = await sql<{ id: string }[]>`
    SELECT DISTINCT i.consignment_id AS id
    FROM invoice_lines l
    JOIN items i ON i.organization_id = l.organization_id AND i.id = l.item_id
    WHERE l.organization_id = ${organizationId} AND l.invoice_id = ANY(${invoiceIds as string[]}::uuid[])
      AND i.consignment_id IS NOT NULL
  `;
  return consignmentsById(sql, organizationId, idsOf(rows));
}

const idsOf = (rows: readonly { id: string }[]) => rows.map((row) => row.id);

/** The consignments with these ids, as they read now. */
export async function consignmentsById(
  sql: Queryable,
  organizationId: string,
  ids: readonly string[],
): Promise<ConsignmentsBefore> {
  if (ids.length === 0) return NONE;
  const found = await findConsignments(sql, organizationId, ids);
  return new Map(found.map((consignment) => [consignment.id, consignment]));
}

/** Both sets of consignments read before a write, as one. */
export function bothBefore(first: ConsignmentsBefore, second: ConsignmentsBefore): ConsignmentsBefore {
  return second.size === 0 ? first : new Map([...first, ...second]);
}

/**
 * Records `consignment.updated`, as GET returns it now, for each consignment of `before` that reads differently
 * than it did; returns the webhook deliveries queued. Call it after the write, in its transaction: it takes the
 * feed's lock (migration 0007), last.
 */
export async function recordConsignmentsChanged(
  tx: Queryable,
  organizationId: string,
  before: ConsignmentsBefore,
): Promise<number> {
  if (before.size === 0) return 0;
  let queued = 0;
  for (const now of await findConsignments(tx, organizationId, [...before.keys()])) {
    if (JSON.stringify(now) === JSON.stringify(before.get(now.id))) continue;
    queued += await recordChange(tx, organizationId, { type: 'consignment.updated', objectId: now.id, data: now });
  }
  return queued;
}
