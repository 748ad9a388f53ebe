import type { Queryable } from '../../db/types.js';
import { ProvisioningError } from '../../errors.js';
import { requireOrganization } from '../organizations/index.js';

/** An item whose quantities break an invariant, with what each was and what it should be. */
export interface InventoryFault {
  id: string;
  sku: string;
  problems: string[];
}

interface CheckedRow {
  id: string;
  sku: string;
  available: number;
  sold: number;
  reserved: number;
  held: number;
  moved_available: number;
  moved_sold: number;
  moved_reserved: number;
}

/**
 * `coinventory-server check --org O`: checks the organization's inventory invariants, item by item. No quantity is
 * below 0; `reserved` is what its held reservations hold; each quantity is the sum of its ledger's deltas. Exits 0
 * when every item keeps them, else 5 naming each one that does not.
 */
export async function checkInventory(sql: Queryable, ref: string): Promise<{ organization: string; items: number }> {
  const organization = await requireOrganization(sql, ref);
  const rows = await sql<CheckedRow[]>`
    SELECT i.id, i.sku, i.quantity_available AS available, i.quantity_sold AS sold, i.quantity_reserved AS reserved,
      coalesce(h.held, 0)::int AS held,
      coalesce(m.available, 0)::int AS moved_available, coalesce(m.sold, 0)::int AS moved_sold,
      coalesce(m.reserved, 0)::int AS moved_reserved
    FROM items i
    LEFT JOIN (
      SELECT item_id, sum(quantity) AS held FROM reservations
      WHERE organization_id = ${organization.id} AND status = 'held' GROUP BY item_id
    ) h ON h.item_id = i.id
    LEFT JOIN (
      SELECT item_id, sum(delta_available) AS available, sum(delta_sold) AS sold, sum(delta_reserved) AS reserved
      FROM item_movements WHERE organization_id = ${organization.id} GROUP BY item_id
    ) m ON m.item_id = i.id
    WHERE i.organization_id = ${organization.id}
    ORDER BY i.sku
  `;
  const faults = rows.flatMap((row): InventoryFault[] => {
    const problems = [
      ...(['available', 'sold', 'reserved'] as const).flatMap((field) => [
        ...(row[field] < 0 ? [`${field} is ${row[field]}, below 0`] : []),
        ...(row[field] !== row[`moved_${field}`]
          ? [`${field} is ${row[field]}, but its movements add up to ${row[`moved_${field}`]}`]
          : []),
      ]),
      ...(row.reserved !== row.held ? [`reserved is ${row.reserved}, but its held reservations hold ${row.held}`] : []),
    ];
    return problems.length === 0 ? [] : [{ id: row.id, sku: row.sku, problems }];
  });
  if (faults.length > 0) {
    const lines = faults.map((fault) => `  ${fault.sku} (${fault.id}): ${fault.problems.join('; ')}`);
    throw new ProvisioningError(
      'refused',
      `${faults.length} of ${rows.length} items of ${organization.slug} break the inventory invariants:\n${lines.join('\n')}`,
    );
  }
  return { organization: organization.slug, items: rows.length };
}
