import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import postgres from 'postgres';
import { findPostgresBin, startCluster } from './cluster.mjs';
import { createWorkspace } from './provision.mjs';
import { prepareBaseline } from './run/baseline-step.mjs';
import { measureBulkAlone, measureBulkWrites } from './run/bulk-step.mjs';
import { captureScenarios } from './run/capture-all.mjs';
import { prepareFeed } from './run/feed-step.mjs';
import { measureInventory } from './run/inventory-step.mjs';
import { measureManyKeys, provisionManyKeys } from './run/many-keys-step.mjs';
import { measureScenarios, measureServerOnly } from './run/measure.mjs';
import { BASELINE, MAIN, MANY_KEYS, ONLY, OTHERS, PROCESSES, PROFILE, SALES, SIZES, tail } from './run/options.mjs';
import { measureProcesses } from './run/processes-step.mjs';
import { profileScenario } from './run/profile-step.mjs';
import { writeBulkReport, writeCpuReport, writeInventoryReport, writeReport } from './run/results.mjs';
import { measureSearch } from './run/search-step.mjs';
import { seed } from './seed.mjs';
import { log, seconds } from './util.mjs';

/**
 * `pnpm bench`: every endpoint against the machine's own limits, in one run.
 *
 * 1. A PostgreSQL cluster of its own (this machine's binaries), migrated by the server, workspaces made by the
 *    operator commands, the data set loaded by COPY.
 * 2. A batch of changes through the API for the changes scenario; then a capture run: one request per scenario with
 *    every statement logged, giving the SQL the pgbench floor replays and the response bytes the HTTP floor sends.
 * 3. Per scenario, back to back so the machine's noise hits all three alike: the real server under autocannon,
 *    pgbench on the scenario's SQL, a bare node:http server sending the same bytes, all at one concurrency.
 * 4. A consumer of the changes feed catching up after 100 changes and the measured workspace's export; scaling
 *    (workspaces of 10,000 and 1,000,000 items, and deeper pages), one against two server processes, and with
 *    --profile a CPU profile of the slowest scenario. Every measurement of the server reads its CPU and PostgreSQL's
 *    per request from /proc (cpu.mjs).
 * 4b. One key saturating one process, and with --scaling the server at 1, 2, 4 … nproc processes with many keys
 *    (processes-step.mjs); the search at 1,000,000 items with its plan (search-step.mjs); each on the baseline build
 *    too with --baseline.
 * 5. Selling in several places (inventory-step.mjs), in an organization of its own: adjustments per second on one item
 *    and on many, 50 concurrent sellers of 10 units, and 10,000 holds due at once given back by the expiry worker.
 * 6. Bulk writes in workspaces of their own: batches of 100 with the limit raised, and the CLI's import of a
 *    10,000-row CSV under the real limit.
 * 7. A markdown table on stdout, everything in bench/results/latest.json.
 *
 * The steps live in run/: the options (options.mjs), the changes feed's batch and catch-up (feed-step.mjs), the
 * capture run (capture-all.mjs), the measurements (measure.mjs), the profile (profile-step.mjs), the bulk part
 * (bulk-step.mjs), the inventory part (inventory-step.mjs) and the report (results.mjs). `--only=bulk` seeds the same
 * data and runs the bulk part alone; `--only=inventory` runs the inventory part alone, without seeding; `--only=cpu`
 * seeds the same data and runs the reads on the server alone, the baseline, one key, --scaling and the search.
 */

async function main() {
  const started = Date.now();
  /** @type {Array<() => unknown>} */
  const cleanup = [];
  const work = mkdtempSync(join(tmpdir(), 'coinventory-bench-'));
  // BENCH_KEEP_WORK=1 keeps the server logs and pgbench scripts for a look after the run.
  if (process.env.BENCH_KEEP_WORK) log(`work directory ${work} is kept`);
  else cleanup.push(() => rmSync(work, { recursive: true, force: true }));
  const onSignal = () => {
    for (const step of cleanup.reverse()) {
      try {
        step();
      } catch {}
    }
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: build the server first (pnpm bench does)`);
    const bin = findPostgresBin();
    if (!bin) throw new Error('PostgreSQL server binaries not found (/usr/lib/postgresql/*/bin, or set PG_BIN)');
    const pgbench = [join(bin, 'pgbench'), '/usr/bin/pgbench'].find((p) => existsSync(p));
    if (!pgbench) throw new Error(`pgbench not found in ${bin} or /usr/bin`);
    // First, so that a baseline that does not build stops the run before anything is measured.
    const baseline = BASELINE && ONLY !== 'bulk' ? prepareBaseline(BASELINE) : null;

    log(`PostgreSQL cluster from ${bin}`);
    const cluster = await startCluster(bin);
    cleanup.push(() => cluster.stop());
    execFileSync(process.execPath, [MAIN, 'migrate'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: cluster.url },
    });

    if (ONLY === 'inventory') {
      // Its own organization and nothing else: no seeding.
      const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
      cleanup.push(() => admin.end({ timeout: 1 }));
      const inventory = await measureInventory({ databaseUrl: cluster.url, admin, work, cleanup });
      writeInventoryReport({ started, postgres: cluster.version, pgbench, inventory });
      return;
    }

    log('workspaces through the operator commands');
    const [measured, small, large] = await Promise.all([
      createWorkspace(MAIN, cluster.url, { slug: 'hartwell-rare-coins', name: 'Hartwell Rare Coins' }),
      createWorkspace(MAIN, cluster.url, { slug: 'corner-coin-shop', name: 'Corner Coin Shop' }),
      createWorkspace(MAIN, cluster.url, { slug: 'national-bullion-exchange', name: 'National Bullion Exchange' }),
    ]);
    if (!measured || !small || !large) throw new Error('workspaces missing');
    const others = tail(OTHERS.count, OTHERS.items).map((items, i) => ({
      slug: `dealer-${String(i + 1).padStart(3, '0')}`,
      name: `Dealer ${i + 1} Numismatics`,
      items,
    }));
    log(
      `seeding ${(SIZES.measured + SIZES.small + OTHERS.items + SIZES.large).toLocaleString('en-US')} items (this takes a few minutes)`,
    );
    const seeded = await seed(
      cluster.url,
      [
        { ...measured, items: SIZES.measured, sales: SALES },
        { ...small, items: SIZES.small },
        ...others,
        { ...large, items: SIZES.large },
      ],
      { now: Date.now() },
    );
    log(`seeded in ${seconds(seeded.ms)}: ${JSON.stringify(seeded.rows)}`);

    /** @type {Record<string, import('./scenarios.mjs').Target>} */
    const targets = {
      small: { slug: small.slug, key: small.key, items: SIZES.small, listings: 0 },
      measured: {
        slug: measured.slug,
        key: measured.key,
        items: SIZES.measured,
        // Item n = 50k + 7 has a listing (seed.mjs), for as many k as the workspace has items.
        listings: Math.min(SALES.listings, Math.floor(SIZES.measured / 50)),
      },
      large: { slug: large.slug, key: large.key, items: SIZES.large, listings: 0 },
    };
    const measuredTarget = /** @type {import('./scenarios.mjs').Target} */ (targets.measured);
    if (ONLY === 'bulk') {
      const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
      cleanup.push(() => admin.end({ timeout: 1 }));
      const bulk = await measureBulkAlone({ databaseUrl: cluster.url, admin, work, target: measuredTarget, cleanup });
      writeBulkReport({ started, postgres: cluster.version, pgbench, seeded, bulk });
      return;
    }
    // Before the capture run, which captures the page after this cursor.
    measuredTarget.changesAfter = await prepareFeed({ databaseUrl: cluster.url, work, target: measuredTarget });

    // --- Capture, measurements, profile, report. ------------------------------------------------------------
    const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
    cleanup.push(() => admin.end({ timeout: 1 }));
    const captures = await captureScenarios({ cluster, admin, work, targets });
    const run = { cluster, admin, pgbench, work, targets, captures, cleanup, baseline };
    /**
     * One key and --scaling's processes, then the search at scale, on every build.
     * @param {Pick<Awaited<ReturnType<typeof measureScenarios>>, 'startMeasuredServer' | 'measureServer' | 'measureRate'>} measurement
     */
    const cpuSteps = async (measurement) => ({
      processes: await measureProcesses({
        admin,
        baseline,
        callers: PROCESSES.scaling
          ? (
              await provisionManyKeys(admin, [{ slug: measured.slug, items: SIZES.measured }], {
                count: PROCESSES.keys,
                ownerEmail: measured.ownerEmail,
              })
            ).callers
          : null,
        measurement,
      }),
      search: await measureSearch({
        admin,
        baseline,
        cluster,
        work,
        captures,
        target: /** @type {import('./scenarios.mjs').Target} */ (targets.large),
        measurement,
      }),
    });
    if (ONLY === 'cpu') {
      const measurement = await measureServerOnly(run);
      const { processes, search } = await cpuSteps(measurement);
      writeCpuReport({
        started,
        postgres: cluster.version,
        pgbench,
        seeded,
        figures: measurement.figures,
        processes,
        search,
      });
      return;
    }
    const measurement = await measureScenarios(run);
    const { figures } = measurement;
    const profile = PROFILE
      ? await profileScenario(PROFILE, { main: figures.main, admin, captures, measurement })
      : null;
    const { processes, search } = await cpuSteps(measurement);
    log(`many keys: ${MANY_KEYS.count} keys over the workspaces with API access`);
    const { callers, keyIds } = await provisionManyKeys(
      admin,
      [
        { slug: measured.slug, items: SIZES.measured },
        { slug: small.slug, items: SIZES.small },
        { slug: large.slug, items: SIZES.large },
        ...others,
      ],
      { count: MANY_KEYS.count, ownerEmail: measured.ownerEmail },
    );
    const manyKeys = await measureManyKeys({ cluster, admin, pgbench, work, callers, keyIds, cleanup });
    const inventory = await measureInventory({ databaseUrl: cluster.url, admin, work, cleanup });
    const bulkWrites = await measureBulkWrites({ databaseUrl: cluster.url, work, cleanup });
    writeReport({
      started,
      postgres: cluster.version,
      pgbench,
      seeded,
      figures,
      profile,
      processes,
      search,
      manyKeys,
      inventory,
      bulk: { export: figures.exports, ...bulkWrites },
    });
  } finally {
    for (const step of cleanup.reverse()) {
      try {
        await step();
      } catch (error) {
        log(`cleanup: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
