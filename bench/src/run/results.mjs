import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { TUNING } from '../cluster.mjs';
import { int, ms } from '../format.mjs';
import { bulkLines, bulkTargets, inventoryLines, inventoryTargets, markdownReport, targetsOf } from '../report.mjs';
import { baselineTable, CPU_NOTE, cpuCells, cpuTargets, processesLines, searchLines } from '../report-cpu.mjs';
import { DEEP_PAGE, FEED_PAGE, scenario } from '../scenarios.mjs';
import { SERVER_SETTINGS } from '../server.mjs';
import { log, seconds } from '../util.mjs';
import { machine, versions } from './environment.mjs';
import {
  BULK,
  CONNECTIONS,
  DB_SESSIONS,
  DURATION,
  FLOOR_WARMUP,
  INVENTORY,
  OTHERS,
  OUTPUT,
  PROCESSES,
  QUICK,
  SCALING_SCENARIOS,
  SEARCH,
  SIZES,
  WARMUP,
} from './options.mjs';

/** The run's figures as one JSON document with the targets judged from them, and the markdown table of it. */

/**
 * Writes the figures (OUTPUT, and the markdown beside it) and prints the markdown on stdout.
 * @param {{ started: number, postgres: string, pgbench: string, seeded: import('../seed.mjs').SeedResult,
 *   figures: Awaited<ReturnType<typeof import('./measure.mjs').measureScenarios>>['figures'],
 *   profile: import('./profile-step.mjs').Profile | null, bulk: import('./bulk-step.mjs').BulkFigures,
 *   manyKeys: Awaited<ReturnType<typeof import('./many-keys-step.mjs').measureManyKeys>>,
 *   inventory: import('./inventory-step.mjs').InventoryFigures,
 *   processes: import('./processes-step.mjs').ProcessFigures, search: import('./search-step.mjs').SearchFigures }} run
 */
export function writeReport({
  started,
  postgres,
  pgbench,
  seeded,
  figures,
  profile,
  bulk,
  manyKeys,
  inventory,
  processes,
  search,
}) {
  const { main, pages, scaling, workers, catchUp, baseline } = figures;
  const report = {
    ...header({ started, postgres, pgbench }),
    settings: {
      connections: CONNECTIONS,
      dbSessions: DB_SESSIONS,
      warmupSeconds: WARMUP,
      durationSeconds: DURATION,
      floorWarmupSeconds: FLOOR_WARMUP,
      loadGenerator: `autocannon in its own process, ${CONNECTIONS} keep-alive connections, no pipelining`,
      dbFloor: `pgbench -M prepared -j 2 over TCP, the captured statements of each scenario; main scenarios at -c ${DB_SESSIONS} (the server's pool) and -c ${CONNECTIONS} (the load's connections), the faster taken; deep pages and scaling at -c ${DB_SESSIONS}`,
      resourceFloor: `pgbench -M prepared -j 2, the fewest statements that answer each scenario without authentication or counting (resource-floor.mjs), at -c ${DB_SESSIONS} and -c ${CONNECTIONS}, the faster taken`,
      httpFloor: 'a bare node:http server (one process) sending the captured response bytes',
      openLoop:
        'open-loop.mjs in its own process: requests evenly spaced at a fixed rate on up to 256 keep-alive connections, latency from when each was due',
      server: { ...SERVER_SETTINGS, WEB_CONCURRENCY: '1 (2 in the workers table)', SYNC_WORKER: 'on' },
      postgres: TUNING,
      cores: 'the load generator, the server and PostgreSQL share the same cores',
      cpu: 'server and DB CPU per request: utime + stime (children reaped included) from /proc over the measured run, of the server process tree and of every process of the PostgreSQL cluster, divided by the requests answered',
      processes: PROCESSES,
      search: SEARCH,
      bulk: BULK,
      inventory: INVENTORY,
    },
    seed: seedOf(seeded),
    scenarios: main,
    deepPages: [...pages, { page: DEEP_PAGE.page, ...pick(main, 'items-deep') }],
    scaling: [
      ...scaling,
      ...SCALING_SCENARIOS.map((name) => ({
        size: SIZES.measured,
        scenario: name,
        label: scenario(name).label,
        ...pick(main, name),
      })),
    ],
    workers,
    changesFeed: changesFeedOf(main, catchUp),
    profile,
    manyKeys,
    baseline,
    processes,
    search,
    inventory,
    bulk,
  };
  const withTargets = { ...report, targets: targetsOf(report) };
  write(withTargets, markdownReport(withTargets), started);
}

/**
 * `--only=bulk`: the bulk part's figures and targets alone, with the machine and versions (in OUTPUT, by default
 * results/bulk-only.json, so the full run's latest.json stays as it was).
 * @param {{ started: number, postgres: string, pgbench: string, seeded: import('../seed.mjs').SeedResult,
 *   bulk: import('./bulk-step.mjs').BulkFigures }} run
 */
export function writeBulkReport({ started, postgres, pgbench, seeded, bulk }) {
  const report = {
    ...header({ started, postgres, pgbench }),
    only: 'bulk',
    settings: { server: SERVER_SETTINGS, postgres: TUNING, bulk: BULK },
    seed: seedOf(seeded),
    bulk,
  };
  const targets = bulkTargets(bulk);
  const markdown = [
    `### Benchmark ${report.date.slice(0, 10)}, the bulk part alone (--only=bulk${QUICK ? ', --quick: a tenth of the data' : ''})`,
    '',
    `${machineLine(report)} ${sameData(seeded)}; whole run ${report.wallSeconds} s.`,
    ...bulkLines(bulk),
    ...targetsTable(targets),
  ].join('\n');
  write({ ...report, targets }, markdown, started);
}

/**
 * `--only=inventory`: the inventory part's figures and targets alone, with the machine and versions (in OUTPUT, by
 * default results/inventory-only.json). Nothing is seeded: the part runs in an organization of its own.
 * @param {{ started: number, postgres: string, pgbench: string,
 *   inventory: import('./inventory-step.mjs').InventoryFigures }} run
 */
export function writeInventoryReport({ started, postgres, pgbench, inventory }) {
  const report = {
    ...header({ started, postgres, pgbench }),
    only: 'inventory',
    settings: { ...partSettings(), inventory: INVENTORY },
    inventory,
  };
  const targets = inventoryTargets(inventory);
  const markdown = [
    `### Benchmark ${report.date.slice(0, 10)}, the inventory part alone (--only=inventory${QUICK ? ', --quick: smaller sizes' : ''})`,
    '',
    `${machineLine(report)} No seeded data: an organization of its own; ` +
      `${WARMUP} s warm-up and ${DURATION} s per closed-loop run; whole run ${report.wallSeconds} s.`,
    ...inventoryLines(inventory, CONNECTIONS),
    ...targetsTable(targets),
  ].join('\n');
  write({ ...report, targets }, markdown, started);
}

/**
 * `--only=cpu`: the reads on the server alone with CPU per request, the baseline beside with --baseline, one key,
 * --scaling's processes and the search at scale, with their targets (in OUTPUT, by default results/cpu-only.json).
 * @param {{ started: number, postgres: string, pgbench: string, seeded: import('../seed.mjs').SeedResult,
 *   figures: Awaited<ReturnType<typeof import('./measure.mjs').measureServerOnly>>['figures'],
 *   processes: import('./processes-step.mjs').ProcessFigures, search: import('./search-step.mjs').SearchFigures }} run
 */
export function writeCpuReport({ started, postgres, pgbench, seeded, figures, processes, search }) {
  const report = {
    ...header({ started, postgres, pgbench }),
    only: 'cpu',
    settings: { ...partSettings(), processes: PROCESSES, search: SEARCH },
    seed: seedOf(seeded),
    scenarios: figures.main,
    baseline: figures.baseline,
    processes,
    search,
  };
  const targets = cpuTargets(report);
  const markdown = [
    `### Benchmark ${report.date.slice(0, 10)}, CPU per request alone (--only=cpu${QUICK ? ', --quick: a tenth of the data' : ''})`,
    '',
    `${machineLine(report)} ${sameData(seeded)}; ${CONNECTIONS} connections, ${WARMUP} s warm-up and ${DURATION} s ` +
      `per run, one process; no floors; whole run ${report.wallSeconds} s.`,
    '',
    '| Scenario | req/s | p50 ms | p99 ms | errors | server CPU ms/req | DB CPU ms/req | RSS MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...figures.main.map(
      (r) =>
        `| ${r.label} | ${int(r.server.rps)} | ${ms(r.server.p50Ms)} | ${ms(r.server.p99Ms)} | ${r.server.errors} | ` +
        `${cpuCells(r.server)} | ${r.server.rssMaxMB} |`,
    ),
    '',
    CPU_NOTE,
    ...(figures.baseline
      ? [
          '',
          `**Before and after** (\`--baseline\`: ${figures.baseline.main}):`,
          '',
          ...baselineTable(figures.baseline.rows),
        ]
      : []),
    ...processesLines(processes),
    ...searchLines(search),
    ...targetsTable(targets),
  ].join('\n');
  write({ ...report, targets }, markdown, started);
}

/** The load's, the server's and PostgreSQL's settings, as a part's report states them. */
function partSettings() {
  return {
    connections: CONNECTIONS,
    warmupSeconds: WARMUP,
    durationSeconds: DURATION,
    server: SERVER_SETTINGS,
    postgres: TUNING,
  };
}

/**
 * The machine and the versions, as a part's report states them.
 * @param {ReturnType<typeof header>} report
 */
function machineLine(report) {
  const m = report.machine;
  return (
    `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Linux ${m.kernel} (${m.os}). Node ${report.versions.node}, ` +
    `${report.versions.postgres}, commit ${report.versions.commit}.`
  );
}

/**
 * A part run on the full run's data set says so.
 * @param {import('../seed.mjs').SeedResult} seeded
 */
const sameData = (seeded) =>
  `The same data set as the full run (${int(seeded.rows.items ?? 0)} items, seeded in ${seconds(seeded.ms)})`;

/**
 * The targets as a part's report ends.
 * @param {import('../report.mjs').Target[]} targets
 */
function targetsTable(targets) {
  return [
    '',
    '| Target | Scenario | Measured | Met |',
    '| --- | --- | --- | :---: |',
    ...targets.map((t) => `| ${t.target} | ${t.scenario} | ${t.measured} | ${t.met ? 'yes' : '**no**'} |`),
    '',
  ];
}

/** @param {{ started: number, postgres: string, pgbench: string }} run */
function header({ started, postgres, pgbench }) {
  return {
    date: new Date().toISOString(),
    wallSeconds: Math.round((Date.now() - started) / 1000),
    quick: QUICK,
    machine: machine(),
    versions: versions({ postgres, pgbench }),
  };
}

/** @param {import('../seed.mjs').SeedResult} seeded */
function seedOf(seeded) {
  return {
    seconds: Math.round(seeded.ms / 100) / 10,
    rows: seeded.rows,
    phasesMs: seeded.phasesMs,
    workspaces: {
      measured: SIZES.measured,
      scaling: [SIZES.small, SIZES.measured, SIZES.large],
      others: `${OTHERS.count} workspaces holding ${OTHERS.items.toLocaleString('en-US')} items`,
    },
  };
}

/**
 * Writes the JSON (OUTPUT) and the markdown beside it, and prints the markdown on stdout.
 * @param {object} json
 * @param {string} markdown
 * @param {number} started
 */
function write(json, markdown, started) {
  // --output may name a directory that does not exist yet: found out only at the end of a long run otherwise.
  mkdirSync(dirname(OUTPUT), { recursive: true });
  writeFileSync(OUTPUT, `${JSON.stringify(json, null, 2)}\n`);
  writeFileSync(OUTPUT.replace(/\.json$/, '.md'), markdown);
  process.stdout.write(markdown);
  log(`done in ${seconds(Date.now() - started)}; figures in ${OUTPUT}`);
}

/**
 * The changes feed's figures: the `changes` scenario's throughput in changes (each of its responses is a full
 * page, checked at capture), and the consumer's catch-up.
 * @param {Array<{ name: string, label: string, server: import('./measure.mjs').ServerFigures, dbFloor: import('./measure.mjs').DbFigures }>} main
 * @param {import('./feed-step.mjs').CatchUp} catchUp
 * @returns {import('../report.mjs').ChangesFeed}
 */
function changesFeedOf(main, catchUp) {
  const row = main.find((m) => m.name === 'changes');
  if (!row) throw new Error('no figures for changes');
  return {
    scenario: row.name,
    label: row.label,
    changesPerPage: FEED_PAGE,
    changesPerSecond: Math.round(row.server.rps * FEED_PAGE),
    dbFloorChangesPerSecond: Math.round(row.dbFloor.tps * FEED_PAGE),
    catchUp,
  };
}

/**
 * The server and database figures of a main scenario.
 * @param {Array<{ name: string, server: import('./measure.mjs').ServerFigures, dbFloor: import('./measure.mjs').DbFigures }>} main
 * @param {string} name
 */
function pick(main, name) {
  const found = main.find((m) => m.name === name);
  if (!found) throw new Error(`no figures for ${name}`);
  return { server: found.server, dbFloor: found.dbFloor };
}
