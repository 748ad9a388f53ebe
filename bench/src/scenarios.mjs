import { itemId } from './util.mjs';

/**
 * The scenarios: what the load generator sends, what the capture run sends once (with known values, so the SQL
 * it causes can be turned into a pgbench script), and which of those values vary from request to request.
 */

/**
 * What a scenario needs to know about the workspace it runs against.
 * @typedef {object} Target
 * @property {string} slug
 * @property {string} key
 * @property {number} items       items the workspace holds (item n is itemId(slug, n), 1 ≤ n ≤ items)
 * @property {number} listings    items with a marketplace listing: n = 50k + 7 for 0 ≤ k < listings
 * @property {string} [changesAfter]  a changes cursor taken before a batch of more than FEED_PAGE changes made
 *   through the API (run/feed-step.mjs), so every page after it is full; the `changes` scenario reads that page
 * @property {string[]} [itemIds]  the ids of items made through the API (run/inventory-step.mjs): the adjustment
 *   scenarios adjust the first (`adjust-hot`) or each in turn (`adjust-spread`)
 */

/**
 * @typedef {object} Request
 * @property {'GET' | 'POST' | 'PATCH' | 'DELETE'} method
 * @property {string} path        under the base URL's origin, e.g. /v1/items
 * @property {string} [body]
 */

/**
 * How a value the capture request used stands for a varying one in the pgbench script.
 * @typedef {object} Variation
 * @property {string} value        the exact parameter value in the captured SQL
 * @property {string} expression   SQL that replaces the parameter (may use pgbench variables)
 * @property {string[]} set        pgbench meta-commands that define those variables
 */

/**
 * @typedef {object} Scenario
 * @property {string} name
 * @property {string} label       as the table shows it
 * @property {'read' | 'write' | 'mixed'} kind
 * @property {(target: Target) => Request} next         a request under load (random where the scenario varies)
 * @property {(target: Target) => { request: Request, variations: Variation[] }} capture
 * @property {'GET' | 'POST' | 'PATCH'} method
 * @property {RegExp} pattern    the paths (with query) this scenario's requests have: how the HTTP floor routes
 */

/** @param {string} text */
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The substring a dealer types to find one date and mint of a coin. */
export const SEARCH_TEXT = '1881-S';
/** Deep page: page 2000 of 50, i.e. rows 99,951 to 100,000 of the workspace. */
export const DEEP_PAGE = { page: 2000, limit: 50 };
/** Changes per page of the `changes` scenario: the feed's largest page, which a consumer catching up asks for. */
export const FEED_PAGE = 100;

/** @param {number} max */
const randomInt = (max) => 1 + Math.floor(Math.random() * max);

/** An id for pgbench: the same derivation as itemId(), from the variable `n`. @param {string} slug */
const idExpression = (slug) => `md5('${slug}/' || :n)::uuid`;

/** A new graded coin, with a SKU no other request uses. @param {Target} target */
export const newItemBody = (target) => {
  const serial = `${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
  return JSON.stringify({
    sku: `BENCH-${serial}`,
    title: '1889-CC Morgan Dollar PCGS VF35',
    description: 'Key-date Carson City Morgan with even wear and original grey surfaces.',
    quantity: 1,
    valueInCents: 1_250_000,
    acquisitionPriceInCents: 980_000,
    acquisitionDate: '2025-03-14T16:20:00Z',
    acquiredFrom: 'Whitman Baltimore Expo',
    gradingService: 'PCGS',
    grade: 'VF35',
    certificateNumber: String(40_000_000 + Math.floor(Math.random() * 9_999_999)),
    attributes: {
      year: 1889,
      mint: 'Carson City',
      metal: 'silver',
      weightGrams: 26.73,
      fineness: 0.9,
      country: 'United States',
      toned: false,
      pedigree: null,
      workspace: target.slug,
    },
    locationDetails: 'Slab box 1, row 4',
  });
};

/** @type {Record<string, Scenario>} */
const byName = {};

/**
 * A GET of one fixed path.
 * @param {string} name
 * @param {string} label
 * @param {string} path
 * @returns {Scenario}
 */
function fixed(name, label, path) {
  const request = () => /** @type {Request} */ ({ method: 'GET', path });
  return {
    name,
    label,
    kind: 'read',
    next: request,
    capture: () => ({ request: request(), variations: [] }),
    method: 'GET',
    pattern: new RegExp(`^${escapeRegExp(path)}$`),
  };
}

/**
 * A GET of one random item's path.
 * @param {string} name
 * @param {string} label
 * @param {(id: string) => string} path
 * @param {'any' | 'valued'} which  any item, or one of the tenth that has valuations (n a multiple of 10)
 * @param {RegExp} pattern
 * @returns {Scenario}
 */
function perItem(name, label, path, which, pattern) {
  const pick = (/** @type {Target} */ target) =>
    which === 'valued' ? 10 * randomInt(Math.floor(target.items / 10)) : randomInt(target.items);
  const captureN = which === 'valued' ? 10 : 1;
  return {
    name,
    label,
    kind: 'read',
    next: (target) => ({ method: 'GET', path: path(itemId(target.slug, pick(target))) }),
    capture: (target) => ({
      request: { method: 'GET', path: path(itemId(target.slug, captureN)) },
      variations: [
        {
          value: itemId(target.slug, captureN),
          expression: idExpression(target.slug),
          set:
            which === 'valued'
              ? [`\\set v random(1, ${Math.floor(target.items / 10)})`, '\\set n 10 * :v']
              : [`\\set n random(1, ${target.items})`],
        },
      ],
    }),
    method: 'GET',
    pattern,
  };
}

/**
 * The changes feed's page after the target's fixed cursor: always the same FEED_PAGE changes, with their items'
 * JSON, as a consumer catching up reads them.
 * @returns {Scenario}
 */
function changesPage() {
  const request = (/** @type {Target} */ target) => {
    if (!target.changesAfter) throw new Error(`no changes cursor for ${target.slug}: the feed step has not run`);
    return /** @type {Request} */ ({
      method: 'GET',
      path: `/v1/changes?after=${encodeURIComponent(target.changesAfter)}&limit=${FEED_PAGE}`,
    });
  };
  return {
    name: 'changes',
    label: `GET /changes (${FEED_PAGE} per page)`,
    kind: 'read',
    next: request,
    capture: (target) => ({ request: request(target), variations: [] }),
    method: 'GET',
    pattern: new RegExp(`^/v1/changes\\?after=[A-Za-z0-9_%-]+&limit=${FEED_PAGE}$`),
  };
}

/** @type {Scenario[]} */
export const SCENARIOS = [
  fixed('me', 'GET /me', '/v1/me'),
  fixed('items', 'GET /items', '/v1/items'),
  fixed('items-q', `GET /items?q=${SEARCH_TEXT}`, `/v1/items?q=${encodeURIComponent(SEARCH_TEXT)}`),
  fixed(
    'items-status-value',
    'GET /items?status=in_stock&sort=value_desc',
    '/v1/items?status=in_stock&sort=value_desc',
  ),
  fixed(
    'items-deep',
    `GET /items?page=${DEEP_PAGE.page}&limit=${DEEP_PAGE.limit}`,
    `/v1/items?page=${DEEP_PAGE.page}&limit=${DEEP_PAGE.limit}`,
  ),
  perItem('item', 'GET /items/{id}', (id) => `/v1/items/${id}`, 'any', /^\/v1\/items\/[0-9a-f-]{36}$/),
  {
    name: 'item-create',
    label: 'POST /items',
    kind: 'write',
    next: (target) => ({ method: 'POST', path: '/v1/items', body: newItemBody(target) }),
    capture: (target) => {
      const request = /** @type {Request} */ ({ method: 'POST', path: '/v1/items', body: newItemBody(target) });
      const sku = /** @type {{ sku: string }} */ (JSON.parse(request.body ?? '{}')).sku;
      // Every insert needs a new SKU (the unique index decides): pgbench makes one per transaction.
      return { request, variations: [{ value: sku, expression: `'BENCH-PG-' || gen_random_uuid()`, set: [] }] };
    },
    method: 'POST',
    pattern: /^\/v1\/items$/,
  },
  {
    name: 'item-patch',
    label: 'PATCH /items/{id} quantity',
    kind: 'write',
    next: (target) => ({
      method: 'PATCH',
      path: `/v1/items/${itemId(target.slug, 50 * (randomInt(target.listings) - 1) + 7)}`,
      body: JSON.stringify({ quantity: randomInt(1_000_000) }),
    }),
    capture: (target) => ({
      // A quantity no other parameter of these statements can equal, so it is recognised in the capture.
      request: {
        method: 'PATCH',
        path: `/v1/items/${itemId(target.slug, 7)}`,
        body: JSON.stringify({ quantity: 987_654 }),
      },
      variations: [
        {
          value: itemId(target.slug, 7),
          expression: idExpression(target.slug),
          set: [`\\set k random(0, ${target.listings - 1})`, '\\set n 50 * :k + 7'],
        },
        { value: '987654', expression: ':quantity', set: ['\\set quantity random(1, 1000000)'] },
      ],
    }),
    method: 'PATCH',
    pattern: /^\/v1\/items\/[0-9a-f-]{36}$/,
  },
  perItem(
    'item-valuations',
    'GET /items/{id}/valuations',
    (id) => `/v1/items/${id}/valuations`,
    'valued',
    /^\/v1\/items\/[0-9a-f-]{36}\/valuations$/,
  ),
  fixed('consignments', 'GET /consignments', '/v1/consignments'),
  fixed('invoices', 'GET /invoices', '/v1/invoices'),
  changesPage(),
];
for (const scenario of SCENARIOS) byName[scenario.name] = scenario;

/** One sale, as a shop counter or a website's checkout sends it: one unit from available to sold. */
export const SALE = JSON.stringify({ available: -1, sold: 1, reason: 'sale' });

/**
 * The adjustment scenarios (run/inventory-step.mjs), against items made through the API with stock enough for every
 * sale of the run, so none is refused: every request on one item (its row lock the limit), or each request on the
 * next item in turn (as many items as the target has ids, so concurrent requests never share one). Not in SCENARIOS:
 * no floors are measured for them.
 * @param {'adjust-hot' | 'adjust-spread'} name
 * @returns {Scenario}
 */
function adjustment(name) {
  let turn = 0;
  /** @param {Target} target */
  const pick = (target) => {
    const ids = target.itemIds ?? [];
    if (ids.length === 0) throw new Error(`no items for ${name}: the inventory step makes them`);
    return /** @type {string} */ (name === 'adjust-hot' ? ids[0] : ids[turn++ % ids.length]);
  };
  /** @param {Target} target @returns {Request} */
  const request = (target) => ({ method: 'POST', path: `/v1/items/${pick(target)}/adjustments`, body: SALE });
  return {
    name,
    label:
      name === 'adjust-hot'
        ? 'POST /items/{id}/adjustments, one item'
        : 'POST /items/{id}/adjustments, each request another item',
    kind: 'write',
    next: request,
    capture: (target) => ({ request: request(target), variations: [] }),
    method: 'POST',
    pattern: /^\/v1\/items\/[0-9a-f-]{36}\/adjustments$/,
  };
}

/** @type {Record<string, Scenario>} */
const INVENTORY_SCENARIOS = { 'adjust-hot': adjustment('adjust-hot'), 'adjust-spread': adjustment('adjust-spread') };
/** The names of the inventory step's scenarios, which have no capture (so no profile and no baseline). */
export const INVENTORY_SCENARIO_NAMES = Object.keys(INVENTORY_SCENARIOS);

/**
 * The mixed load: 80% reads, 20% writes, in the proportions an inventory sync and a sale floor produce.
 * @type {ReadonlyArray<readonly [string, number]>}
 */
export const MIX = [
  ['item', 30],
  ['items', 20],
  ['items-q', 10],
  ['items-status-value', 10],
  ['item-valuations', 5],
  ['consignments', 3],
  ['invoices', 2],
  ['item-patch', 15],
  ['item-create', 5],
];

/**
 * The many-keys mix: what each of many integrations (a store, a point of sale, an accounting sync) sends with its
 * own key to its own workspace; the PATCH sets the quantity of any item, most of which have no listing.
 * @type {ReadonlyArray<readonly [string, number]>}
 */
export const MANY_KEYS_MIX = [
  ['item', 60],
  ['items', 20],
  ['me', 10],
  ['item-patch-any', 10],
];

/**
 * A scenario by name: the main ones, `mixed`, `many-keys`, `items-page-<n>`, `adjust-hot` or `adjust-spread`.
 * @param {string} name
 * @returns {Scenario}
 */
export function scenario(name) {
  if (name === 'mixed') return MIXED;
  if (name === 'many-keys') return MANY_KEYS;
  const page = /^items-page-(\d+)$/.exec(name);
  if (page) return pageScenario(Number(page[1]));
  const found = byName[name] ?? INVENTORY_SCENARIOS[name];
  if (!found) {
    const known = [...Object.keys(byName), 'mixed', 'many-keys', 'items-page-<n>', ...Object.keys(INVENTORY_SCENARIOS)];
    throw new Error(`unknown scenario "${name}": one of ${known.join(', ')}`);
  }
  return found;
}

/** The mixed scenario: a weighted pick of the others for every request. @type {Scenario} */
export const MIXED = {
  name: 'mixed',
  label: 'Mixed 80% read / 20% write',
  kind: 'mixed',
  next: (target) => {
    let r = Math.random() * 100;
    for (const [name, weight] of MIX) {
      r -= weight;
      if (r < 0) return scenario(name).next(target);
    }
    return scenario('item').next(target);
  },
  capture: () => {
    throw new Error('the mixed scenario is captured through its parts');
  },
  method: 'GET',
  pattern: /^$/,
};

/**
 * The many-keys scenario: a weighted pick of MANY_KEYS_MIX for every request, against the workspace of the key it is
 * sent with (load.mjs and open-loop.mjs spread requests over many workspaces and keys).
 * @type {Scenario}
 */
export const MANY_KEYS = {
  name: 'many-keys',
  label: 'Many keys: 60% item, 20% list, 10% /me, 10% PATCH quantity',
  kind: 'mixed',
  next: (target) => {
    let r = Math.random() * 100;
    for (const [name, weight] of MANY_KEYS_MIX) {
      r -= weight;
      if (r >= 0) continue;
      if (name !== 'item-patch-any') return scenario(name).next(target);
      const { path } = scenario('item').next(target);
      return { method: 'PATCH', path, body: JSON.stringify({ quantity: randomInt(1_000) }) };
    }
    return scenario('item').next(target);
  },
  capture: () => {
    throw new Error('the many-keys scenario is captured through its parts');
  },
  method: 'GET',
  pattern: /^$/,
};

/**
 * Page `page` of 50 items, newest first: the deep-page series shows how a page's cost grows with its number.
 * @param {number} page
 */
export function pageScenario(page) {
  return fixed(`items-page-${page}`, `GET /items?page=${page}&limit=50`, `/v1/items?page=${page}&limit=50`);
}

/** @returns {Scenario[]} every scenario, mixed last */
export const allScenarios = () => [...SCENARIOS, MIXED];
