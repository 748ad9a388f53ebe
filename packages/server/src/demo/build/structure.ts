import { CONSIGNMENTS, CONSIGNORS } from '../catalog/consignments.js';
import type { CategoryKey, ConsignmentKey, ConsignorKey, PlaceKey } from '../catalog/shapes.js';
import { CATEGORIES, EXTRA_ZONES } from '../catalog/shop.js';
import type { ConsignmentRow, DemoRows } from '../rows.js';
import { addHours, type BuildContext, dayBefore, required } from './context.js';

/** The shop's structure (the show warehouse, zones, categories) and its consignors and consignments. */

export function buildStructure(context: BuildContext, main: { warehouseId: string; receivingZoneId: string }) {
  const { organizationId } = context;
  const showWarehouseId = context.ids.uuid();
  const warehouses: DemoRows['warehouses'] = [
    {
      organization_id: organizationId,
      id: showWarehouseId,
      name: 'Show inventory',
      is_default: false,
      created_at: dayBefore(context, 540),
    },
  ];
  const zoneIds = new Map<PlaceKey, { warehouseId: string; zoneId: string }>([
    ['receiving', { warehouseId: main.warehouseId, zoneId: main.receivingZoneId }],
  ]);
  const zones: DemoRows['zones'] = EXTRA_ZONES.map((zone) => {
    const id = context.ids.uuid();
    const warehouseId = zone.warehouse === 'main' ? main.warehouseId : showWarehouseId;
    zoneIds.set(zone.key, { warehouseId, zoneId: id });
    return { organization_id: organizationId, id, warehouse_id: warehouseId, name: zone.name, position: zone.position };
  });
  const categoryIds = new Map<CategoryKey, string>();
  const categories: DemoRows['categories'] = CATEGORIES.map((category) => {
    const id = context.ids.uuid();
    categoryIds.set(category.key, id);
    return { organization_id: organizationId, id, name: category.name };
  });
  return { warehouses, zones, zoneIds, categories, categoryIds };
}

export function buildConsignments(context: BuildContext) {
  const { organizationId } = context;
  const consignorIds = new Map<ConsignorKey, string>();
  const consignors: DemoRows['consignors'] = CONSIGNORS.map((consignor) => {
    const id = context.ids.uuid();
    consignorIds.set(consignor.key, id);
    return { organization_id: organizationId, id, name: consignor.name, email: consignor.email };
  });
  const consignmentIds = new Map<ConsignmentKey, string>();
  const consignments: ConsignmentRow[] = CONSIGNMENTS.map((spec) => {
    const id = context.ids.uuid();
    consignmentIds.set(spec.key, id);
    const receivedAt = dayBefore(context, spec.receivedDaysAgo);
    return {
      organization_id: organizationId,
      id,
      number: `C-${receivedAt.getUTCFullYear()}-${String(spec.seq).padStart(3, '0')}`,
      name: spec.name,
      status: spec.status,
      payment_status: spec.paymentStatus,
      consignor_id: required(consignorIds, spec.consignor, 'consignor'),
      commission_bps: spec.commissionBps,
      buyer_premium_bps: spec.buyerPremiumBps,
      received_at: receivedAt,
      sold_at: spec.soldDaysAgo === null ? null : dayBefore(context, spec.soldDaysAgo),
      settled_at: spec.settledDaysAgo === null ? null : dayBefore(context, spec.settledDaysAgo),
      // The agreement is entered a little before the coins arrive.
      created_at: addHours(receivedAt, -context.random.int(2, 30)),
    };
  });
  return { consignors, consignments, consignmentIds };
}
