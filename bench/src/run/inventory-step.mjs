import { Agent, request as httpRequest } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { batchClient, bodyOf, coins } from '../bulk.mjs';
import { postmasterPid } from '../cpu.mjs';
import { createWorkspace } from '../provision.mjs';
import { SALE, scenario } from '../scenarios.mjs';
import { startServer } from '../server.mjs';
import { freePort, log, percentile, seconds, sleep } from '../util.mjs';
import { load } from './generators.mjs';
import { BULK, CONNECTIONS, DURATION, INVENTORY, MAIN, WARMUP } from './options.mjs';

/**
 * Selling one coin in several places (issue 37), in an organization of its own so nothing the other steps measure
 * changes:
 *
 * - adjustments per second (`POST /v1/items/{id}/adjustments`, one sale each) under the closed loop, on one hot item
 *   (every request waits for its row lock) and on many items (each request another item);
 * - 50 concurrent sellers of an item of 10 units: how many are sold, refused and oversold, and the latencies;
 * - reservation expiry: 10,000 holds made through the API, made due at once in the database (a hold cannot be made
 *   to expire in under 60 s through the API), and the time until the server's own expiry worker has given every one
 *   back.
 *
 * The server has the measuring settings (the limit raised, so the limiter runs but never refuses) and its
 * background workers on (SYNC_WORKER=on), the expiry worker passing every INVENTORY.expiry.intervalMs.
 */

/** @typedef {import('./measure.mjs').ServerFigures} ServerFigures */

/**
 * @typedef {object} AdjustmentRun
 * @property {string} name          the scenario (scenarios.mjs)
 * @property {string} label
 * @property {number} items         items the requests go to
 * @property {ServerFigures} server
 * @property {number} sold          units the run sold (warm-up included), by the items' quantities afterwards
 * @property {boolean} unitsKept    every item's available + sold still its stock, none reserved
 * @property {number} loadAverage   the machine's 1-minute load average before the run
 */

/**
 * @typedef {object} SellerRound
 * @property {number} round         0: the warm-up, kept out of the summary
 * @property {number} ok            200 answers
 * @property {number} refused       409 answers with code INSUFFICIENT_QUANTITY
 * @property {number} other         any other answer
 * @property {number} oversold      the item's sold − its units, when more (must be 0)
 * @property {number} available     the item's available afterwards
 * @property {number} sold
 * @property {number} reserved
 * @property {number} movements     the item's adjustment movements (the ledger)
 * @property {number} p50Ms         of a seller's request, as it saw it
 * @property {number} p99Ms
 * @property {number} maxMs
 * @property {number} wallMs        from the first request sent to the last answer
 */

/**
 * @typedef {object} SellerFigures
 * @property {number} sellers
 * @property {number} units
 * @property {SellerRound} warmup
 * @property {SellerRound[]} rounds
 * @property {number} p50Ms         over every counted round's requests
 * @property {number} p99Ms
 * @property {number} loadAverage
 */

/**
 * @typedef {object} ExpiryFigures
 * @property {number} holds             made through the API
 * @property {number} items             the items they hold units of
 * @property {number} intervalMs        RESERVATION_EXPIRY_INTERVAL_MS
 * @property {{ clients: number, seconds: number, perSecond: number, p50Ms: number, p99Ms: number, notOk: number }} create
 *   the holds' POST /items/{id}/reservations
 * @property {number} due               holds made due at once (the UPDATE's row count)
 * @property {number | null} firstMs    from then until the first was given back
 * @property {number | null} releasedMs until none was held and the items' reserved was back to 0 (null: not within
 *   the timeout)
 * @property {number | null} perSecond  holds given back per second, from the first to the last
 * @property {number} held              held reservations left at the end
 * @property {number} reserved          the items' reserved units at the end
 * @property {number} expired           reservations whose status is `expired`
 * @property {number} movements         `expire` movements in the ledger
 * @property {boolean} availableRestored  the items' available as before the holds
 * @property {Array<[number, number]>} progress  [ms since due, held], about once a second
 * @property {number} loadAverage
 */

/**
 * @typedef {object} InventoryFigures
 * @property {string} organization
 * @property {number} items          made through the API for the adjustments and the holds
 * @property {number} stock          units each of them starts with
 * @property {string} server
 * @property {AdjustmentRun[]} adjustments
 * @property {SellerFigures} sellers
 * @property {ExpiryFigures} expiry
 */

/** The machine's 1-minute load average (2 cores: above 2, something else wants the CPU too). */
const loadAverage = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;

/**
 * One POST with a JSON body: its status, code (of an error's body) and time as the client saw it.
 * @param {Agent} agent
 * @param {string} url
 * @param {string} key
 * @param {string} body
 * @returns {Promise<{ status: number, code: string | null, ms: number, body: string }>}
 */
function post(agent, url, key, body) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent,
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          'content-length': String(Buffer.byteLength(body)),
        },
      },
      (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => {
          const ms = performance.now() - started;
          const text = Buffer.concat(chunks).toString('utf8');
          const status = res.statusCode ?? 0;
          /** @type {string | null} */
          let code = null;
          if (status >= 400) {
            try {
              const parsed = /** @type {{ code?: unknown }} */ (JSON.parse(text));
              code = typeof parsed.code === 'string' ? parsed.code : null;
            } catch {}
          }
          resolve({ status, code, ms, body: text });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Items made through the API with `quantity` units each, by batches; their ids in the order of `bodies`.
 * @param {string} origin
 * @param {string} key
 * @param {import('postgres').Sql} admin
 * @param {string} organizationId
 * @param {Array<Record<string, unknown>>} bodies
 */
async function makeItems(origin, key, admin, organizationId, bodies) {
  const client = batchClient(origin, key);
  try {
    for (let i = 0; i < bodies.length; i += BULK.batch.size) {
      const answer = await client.send('create', bodies.slice(i, i + BULK.batch.size));
      if (answer.status !== 200 || answer.failed > 0) {
        throw new Error(`POST /v1/items/batch answered ${answer.status} with ${answer.failed} entries refused`);
      }
    }
  } finally {
    client.close();
  }
  const skus = bodies.map((b) => String(b.sku));
  const rows = await admin`
    SELECT id::text AS id, sku FROM items WHERE organization_id = ${organizationId} AND sku = ANY(${skus})
  `;
  const bySku = new Map(rows.map((r) => [String(r.sku), String(r.id)]));
  return skus.map((sku) => {
    const id = bySku.get(sku);
    if (!id) throw new Error(`item ${sku} was not made`);
    return id;
  });
}

/**
 * The quantities of items, summed.
 * @param {import('postgres').Sql} admin
 * @param {string} organizationId
 * @param {string[]} ids
 */
async function quantities(admin, organizationId, ids) {
  const [row] = await admin`
    SELECT coalesce(sum(quantity_available), 0)::bigint AS available, coalesce(sum(quantity_sold), 0)::bigint AS sold,
      coalesce(sum(quantity_reserved), 0)::bigint AS reserved,
      count(*) FILTER (WHERE quantity_available + quantity_sold <> ${INVENTORY.stock} OR quantity_reserved <> 0)::int AS off
    FROM items WHERE organization_id = ${organizationId} AND id = ANY(${ids}::uuid[])
  `;
  return {
    available: Number(row?.available ?? 0),
    sold: Number(row?.sold ?? 0),
    reserved: Number(row?.reserved ?? 0),
    off: Number(row?.off ?? 0),
  };
}

/**
 * Adjustments under the closed loop (load.mjs: autocannon in its own process, CONNECTIONS connections, WARMUP s of
 * warm-up, DURATION s measured), with the server's memory sampled.
 * @param {import('../server.mjs').RunningServer} server
 * @param {'adjust-hot' | 'adjust-spread'} name
 * @param {import('../scenarios.mjs').Target} target
 * @param {import('postgres').Sql} admin
 * @param {string} organizationId
 * @returns {Promise<AdjustmentRun>}
 */
async function adjustments(server, name, target, admin, organizationId) {
  const ids = name === 'adjust-hot' ? (target.itemIds ?? []).slice(0, 1) : (target.itemIds ?? []);
  const label = scenario(name).label;
  log(`inventory: ${label} (${ids.length.toLocaleString('en-US')} item${ids.length === 1 ? '' : 's'})`);
  const before = await quantities(admin, organizationId, ids);
  const average = loadAverage();
  let rssMax = 0;
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, server.rssBytes());
  }, 250);
  try {
    const figures = await load({
      origin: server.origin,
      scenario: name,
      target,
      connections: CONNECTIONS,
      warmupSeconds: WARMUP,
      durationSeconds: DURATION,
      cpu: { server: server.pid, database: await postmasterPid(admin) },
    });
    const after = await quantities(admin, organizationId, ids);
    return {
      name,
      label,
      items: ids.length,
      server: { ...figures, rssMaxMB: Math.round(rssMax / 2 ** 20) },
      sold: after.sold - before.sold,
      unitsKept: after.off === 0,
      loadAverage: average,
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * One round of sellers: as many sales as INVENTORY.sellers.sellers, all at once, each on a connection of its own, of
 * an item of INVENTORY.sellers.units units; then the item as the database has it.
 * @param {string} origin
 * @param {string} key
 * @param {import('postgres').Sql} admin
 * @param {string} organizationId
 * @param {string} id
 * @param {number} round
 * @returns {Promise<SellerRound & { latencies: number[] }>}
 */
async function sellerRound(origin, key, admin, organizationId, id, round) {
  const { sellers, units } = INVENTORY.sellers;
  const agent = new Agent({ keepAlive: true, maxSockets: sellers });
  const started = performance.now();
  let answers;
  try {
    answers = await Promise.all(
      Array.from({ length: sellers }, () => post(agent, `${origin}/v1/items/${id}/adjustments`, key, SALE)),
    );
  } finally {
    agent.destroy();
  }
  const wallMs = performance.now() - started;
  const [item] = await admin`
    SELECT quantity_available AS available, quantity_sold AS sold, quantity_reserved AS reserved,
      (SELECT count(*)::int FROM item_movements m
        WHERE m.organization_id = i.organization_id AND m.item_id = i.id AND m.kind = 'adjustment') AS movements
    FROM items i WHERE i.organization_id = ${organizationId} AND i.id = ${id}
  `;
  if (!item) throw new Error(`item ${id} is gone`);
  const latencies = answers.map((a) => a.ms);
  const sorted = Float64Array.from(latencies).sort();
  const ok = answers.filter((a) => a.status === 200).length;
  const refused = answers.filter((a) => a.status === 409 && a.code === 'INSUFFICIENT_QUANTITY').length;
  return {
    round,
    ok,
    refused,
    other: answers.length - ok - refused,
    oversold: Math.max(0, Number(item.sold) - units),
    available: Number(item.available),
    sold: Number(item.sold),
    reserved: Number(item.reserved),
    movements: Number(item.movements),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: percentile(sorted, 100),
    wallMs,
    latencies,
  };
}

/**
 * The sellers: a round of warm-up, then INVENTORY.sellers.rounds rounds, each on a fresh item.
 * @param {string} origin
 * @param {string} key
 * @param {import('postgres').Sql} admin
 * @param {string} organizationId
 * @param {string[]} ids   an item of INVENTORY.sellers.units units per round, the warm-up's first
 * @returns {Promise<SellerFigures>}
 */
async function sellers(origin, key, admin, organizationId, ids) {
  const { sellers: count, units, rounds } = INVENTORY.sellers;
  log(`inventory: ${count} concurrent sellers of ${units} units, ${rounds} rounds after one of warm-up`);
  const average = loadAverage();
  /** @type {SellerRound[]} */
  const counted = [];
  /** @type {number[]} */
  const latencies = [];
  /** @type {SellerRound | undefined} */
  let warmup;
  for (const [round, id] of ids.entries()) {
    const { latencies: own, ...figures } = await sellerRound(origin, key, admin, organizationId, id, round);
    if (round === 0) warmup = figures;
    else {
      counted.push(figures);
      latencies.push(...own);
    }
  }
  if (!warmup) throw new Error('no seller rounds');
  const sorted = Float64Array.from(latencies).sort();
  return {
    sellers: count,
    units,
    warmup,
    rounds: counted,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    loadAverage: average,
  };
}

/**
 * The holds: INVENTORY.expiry.holds of one unit, made through the API (INVENTORY.expiry.perItem per item) by
 * INVENTORY.expiry.clients clients at once, expiring in an hour; then made due at once in the database (their
 * `expires_at` a second in the past), and the organization's held reservations and reserved units polled every 50 ms
 * until both are 0: the server's expiry worker gives them back, as it would holds that expired on their own.
 * @param {string} origin
 * @param {string} key
 * @param {import('postgres').Sql} admin
 * @param {string} organizationId
 * @param {string[]} ids
 * @returns {Promise<ExpiryFigures>}
 */
async function expiry(origin, key, admin, organizationId, ids) {
  const { holds, perItem, clients, timeoutSeconds, intervalMs } = INVENTORY.expiry;
  const items = ids.slice(0, Math.ceil(holds / perItem));
  const before = await quantities(admin, organizationId, items);
  log(
    `inventory: ${holds.toLocaleString('en-US')} holds on ${items.length.toLocaleString('en-US')} items through the API`,
  );
  const average = loadAverage();
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  /** @type {number[]} */
  const latencies = [];
  let notOk = 0;
  let next = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: clients }, async () => {
        for (let i = next++; i < holds; i = next++) {
          const body = JSON.stringify({ quantity: 1, expiresInSeconds: 3600, reference: `bench-hold-${i + 1}` });
          const answer = await post(agent, `${origin}/v1/items/${items[i % items.length]}/reservations`, key, body);
          latencies.push(answer.ms);
          if (answer.status !== 200) notOk += 1;
        }
      }),
    );
  } finally {
    agent.destroy();
  }
  const createMs = performance.now() - started;
  const sorted = Float64Array.from(latencies).sort();
  const create = {
    clients,
    seconds: Math.round(createMs) / 1000,
    perSecond: Math.round(holds / (createMs / 1000)),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    notOk,
  };
  if (notOk > 0) log(`inventory: ${notOk} holds were refused`);

  /** Held reservations of the organization and its items' reserved units. */
  const state = async () => {
    const [row] = await admin`
      SELECT (SELECT count(*)::int FROM reservations WHERE organization_id = ${organizationId} AND status = 'held') AS held,
        (SELECT coalesce(sum(quantity_reserved), 0)::bigint FROM items WHERE organization_id = ${organizationId}) AS reserved
    `;
    return { held: Number(row?.held ?? -1), reserved: Number(row?.reserved ?? -1) };
  };
  const due = await admin`
    UPDATE reservations SET expires_at = now() - interval '1 second'
    WHERE organization_id = ${organizationId} AND status = 'held'
  `;
  const madeDue = performance.now();
  log(`inventory: ${due.count.toLocaleString('en-US')} holds made due at once; waiting for the expiry worker`);
  /** @type {number | null} */
  let firstMs = null;
  /** @type {number | null} */
  let releasedMs = null;
  /** @type {Array<[number, number]>} */
  const progress = [];
  let now = await state();
  for (;;) {
    const ms = performance.now() - madeDue;
    if (firstMs === null && now.held < due.count) firstMs = ms;
    if (progress.length === 0 || ms - (progress[progress.length - 1]?.[0] ?? 0) >= 1000) {
      progress.push([Math.round(ms), now.held]);
    }
    if (now.held === 0 && now.reserved === 0) {
      releasedMs = ms;
      progress.push([Math.round(ms), 0]);
      break;
    }
    if (ms > timeoutSeconds * 1000) break;
    await sleep(50);
    now = await state();
  }
  log(
    releasedMs === null
      ? `inventory: ${now.held} holds still held after ${timeoutSeconds} s`
      : `inventory: every hold given back ${seconds(releasedMs)} after they were due`,
  );
  const after = await quantities(admin, organizationId, items);
  const [ended] = await admin`
    SELECT (SELECT count(*)::int FROM reservations WHERE organization_id = ${organizationId} AND status = 'expired') AS expired,
      (SELECT count(*)::int FROM item_movements WHERE organization_id = ${organizationId} AND kind = 'expire') AS movements
  `;
  return {
    holds,
    items: items.length,
    intervalMs,
    create,
    due: due.count,
    firstMs: firstMs === null ? null : Math.round(firstMs),
    releasedMs: releasedMs === null ? null : Math.round(releasedMs),
    perSecond:
      releasedMs === null || firstMs === null || releasedMs <= firstMs
        ? null
        : Math.round(due.count / ((releasedMs - firstMs) / 1000)),
    held: now.held,
    reserved: now.reserved,
    expired: Number(ended?.expired ?? 0),
    movements: Number(ended?.movements ?? 0),
    availableRestored: after.available === before.available && after.reserved === before.reserved,
    progress,
    loadAverage: average,
  };
}

/**
 * The inventory part: an organization of its own, its items, a server with the measuring settings and the expiry
 * worker on, then the adjustments, the sellers and the expiry, one after another.
 * @param {{ databaseUrl: string, admin: import('postgres').Sql, work: string, cleanup: Array<() => unknown> }} step
 * @returns {Promise<InventoryFigures>}
 */
export async function measureInventory({ databaseUrl, admin, work, cleanup }) {
  const workspace = await createWorkspace(MAIN, databaseUrl, { slug: 'inventory-dealer', name: 'Inventory Dealer' });
  const server = await startServer({
    main: MAIN,
    databaseUrl,
    port: await freePort(),
    workers: 1,
    logFile: join(work, 'inventory-server.log'),
    env: { SYNC_WORKER: 'on', RESERVATION_EXPIRY_INTERVAL_MS: String(INVENTORY.expiry.intervalMs) },
  });
  cleanup.push(() => server.stop());
  try {
    const { items, stock } = INVENTORY;
    const { rounds, units } = INVENTORY.sellers;
    log(`inventory: ${items.toLocaleString('en-US')} items of ${stock.toLocaleString('en-US')} units through the API`);
    const stocked = await makeItems(
      server.origin,
      workspace.key,
      admin,
      workspace.id,
      coins({ seed: 3000, from: 1, count: items }).map((coin) => ({ ...bodyOf(coin), quantity: stock })),
    );
    const sold = await makeItems(
      server.origin,
      workspace.key,
      admin,
      workspace.id,
      coins({ seed: 3001, from: items + 1, count: rounds + 1 }).map((coin) => ({ ...bodyOf(coin), quantity: units })),
    );
    /** @type {import('../scenarios.mjs').Target} */
    const target = { slug: workspace.slug, key: workspace.key, items, listings: 0, itemIds: stocked };
    /** @type {AdjustmentRun[]} */
    const runs = [];
    for (const name of /** @type {const} */ (['adjust-hot', 'adjust-spread'])) {
      runs.push(await adjustments(server, name, target, admin, workspace.id));
    }
    const sellerFigures = await sellers(server.origin, workspace.key, admin, workspace.id, sold);
    const expiryFigures = await expiry(server.origin, workspace.key, admin, workspace.id, stocked);
    return {
      organization: workspace.slug,
      items,
      stock,
      server: `the measuring settings (RATE_LIMIT_MAX_REQUESTS=1000000, DATABASE_POOL_SIZE=4, one process), SYNC_WORKER=on, RESERVATION_EXPIRY_INTERVAL_MS=${INVENTORY.expiry.intervalMs}`,
      adjustments: runs,
      sellers: sellerFigures,
      expiry: expiryFigures,
    };
  } finally {
    await server.stop();
  }
}
