import type { StoredItemRow } from '../../modules/items/index.js';
// The price guide's keys as `import price-guide` writes them and `valuate` looks them up.
import {
  compRow,
  estimate,
  gradeKeyOf,
  guideKey,
  identityOf,
  itemIdentity,
  valuationColumns,
} from '../../modules/valuations/index.js';
import { MARKETS, PRICE_GUIDE, SPOT_CENTS_PER_OZ, VALUATION_PLANS, VENUES } from '../catalog/valuations.js';
import type { ComparableSaleRow, PriceGuideEntryRow, SpotPriceRow, ValuationCompRow, ValuationRow } from '../rows.js';
import { addDays, type BuildContext, required, roundToDollar } from './context.js';

/**
 * The valuation engine's sources (comparable sales, the price guide, spot prices) and the valuations the engine makes
 * from them: each valuation is `estimate()` (the function `coinventory-server valuate` runs) over the sources as they
 * stood when it ran, never a figure of the demo's own.
 */

type EngineInputs = Parameters<typeof estimate>[0];
type Sale = EngineInputs['sales'][number];

/** When the price guide was imported, in days before now: before the engine's first run. */
const PRICE_GUIDE_DAYS_AGO = 365;

/** The sales of the catalog's markets, at prices around each grade's typical one, from the catalog's venues. */
export function buildSales(context: BuildContext): ComparableSaleRow[] {
  const { random, now } = context;
  return MARKETS.flatMap((market) =>
    market.sales.map(([grade, daysAgo]): ComparableSaleRow => {
      const typical = market.typicalInCents[grade];
      if (typical === undefined) throw new Error(`demo seed: no typical price of ${market.coin} in ${grade}`);
      const venue = random.weighted(VENUES);
      const day = addDays(now, -daysAgo).toISOString().slice(0, 10);
      const auction = venue.source === 'auction_archive';
      // An auction archive reports the day (read as midnight UTC, as an import reads it); a marketplace the moment
      // the listing ended.
      const soldAtText = auction
        ? day
        : `${day}T${String(random.int(0, 23)).padStart(2, '0')}:${String(random.int(0, 59)).padStart(2, '0')}:00Z`;
      const soldAt = new Date(auction ? `${day}T00:00:00Z` : soldAtText);
      const record = auction
        ? `${random.int(3100, 3199)}-${random.int(10_000, 99_999)}`
        : `${random.int(100_000, 999_999)}${random.int(100_000, 999_999)}`;
      return {
        organization_id: context.organizationId,
        id: context.ids.uuid(),
        source: venue.source,
        external_id: `${venue.prefix}-${record}`,
        coin: market.coin,
        coin_identity: identityOf(market.coin),
        title: `${market.coin} ${market.service} ${grade}`,
        grading_service: market.service,
        grade,
        price_in_cents: roundToDollar(typical * random.logNormal(0.08)),
        sold_at: soldAt,
        sold_at_text: soldAtText,
        venue: venue.venue,
        url: auction && random.chance(0.1) ? null : `https://${venue.host}/${auction ? 'lots' : 'itm'}/${record}`,
        // Imported as the venues report them.
        created_at: soldAt,
      };
    }),
  );
}

export function buildPriceGuide(context: BuildContext): PriceGuideEntryRow[] {
  return PRICE_GUIDE.map((entry) => ({
    organization_id: context.organizationId,
    coin_identity: identityOf(entry.coin),
    grade_key: gradeKeyOf(entry.grade),
    coin: entry.coin,
    grade: entry.grade,
    value_in_cents: entry.valueInCents,
    updated_at: addDays(context.now, -PRICE_GUIDE_DAYS_AGO),
  }));
}

export function buildSpotPrices(context: BuildContext): SpotPriceRow[] {
  return Object.entries(SPOT_CENTS_PER_OZ).map(([metal, cents]) => ({
    metal,
    cents_per_oz: cents,
    updated_at: context.now,
  }));
}

/** A sale as the engine takes it, read from its row as `valuate` reads it (modules/valuations/store.ts, salesOf). */
const saleOf = (row: ComparableSaleRow): Sale => ({
  identity: row.coin_identity,
  source: row.source,
  title: row.title,
  gradingService: row.grading_service,
  grade: row.grade,
  priceInCents: row.price_in_cents,
  soldAt: row.sold_at,
  soldAtText: row.sold_at_text,
  venue: row.venue,
  url: row.url,
});

/** What an applied valuation did to its item: its estimate became the value, at that moment. */
export interface AppliedEstimate {
  valueInCents: number;
  at: Date;
}

/** The engine's sources as `valuate` reads them: sales by identity, guide entries by `identity grade-key`. */
interface Sources {
  salesByIdentity: ReadonlyMap<string, Sale[]>;
  guide: ReadonlyMap<string, PriceGuideEntryRow>;
}

function sourcesOf(sales: readonly ComparableSaleRow[], entries: readonly PriceGuideEntryRow[]): Sources {
  const salesByIdentity = new Map<string, Sale[]>();
  for (const row of sales) {
    salesByIdentity.set(row.coin_identity, [...(salesByIdentity.get(row.coin_identity) ?? []), saleOf(row)]);
  }
  const guide = new Map(entries.map((entry) => [guideKey(entry.coin_identity, entry.grade_key), entry]));
  return { salesByIdentity, guide };
}

/** The item as the engine takes it, its identity worked out as `valuate` works it out. */
function factsOf(item: StoredItemRow): EngineInputs['item'] {
  const { title, grading_service: gradingService, grade, attributes } = item;
  return { identity: itemIdentity({ title, gradingService, grade, attributes }), gradingService, grade, attributes };
}

type Built = { valuations: ValuationRow[]; comps: ValuationCompRow[]; applied: Map<string, AppliedEstimate> };

/**
 * The valuations of the catalog's plans: for each run, the engine's estimate for the item from the sales, the guide
 * and the spot prices, as `valuate` would have made it that day (`now` is the run's moment); a run the engine finds
 * no basis for makes no valuation. A plan marked applied applies the newest: its `appliedAt` is its own moment, as
 * in `valuate --apply`, whose transaction writes both.
 */
export function buildValuations(
  context: BuildContext,
  itemsBySku: ReadonlyMap<string, StoredItemRow>,
  sources: { sales: readonly ComparableSaleRow[]; guide: readonly PriceGuideEntryRow[] },
): Built {
  const engineSources = sourcesOf(sources.sales, sources.guide);
  const built: Built = { valuations: [], comps: [], applied: new Map() };
  for (const plan of VALUATION_PLANS) {
    const item = required(itemsBySku, plan.sku, 'item');
    const newest = valueItem(context, item, plan.runsDaysAgo, engineSources, built);
    if (!plan.applied) continue;
    if (newest === null) throw new Error(`demo seed: ${plan.sku} is applied but nothing valued it`);
    newest.row.applied_at = newest.row.created_at;
    built.applied.set(item.id, { valueInCents: newest.estimateInCents, at: newest.row.created_at });
  }
  return built;
}

/** The item's valuations, one for each run the engine finds a basis for, added to `built`; the newest, or null. */
function valueItem(
  context: BuildContext,
  item: StoredItemRow,
  runsDaysAgo: readonly number[],
  { salesByIdentity, guide }: Sources,
  built: Built,
): { row: ValuationRow; estimateInCents: number } | null {
  const facts = factsOf(item);
  const entry = item.grade === null ? undefined : guide.get(guideKey(facts.identity, item.grade));
  let newest: { row: ValuationRow; estimateInCents: number } | null = null;
  for (const daysAgo of runsDaysAgo) {
    const at = addDays(context.now, -daysAgo);
    if (at <= item.created_at) throw new Error(`demo seed: ${item.sku} valued before it was added`);
    const known = entry !== undefined && entry.updated_at <= at ? entry.value_in_cents : null;
    const found = estimate({
      item: facts,
      sales: salesByIdentity.get(facts.identity) ?? [],
      priceGuideValueInCents: known,
      spotCentsPerOz: SPOT_CENTS_PER_OZ,
      now: at,
    });
    if (found === null) continue;
    const id = context.ids.uuid();
    const { organizationId } = context;
    const row: ValuationRow = {
      organization_id: organizationId,
      id,
      item_id: item.id,
      ...valuationColumns(found),
      applied_at: null,
      created_at: at,
    };
    built.valuations.push(row);
    newest = { row, estimateInCents: found.estimateInCents };
    found.comps.forEach((comp, position) => {
      built.comps.push({ id: context.ids.uuid(), ...compRow(organizationId, id, comp, position) });
    });
  }
  return newest;
}
