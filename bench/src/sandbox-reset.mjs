import { execFile, execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import postgres from 'postgres';
import { findPostgresBin, startCluster } from './cluster.mjs';
import { createWorkspace } from './provision.mjs';
import { seed } from './seed.mjs';
import { log, seconds } from './util.mjs';

/**
 * `pnpm --filter @coinventory/bench sandbox-reset [-- --items=N]`: how long `coinventory-server sandbox reset --from
 * live` takes for a workspace of 100,000 items (test mode's copy of the live data), on the benchmark's PostgreSQL.
 *
 * The workspace is the main run's measured one (run.mjs), seeded the same way (seed.mjs): 100,000 coins with their
 * photos, a tenth valued with comparable sales, 2,000 consignments, 10,000 invoices with their lines and payments,
 * 2,000 marketplace listings (not copied). Then, through the built binary as an operator runs it:
 *
 * 1. the first reset from live (the workspace has no sandbox yet);
 * 2. a second one, which replaces the first (kept for the requests that may still read it);
 * 3. the deletion of that replaced sandbox, as the housekeeping pass makes it five minutes later (one transaction).
 *
 * Prints each step's time and the counts the reset reports, as one JSON object on stdout. Needs the server built
 * (`npx -y pnpm@10.34.8 build`); about five minutes here, most of it seeding.
 */

const MAIN = fileURLToPath(new URL('../../packages/server/dist/main.js', import.meta.url));
const run = promisify(execFile);

const { values } = parseArgs({ options: { items: { type: 'string', default: '100000' } } });
const ITEMS = Number(values.items);
if (!Number.isInteger(ITEMS) || ITEMS < 1) throw new Error(`--items must be a positive integer, not ${values.items}`);
/** The measured workspace's sales (run/options.mjs SALES), scaled to its size. */
const scale = ITEMS / 100_000;
const SALES = {
  consignments: Math.round(2_000 * scale),
  consignors: Math.max(1, Math.round(400 * scale)),
  invoices: Math.round(10_000 * scale),
  customers: Math.max(1, Math.round(2_500 * scale)),
  listings: Math.round(2_000 * scale),
};

/**
 * Runs an operator command with --json; returns its output and the wall time of the process (Node's start included).
 * @param {string} url
 * @param {string[]} args
 */
async function operator(url, args) {
  const started = performance.now();
  const { stdout } = await run(process.execPath, [MAIN, ...args, '--json'], {
    env: { PATH: process.env.PATH ?? '', DATABASE_URL: url, LOG_LEVEL: 'warn' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return { output: JSON.parse(stdout), wallMs: Math.round(performance.now() - started) };
}

async function main() {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the server first`);
  const bin = findPostgresBin();
  if (!bin) throw new Error('PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin, or set PG_BIN)');
  log(`PostgreSQL cluster from ${bin}`);
  const cluster = await startCluster(bin);
  try {
    execFileSync(process.execPath, [MAIN, 'migrate'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: cluster.url },
    });
    const workspace = await createWorkspace(MAIN, cluster.url, {
      slug: 'hartwell-rare-coins',
      name: 'Hartwell Rare Coins',
    });
    log(`seeding ${ITEMS.toLocaleString('en-US')} items`);
    const seeded = await seed(cluster.url, [{ ...workspace, items: ITEMS, sales: SALES }], { now: Date.now() });
    log(`seeded in ${seconds(seeded.ms)}: ${JSON.stringify(seeded.rows)}`);

    const reset = () => operator(cluster.url, ['sandbox', 'reset', '--org', workspace.slug, '--from', 'live']);
    log('sandbox reset --from live (no sandbox yet)');
    const first = await reset();
    log(`  ${first.output.elapsedMs} ms in the command, ${first.wallMs} ms for the process`);
    log('sandbox reset --from live again (replaces the first)');
    const second = await reset();
    log(`  ${second.output.elapsedMs} ms in the command, ${second.wallMs} ms for the process`);

    // What deleteReplacedSandboxes does to a replaced sandbox: the cascade through every table it holds rows of (and
    // the simulator's deliveries, none here).
    const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    let deleteMs;
    try {
      const started = performance.now();
      await sql`DELETE FROM organizations WHERE id = ${first.output.sandbox.id} AND sandbox_of IS NOT NULL`;
      deleteMs = Math.round(performance.now() - started);
    } finally {
      await sql.end({ timeout: 5 });
    }
    log(`  the replaced sandbox deleted in ${deleteMs} ms`);

    const result = {
      postgres: cluster.version,
      items: ITEMS,
      counts: second.output.counts,
      firstReset: { commandMs: first.output.elapsedMs, processMs: first.wallMs },
      secondReset: { commandMs: second.output.elapsedMs, processMs: second.wallMs },
      deleteReplacedMs: deleteMs,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    cluster.stop();
  }
}

await main();
