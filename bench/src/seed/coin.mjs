import { randomUUID } from 'node:crypto';
import { ITEMS } from '@coinventory/server/demo-data';
import {
  ACQUIRED_FROM,
  ANCIENT_GRADES,
  BULLION_GRADES,
  CATEGORY_NAMES,
  CLASSIC_GRADES,
  COIN_TYPE_WEIGHTS,
  COMP_SOURCES,
  DESCRIPTIONS,
  GRADING_NOTES,
  GRADING_SERVICES,
  LOCATION_DETAILS,
  MINT_NAMES,
  PEDIGREES,
  VALUATION_SUMMARIES,
} from '../data.mjs';
import { DAY_MS, iso } from './context.mjs';
import { t } from './copy.mjs';

/**
 * One coin of a workspace's stock as COPY lines: its items row, its 0–3 photos and, for a tenth of the coins, one
 * or two valuations with the comparable sales each cites. Draws from the generator in a fixed order, so the same
 * sequence gives the same coins.
 */

/** @typedef {import('@coinventory/server/demo-data').Random} Random */
/** @typedef {keyof import('@coinventory/server/demo-data').StoredItemRow} ItemColumn */
/** @typedef {import('../data.mjs').CoinType} CoinType */

/** The items table's stored columns in the server's own declaration order: the COPY's column list. */
export const ITEM_COLUMNS = ITEMS.stored;

/** The columns of the other lines, in the order each line lists its fields. */
export const IMAGE_COLUMNS = ['organization_id', 'id', 'item_id', 'position', 'url', 'width', 'height'];
export const VALUATION_COLUMNS = [
  'organization_id',
  'id',
  'item_id',
  'estimate_low_in_cents',
  'estimate_in_cents',
  'estimate_high_in_cents',
  'confidence_percent',
  'basis',
  'price_guide_value_in_cents',
  'melt_value_in_cents',
  'summary',
  'applied_at',
  'created_at',
];
export const COMP_COLUMNS = [
  'organization_id',
  'id',
  'valuation_id',
  'position',
  'source',
  'title',
  'grade',
  'grading_service',
  'price_in_cents',
  'sold_at',
  'venue',
  'url',
];

/** Melt prices: cents per gram of fine metal. */
const SILVER_CENTS_PER_GRAM = 95;
const GOLD_CENTS_PER_GRAM = 8_400;

/**
 * The grade's letters: MS for mint state, AU, XF (EF at some graders), VF, F, VG, G.
 * @param {number} sheldon
 */
function gradePrefix(sheldon) {
  if (sheldon >= 60) return 'MS';
  if (sheldon >= 50) return 'AU';
  if (sheldon >= 40) return 'XF';
  if (sheldon >= 20) return 'VF';
  if (sheldon >= 12) return 'F';
  if (sheldon >= 8) return 'VG';
  return 'G';
}

/**
 * A Sheldon number and the grade as the service prints it (a raw coin's is the dealer's, or none).
 * @param {Random} random
 * @param {CoinType} type
 * @param {string | null} service
 * @returns {{ sheldon: number, grade: string | null }}
 */
function gradeOf(random, type, service) {
  if (type.years === null) {
    const sheldon = random.int(20, 62);
    return { sheldon, grade: service === null ? null : random.pick(ANCIENT_GRADES) };
  }
  const sheldon = random.weighted(type.bullion ? BULLION_GRADES : CLASSIC_GRADES);
  const proof = type.bullion && random.chance(0.2);
  const plus = service !== null && sheldon >= 62 && sheldon <= 67 && random.chance(0.08) ? '+' : '';
  const designation = proof
    ? random.pick([' DCAM', ' UCAM', ' Deep Cameo'])
    : type.copper
      ? random.pick([' RD', ' RB', ' BN'])
      : type.code === 'MOR' && sheldon >= 60 && random.chance(0.08)
        ? random.pick([' PL', ' DMPL'])
        : '';
  const letters = proof ? (service === 'PCGS' ? 'PR' : 'PF') : gradePrefix(sheldon);
  const grade =
    service === null
      ? random.chance(0.6)
        ? gradePrefix(sheldon) // a dealer's own grade on a raw coin
        : null
      : `${letters}${sheldon}${plus}${designation}`;
  return { sheldon, grade };
}

/**
 * A certificate number in the service's format; raw coins have none.
 * @param {Random} random
 * @param {string | null} service
 */
function certificateOf(random, service) {
  return service === 'PCGS' || service === 'CACG'
    ? String(random.int(10_000_000, 99_999_999))
    : service === 'NGC'
      ? `${random.int(1_000_000, 9_999_999)}-${String(random.int(1, 999)).padStart(3, '0')}`
      : service === 'ANACS'
        ? String(random.int(1_000_000, 9_999_999))
        : service === 'ICG'
          ? String(random.int(1_000_000_000, 9_999_999_999))
          : null;
}

/**
 * @typedef {object} CoinInput
 * @property {string} slug
 * @property {import('./context.mjs').Place} place
 * @property {string} id         the item's id (itemId(slug, n))
 * @property {number} n          the item's number within its workspace, from 1
 * @property {number} createdMs
 * @property {number} now
 */

/**
 * @typedef {object} CoinRows
 * @property {string} item
 * @property {string[]} images
 * @property {string[]} valuations
 * @property {string[]} comps
 * @property {'in_stock' | 'sold' | 'out_of_stock' | 'at_auction'} status
 * @property {number} value
 */

/**
 * @param {Random} random
 * @param {CoinInput} input
 * @returns {CoinRows}
 */
export function coinRows(random, { slug, place, id, n, createdMs, now }) {
  const type = random.weighted(COIN_TYPE_WEIGHTS);
  const service = random.weighted(GRADING_SERVICES);
  const mint = random.pick(type.mints);
  const year = type.years ? random.int(type.years[0], type.years[1]) : null;
  const dateLabel = year === null ? '' : `${year}${mint ? `-${mint}` : ''} `;
  const { sheldon, grade } = gradeOf(random, type, service);
  const title = `${dateLabel}${type.name}${service === null ? ' (raw)' : ` ${service}`}${grade ? ` ${grade}` : ''}`;
  const gradeFactor = type.bullion ? 1 + (sheldon - 69) * 0.15 : 1.12 ** (sheldon - 30);
  const keyDate = random.chance(0.06) ? random.int(5, 40) : 1;
  const value = Math.max(
    100,
    Math.round((type.baseCents * gradeFactor * keyDate * random.logNormal(0.35)) / 100) * 100,
  );
  const cert = certificateOf(random, service);
  const status = random.weighted(
    /** @type {const} */ ([
      ['in_stock', 70],
      ['sold', 18],
      ['out_of_stock', 4],
      ['at_auction', 8],
    ]),
  );
  const stockUnits = type.bullion ? random.int(1, 40) : 1;
  const available = status === 'in_stock' || status === 'at_auction' ? stockUnits : 0;
  const sold = status === 'sold' ? (type.bullion ? random.int(1, 60) : 1) : type.bullion ? random.int(0, 20) : 0;
  const reserved = available > 0 && random.chance(0.03) ? 1 : 0;
  const consignmentId =
    place.consignments.length > 0 && n % 8 === 3
      ? place.consignments[Math.floor(n / 8) % place.consignments.length]
      : null;
  const acquiredMs = createdMs - random.int(0, 30) * DAY_MS;
  const costKnown = consignmentId === null && random.chance(0.88);
  const attributes = {
    year,
    mint: type.years === null ? null : (MINT_NAMES[mint] ?? null),
    metal: type.metal,
    weightGrams: type.grams,
    fineness: type.fineness,
    country: type.country,
    denomination: type.name.includes('Dollar') ? '$1' : null,
    toned: random.chance(0.15),
    pedigree: random.chance(0.03) ? `${random.pick(PEDIGREES)} Collection` : null,
    ...(random.chance(0.1) ? { cac: true } : {}),
    ...(type.years === null ? { era: type.era ?? null } : {}),
  };
  const zone = random.weighted([
    [0, 10],
    [1, 60],
    [2, 30],
  ]);
  const sku = `${type.code}-${year ?? 'ANC'}${mint}-${sheldon}-${n.toString(36).toUpperCase()}`;
  const updatedMs = random.chance(0.3) ? Math.min(now - 60_000, createdMs + random.int(1, 400) * DAY_MS) : null;
  const categoryIndex = random.chance(0.9) ? CATEGORY_NAMES.indexOf(type.category) : -1;

  // Fields in COPY text form, drawn in this order; the line takes them in the declaration's column order.
  /** @type {Record<ItemColumn, string | number | undefined>} */
  const row = {
    organization_id: place.id,
    id,
    sku,
    title: t(title),
    description: random.chance(0.7) ? t(random.pick(DESCRIPTIONS)) : '\\N',
    category_id: categoryIndex < 0 ? '\\N' : place.categories[categoryIndex],
    quantity_available: available,
    quantity_sold: sold,
    quantity_reserved: reserved,
    value_in_cents: value,
    acquisition_price_in_cents: costKnown ? Math.round(value * (0.55 + random.next() * 0.35)) : '\\N',
    acquisition_date: costKnown ? iso(acquiredMs) : '\\N',
    acquired_from: costKnown ? t(random.pick(ACQUIRED_FROM)) : '\\N',
    acquisition_notes: random.chance(0.1) ? 'Bought as part of a larger lot.' : '\\N',
    grading_service: t(service),
    grade: t(grade),
    certificate_number: t(cert),
    grading_notes: random.chance(0.08) ? t(random.pick(GRADING_NOTES)) : '\\N',
    attributes: t(JSON.stringify(attributes)),
    warehouse_id: place.warehouseId,
    zone_id: place.zones[zone],
    location_details: random.chance(0.5) ? t(random.pick(LOCATION_DETAILS)) : '\\N',
    consignment_id: consignmentId ?? '\\N',
    is_at_auction: status === 'at_auction' ? 't' : 'f',
    created_at: iso(createdMs),
    updated_at: updatedMs === null ? '\\N' : iso(updatedMs),
  };
  const item = ITEM_COLUMNS.map((column) => row[column]).join('\t');

  // 0–3 photos: obverse, reverse, then the holder's label.
  /** @type {string[]} */
  const images = [];
  const photos = random.int(0, 3);
  for (let p = 1; p <= photos; p++) {
    const sized = random.chance(0.9);
    const width = p === 3 ? 2000 : 1600;
    const height = p === 3 ? 1000 : 1600;
    images.push(
      `${place.id}\t${randomUUID()}\t${id}\t${p}\thttps://img.coinventory.example/${slug}/${id}/${p}.jpg\t${sized ? width : '\\N'}\t${sized ? height : '\\N'}`,
    );
  }

  // A tenth of the items have been valued, once or twice, each valuation with the sales it compared.
  const valued =
    n % 10 === 0
      ? valuationRows(random, { place, id, createdMs, now, type, value, title, grade, service })
      : { valuations: [], comps: [] };
  return { item, images, ...valued, status, value };
}

/**
 * @param {Random} random
 * @param {{ place: import('./context.mjs').Place, id: string, createdMs: number, now: number, type: CoinType,
 *   value: number, title: string, grade: string | null, service: string | null }} coin
 * @returns {{ valuations: string[], comps: string[] }}
 */
function valuationRows(random, { place, id, createdMs, now, type, value, title, grade, service }) {
  /** @type {string[]} */
  const valuations = [];
  /** @type {string[]} */
  const comps = [];
  const count = random.int(1, 2);
  for (let v = 0; v < count; v++) {
    const valuationId = randomUUID();
    const createdValuationMs = Math.min(now - 120_000, createdMs + random.int(1, 300) * DAY_MS + v * DAY_MS);
    const estimate = Math.round((value * (0.85 + random.next() * 0.3)) / 100) * 100;
    const basis = type.bullion
      ? random.weighted([
          ['melt', 5],
          ['comps', 4],
          ['price_guide', 1],
        ])
      : random.weighted([
          ['comps', 8],
          ['price_guide', 1],
          ['model_knowledge', 1],
        ]);
    const meltPerGram =
      type.metal === 'gold' ? GOLD_CENTS_PER_GRAM : type.metal === 'silver' ? SILVER_CENTS_PER_GRAM : 0;
    const melt =
      type.grams !== null && type.fineness !== null && meltPerGram > 0
        ? Math.round(type.grams * type.fineness * meltPerGram)
        : null;
    valuations.push(
      [
        place.id,
        valuationId,
        id,
        Math.round((estimate * 0.85) / 100) * 100,
        estimate,
        Math.round((estimate * 1.15) / 100) * 100,
        random.int(55, 95),
        basis,
        random.chance(0.6) ? Math.round((value * (0.9 + random.next() * 0.2)) / 100) * 100 : '\\N',
        melt ?? '\\N',
        t(random.pick(VALUATION_SUMMARIES)),
        v === count - 1 && random.chance(0.5) ? iso(createdValuationMs + 3_600_000) : '\\N',
        iso(createdValuationMs),
      ].join('\t'),
    );
    const compCount = random.int(3, 5);
    for (let c = 1; c <= compCount; c++) {
      const [source, sourceSlug, venue] = random.pick(COMP_SOURCES);
      const soldAt = new Date(createdValuationMs - random.int(5, 700) * DAY_MS).toISOString().slice(0, 10);
      comps.push(
        [
          place.id,
          randomUUID(),
          valuationId,
          c,
          t(source),
          t(title),
          t(grade),
          t(service),
          Math.round((value * (0.7 + random.next() * 0.6)) / 100) * 100,
          soldAt,
          t(venue),
          `https://comps.coinventory.example/${sourceSlug}/${random.int(100_000, 9_999_999)}`,
        ].join('\t'),
      );
    }
  }
  return { valuations, comps };
}
