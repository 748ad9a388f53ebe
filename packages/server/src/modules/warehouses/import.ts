import { z } from 'zod';
import type { Queryable, TransactionSql } from '../../db/types.js';
import {
  field,
  idsReferencedBy,
  importedFirst,
  kindOf,
  type NaturalKey,
  upsertByExternalId,
  upsertByKey,
  upsertInChunks,
} from '../imports/index.js';

/**
 * Warehouses and their zones as an operator imports them. `import warehouses FILE`: `externalId` (the warehouse's id
 * in the system the dealer is leaving: what a re-import updates by) and `name`. `import zones FILE`: `warehouse` (a
 * warehouse's externalId), `externalId` (unique within the warehouse) and `name`; a new zone comes after the
 * warehouse's others, in file order (an item sent to a warehouse without a zone goes to its first).
 */

const NAME_MAX = 200;

const WarehouseRow = z.object({ externalId: field.externalId, name: field.requiredText(NAME_MAX) }).strict();
type WarehouseRow = z.infer<typeof WarehouseRow>;

function writeWarehouses(tx: TransactionSql, organizationId: string, rows: WarehouseRow[]) {
  return upsertByExternalId(tx, 'warehouses', organizationId, rows, ['name']);
}

export const WAREHOUSES_IMPORT = kindOf(WarehouseRow, {
  name: 'warehouses',
  key: (row) => row.externalId,
  keyFields: 'externalId',
  write: writeWarehouses,
});

const ZONE_KEY: NaturalKey = {
  table: 'zones',
  key: ['organization_id', 'warehouse_id', 'external_id'],
  partial: 'external_id',
};

const ZoneRow = z
  .object({ warehouse: field.externalId, externalId: field.externalId, name: field.requiredText(NAME_MAX) })
  .strict();
type ZoneRow = z.infer<typeof ZoneRow>;

async function writeZones(tx: TransactionSql, organizationId: string, rows: ZoneRow[]) {
  // The warehouses' rows locked first: two imports adding zones to one warehouse take positions one after the other.
  const warehouses = await idsReferencedBy(tx, 'warehouses', organizationId, rows, (row) => row.warehouse, true);
  const last = new Map(
    (
      await tx<{ warehouse_id: string; last: number }[]>`
        SELECT warehouse_id, max(position) AS last FROM zones
        WHERE organization_id = ${organizationId} AND warehouse_id = ANY(${[...warehouses.values()]}::uuid[])
        GROUP BY warehouse_id
      `
    ).map((row) => [row.warehouse_id, row.last]),
  );
  return upsertInChunks(rows, (chunk) => {
    const values = chunk.map((row) => {
      const warehouseId = warehouses.get(row.warehouse);
      // check() refused rows of unknown warehouses, and imported warehouses are never deleted.
      if (warehouseId === undefined) throw new Error(`warehouse ${row.warehouse} vanished during the import`);
      const position = (last.get(warehouseId) ?? 0) + 1;
      last.set(warehouseId, position);
      return {
        organization_id: organizationId,
        warehouse_id: warehouseId,
        external_id: row.externalId,
        name: row.name,
        position,
      };
    });
    // A zone already there keeps its place; only its name is updated.
    return upsertByKey(tx, ZONE_KEY, values, ['name']);
  });
}

export const ZONES_IMPORT = kindOf(ZoneRow, {
  name: 'zones',
  key: (row) => JSON.stringify([row.warehouse, row.externalId]),
  keyFields: 'warehouse and externalId',
  check: importedFirst('warehouses', 'warehouse', (row) => row.warehouse),
  write: writeZones,
});

/**
 * Where imported warehouses and zones are, by `warehouse` externalId and `warehouse zone` externalIds: the
 * warehouse's id with its first zone (by position), and each zone's id.
 */
export async function placesByExternalId(
  sql: Queryable,
  organizationId: string,
  warehouseExternalIds: readonly string[],
): Promise<{ warehouses: Map<string, { id: string; firstZoneId: string | null }>; zones: Map<string, string> }> {
  const rows = await sql<
    { warehouse_id: string; warehouse_external_id: string; zone_id: string | null; zone_external_id: string | null }[]
  >`
    SELECT w.id AS warehouse_id, w.external_id AS warehouse_external_id, z.id AS zone_id, z.external_id AS zone_external_id
    FROM warehouses w
    LEFT JOIN zones z ON z.organization_id = w.organization_id AND z.warehouse_id = w.id
    WHERE w.organization_id = ${organizationId} AND w.external_id = ANY(${warehouseExternalIds as string[]})
    ORDER BY w.id, z.position
  `;
  const warehouses = new Map<string, { id: string; firstZoneId: string | null }>();
  const zones = new Map<string, string>();
  for (const row of rows) {
    if (!warehouses.has(row.warehouse_external_id)) {
      warehouses.set(row.warehouse_external_id, { id: row.warehouse_id, firstZoneId: row.zone_id });
    }
    if (row.zone_id !== null && row.zone_external_id !== null) {
      zones.set(zoneKey(row.warehouse_external_id, row.zone_external_id), row.zone_id);
    }
  }
  return { warehouses, zones };
}

export const zoneKey = (warehouse: string, zone: string): string => JSON.stringify([warehouse, zone]);
