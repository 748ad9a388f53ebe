import { send } from './capture.mjs';
import { newItemBody } from './scenarios.mjs';
import { itemId } from './util.mjs';

/**
 * The changes feed through the API, as a client uses it: changes made with item writes (updates of existing items,
 * and items created then deleted again), the feed's cursor, and a consumer following the feed from a cursor.
 */

/**
 * @typedef {import('@coinventory/contract').Change} Change
 * @typedef {import('@coinventory/contract').ChangeList} ChangeList
 * @typedef {import('@coinventory/contract').ChangeType} ChangeType
 * @typedef {import('./scenarios.mjs').Target} Target
 */

/**
 * One write of a plan: a quantity set on existing item n, or the create or delete of the plan's item `slot`.
 * @typedef {{ kind: 'update', n: number, quantity: number } | { kind: 'create', slot: number }
 *   | { kind: 'delete', slot: number }} Write
 */

/**
 * A change a write made, as the feed should report it.
 * @typedef {object} WrittenChange
 * @property {ChangeType} type
 * @property {string} objectId
 * @property {(change: Change) => boolean} shows   whether the feed's change holds what the write left (its type
 *   narrows `data`: the feed reports valuations, consignments and invoices too, whose data is no item)
 */

/**
 * A JSON request that must succeed.
 * @param {string} origin
 * @param {import('./scenarios.mjs').Request} request
 * @param {string} key
 * @returns {Promise<unknown>}
 */
async function call(origin, request, key) {
  const response = await send(origin, request, key);
  if (response.status < 200 || response.status > 299) {
    throw new Error(`${request.method} ${request.path} answered ${response.status}: ${response.body}`);
  }
  return JSON.parse(response.body.toString('utf8'));
}

/**
 * The feed's end now (GET /changes/cursor).
 * @param {string} origin
 * @param {string} key
 */
export async function feedCursor(origin, key) {
  const body = /** @type {import('@coinventory/contract').ChangesCursor} */ (
    await call(origin, { method: 'GET', path: '/v1/changes/cursor' }, key)
  );
  return body.cursor;
}

/**
 * The path a consumer reads after `cursor` (the default page size: the largest).
 * @param {string} cursor
 */
export const changesAfter = (cursor) => `/v1/changes?after=${encodeURIComponent(cursor)}`;

/**
 * `count` distinct random items of the target without a marketplace listing, so the writes queue no sync job for
 * the worker to deliver while other scenarios are measured.
 * @param {Target} target
 * @param {number} count
 */
function unlistedItems(target, count) {
  const listed = (/** @type {number} */ n) => n % 50 === 7 && (n - 7) / 50 < target.listings;
  /** @type {Set<number>} */
  const chosen = new Set();
  while (chosen.size < count) {
    const n = 1 + Math.floor(Math.random() * target.items);
    if (!listed(n)) chosen.add(n);
  }
  return [...chosen];
}

/**
 * Writes making `total` changes: updates of distinct items, with `creates` items created and, half a stride later,
 * deleted again, spread evenly through them.
 * @param {Target} target
 * @param {number} total
 * @param {number} creates
 * @returns {Write[]}
 */
export function changePlan(target, total, creates) {
  const stride = creates > 0 ? Math.floor(total / creates) : total;
  if (creates > 0 && stride < 2) throw new Error(`${creates} creates and deletes do not fit in ${total} changes`);
  const updates = unlistedItems(target, total - 2 * creates);
  return Array.from({ length: total }, (_, i) => {
    const slot = Math.floor(i / stride);
    if (slot < creates && i % stride === 0) return { kind: 'create', slot };
    if (slot < creates && i % stride === Math.floor(stride / 2)) return { kind: 'delete', slot };
    return { kind: 'update', n: /** @type {number} */ (updates.pop()), quantity: 1 + Math.floor(Math.random() * 1e6) };
  });
}

/**
 * Makes the plan's writes one after another (so the feed's commit order is the plan's), and returns the changes
 * they made, in order.
 * @param {string} origin
 * @param {Target} target
 * @param {Write[]} plan
 * @returns {Promise<WrittenChange[]>}
 */
export async function writeChanges(origin, target, plan) {
  /** @type {Map<number, string>} */
  const created = new Map();
  /** @type {WrittenChange[]} */
  const written = [];
  for (const write of plan) {
    if (write.kind === 'update') {
      const id = itemId(target.slug, write.n);
      const body = JSON.stringify({ quantity: write.quantity });
      await call(origin, { method: 'PATCH', path: `/v1/items/${id}`, body }, target.key);
      written.push({
        type: 'item.updated',
        objectId: id,
        shows: (change) =>
          change.type === 'item.updated' && change.data.id === id && change.data.quantity.available === write.quantity,
      });
    } else if (write.kind === 'create') {
      const body = newItemBody(target);
      const sku = /** @type {{ sku: string }} */ (JSON.parse(body)).sku;
      const item = /** @type {{ id: string }} */ (
        await call(origin, { method: 'POST', path: '/v1/items', body }, target.key)
      );
      created.set(write.slot, item.id);
      written.push({
        type: 'item.created',
        objectId: item.id,
        shows: (change) => change.type === 'item.created' && change.data.id === item.id && change.data.sku === sku,
      });
    } else {
      const id = created.get(write.slot);
      if (!id) throw new Error(`the plan deletes item ${write.slot} before creating it`);
      await call(origin, { method: 'DELETE', path: `/v1/items/${id}` }, target.key);
      written.push({ type: 'item.deleted', objectId: id, shows: (change) => change.data === null });
    }
  }
  return written;
}

/**
 * A consumer catching up: reads the feed from `cursor`, following nextCursor while hasMore.
 * @param {string} origin
 * @param {string} key
 * @param {string} cursor
 */
export async function followFeed(origin, key, cursor) {
  /** @type {Change[]} */
  const changes = [];
  let requests = 0;
  let after = cursor;
  for (;;) {
    const page = /** @type {ChangeList} */ (await call(origin, { method: 'GET', path: changesAfter(after) }, key));
    requests += 1;
    changes.push(...page.items);
    after = page.nextCursor;
    // The guard stops a feed that never ends (a server bug) well past any page count a catch-up could need.
    if (!page.hasMore || requests >= 1000) return { requests, changes, hasMore: page.hasMore, nextCursor: after };
  }
}

/**
 * How the changes received compare with those written: each written change seen exactly once (by type and object),
 * none that was not written, in the order written, each with the data the write left.
 * @param {WrittenChange[]} written
 * @param {Change[]} received
 */
export function compareChanges(written, received) {
  const keyOf = (/** @type {{ type: string, objectId: string }} */ c) => `${c.type} ${c.objectId}`;
  /** @type {Map<string, Change[]>} */
  const byKey = new Map();
  for (const change of received) byKey.set(keyOf(change), [...(byKey.get(keyOf(change)) ?? []), change]);
  const writtenKeys = new Set(written.map(keyOf));
  return {
    seenOnce: written.filter((w) => byKey.get(keyOf(w))?.length === 1).length,
    notWritten: received.filter((c) => !writtenKeys.has(keyOf(c))).length,
    inOrder: received.map(keyOf).join('\n') === written.map(keyOf).join('\n'),
    dataAsWritten: written.every((w) => byKey.get(keyOf(w))?.every((c) => w.shows(c)) ?? false),
  };
}
