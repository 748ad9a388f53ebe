import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { RATE_LIMIT } from '@coinventory/contract';
import { TUNING } from '../cluster.mjs';
import { INVENTORY_SCENARIO_NAMES, scenario } from '../scenarios.mjs';
import { SERVER_SETTINGS } from '../server.mjs';

/** The run's options (read once, at start) and the sizes of what it seeds and measures. */

const USAGE = `usage: pnpm bench [--] [--quick] [--connections=N] [--duration=S] [--warmup=S]
                  [--profile=<scenario> | --no-profile] [--output=<file.json>] [--main=<dist/main.js>]
                  [--only=bulk|inventory|cpu] [--cli=<bin/coinventory.js>] [--baseline=<dist/main.js | commit>]
                  [--baseline-rounds=N] [--baseline-scenarios=<scenario>,...]
                  [--scaling] [--search-scale] [--search-rate=N]
(bench/README.md says what each option does)`;

/** The parts `--only` runs alone. */
const ONLY_PARTS = ['bulk', 'inventory', 'cpu'];

/** The options, read leniently about one thing: `pnpm bench -- --quick` hands the script its `--` too. */
function readArgs() {
  const argv = process.argv.slice(2);
  try {
    const { values } = parseArgs({
      args: argv[0] === '--' ? argv.slice(1) : argv,
      options: {
        // The scenario to profile with node --cpu-prof (default: the slowest); --no-profile skips the profile.
        profile: { type: 'string' },
        'no-profile': { type: 'boolean', default: false },
        quick: { type: 'boolean', default: false },
        connections: { type: 'string', default: '32' },
        duration: { type: 'string', default: '6' },
        warmup: { type: 'string', default: '2' },
        output: { type: 'string' },
        // Another build of the server to measure (its dist/main.js), e.g. a checkout of an earlier commit.
        main: { type: 'string' },
        // One part of the run alone: `bulk` (export, batches, the CLI's import) on the same data, `inventory`
        // (adjustments, concurrent sellers, reservation expiry) in its own organization, without the seeded data,
        // `cpu` (the reads on the server alone with CPU per request, one key, --scaling, the search at scale).
        only: { type: 'string' },
        // The CLI the import runs (its bin/coinventory.js, or a build's dist/coinventory.js).
        cli: { type: 'string' },
        // An earlier build of the server (its dist/main.js, or a commit to build), measured beside this one.
        baseline: { type: 'string' },
        // How many times the baseline and this build alternate, and on which scenarios.
        'baseline-rounds': { type: 'string', default: '2' },
        'baseline-scenarios': { type: 'string', default: 'me,items,item' },
        // The server at 1, 2, 4 … nproc processes with many keys (run/processes-step.mjs).
        scaling: { type: 'boolean', default: false },
        // --quick: the search workspace at its full 1,000,000 items anyway (the full run always has them).
        'search-scale': { type: 'boolean', default: false },
        // The open loop's rate of the search at scale, the same for every build.
        'search-rate': { type: 'string', default: '25' },
      },
      allowPositionals: false,
    });
    for (const name of /** @type {const} */ (['connections', 'duration', 'warmup', 'baseline-rounds', 'search-rate'])) {
      const value = values[name];
      const min = name === 'warmup' ? 0 : 1;
      if (!/^\d+$/.test(value) || Number(value) < min) {
        throw new Error(`--${name} must be a whole number${min ? ' of at least 1' : ''}, not "${value}"`);
      }
    }
    // Checked now rather than after ten minutes of measuring.
    for (const name of [
      ...(values.profile === undefined ? [] : [values.profile]),
      ...values['baseline-scenarios'].split(','),
    ]) {
      scenario(name);
      if (INVENTORY_SCENARIO_NAMES.includes(name)) {
        throw new Error(`${name} is measured by the inventory step only: it has no capture to profile or compare`);
      }
    }
    if (values.only !== undefined && !ONLY_PARTS.includes(values.only)) {
      throw new Error(`--only takes one of ${ONLY_PARTS.join(', ')}, not "${values.only}"`);
    }
    return values;
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
}
const args = readArgs();

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const MAIN = args.main ?? join(ROOT, 'packages/server/dist/main.js');
export const RESULTS = join(ROOT, 'bench/results');
export const CONNECTIONS = Number(args.connections);
export const DURATION = Number(args.duration);
export const WARMUP = Number(args.warmup);
// The floors need less warming: pgbench has no JIT to warm and the bare server has nothing to cache.
export const FLOOR_WARMUP = Math.min(1, WARMUP);
/** --quick: a tenth of the data and short runs, to try the harness; its figures are not the benchmark's. */
export const QUICK = args.quick === true;
export const SCALE = QUICK ? 0.1 : 1;
export const PROFILE = args['no-profile'] ? null : (args.profile ?? 'slowest');
/**
 * --only=<part>: that part alone (its figures go to <part>-only.json, not latest.json): `bulk` on the same data set,
 * `inventory` in its own organization without seeding, `cpu` on the same data set.
 */
export const ONLY = /** @type {'bulk' | 'inventory' | 'cpu' | null} */ (args.only ?? null);
/** Where the figures go (the markdown goes beside it). */
export const OUTPUT =
  args.output ??
  join(RESULTS, `${ONLY ? `${ONLY}-only` : QUICK ? 'quick' : 'latest'}${ONLY && QUICK ? '-quick' : ''}.json`);
/** The CLI whose `items import` is measured. */
export const CLI = args.cli ?? join(ROOT, 'packages/cli/bin/coinventory.js');

/**
 * pgbench sessions: as many as the server has database connections, so PostgreSQL sees the same concurrency from
 * the floor as from the server (the server never has more statements in flight than its pool).
 */
export const DB_SESSIONS = Number(SERVER_SETTINGS.DATABASE_POOL_SIZE);

/**
 * --search-scale: the large workspace at 1,000,000 items in a --quick run too (a minute or two more of seeding), for
 * the search at scale; a full run always seeds it so.
 */
export const SEARCH_SCALE = args['search-scale'] === true;
/**
 * The measured workspace and the two scaling ones (the large one is also the search at scale's); ninety-eight more
 * hold the rest of the first million.
 */
export const SIZES = {
  small: 10_000 * SCALE,
  measured: 100_000 * SCALE,
  large: SEARCH_SCALE ? 1_000_000 : 1_000_000 * SCALE,
};
export const OTHERS = { count: 98, items: 890_000 * SCALE };
export const SALES = { consignments: 2_000, consignors: 400, invoices: 10_000, customers: 2_500, listings: 2_000 };
export const SCALING_SCENARIOS = ['items', 'items-q', 'items-status-value', 'item'];
export const DEEP_PAGES = [1, 20, 200];
export const WORKER_SCENARIOS = ['me', 'items', 'item', 'mixed'];
/**
 * The many-keys part (run/many-keys-step.mjs): `count` keys spread over the workspaces with API access, each sending
 * `perKeyPerSecond` (the API's limit allows 2 per second) under the API's real limit; the limiter's pgbench uses
 * `limiterKeys` fresh key ids per variant, so that no key of its own comes near the limit either.
 */
export const MANY_KEYS = {
  count: 1_000,
  perKeyPerSecond: RATE_LIMIT.maxRequests / RATE_LIMIT.windowSeconds,
  limit: RATE_LIMIT,
  limiterKeys: 4_000,
};
/**
 * --baseline=<dist/main.js | commit>: an earlier build measured in the same run (run/baseline-step.mjs), on
 * BASELINE_SCENARIOS (GET /me and GET /items/{id} unless --baseline-scenarios says otherwise), alternating with
 * this build BASELINE_ROUNDS times.
 */
export const BASELINE = args.baseline ?? null;
export const BASELINE_SCENARIOS = args['baseline-scenarios'].split(',');
export const BASELINE_ROUNDS = Number(args['baseline-rounds']);

/**
 * CPU per request by process count and one key's ceiling (run/processes-step.mjs), at `connections` connections:
 * - `--scaling`: the server at each of `processes` (WEB_CONCURRENCY 1, 2, 4 … up to the machine's cores, the cores
 *   last) on `scenarios`, the load spread over `keys` keys of the measured workspace;
 * - always: one process, every connection on the measured workspace's one key, on `oneKey`.
 */
export const PROCESSES = {
  scaling: args.scaling === true,
  processes: processCounts(Math.min(availableParallelism(), maxProcesses())),
  keys: 24,
  connections: 128,
  scenarios: ['me', 'items', 'item'],
  oneKey: ['me', 'item'],
};

/**
 * The most processes the scaling may start: each holds DB_SESSIONS connections, and the cluster takes
 * max_connections (a few kept for the run's own sessions); the server takes 64 at most (WEB_CONCURRENCY).
 */
function maxProcesses() {
  return Math.min(64, Math.floor((Number(TUNING.max_connections) - 8) / DB_SESSIONS));
}

/**
 * 1, 2, 4 … below `cores`, then `cores` itself.
 * @param {number} cores
 */
function processCounts(cores) {
  const counts = [];
  for (let n = 1; n < cores; n *= 2) counts.push(n);
  counts.push(cores);
  return counts;
}

/**
 * The search at scale (run/search-step.mjs): `GET /items?q=1881-S` in the large workspace (1,000,000 items in a full
 * run or with --search-scale), the closed loop and then an open loop at `rate` requests/s, the same for every build,
 * and the plan of its statement (EXPLAIN (ANALYZE, BUFFERS)).
 */
export const SEARCH = { scenario: 'items-q', target: 'large', rate: Number(args['search-rate']) };
/**
 * The changes feed (run/feed-step.mjs): the batch the `changes` scenario reads, more than a page (FEED_PAGE, 100)
 * so its page is full; and the consumer's catch-up, 100 changes, then its request repeated for the latency. Both
 * mostly update items, with a few items created and deleted again.
 */
export const FEED = {
  batch: { changes: 120, creates: 5 },
  catchUp: { changes: 100, creates: 3, repeats: 20 },
};

/**
 * The bulk part (run/bulk-step.mjs): the measured workspace's export, read in full 3 times per format with the
 * server's memory sampled every 50 ms, and by a slow reader (1 MB/s) that means to leave after 15 s; batches of 100 (a warm-up, 40 from one
 * client, 10 from each of 4 clients on one workspace and on four, 40 upserting the first client's items again:
 * 16,500 items written in workspaces of their own); and the CLI's import of a 10,000-row CSV under the real limit,
 * on PostgreSQL and on the embedded database.
 */
export const BULK = {
  export: { repeats: 3, sampleMs: 50, slowReader: { bytesPerSecond: 1 * 2 ** 20, seconds: 15 } },
  batch: { size: 100, warmup: 5, sequential: QUICK ? 10 : 40, concurrent: { clients: 4, batches: QUICK ? 3 : 10 } },
  import: { rows: QUICK ? 2_000 : 10_000, embedded: true, timeoutSeconds: 600 },
};

/**
 * Sizes of the other workspaces: a long tail, as a SaaS's customers are, adding up to exactly `total`.
 * @param {number} count
 * @param {number} total
 */
export function tail(count, total) {
  const weights = Array.from({ length: count }, (_, i) => 1 / (i + 8) ** 0.9);
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(1, Math.floor((w / sum) * total)));
  sizes[0] = (sizes[0] ?? 0) + total - sizes.reduce((a, b) => a + b, 0);
  return sizes;
}

/**
 * The inventory part (run/inventory-step.mjs), in an organization of its own made with the operator commands, its
 * items made through the API (`POST /v1/items/batch`), against a server with the measuring settings (the limit raised)
 * and its expiry worker on (SYNC_WORKER=on, every RESERVATION_EXPIRY_INTERVAL_MS):
 * - adjustments (`{ available: -1, sold: 1, reason: 'sale' }`) under the closed loop, on one item and on `items`
 *   items in turn, each with `stock` units so that no sale is refused;
 * - `sellers.rounds` rounds of `sellers.sellers` concurrent sellers of an item of `sellers.units` units, each a
 *   fresh item, after one round of warm-up;
 * - `expiry.holds` holds of one unit (`expiry.perItem` per item), made through the API by `expiry.clients` clients at
 *   once, then made due in the database, until the server's worker has given every one back (at most
 *   `expiry.timeoutSeconds`).
 */
export const INVENTORY = {
  items: QUICK ? 200 : 2_000,
  stock: 1_000_000,
  sellers: { rounds: QUICK ? 2 : 5, sellers: 50, units: 10 },
  expiry: { holds: QUICK ? 1_000 : 10_000, perItem: 5, clients: 32, timeoutSeconds: 900, intervalMs: 1_000 },
};
