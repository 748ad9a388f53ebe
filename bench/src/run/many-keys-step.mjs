import { join } from 'node:path';
import { API_PLANS, generateKey, hashKey, keyHint } from '@coinventory/server/demo-data';
import { postmasterPid } from '../cpu.mjs';
import { runPgbench } from '../pgbench.mjs';
import { startServer } from '../server.mjs';
import { freePort, log, sleep } from '../util.mjs';
import { load, openLoop } from './generators.mjs';
import { CONNECTIONS, DB_SESSIONS, DURATION, FLOOR_WARMUP, MAIN, MANY_KEYS, WARMUP } from './options.mjs';

/**
 * The traffic the rate limit implies: each key may send 2 requests per second, so a server's real load is many keys,
 * each a small share. A thousand keys over every workspace on a plan with API access, each key an integration of its
 * own workspace; the server runs under the API's real limit (120 per 60 s), which no key reaches here.
 *
 * Measured, on one server process: its most (closed loop, CONNECTIONS connections), the open loop at 1,000 keys × 2
 * requests/s, at half its most and at its most; the limiter's own cost per request (pgbench on rate_limit_admit over
 * the same keys, with the limiter's tables unlogged as the server has them, and logged as they were before); and the
 * capacity figures: database bytes per item and the server's memory.
 */

/**
 * @typedef {import('../scenarios.mjs').Target & { keys: string[] }} Caller
 * @typedef {{ slug: string, items: number }} Workspace
 */

/**
 * Makes `count` keys, spread round-robin over the workspaces whose plan has API access, all created by the measured
 * workspace's owner (made a member of each): keys as the operator command makes them, inserted in one statement.
 * @param {import('postgres').Sql} admin
 * @param {Workspace[]} workspaces
 * @param {{ count: number, ownerEmail: string }} options
 * @returns {Promise<{ callers: Caller[], keyIds: string[] }>}
 */
export async function provisionManyKeys(admin, workspaces, { count, ownerEmail }) {
  const orgs = await admin`
    SELECT id, slug FROM organizations WHERE slug = ANY(${workspaces.map((w) => w.slug)}) AND plan = ANY(${[...API_PLANS]})
    ORDER BY slug
  `;
  const [owner] = await admin`SELECT id FROM users WHERE email = ${ownerEmail}`;
  if (!owner || orgs.length === 0) throw new Error('many keys: no owner or no workspace with API access');
  await admin`
    INSERT INTO memberships (organization_id, user_id, role)
    SELECT unnest(${orgs.map((o) => o.id)}::uuid[]), ${owner.id}, 'owner'
    ON CONFLICT (organization_id, user_id) DO NOTHING
  `;
  const keys = Array.from({ length: count }, (_, i) => ({ key: generateKey(), org: orgs[i % orgs.length] }));
  const rows = await admin`
    INSERT INTO api_keys (organization_id, name, key_hash, key_hint, scopes, created_by)
    SELECT o, 'Benchmark integration', decode(h, 'hex'), hint, ARRAY['read', 'write'], ${owner.id}
    FROM unnest(${keys.map((k) => k.org?.id)}::uuid[], ${keys.map((k) => hashKey(k.key).toString('hex'))}::text[],
                ${keys.map((k) => keyHint(k.key))}::text[]) AS u(o, h, hint)
    RETURNING id
  `;
  /** @type {Map<string, Caller>} */
  const callers = new Map();
  for (const { key, org } of keys) {
    const workspace = workspaces.find((w) => w.slug === org?.slug);
    if (!workspace || !org) continue;
    /** @type {Caller} */
    const caller = callers.get(org.slug) ?? { slug: org.slug, key, items: workspace.items, listings: 0, keys: [] };
    caller.keys.push(key);
    callers.set(org.slug, caller);
  }
  return { callers: [...callers.values()], keyIds: rows.map((r) => r.id) };
}

/**
 * The limiter's database cost per request: pgbench calling rate_limit_admit for a random key of `keyIds` (the API's
 * policy), against the same lookup without it.
 * @param {{ admin: import('postgres').Sql, pgbench: string, database: { host: string, port: number }, work: string,
 *   keyCount: number, policy: { maxRequests: number, windowMs: number } }} run
 */
async function limiterCost({ admin, pgbench, database, work, keyCount, policy }) {
  await admin`DROP TABLE IF EXISTS bench_keys`;
  await admin`CREATE TABLE bench_keys (n integer PRIMARY KEY, id uuid NOT NULL)`;
  // Fresh key ids, a set per variant: the limiter's state has no tie to api_keys, and no key nears its limit.
  await admin`INSERT INTO bench_keys SELECT n, gen_random_uuid() FROM generate_series(1, ${2 * keyCount}) AS n`;
  /** @param {number} from */
  const pick = (from) => `\\set k random(${from}, ${from + keyCount - 1})`;
  /** @param {string} name @param {string} statement @param {number} [from] */
  const measure = (name, statement, from = 1) =>
    runPgbench({
      pgbench,
      database,
      scripts: [{ script: { text: `${pick(from)}\n${statement}\n`, defines: {} }, weight: 1 }],
      clients: DB_SESSIONS,
      warmupSeconds: FLOOR_WARMUP,
      durationSeconds: DURATION,
      workDir: join(work, 'pgbench', `limiter-${name}`),
    });
  const lookup = await measure('lookup', 'SELECT b.id FROM bench_keys b WHERE b.n = :k;');
  const admit = `SELECT r.* FROM bench_keys b, LATERAL rate_limit_admit(b.id, ${policy.maxRequests}, ${policy.windowMs}) r WHERE b.n = :k;`;
  const unlogged = await measure('unlogged', admit);
  // As the tables were before (logged: every admission waits for a WAL flush), then back as the server has them.
  await admin`ALTER TABLE rate_limit_state SET LOGGED`;
  await admin`ALTER TABLE rate_limit_slots SET LOGGED`;
  let logged;
  try {
    logged = await measure('logged', admit, keyCount + 1);
  } finally {
    await admin`ALTER TABLE rate_limit_slots SET UNLOGGED`;
    await admin`ALTER TABLE rate_limit_state SET UNLOGGED`;
  }
  await admin`DROP TABLE bench_keys`;
  /** Database time per request added by counting it: at DB_SESSIONS sessions, sessions / tps is time per tx. */
  const perRequestUs = (/** @type {{ tps: number }} */ f) =>
    Math.round((DB_SESSIONS / f.tps - DB_SESSIONS / lookup.tps) * 1e6);
  return {
    sessions: DB_SESSIONS,
    keys: keyCount,
    lookup,
    unlogged: { ...unlogged, addedUs: perRequestUs(unlogged) },
    logged: { ...logged, addedUs: perRequestUs(logged) },
  };
}

/**
 * Bytes per item: the items table and its indexes, and every table holding an item's data, over the items held.
 * @param {import('postgres').Sql} admin
 */
async function databaseBytes(admin) {
  const [count] = await admin`SELECT count(*)::bigint AS n FROM items`;
  const items = Number(count?.n ?? 0);
  const tables = await admin`
    SELECT c.relname AS name, pg_table_size(c.oid)::bigint AS table_bytes, pg_indexes_size(c.oid)::bigint AS index_bytes,
           c.reltuples::bigint AS rows
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r'
    ORDER BY pg_total_relation_size(c.oid) DESC
  `;
  const [db] = await admin`SELECT pg_database_size(current_database())::bigint AS bytes`;
  const of = (/** @type {string} */ name) => tables.find((t) => t.name === name);
  const itemsTable = of('items');
  const perItem = (/** @type {number} */ bytes) => (items > 0 ? Math.round(bytes / items) : 0);
  return {
    items,
    itemsTableBytesPerItem: perItem(Number(itemsTable?.table_bytes ?? 0)),
    itemsIndexBytesPerItem: perItem(Number(itemsTable?.index_bytes ?? 0)),
    databaseBytesPerItem: perItem(Number(db?.bytes ?? 0)),
    databaseBytes: Number(db?.bytes ?? 0),
    tables: tables.slice(0, 12).map((t) => ({
      name: t.name,
      tableBytes: Number(t.table_bytes),
      indexBytes: Number(t.index_bytes),
      rows: Number(t.rows),
    })),
  };
}

/**
 * @param {{ cluster: import('./capture-all.mjs').Cluster, admin: import('postgres').Sql, pgbench: string,
 *   work: string, callers: Caller[], keyIds: string[], cleanup: Array<() => unknown> }} run
 */
export async function measureManyKeys({ cluster, admin, pgbench, work, callers, keyIds, cleanup }) {
  log(`many keys: the limiter's cost over ${MANY_KEYS.limiterKeys} keys (pgbench)`);
  const limiter = await limiterCost({
    admin,
    pgbench,
    database: { host: cluster.host, port: cluster.port },
    work,
    keyCount: MANY_KEYS.limiterKeys,
    policy: { maxRequests: MANY_KEYS.limit.maxRequests, windowMs: MANY_KEYS.limit.windowSeconds * 1000 },
  });
  const server = await startServer({
    main: MAIN,
    databaseUrl: cluster.url,
    port: await freePort(),
    workers: 1,
    logFile: join(work, 'server-many-keys.log'),
    // The API's own limit, which the server applies by default.
    unset: ['RATE_LIMIT_MAX_REQUESTS', 'RATE_LIMIT_WINDOW_SECONDS'],
  });
  cleanup.push(() => server.stop());
  try {
    await sleep(1000);
    const idleRssMB = Math.round(server.rssBytes() / 2 ** 20);
    let rssMax = 0;
    const sampler = setInterval(() => {
      rssMax = Math.max(rssMax, server.rssBytes());
    }, 250);
    const target = /** @type {Caller} */ (callers[0]);
    const common = {
      origin: server.origin,
      scenario: 'many-keys',
      warmupSeconds: FLOOR_WARMUP,
      durationSeconds: DURATION,
      cpu: { server: server.pid, database: await postmasterPid(admin) },
    };
    try {
      // Every integration has run before: one GET /me per key, at a pace that keeps few lookups in flight. From one
      // address, more than AUTH_FAILURE_LIMIT lookups of keys this process has not yet verified are refused with
      // 429 (the guard against clients cycling through made-up keys), which 1,000 new keys at once would meet.
      const warm = await openLoop({
        origin: server.origin,
        scenario: 'me',
        targets: callers,
        rate: 250,
        warmupSeconds: 0,
        durationSeconds: keyIds.length / 250,
      });
      log(`many keys: each key called once first (${JSON.stringify(warm.statuses)})`);
      log(`many keys: closed loop at ${CONNECTIONS} connections`);
      const closed = await load({ ...common, target, callers, connections: CONNECTIONS, warmupSeconds: WARMUP });
      const offered = MANY_KEYS.count * MANY_KEYS.perKeyPerSecond;
      log(`many keys: open loop at ${offered} req/s (${MANY_KEYS.count} keys × ${MANY_KEYS.perKeyPerSecond})`);
      const atTarget = await openLoop({ ...common, targets: callers, rate: offered });
      const most = Math.max(1, Math.round(closed.rps));
      log(`many keys: open loop at ${Math.round(most / 2)} req/s (half the most) and ${most} req/s (the most)`);
      const atHalf = await openLoop({ ...common, targets: callers, rate: Math.max(1, Math.round(most / 2)) });
      const atMost = await openLoop({ ...common, targets: callers, rate: most });
      return {
        keys: keyIds.length,
        workspaces: callers.length,
        warmStatuses: warm.statuses,
        limit: MANY_KEYS.limit,
        closed,
        openLoop: [
          { label: `${MANY_KEYS.count} keys × ${MANY_KEYS.perKeyPerSecond} req/s`, ...atTarget },
          { label: 'half the most', ...atHalf },
          { label: 'the most (closed loop)', ...atMost },
        ],
        limiter,
        rss: { idleMB: idleRssMB, maxMB: Math.round(rssMax / 2 ** 20) },
        database: await databaseBytes(admin),
      };
    } finally {
      clearInterval(sampler);
    }
  } finally {
    await server.stop();
  }
}
