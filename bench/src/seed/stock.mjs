import { itemId, log } from '../util.mjs';
import { COMP_COLUMNS, coinRows, IMAGE_COLUMNS, ITEM_COLUMNS, VALUATION_COLUMNS } from './coin.mjs';
import { DAY_MS } from './context.mjs';
import { CopyWriter } from './copy.mjs';

/**
 * The big tables (items, their photos, valuations and comparable sales), one `COPY … FREEZE` each, written side by
 * side. Items of all workspaces are interleaved in time order, as a real multi-tenant table fills up, so one
 * workspace's rows are spread over the heap rather than packed together.
 */

/**
 * What the sales step needs of the stock: per workspace that sells, its sold items and the items to list.
 * @typedef {object} Stock
 * @property {Map<string, Array<{ id: string, value: number }>>} soldByOrg
 * @property {Map<string, string[]>} listedByOrg
 */

/**
 * @param {import('./context.mjs').SeedContext} context
 * @param {import('./context.mjs').SeedOrg[]} orgs
 * @param {Map<string, import('./context.mjs').Place>} places
 * @returns {Promise<Stock>}
 */
export async function seedStock({ sql, random, now, rows }, orgs, places) {
  const items = new CopyWriter(sql, 'items', ITEM_COLUMNS, { freeze: true });
  const images = new CopyWriter(sql, 'item_images', IMAGE_COLUMNS, { freeze: true });
  const valuations = new CopyWriter(sql, 'valuations', VALUATION_COLUMNS, { freeze: true });
  const comps = new CopyWriter(sql, 'valuation_comps', COMP_COLUMNS, { freeze: true });
  await Promise.all([items.open(), images.open(), valuations.open(), comps.open()]);
  const cpuBefore = process.cpuUsage();

  /** @type {Stock} */
  const stock = { soldByOrg: new Map(), listedByOrg: new Map() };
  const remaining = orgs.map((o) => o.items);
  const counters = orgs.map(() => 0);
  let left = remaining.reduce((a, b) => a + b, 0);
  const total = left;
  // Five years of stock intake, oldest first; the last item arrives an hour before now.
  const start = now - 5 * 365 * DAY_MS;
  const span = now - start - 3_600_000;
  for (let row = 0; left > 0; row++, left--) {
    // The next item belongs to an organization chosen in proportion to what it still has to add.
    let r = Math.floor(random.next() * left);
    let o = 0;
    while (r >= (remaining[o] ?? 0)) {
      r -= remaining[o] ?? 0;
      o++;
    }
    const org = /** @type {import('./context.mjs').SeedOrg} */ (orgs[o]);
    remaining[o] = (remaining[o] ?? 0) - 1;
    const n = (counters[o] ?? 0) + 1;
    counters[o] = n;
    const place = /** @type {import('./context.mjs').Place} */ (places.get(org.slug));
    const id = itemId(org.slug, n);
    const createdMs = start + Math.floor((row / total) * span) + random.int(0, 60_000);

    const coin = coinRows(random, { slug: org.slug, place, id, n, createdMs, now });
    const wait = items.push(coin.item);
    if (wait) await wait;
    await images.pushAll(coin.images);
    await valuations.pushAll(coin.valuations);
    await comps.pushAll(coin.comps);

    if (org.sales) {
      if (coin.status === 'sold') {
        const list = stock.soldByOrg.get(org.slug) ?? [];
        stock.soldByOrg.set(org.slug, list);
        list.push({ id, value: coin.value });
      }
      const listed = stock.listedByOrg.get(org.slug) ?? [];
      stock.listedByOrg.set(org.slug, listed);
      if (n % 50 === 7 && listed.length < org.sales.listings) listed.push(id);
    }
  }
  await Promise.all([items.close(), images.close(), valuations.close(), comps.close()]);
  rows.items = items.rows;
  rows.item_images = images.rows;
  rows.valuations = valuations.rows;
  rows.valuation_comps = comps.rows;
  if (process.env.BENCH_DEBUG) log(`generator CPU: ${JSON.stringify(process.cpuUsage(cpuBefore))}`);
  return stock;
}
