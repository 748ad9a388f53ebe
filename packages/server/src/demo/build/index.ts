import { ITEMS } from '../catalog/coins.js';
import { MARKETPLACE_LISTINGS } from '../catalog/sales.js';
import { VALUATION_PLANS } from '../catalog/valuations.js';
import { Random } from '../random.js';
import type { DemoRows, ValuationCompRow, ValuationRow } from '../rows.js';
import { addDays, type BuildContext, required } from './context.js';
import { buildInvoices } from './invoices.js';
import { buildImages, buildItem } from './items.js';
import { buildConsignments, buildStructure } from './structure.js';
import { buildValuations, meltValue } from './valuations.js';

/** The seeds of the demo's two PRNG streams: changing either changes every value or every id of the demo. */
const DATA_SEED = 0x5eed_c011;
const ID_SEED = 0x1d5_2026;

/** What the database made with the organization, which the demo's rows hang from. */
export interface DemoWorkspaceIds {
  organizationId: string;
  /** The default warehouse and its first zone ('Receiving'). */
  warehouseId: string;
  receivingZoneId: string;
}

/**
 * Every row of the demo workspace below the organization and its people, from the catalog. Pure: the same
 * workspace ids and `now` give the same rows (ids included), run after run.
 */
export function buildDemoRows(workspace: DemoWorkspaceIds, now: Date): DemoRows {
  const context: BuildContext = {
    organizationId: workspace.organizationId,
    now,
    random: new Random(DATA_SEED),
    ids: new Random(ID_SEED),
  };
  const structure = buildStructure(context, workspace);
  const { consignors, consignments, consignmentIds } = buildConsignments(context);
  const lookups = { zoneIds: structure.zoneIds, categoryIds: structure.categoryIds, consignmentIds };

  const items = ITEMS.map((spec) => buildItem(context, spec, lookups));
  const itemsBySku = new Map(items.map((item) => [item.sku, item]));
  const specsBySku = new Map(ITEMS.map((spec) => [spec.sku, spec]));
  const itemImages = items.flatMap((item) => buildImages(context, item));

  const valuations: ValuationRow[] = [];
  const valuationComps: ValuationCompRow[] = [];
  for (const plan of VALUATION_PLANS) {
    const spec = required(specsBySku, plan.sku, 'item');
    const target = {
      item: required(itemsBySku, plan.sku, 'item'),
      spec,
      // Melt values only for bullion: for numismatic coins the metal is beside the point.
      melt: spec.bullion ? meltValue(spec.attributes) : null,
    };
    const built = buildValuations(context, target, plan);
    valuations.push(...built.valuations);
    valuationComps.push(...built.comps);
  }

  const marketplaceListings: DemoRows['marketplaceListings'] = MARKETPLACE_LISTINGS.map((listing) => {
    const item = required(itemsBySku, listing.sku, 'item');
    return {
      organization_id: context.organizationId,
      id: context.ids.uuid(),
      item_id: item.id,
      marketplace_listing_id: listing.listingId,
      external_url: `https://marketplace.example/listings/${listing.listingId}`,
      status: 'active',
      // In sync: the last quantity pushed is what is available now.
      last_synced_quantity: item.quantity_available,
      created_at: addDays(item.created_at, context.random.int(1, 5)),
    };
  });

  return {
    warehouses: structure.warehouses,
    zones: structure.zones,
    categories: structure.categories,
    consignors,
    consignments,
    items,
    itemImages,
    valuations,
    valuationComps,
    ...buildInvoices(context, itemsBySku),
    marketplaceListings,
  };
}
