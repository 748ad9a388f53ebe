import { ITEMS } from '../catalog/coins.js';
import { MARKETPLACE_LISTINGS } from '../catalog/sales.js';
import { Random } from '../random.js';
import type { DemoRows } from '../rows.js';
import { addDays, type BuildContext, required } from './context.js';
import { buildInvoices } from './invoices.js';
import { buildImages, buildItem } from './items.js';
import { buildConsignments, buildStructure } from './structure.js';
import { buildPriceGuide, buildSales, buildSpotPrices, buildValuations } from './valuations.js';

/** The seeds of the demo's two PRNG streams: changing either changes every value or every id of the demo. */
const DATA_SEED = 0x5eed_c011;
const ID_SEED = 0x1d5_2026;
/**
 * The valuation engine's sources and the valuations made from them have two streams of their own, so a sale added to
 * the catalog changes the valuations and nothing else.
 */
const SOURCES_DATA_SEED = 0x5a1e_5eed;
const SOURCES_ID_SEED = 0x5a1e_1d50;
/**
 * What the valuations the demo once wrote by hand drew from the two streams, between the items' images and the
 * marketplace listings. Skipping as many draws keeps every row built after that point (listings, customers, invoices)
 * with the ids and times it always had.
 */
const RETIRED_DRAWS = { data: 713, ids: 3_663 };

/** What the database made with the organization, which the demo's rows hang from. */
export interface DemoOrganizationIds {
  organizationId: string;
  /** The default warehouse and its first zone ('Receiving'). */
  warehouseId: string;
  receivingZoneId: string;
}

export interface BuildOptions {
  /**
   * Mixed into the seeds of the id streams: 0 (the default) gives the demo organization's ids; a sandbox seeded with
   * the demo takes its own, so that its ids are not the demo organization's (nor another sandbox's).
   */
  idSalt?: number;
}

/**
 * Every row of the demo organization below the organization and its people, from the catalog. Pure: the same
 * organization ids, `now` and options give the same rows (ids included), run after run.
 */
export function buildDemoRows(organization: DemoOrganizationIds, now: Date, options: BuildOptions = {}): DemoRows {
  const idSalt = options.idSalt ?? 0;
  const context: BuildContext = {
    organizationId: organization.organizationId,
    now,
    random: new Random(DATA_SEED),
    ids: new Random(ID_SEED ^ idSalt),
  };
  const structure = buildStructure(context, organization);
  const { consignors, consignments, consignmentIds } = buildConsignments(context);
  const lookups = { zoneIds: structure.zoneIds, categoryIds: structure.categoryIds, consignmentIds };

  const built = ITEMS.map((spec) => buildItem(context, spec, lookups));
  const itemImages = built.flatMap((item) => buildImages(context, item));
  for (let draw = 0; draw < RETIRED_DRAWS.data; draw += 1) context.random.next();
  for (let draw = 0; draw < RETIRED_DRAWS.ids; draw += 1) context.ids.next();

  const sourcesContext: BuildContext = {
    ...context,
    random: new Random(SOURCES_DATA_SEED),
    ids: new Random(SOURCES_ID_SEED ^ idSalt),
  };
  const comparableSales = buildSales(sourcesContext);
  const priceGuideEntries = buildPriceGuide(sourcesContext);
  const valued = buildValuations(sourcesContext, new Map(built.map((item) => [item.sku, item])), {
    sales: comparableSales,
    guide: priceGuideEntries,
  });
  // An applied estimate is the item's value from the moment it was applied: an update of the item then, as a PATCH.
  const items = built.map((item) => {
    const applied = valued.applied.get(item.id);
    if (applied === undefined) return item;
    const updatedAt = item.updated_at !== null && item.updated_at > applied.at ? item.updated_at : applied.at;
    return { ...item, value_in_cents: applied.valueInCents, updated_at: updatedAt };
  });
  const itemsBySku = new Map(items.map((item) => [item.sku, item]));

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
    comparableSales,
    priceGuideEntries,
    spotPrices: buildSpotPrices(sourcesContext),
    valuations: valued.valuations,
    valuationComps: valued.comps,
    ...buildInvoices(context, itemsBySku),
    marketplaceListings,
  };
}
