import type { StoredItemRow } from '../../modules/items/index.js';
import { ACQUISITION_NOTES_FALLBACK } from '../catalog/coins.js';
import type { CategoryKey, ConsignmentKey, GradingService, ItemSpec, PlaceKey } from '../catalog/shapes.js';
import type { Random } from '../random.js';
import type { ItemImageRow } from '../rows.js';
import { addDays, addHours, type BuildContext, dayBefore, required, roundToDollar } from './context.js';

/** Items from the coins of the catalog, and their photos. */

const titleOf = (spec: ItemSpec): string =>
  spec.service !== null && spec.grade !== null
    ? `${spec.name} ${spec.service} ${spec.grade}`
    : spec.grade !== null
      ? `${spec.name} ${spec.grade}`
      : spec.name;

/** Certificate numbers in each service's format; raw coins have none. */
function certificateNumber(random: Random, service: GradingService | null): string | null {
  switch (service) {
    case 'PCGS':
      return String(random.int(10_000_000, 49_999_999));
    case 'NGC':
      return `${random.int(1_000_000, 6_999_999)}-${String(random.int(1, 40)).padStart(3, '0')}`;
    case 'ANACS':
      return String(random.int(1_000_000, 8_999_999));
    case null:
      return null;
  }
}

export function buildItem(
  context: BuildContext,
  spec: ItemSpec,
  lookups: {
    zoneIds: ReadonlyMap<PlaceKey, { warehouseId: string; zoneId: string }>;
    categoryIds: ReadonlyMap<CategoryKey, string>;
    consignmentIds: ReadonlyMap<ConsignmentKey, string>;
  },
): StoredItemRow {
  const { random } = context;
  const createdAt = dayBefore(context, spec.addedDaysAgo);
  const place = required(lookups.zoneIds, spec.place, 'place');
  // Dealers buy at a discount to value; consigned stock has no cost to the shop (costInCents: null).
  const cost =
    spec.costInCents !== undefined
      ? spec.costInCents
      : roundToDollar(spec.valueInCents * (spec.bullion ? random.between(0.93, 0.98) : random.between(0.68, 0.88)));
  const acquired = spec.acquiredFrom !== null || cost !== null;
  const daysOnBooks = Math.max(1, spec.addedDaysAgo - 1);
  return {
    organization_id: context.organizationId,
    id: context.ids.uuid(),
    sku: spec.sku,
    title: titleOf(spec),
    description: spec.description,
    category_id: spec.category === null ? null : required(lookups.categoryIds, spec.category, 'category'),
    quantity_available: spec.qty.available,
    quantity_sold: spec.qty.sold,
    quantity_reserved: spec.qty.reserved,
    value_in_cents: spec.valueInCents,
    acquisition_price_in_cents: cost,
    // Consigned coins are entered within days of arriving; bought ones may wait for a photo session.
    acquisition_date: acquired ? addDays(createdAt, -random.int(0, spec.consignment === undefined ? 12 : 4)) : null,
    acquired_from: spec.acquiredFrom,
    acquisition_notes:
      spec.acquisitionNotes ?? (cost !== null && random.chance(0.15) ? random.pick(ACQUISITION_NOTES_FALLBACK) : null),
    grading_service: spec.service,
    grade: spec.grade,
    certificate_number: certificateNumber(random, spec.service),
    grading_notes: spec.gradingNotes ?? null,
    attributes: spec.attributes,
    warehouse_id: place.warehouseId,
    zone_id: place.zoneId,
    location_details: spec.details ?? null,
    consignment_id:
      spec.consignment === undefined ? null : required(lookups.consignmentIds, spec.consignment, 'consignment'),
    is_at_auction: spec.atAuction ?? false,
    created_at: createdAt,
    // About 40% were edited after intake (repriced, moved, regraded).
    updated_at: random.chance(0.4) ? addHours(createdAt, random.int(2, Math.min(daysOnBooks, 60) * 24)) : null,
  };
}

/** 0-3 photos per item; older uploads have no recorded size. */
export function buildImages(context: BuildContext, item: StoredItemRow): ItemImageRow[] {
  const { random } = context;
  const roll = random.next();
  const count = roll < 0.15 ? 0 : roll < 0.45 ? 1 : roll < 0.8 ? 2 : 3;
  return Array.from({ length: count }, (_, index) => {
    const sized = random.chance(0.75);
    const wide = random.chance(0.2);
    return {
      organization_id: context.organizationId,
      id: context.ids.uuid(),
      item_id: item.id,
      position: index + 1,
      url: `https://images.liberty-coin.example/items/${item.sku}/${index + 1}.jpg`,
      width: sized ? (wide ? 2400 : 1600) : null,
      height: sized ? (wide ? 1200 : 1600) : null,
    };
  });
}
