import { SOLD_INVOICE_STATUSES, WEBHOOKS } from '@coinventory/contract';
import { DEEP_PAGE, FEED_PAGE, newItemBody, SEARCH_TEXT } from './scenarios.mjs';

/**
 * The resource floor: the least PostgreSQL must be asked to answer a scenario's request with the same response
 * content (the same rows, the columns the response shows, in the same order and page size), written by hand as the
 * fewest statements that do it. No authentication, no API key lookup, no rate-limit counting, no idempotency: only
 * the endpoint's own data. The database floor (pgbench.mjs) replays the SQL the server actually sends; the gap
 * between the two is what authentication, counting and the server's SQL shape cost.
 *
 * What each scenario's script asks (one statement each; a write is one statement, so one transaction):
 * - me: the key's row and its organization's, by primary key (the response shows both; the rate limit is config).
 * - items, items-status-value, items-page-1: the page's items (limit + 1 rows, for hasMore) in the sort's index
 *   order, each with its category's name and its images aggregated in order.
 * - items-q: the same, narrowed by the trigram-indexed search_text, then each searched field on its own.
 * - items-deep, items-page-<n> (n > 1): the page's keys by OFFSET over the sort's index alone, then only those
 *   rows in full (a deferred join), with category name and images.
 * - item: one item by primary key, with its category's name and images.
 * - item-valuations: the item's key (a 404 needs it) and its newest 10 valuations with their comps aggregated in
 *   order, in one statement (a row with no valuation: the item exists and has none).
 * - consignments: a page of consignments with the consignor's name and email, and per consignment one pass over
 *   its items for the count, the sold count, the value, and the sold invoice lines' total (the server reads the
 *   items twice); commission and payout are arithmetic on those and left to the application.
 * - invoices: a page of invoices with their lines and payments aggregated in order; subtotal, total, paid and due
 *   are sums over those arrays and left to the application.
 * - changes: the workspace's feed row (its bounds, to refuse an expired or impossible cursor) and the 101 changes
 *   after the cursor's position (100 and one more for hasMore), in position order.
 * - item-create: one statement: the default warehouse's first zone, the item's insert, the next feed position
 *   (the feed row's lock, taken last), the change row with the item's JSON as the API shows it, and a webhook
 *   delivery per subscribed endpoint; it returns the item. A new item has no images and (this body naming none) no
 *   category, so neither is read.
 * - item-patch: one statement: the item's row locked (its quantity before), the update, for a changed quantity
 *   each active listing's next sync sequence and its sync job, then the feed position, the change row with the
 *   item's JSON, and the webhook deliveries, in the server's lock order (item, listings, feed); it returns the item
 *   with its category's name and images.
 *
 * Writes record what the product's contract makes durable with the write: the change-feed row (a consumer of the
 * feed must see every committed change, in commit order, with the item as written) and the outboxes the server's
 * design writes in the same transaction (marketplace sync jobs for a listed item's new quantity; webhook
 * deliveries, none while the workspace has no endpoint). Not included: the Idempotency-Key answer (the benchmark
 * sends none) and the key's last_used_at touch.
 *
 * Values the request carries (ids, the search text, the cursor's position, the body's fields, the workspace) are
 * pgbench variables, set with -D (`defines`) or per transaction with \set exactly as the captured scripts vary
 * them (scenarios.mjs); what the route fixes (page size, offset, sort, the status asked for) is written into the
 * SQL. Run with `-M prepared`: the variables are then parameters, never spliced into the text. Timestamps the
 * database writes into JSON are formatted as the API shows them (to_char to milliseconds, UTC, with a Z); the
 * format's colons are written \x3A so pgbench does not read `:MI` as a variable.
 */

/**
 * What a resource script needs beyond the target.
 * @typedef {object} ResourceContext
 * @property {string} organizationId  the target workspace's organization
 * @property {string} [keyId]          the id of the key the load calls with: GET /me shows that key
 */

/** A timestamptz as the API shows it (Date#toISOString: UTC, milliseconds, Z). @param {string} expr */
const iso = (expr) => `to_char(${expr} AT TIME ZONE 'UTC', E'YYYY-MM-DD"T"HH24\\x3AMI\\x3ASS.MS"Z"')`;

/** A list of the contract's own constants (plain words) as SQL literals. @param {readonly string[]} words */
const literals = (words) => words.map((word) => `'${word}'`).join(', ');

/** The invoice statuses whose lines count as sold in consignment totals. */
const SOLD = `(${literals(SOLD_INVOICE_STATUSES)})`;

/** An item's images as the API shows them, in order. @param {string} i the items row's alias */
const imagesOf = (i) => `coalesce((
    SELECT json_agg(json_build_object('url', im.url, 'width', im.width, 'height', im.height) ORDER BY im.position)
    FROM item_images im
    WHERE im.organization_id = ${i}.organization_id AND im.item_id = ${i}.id
  ), '[]'::json)`;

/**
 * The columns an item's JSON is made of: its stored fields, its category's name (`c`, LEFT JOINed categories) and
 * its images.
 */
const ITEM_COLUMNS = `i.id, i.sku, i.title, i.description, i.category_id, c.name AS category_name,
  i.quantity_available, i.quantity_sold, i.quantity_reserved, i.value_in_cents,
  i.acquisition_price_in_cents, i.acquisition_date, i.acquired_from, i.acquisition_notes,
  i.grading_service, i.grade, i.certificate_number, i.grading_notes, i.attributes,
  i.warehouse_id, i.zone_id, i.location_details, i.consignment_id, i.is_at_auction,
  ${imagesOf('i')} AS images, i.created_at, i.updated_at`;

/** The categories row an item shows. */
const CATEGORY_JOIN = 'LEFT JOIN categories c ON c.organization_id = i.organization_id AND c.id = i.category_id';

/** Column list of a row that already has every item column, its category's name and images (a write's result). */
const SHOWN_COLUMNS = `id, sku, title, description, category_id, category_name,
  quantity_available, quantity_sold, quantity_reserved, value_in_cents,
  acquisition_price_in_cents, acquisition_date, acquired_from, acquisition_notes,
  grading_service, grade, certificate_number, grading_notes, attributes,
  warehouse_id, zone_id, location_details, consignment_id, is_at_auction, images, created_at, updated_at`;

/**
 * The item's JSON exactly as the API shows it (field order included), for the change row: built from a row `r`
 * holding the item's columns.
 * @param {string} r
 * @param {{ category: string | null, images: string }} shown  SQL for the category's name (null: the item has no
 *   category) and for its images
 */
const itemJson = (r, { category, images }) => `json_build_object(
    'id', ${r}.id, 'sku', ${r}.sku, 'title', ${r}.title, 'description', ${r}.description,
    'category', ${
      category === null
        ? 'NULL::json'
        : `CASE WHEN ${r}.category_id IS NULL THEN NULL
      ELSE json_build_object('id', ${r}.category_id, 'name', coalesce(${category}, '')) END`
    },
    'quantity', json_build_object(
      'available', ${r}.quantity_available, 'sold', ${r}.quantity_sold, 'reserved', ${r}.quantity_reserved),
    'valueInCents', ${r}.value_in_cents,
    'acquisition', json_build_object('priceInCents', ${r}.acquisition_price_in_cents,
      'date', ${iso(`${r}.acquisition_date`)}, 'from', ${r}.acquired_from, 'notes', ${r}.acquisition_notes),
    'grading', json_build_object('service', ${r}.grading_service, 'grade', ${r}.grade,
      'certificateNumber', ${r}.certificate_number, 'notes', ${r}.grading_notes),
    'attributes', ${r}.attributes,
    'location', json_build_object(
      'warehouseId', ${r}.warehouse_id, 'zoneId', ${r}.zone_id, 'details', ${r}.location_details),
    'consignmentId', ${r}.consignment_id, 'isAtAuction', ${r}.is_at_auction,
    'images', ${images},
    'createdAt', ${iso(`${r}.created_at`)}, 'updatedAt', ${iso(`${r}.updated_at`)})`;

/**
 * The tail of every item write: the workspace's next feed position (the feed row's lock, taken last and held to the
 * commit, so positions follow commit order), the change row, and a webhook delivery per enabled endpoint that
 * subscribes to the change's type. `gate` holds the feed insert until the CTEs it names have run.
 * @param {{ type: 'item.created' | 'item.updated', from: string, data: string, gate?: string }} change
 *   `from`: the CTE holding the written item (organization_id, id); `data`: SQL for its JSON over `from`'s row
 */
const recordChange = ({ type, from, data, gate }) => `feed AS (
  INSERT INTO change_feeds AS f (organization_id, last_position)
  SELECT organization_id, 1 FROM ${from}${gate ? `\n  WHERE ${gate}` : ''}
  ON CONFLICT (organization_id) DO UPDATE SET last_position = f.last_position + 1
  RETURNING organization_id, last_position
), recorded AS (
  INSERT INTO changes (organization_id, position, id, type, object_id, occurred_at, data)
  SELECT feed.organization_id, feed.last_position, gen_random_uuid(), '${type}', ${from}.id, now(), ${data}
  FROM ${from}, feed
  RETURNING organization_id, position
), queued AS (
  INSERT INTO webhook_deliveries (organization_id, endpoint_id, change_position)
  SELECT e.organization_id, e.id, recorded.position
  FROM recorded JOIN webhook_endpoints e ON e.organization_id = recorded.organization_id
  WHERE e.enabled AND e.events && ARRAY[${literals([type, WEBHOOKS.allEvents])}]::text[]
)`;

/** An item's id from the variable `n`: itemId() (util.mjs) in SQL, the workspace's slug a variable. */
const ITEM_ID = "md5(:rf_slug || '/' || :n)::uuid";

/**
 * A page of items.
 * @param {{ where?: string, order: string, limit: number, offset: number }} page
 *   `where`: more conditions (ANDed); `order`: the ORDER BY list over `i`, ending on a unique key
 */
function itemsPage({ where = '', order, limit, offset }) {
  const filters = `WHERE i.organization_id = :rf_org${where ? `\n  ${where}` : ''}`;
  if (offset === 0) {
    return `SELECT ${ITEM_COLUMNS}
FROM items i
${CATEGORY_JOIN}
${filters}
ORDER BY ${order}
LIMIT ${limit + 1};`;
  }
  // The page's keys from the sort's index alone (OFFSET walks only the index), then those rows in full.
  return `SELECT ${ITEM_COLUMNS}
FROM (
  SELECT i.organization_id, i.id
  FROM items i
  ${filters}
  ORDER BY ${order}
  LIMIT ${limit + 1} OFFSET ${offset}
) page
JOIN items i ON i.organization_id = page.organization_id AND i.id = page.id
${CATEGORY_JOIN}
ORDER BY ${order};`;
}

const NEWEST = 'i.created_at DESC, i.id DESC';

/** `%text%` matching `text` literally and case-insensitively (the server's containsPattern, lower-cased). @param {string} text */
const containsPattern = (text) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`.toLowerCase();

/**
 * The position a changes cursor stands for (the server's cursor format, changes/cursor.ts), checked to be the
 * workspace's.
 * @param {string} cursor
 * @param {string} organizationId
 */
function cursorPosition(cursor, organizationId) {
  const text = Buffer.from(cursor, 'base64url').toString('latin1');
  const match = /^chg1\.([0-9a-f]{32})\.(0|[1-9][0-9]{0,15})\.[A-Za-z0-9_-]{8}$/.exec(text);
  if (!match?.[2]) throw new Error(`not a changes cursor: ${cursor}`);
  if (match[1] !== organizationId.replaceAll('-', '').toLowerCase()) {
    throw new Error(`the changes cursor ${cursor} is not the workspace ${organizationId}'s`);
  }
  return match[2];
}

/**
 * The body fields of a new item and the columns they write (the server's ITEMS declaration), with the type each
 * parameter is read as.
 * @type {Record<string, [column: string, type: string]>}
 */
const BODY_COLUMNS = {
  sku: ['sku', 'text'],
  title: ['title', 'text'],
  description: ['description', 'text'],
  quantity: ['quantity_available', 'int'],
  valueInCents: ['value_in_cents', 'bigint'],
  acquisitionPriceInCents: ['acquisition_price_in_cents', 'bigint'],
  acquisitionDate: ['acquisition_date', 'timestamptz'],
  acquiredFrom: ['acquired_from', 'text'],
  acquisitionNotes: ['acquisition_notes', 'text'],
  gradingService: ['grading_service', 'text'],
  grade: ['grade', 'text'],
  certificateNumber: ['certificate_number', 'text'],
  gradingNotes: ['grading_notes', 'text'],
  attributes: ['attributes', 'jsonb'],
  locationDetails: ['location_details', 'text'],
};

/**
 * POST /items of the scenario's body (newItemBody): every field a variable, the SKU new per transaction as in the
 * captured script.
 * @param {import('./scenarios.mjs').Target} target
 * @param {Record<string, string>} defines  filled with the body's values
 */
function createItem(target, defines) {
  const body = /** @type {Record<string, unknown>} */ (JSON.parse(newItemBody(target)));
  const columns = [];
  const values = [];
  for (const [field, value] of Object.entries(body)) {
    const column = BODY_COLUMNS[field];
    if (!column) throw new Error(`resource floor: no column for the new item's field "${field}"`);
    columns.push(column[0]);
    if (field === 'sku') {
      // Unique per transaction (the unique index decides), as the captured script makes it.
      values.push(`'BENCH-PG-' || gen_random_uuid()`);
      continue;
    }
    const name = `rf_${column[0]}`;
    if (value === null) {
      values.push(`NULL::${column[1]}`);
      continue;
    }
    defines[name] = typeof value === 'object' ? JSON.stringify(value) : String(value);
    values.push(`:${name}::${column[1]}`);
  }
  return `WITH place AS (
  SELECT w.organization_id, w.id AS warehouse_id, z.id AS zone_id
  FROM warehouses w
  JOIN zones z ON z.organization_id = w.organization_id AND z.warehouse_id = w.id
  WHERE w.organization_id = :rf_org AND w.is_default
  ORDER BY z.position
  LIMIT 1
), item AS (
  INSERT INTO items (organization_id, ${columns.join(', ')}, warehouse_id, zone_id)
  SELECT place.organization_id, ${values.join(', ')}, place.warehouse_id, place.zone_id
  FROM place
  RETURNING *
), ${recordChange({ type: 'item.created', from: 'item', data: itemJson('item', { category: null, images: "'[]'::json" }) })}
SELECT id, sku, title, description, category_id, NULL::text AS category_name,
  quantity_available, quantity_sold, quantity_reserved, value_in_cents,
  acquisition_price_in_cents, acquisition_date, acquired_from, acquisition_notes,
  grading_service, grade, certificate_number, grading_notes, attributes,
  warehouse_id, zone_id, location_details, consignment_id, is_at_auction, '[]'::json AS images, created_at, updated_at
FROM item;`;
}

/** PATCH /items/{id} { quantity }: variables n (the item) and quantity. */
const PATCH_QUANTITY = `WITH locked AS (
  SELECT organization_id, id, quantity_available AS before
  FROM items
  WHERE organization_id = :rf_org AND id = ${ITEM_ID}
  FOR UPDATE
), item AS (
  UPDATE items i SET quantity_available = :quantity::int, updated_at = now()
  FROM locked
  WHERE i.organization_id = locked.organization_id AND i.id = locked.id
  RETURNING i.*, locked.before
), listings AS (
  UPDATE marketplace_listings l SET sync_sequence = l.sync_sequence + 1
  FROM item
  WHERE l.organization_id = item.organization_id AND l.item_id = item.id AND l.status = 'active'
    AND item.quantity_available <> item.before
  RETURNING l.organization_id, l.id, l.marketplace_listing_id, l.sync_sequence, item.quantity_available
), jobs AS (
  INSERT INTO marketplace_sync_jobs (organization_id, listing_id, marketplace_listing_id, kind, quantity, sequence)
  SELECT organization_id, id, marketplace_listing_id, 'set_quantity', quantity_available, sync_sequence
  FROM listings
  RETURNING 1
), shown AS (
  SELECT i.*, c.name AS category_name, ${imagesOf('i')} AS images
  FROM item i
  ${CATEGORY_JOIN}
), ${recordChange({
  type: 'item.updated',
  from: 'shown',
  data: itemJson('shown', { category: 'shown.category_name', images: 'shown.images' }),
  // The listings (and their jobs) before the feed row: the server's lock order, so the two never deadlock.
  gate: '(SELECT count(*) FROM jobs) >= 0',
})}
SELECT ${SHOWN_COLUMNS}
FROM shown;`;

/** GET /me: the key and its workspace. */
const ME = `SELECT o.id, o.name, o.slug, k.id AS key_id, k.name AS key_name, k.expires_at, k.scopes
FROM api_keys k
JOIN organizations o ON o.id = k.organization_id
WHERE k.organization_id = :rf_org AND k.id = :rf_key::uuid;`;

/** GET /items/{id}: variable n. */
const ITEM = `SELECT ${ITEM_COLUMNS}
FROM items i
${CATEGORY_JOIN}
WHERE i.organization_id = :rf_org AND i.id = ${ITEM_ID};`;

/** GET /items/{id}/valuations (limit 10): variable n; no row means 404, one row with a null id an empty list. */
const VALUATIONS = `SELECT v.id, v.item_id, v.estimate_low_in_cents, v.estimate_in_cents, v.estimate_high_in_cents,
  v.confidence_percent, v.basis, v.price_guide_value_in_cents, v.melt_value_in_cents, v.summary,
  coalesce((
    SELECT json_agg(json_build_object(
      'source', vc.source, 'title', vc.title, 'grade', vc.grade, 'gradingService', vc.grading_service,
      'priceInCents', vc.price_in_cents, 'soldAt', vc.sold_at, 'venue', vc.venue, 'url', vc.url
    ) ORDER BY vc.position)
    FROM valuation_comps vc
    WHERE vc.organization_id = v.organization_id AND vc.valuation_id = v.id
  ), '[]'::json) AS comps,
  v.applied_at, v.created_at
FROM items i
LEFT JOIN LATERAL (
  SELECT * FROM valuations v
  WHERE v.organization_id = i.organization_id AND v.item_id = i.id
  ORDER BY v.created_at DESC, v.id DESC
  LIMIT 10
) v ON true
WHERE i.organization_id = :rf_org AND i.id = ${ITEM_ID}
ORDER BY v.created_at DESC, v.id DESC;`;

/** GET /consignments (page 1 of 20): the totals from one pass over each consignment's items. */
const CONSIGNMENTS = `SELECT c.id, c.number, c.name, c.status, c.payment_status,
  c.consignor_id, co.name AS consignor_name, co.email AS consignor_email,
  c.commission_bps, c.buyer_premium_bps,
  held.num_items, held.num_items_sold, held.total_value_in_cents, held.total_sold_in_cents,
  c.received_at, c.sold_at, c.settled_at, c.created_at
FROM consignments c
LEFT JOIN consignors co ON co.organization_id = c.organization_id AND co.id = c.consignor_id
CROSS JOIN LATERAL (
  SELECT count(*)::int AS num_items,
    (count(*) FILTER (WHERE i.quantity_sold > 0))::int AS num_items_sold,
    coalesce(sum(i.value_in_cents), 0)::bigint AS total_value_in_cents,
    coalesce(sum(sold.total), 0)::bigint AS total_sold_in_cents
  FROM items i
  LEFT JOIN LATERAL (
    SELECT sum(l.total_price_in_cents) AS total
    FROM invoice_lines l
    JOIN invoices inv ON inv.organization_id = l.organization_id AND inv.id = l.invoice_id
    WHERE l.organization_id = i.organization_id AND l.item_id = i.id AND inv.status IN ${SOLD}
  ) sold ON true
  WHERE i.organization_id = c.organization_id AND i.consignment_id = c.id
) held
WHERE c.organization_id = :rf_org
ORDER BY c.created_at DESC, c.id DESC
LIMIT 21;`;

/** GET /invoices (page 1 of 20, newest first): lines and payments in the API's shape and order. */
const INVOICES = `SELECT inv.id, inv.number, inv.status, inv.source, inv.customer_id, inv.customer_name, inv.customer_email,
  inv.discount_in_cents, inv.shipping_in_cents, inv.tax_in_cents,
  coalesce((
    SELECT json_agg(json_build_object(
      'id', l.id, 'itemId', l.item_id, 'description', l.description, 'quantity', l.quantity,
      'unitPriceInCents', l.unit_price_in_cents, 'totalPriceInCents', l.total_price_in_cents
    ) ORDER BY l.position)
    FROM invoice_lines l
    WHERE l.organization_id = inv.organization_id AND l.invoice_id = inv.id
  ), '[]'::json) AS lines,
  coalesce((
    SELECT json_agg(json_build_object(
      'id', p.id, 'amountInCents', p.amount_in_cents, 'method', p.method, 'status', p.status,
      'paidAt', ${iso('p.paid_at')}
    ) ORDER BY p.paid_at NULLS LAST, p.created_at, p.id)
    FROM invoice_payments p
    WHERE p.organization_id = inv.organization_id AND p.invoice_id = inv.id
  ), '[]'::json) AS payments,
  inv.due_at, inv.paid_at, inv.created_at
FROM invoices inv
WHERE inv.organization_id = :rf_org
ORDER BY inv.created_at DESC, inv.id DESC
LIMIT 21;`;

/**
 * GET /changes?after=…&limit=100: the feed's bounds and the changes after the cursor's position. The upper bound
 * (the feed's last position) changes no result, since a change row commits with its feed position, but it keeps the
 * row estimate independent of the cursor's value, so the prepared statement gets one generic plan rather than being
 * planned at every execution (measured: a third more pages per second).
 */
const CHANGES = `SELECT f.last_position, f.pruned_through, c.position, c.id, c.type, c.object_id, c.occurred_at, c.data
FROM change_feeds f
LEFT JOIN LATERAL (
  SELECT c.position, c.id, c.type, c.object_id, c.occurred_at, c.data
  FROM changes c
  WHERE c.organization_id = f.organization_id AND c.position > :rf_after::bigint AND c.position <= f.last_position
  ORDER BY c.position
  LIMIT ${FEED_PAGE + 1}
) c ON true
WHERE f.organization_id = :rf_org
ORDER BY c.position;`;

/**
 * The resource floor's pgbench script of a scenario (every scenario of scenarios.mjs but the mixes, whose parts
 * each have one).
 * @param {string} name  a scenario's name, or `items-page-<n>`
 * @param {import('./scenarios.mjs').Target} target
 * @param {ResourceContext} context
 * @returns {import('./pgbench.mjs').Script}
 */
export function resourceScript(name, target, context) {
  /** @type {Record<string, string>} */
  const defines = { rf_org: context.organizationId };
  /** @type {string[]} */
  const set = [];
  /** @param {string} sql */
  const script = (sql) => ({ text: `${[...set, sql].join('\n')}\n`, defines });
  const anyItem = () => {
    defines.rf_slug = target.slug;
    set.push(`\\set n random(1, ${target.items})`);
  };

  const page = /^items-page-(\d+)$/.exec(name);
  if (page) {
    const number = Number(page[1]);
    if (!Number.isSafeInteger(number) || number < 1) throw new Error(`resource floor: no page ${page[1]}`);
    return script(itemsPage({ order: NEWEST, limit: 50, offset: (number - 1) * 50 }));
  }
  switch (name) {
    case 'me':
      if (!context.keyId) throw new Error('resource floor: GET /me needs the key id (context.keyId)');
      defines.rf_key = context.keyId;
      return script(ME);
    case 'items':
      return script(itemsPage({ order: NEWEST, limit: 20, offset: 0 }));
    case 'items-q':
      defines.rf_pattern = containsPattern(SEARCH_TEXT);
      return script(
        itemsPage({
          // The trigram index narrows on all fields joined; each field is then tested on its own.
          where: `AND i.search_text LIKE :rf_pattern
  AND (lower(i.sku) LIKE :rf_pattern OR lower(i.title) LIKE :rf_pattern
    OR lower(i.description) LIKE :rf_pattern OR lower(i.certificate_number) LIKE :rf_pattern)`,
          order: NEWEST,
          limit: 20,
          offset: 0,
        }),
      );
    case 'items-status-value':
      return script(
        itemsPage({ where: "AND i.status = 'in_stock'", order: 'i.value_in_cents DESC, i.id', limit: 20, offset: 0 }),
      );
    case 'items-deep':
      return script(
        itemsPage({ order: NEWEST, limit: DEEP_PAGE.limit, offset: (DEEP_PAGE.page - 1) * DEEP_PAGE.limit }),
      );
    case 'item':
      anyItem();
      return script(ITEM);
    case 'item-valuations':
      // A valued item: n a multiple of 10, as scenarios.mjs picks it.
      defines.rf_slug = target.slug;
      set.push(`\\set v random(1, ${Math.floor(target.items / 10)})`, '\\set n 10 * :v');
      return script(VALUATIONS);
    case 'consignments':
      return script(CONSIGNMENTS);
    case 'invoices':
      return script(INVOICES);
    case 'changes':
      if (!target.changesAfter) throw new Error(`resource floor: no changes cursor for ${target.slug}`);
      defines.rf_after = cursorPosition(target.changesAfter, context.organizationId);
      return script(CHANGES);
    case 'item-create':
      return script(createItem(target, defines));
    case 'item-patch':
      if (target.listings < 1) throw new Error(`resource floor: ${target.slug} has no listed item to patch`);
      defines.rf_slug = target.slug;
      // Item n = 50k + 7 has a listing for k < listings (seed.mjs), as the captured script picks it.
      set.push(`\\set k random(0, ${target.listings - 1})`, '\\set n 50 * :k + 7', '\\set quantity random(1, 1000000)');
      return script(PATCH_QUANTITY);
    default:
      throw new Error(
        name === 'mixed' || name === 'many-keys'
          ? `resource floor: ${name} has no script of its own; weigh its parts' scripts as the captured floor does`
          : `resource floor: unknown scenario "${name}"`,
      );
  }
}
