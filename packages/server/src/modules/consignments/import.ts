import { CONSIGNMENT_STATUSES } from '@coinventory/contract';
import { z } from 'zod';
import type { Queryable, TransactionSql } from '../../db/types.js';
import { recordChangesOf } from '../changes/index.js';
import {
  field,
  idsReferencedBy,
  importedFirst,
  kindOf,
  type NaturalKey,
  namesIn,
  peopleImport,
  recordWritten,
  refuseUnfound,
  upsertWithCreatedAt,
  type Written,
} from '../imports/index.js';
import { idsBySku, recordItemsUpdated, setConsignment } from '../items/index.js';
import { findConsignment } from './store.js';

/**
 * Consignors, consignments and which items each holds, as an operator imports them (consignments are managed in the
 * vendor's application, never through the API). Each consignment an import creates or changes gets a
 * `consignment.created` or `consignment.updated` change, recorded after the import's writes in their transaction
 * (the feed's lock is taken last, migration 0007).
 */

const NAME_MAX = 200;

/** Records a change for each consignment, as `GET /consignments/{id}` returns it now. */
// ── consignors ─────────────────────────────────────────────────────────────────────────────────────────────────────

export const CONSIGNORS_IMPORT = peopleImport('consignors', async (tx, organizationId, written) => {
  // A consignment shows its consignor's name and email: those of a changed consignor read differently now.
  const affected = await tx<{ id: string }[]>`
    SELECT id FROM consignments
    WHERE organization_id = ${organizationId} AND consignor_id = ANY(${[...written.touched]}::uuid[])
    ORDER BY created_at, id
  `;
  await recordChangesOf(
    tx,
    organizationId,
    affected.map((row) => row.id),
    'consignment.updated',
    findConsignment,
  );
});

// ── consignments ───────────────────────────────────────────────────────────────────────────────────────────────────

const ConsignmentRow = z
  .object({
    number: field.requiredText(100),
    name: field.optionalText(NAME_MAX),
    status: field.oneOf(CONSIGNMENT_STATUSES),
    paymentStatus: field.optionalText(50),
    consignor: field.externalId.optional().transform((value) => value ?? null),
    commissionBps: field
      .wholeNumber(0, 10_000, 'whole basis points')
      .optional()
      .transform((value) => value ?? null),
    buyerPremiumBps: field
      .wholeNumber(0, 100_000, 'whole basis points')
      .optional()
      .transform((value) => value ?? null),
    receivedAt: field.optionalDate,
    soldAt: field.optionalDate,
    settledAt: field.optionalDate,
    createdAt: field.optionalDate,
  })
  .strict();
type ConsignmentRow = z.infer<typeof ConsignmentRow>;

/** A re-import finds a consignment by its number and updates every other column it writes. */
const CONSIGNMENT_KEY: NaturalKey = { table: 'consignments', key: ['organization_id', 'number'], partial: 'number' };

async function writeConsignments(tx: TransactionSql, organizationId: string, rows: ConsignmentRow[]) {
  const consignors = await idsReferencedBy(tx, 'consignors', organizationId, rows, (row) => row.consignor);
  const written = await upsertWithCreatedAt(tx, CONSIGNMENT_KEY, rows, (row) => ({
    organization_id: organizationId,
    number: row.number,
    name: row.name,
    status: row.status,
    payment_status: row.paymentStatus,
    consignor_id: row.consignor === null ? null : (consignors.get(row.consignor) ?? null),
    commission_bps: row.commissionBps,
    buyer_premium_bps: row.buyerPremiumBps,
    received_at: row.receivedAt,
    sold_at: row.soldAt,
    settled_at: row.settledAt,
    created_at: row.createdAt,
  }));
  await recordWritten(tx, organizationId, written, 'consignment', findConsignment);
  return written;
}

export const CONSIGNMENTS_IMPORT = kindOf(ConsignmentRow, {
  name: 'consignments',
  key: (row) => row.number,
  keyFields: 'number',
  check: importedFirst('consignors', 'consignor', (row) => row.consignor),
  write: writeConsignments,
});

// ── which items each consignment holds ─────────────────────────────────────────────────────────────────────────────

const ConsignmentItemRow = z
  .object({
    sku: field.sku,
    consignment: field
      .requiredText(100)
      .optional()
      .transform((value) => value ?? null),
  })
  .strict();
type ConsignmentItemRow = z.infer<typeof ConsignmentItemRow>;

async function consignmentsByNumber(
  sql: Queryable,
  organizationId: string,
  numbers: readonly string[],
): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; number: string }[]>`
    SELECT id, number FROM consignments WHERE organization_id = ${organizationId} AND number = ANY(${numbers as string[]})
  `;
  return new Map(rows.map((row) => [row.number, row.id]));
}

async function writeConsignmentItems(
  tx: TransactionSql,
  organizationId: string,
  rows: ConsignmentItemRow[],
): Promise<Written> {
  const items = await idsBySku(
    tx,
    organizationId,
    rows.map((row) => row.sku),
  );
  const consignments = await consignmentsByNumber(
    tx,
    organizationId,
    namesIn(rows, (row) => row.consignment),
  );
  // The items' rows locked first, in one order, then their consignment read: an API write of one of them waits.
  const before = new Map(
    (
      await tx<{ id: string; consignment_id: string | null }[]>`
        SELECT id, consignment_id FROM items
        WHERE organization_id = ${organizationId} AND id = ANY(${[...items.values()]}::uuid[])
        ORDER BY id FOR UPDATE
      `
    ).map((row) => [row.id, row.consignment_id]),
  );
  let created = 0;
  let updated = 0;
  const changedItems: string[] = [];
  const changedConsignments = new Set<string>();
  for (const row of rows) {
    const itemId = items.get(row.sku);
    const consignmentId = row.consignment === null ? null : consignments.get(row.consignment);
    // check() refused unknown ones; an item deleted since refuses the import (nothing is written).
    if (itemId === undefined || !before.has(itemId) || consignmentId === undefined) {
      throw new Error(`item ${row.sku} or consignment ${row.consignment} vanished during the import`);
    }
    const previous = before.get(itemId) ?? null;
    if (previous === consignmentId) continue;
    await setConsignment(tx, organizationId, [itemId], consignmentId);
    if (previous === null) created += 1;
    else updated += 1;
    changedItems.push(itemId);
    for (const id of [previous, consignmentId]) if (id !== null) changedConsignments.add(id);
  }
  await recordItemsUpdated(tx, organizationId, changedItems);
  await recordChangesOf(tx, organizationId, changedConsignments, 'consignment.updated', findConsignment);
  return { created, updated, touched: new Set(changedItems) };
}

export const CONSIGNMENT_ITEMS_IMPORT = kindOf(ConsignmentItemRow, {
  name: 'consignment-items',
  key: (row) => row.sku,
  keyFields: 'sku',
  check: async (sql, organizationId, rows) => [
    ...(await refuseUnfound(
      rows,
      (row) => row.sku,
      (names) => idsBySku(sql, organizationId, names),
      (name) => `sku: no item with SKU "${name}"`,
    )),
    ...(await refuseUnfound(
      rows,
      (row) => row.consignment,
      (names) => consignmentsByNumber(sql, organizationId, names),
      (name) => `consignment: no consignment numbered "${name}" (import consignments first)`,
    )),
  ],
  write: writeConsignmentItems,
});
