import { randomUUID } from 'node:crypto';
import { CATEGORY_NAMES, FIRST_NAMES, LAST_NAMES } from '../data.mjs';
import { DAY_MS, iso } from './context.mjs';
import { copyLines, t } from './copy.mjs';

/**
 * Every workspace's places (the organizations made here rather than through the operator commands, their
 * warehouse, zones and categories), and the consignors, consignments and customers of the workspaces that sell.
 */

/** How a dealer's consignments are spread over their statuses. */
const CONSIGNMENT_STATUSES = /** @type {const} */ ([
  ['intake', 6],
  ['cataloging', 8],
  ['listed', 25],
  ['partially_sold', 15],
  ['sold', 14],
  ['settled', 26],
  ['withdrawn', 3],
  ['returned', 3],
]);

/**
 * @param {import('./context.mjs').SeedContext} context
 * @param {import('./context.mjs').SeedOrg[]} orgs
 * @returns {Promise<Map<string, import('./context.mjs').Place>>} by slug
 */
export async function seedPlaces({ sql, random, now, rows }, orgs) {
  /** @type {Map<string, import('./context.mjs').Place>} */
  const places = new Map();
  const newOrgs = orgs.filter((o) => !o.id);
  /** @type {string[]} */
  const orgLines = [];
  /** @type {string[]} */
  const warehouseLines = [];
  /** @type {string[]} */
  const zoneLines = [];
  /** @type {string[]} */
  const categoryLines = [];
  for (const org of orgs) {
    const id = org.id ?? randomUUID();
    const warehouseId = org.defaultWarehouseId ?? randomUUID();
    const receiving = org.defaultZoneId ?? randomUUID();
    if (!org.id) {
      const plan = random.weighted([
        ['business', 6],
        ['enterprise', 2],
        ['starter', 2],
      ]);
      orgLines.push(`${id}\t${t(org.name)}\t${org.slug}\t${plan}\t${iso(now - random.int(400, 3000) * DAY_MS)}`);
      warehouseLines.push(`${id}\t${warehouseId}\tMain\tt`);
      zoneLines.push(`${id}\t${receiving}\t${warehouseId}\tReceiving\t1`);
    }
    const vault = randomUUID();
    const showcase = randomUUID();
    zoneLines.push(`${id}\t${vault}\t${warehouseId}\tVault A\t2`, `${id}\t${showcase}\t${warehouseId}\tShowcase\t3`);
    const categories = CATEGORY_NAMES.map(() => randomUUID());
    categories.forEach((categoryId, i) => {
      categoryLines.push(`${id}\t${categoryId}\t${t(CATEGORY_NAMES[i])}`);
    });
    places.set(org.slug, { id, warehouseId, zones: [receiving, vault, showcase], categories, consignments: [] });
  }
  await copyLines(sql, 'organizations', ['id', 'name', 'slug', 'plan', 'created_at'], orgLines);
  await copyLines(sql, 'warehouses', ['organization_id', 'id', 'name', 'is_default'], warehouseLines);
  await copyLines(sql, 'zones', ['organization_id', 'id', 'warehouse_id', 'name', 'position'], zoneLines);
  await copyLines(sql, 'categories', ['organization_id', 'id', 'name'], categoryLines);
  rows.organizations = newOrgs.length;
  rows.zones = zoneLines.length;
  rows.categories = categoryLines.length;
  return places;
}

/**
 * @param {import('./context.mjs').SeedContext} context
 * @param {import('./context.mjs').SeedOrg[]} orgs
 * @param {Map<string, import('./context.mjs').Place>} places  gets each workspace's consignments
 * @returns {Promise<Map<string, Array<{ id: string, name: string, email: string | null }>>>} customers by slug
 */
export async function seedConsignmentsAndCustomers({ sql, random, now, rows }, orgs, places) {
  /** @type {string[]} */
  const consignorLines = [];
  /** @type {string[]} */
  const consignmentLines = [];
  /** @type {string[]} */
  const customerLines = [];
  /** @type {Map<string, Array<{ id: string, name: string, email: string | null }>>} */
  const customersByOrg = new Map();
  for (const org of orgs) {
    const place = places.get(org.slug);
    if (!org.sales || !place) continue;
    const consignors = Array.from({ length: org.sales.consignors }, (_, i) => {
      const name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
      const email = random.chance(0.85) ? `consignor${i + 1}@mail.example` : null;
      const id = randomUUID();
      consignorLines.push(`${place.id}\t${id}\t${t(name)}\t${t(email)}`);
      return { id, name };
    });
    for (let i = 0; i < org.sales.consignments; i++) {
      const id = randomUUID();
      place.consignments.push(id);
      const consignor = random.pick(consignors);
      const status = random.weighted(CONSIGNMENT_STATUSES);
      const receivedMs = now - random.int(5, 1800) * DAY_MS;
      const soldMs = status === 'sold' || status === 'settled' ? receivedMs + random.int(20, 120) * DAY_MS : null;
      const settledMs = status === 'settled' && soldMs !== null ? soldMs + random.int(10, 45) * DAY_MS : null;
      const year = new Date(receivedMs).getUTCFullYear();
      consignmentLines.push(
        [
          place.id,
          id,
          `C-${year}-${String(i + 1).padStart(4, '0')}`,
          t(`${consignor.name.split(' ')[1]} collection, part ${random.int(1, 4)}`),
          status,
          status === 'settled' ? 'paid' : soldMs !== null ? 'unpaid' : '\\N',
          consignor.id,
          random.pick([800, 1000, 1200, 1500]),
          random.pick([1500, 2000, 2250]),
          iso(receivedMs),
          soldMs === null ? '\\N' : iso(Math.min(soldMs, now)),
          settledMs === null ? '\\N' : iso(Math.min(settledMs, now)),
          iso(receivedMs),
        ].join('\t'),
      );
    }
    const customers = Array.from({ length: org.sales.customers }, (_, i) => {
      const name = `${random.pick(FIRST_NAMES)} ${random.pick(LAST_NAMES)}`;
      const email = `customer${i + 1}@mail.example`;
      const id = randomUUID();
      customerLines.push(`${place.id}\t${id}\t${t(name)}\t${email}`);
      return { id, name, email };
    });
    customersByOrg.set(org.slug, customers);
  }
  await copyLines(sql, 'consignors', ['organization_id', 'id', 'name', 'email'], consignorLines);
  await copyLines(
    sql,
    'consignments',
    [
      'organization_id',
      'id',
      'number',
      'name',
      'status',
      'payment_status',
      'consignor_id',
      'commission_bps',
      'buyer_premium_bps',
      'received_at',
      'sold_at',
      'settled_at',
      'created_at',
    ],
    consignmentLines,
  );
  await copyLines(sql, 'customers', ['organization_id', 'id', 'name', 'email'], customerLines);
  rows.consignors = consignorLines.length;
  rows.consignments = consignmentLines.length;
  rows.customers = customerLines.length;
  return customersByOrg;
}
