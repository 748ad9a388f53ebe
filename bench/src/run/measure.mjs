import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hashKey } from '@coinventory/server/demo-data';
import { postmasterPid } from '../cpu.mjs';
import { runPgbench } from '../pgbench.mjs';
import { resourceScript } from '../resource-floor.mjs';
import { MIX, MIXED, pageScenario, SCENARIOS, scenario } from '../scenarios.mjs';
import { startServer } from '../server.mjs';
import { freePort, log, sleep } from '../util.mjs';
import { measureBaseline } from './baseline-step.mjs';
import { measureExports } from './bulk-step.mjs';
import { measureCatchUp } from './feed-step.mjs';
import { load, openLoop } from './generators.mjs';
import {
  CONNECTIONS,
  DB_SESSIONS,
  DEEP_PAGES,
  DURATION,
  FLOOR_WARMUP,
  MAIN,
  SCALING_SCENARIOS,
  WARMUP,
  WORKER_SCENARIOS,
} from './options.mjs';

/**
 * The three measurements of a scenario, all at one concurrency: the real server under the load generator, the
 * database floor (pgbench on the captured SQL) and the HTTP floor (a bare node:http server sending the captured
 * bytes).
 */

/**
 * @typedef {import('../load.mjs').LoadResult & { rssMaxMB: number }} ServerFigures
 * @typedef {import('../pgbench.mjs').PgbenchResult} DbFigures
 * @typedef {import('../load.mjs').LoadResult} HttpFigures
 */

/**
 * @param {{ cluster: import('./capture-all.mjs').Cluster, admin: import('postgres').Sql, pgbench: string,
 *   work: string, targets: Record<string, import('../scenarios.mjs').Target>,
 *   captures: import('./capture-all.mjs').Captures, cleanup: Array<() => unknown>,
 *   baseline?: import('./baseline-step.mjs').BaselineBuild | null }} run
 */
async function measurements({ cluster, admin, pgbench, work, targets, captures, cleanup }) {
  const { scriptsOf, routesOf } = captures;
  const postmaster = await postmasterPid(admin);
  /** Whose CPU a measurement of `running` reads. @param {import('../server.mjs').RunningServer} running */
  const cpuOf = (running) => ({ server: running.pid, database: postmaster });
  let runs = 0;
  /** @type {import('../server.mjs').RunningServer | null} */
  let server = null;
  const serverPort = await freePort();
  /** @param {number} workers @param {string} [profileDir] @param {string} [main] another build */
  const startMeasuredServer = async (workers, profileDir, main = MAIN) => {
    runs += 1;
    server = await startServer({
      main,
      databaseUrl: cluster.url,
      port: serverPort,
      workers,
      logFile: join(work, `server-${runs}.log`),
      ...(profileDir ? { cpuProfileDir: profileDir } : {}),
    });
    cleanup.push(() => server?.stop());
    return server;
  };
  /**
   * The server under the closed loop, its CPU and PostgreSQL's per request beside (ServerFigures.cpu). `options`
   * changes the load's connections, or spreads it over `callers` (workspaces with many keys each) instead of the
   * target's one key.
   * @param {import('../server.mjs').RunningServer} running @param {string} targetName @param {string} name
   * @param {{ connections?: number, callers?: Array<import('../scenarios.mjs').Target & { keys: string[] }> }} [options]
   */
  const measureServer = async (running, targetName, name, options = {}) => {
    let rssMax = 0;
    const sampler = setInterval(() => {
      rssMax = Math.max(rssMax, running.rssBytes());
    }, 250);
    try {
      const figures = await load({
        origin: running.origin,
        scenario: name,
        target: /** @type {import('../scenarios.mjs').Target} */ (targets[targetName]),
        ...(options.callers ? { callers: options.callers } : {}),
        connections: options.connections ?? CONNECTIONS,
        warmupSeconds: WARMUP,
        durationSeconds: DURATION,
        cpu: cpuOf(running),
      });
      return { ...figures, rssMaxMB: Math.round(rssMax / 2 ** 20) };
    } finally {
      clearInterval(sampler);
    }
  };
  /**
   * pgbench on a floor's scripts at `clients` sessions.
   * @param {Array<{ script: import('../pgbench.mjs').Script, weight: number }>} scripts @param {string} dir
   * @param {number} clients
   */
  const pgbenchAt = async (scripts, dir, clients) => ({
    ...(await runPgbench({
      pgbench,
      database: { host: cluster.host, port: cluster.port },
      scripts,
      clients,
      warmupSeconds: FLOOR_WARMUP,
      durationSeconds: DURATION,
      workDir: join(work, 'pgbench', `${dir}-${clients}`),
    })),
    sessions: clients,
  });
  /**
   * A floor at the server's pool size and at the load's own concurrency: postgres.js pipelines many requests'
   * statements over its few connections, which a few pgbench sessions (each waiting for its answer) cannot, so the
   * floor is whichever of the two PostgreSQL serves faster; both are kept.
   * @param {Array<{ script: import('../pgbench.mjs').Script, weight: number }>} scripts @param {string} dir
   */
  const bestFloor = async (scripts, dir) => {
    const atPool = await pgbenchAt(scripts, dir, DB_SESSIONS);
    const atLoad = await pgbenchAt(scripts, dir, CONNECTIONS);
    const best = atLoad.tps > atPool.tps ? atLoad : atPool;
    return { ...best, bySessions: { [DB_SESSIONS]: atPool, [CONNECTIONS]: atLoad } };
  };
  /** The database floor at `clients` sessions. @param {string} targetName @param {string} name @param {number} [clients] */
  const measureDb = (targetName, name, clients = DB_SESSIONS) =>
    pgbenchAt(scriptsOf(targetName, name), `${targetName}-${name}`, clients);
  /** The main scenarios' database floor. @param {string} targetName @param {string} name */
  const measureDbFloor = (targetName, name) => bestFloor(scriptsOf(targetName, name), `${targetName}-${name}`);
  /** @type {Map<string, { organizationId: string, keyId: string }>} */
  const contexts = new Map();
  /**
   * The resource floor: pgbench on the fewest statements that answer the request (resource-floor.mjs), without
   * authentication or counting.
   * @param {string} targetName @param {string} name
   */
  const measureResourceFloor = async (targetName, name) => {
    const target = /** @type {import('../scenarios.mjs').Target} */ (targets[targetName]);
    let context = contexts.get(target.slug);
    if (!context) {
      // The workspace, and the key the scenarios call with (GET /me shows it).
      const [row] = await admin`
        SELECT k.organization_id AS "organizationId", k.id AS "keyId" FROM api_keys k WHERE k.key_hash = ${hashKey(target.key)}
      `;
      if (!row) throw new Error(`no key of ${target.slug} in the database`);
      context = { organizationId: row.organizationId, keyId: row.keyId };
      contexts.set(target.slug, context);
    }
    // The mix: each part's script at its weight, as its database floor is made.
    const scripts =
      name === MIXED.name
        ? MIX.map(([part, weight]) => ({ script: resourceScript(part, target, context), weight }))
        : [{ script: resourceScript(name, target, context), weight: 1 }];
    return bestFloor(scripts, `resource-${targetName}-${name}`);
  };
  /**
   * A read at half the most the server served in the closed loop, as an open loop: the latency of a server that is
   * busy but not saturated.
   * @param {import('../server.mjs').RunningServer} running @param {string} targetName @param {string} name
   * @param {number} mostRps
   */
  const measureOpenLoop = (running, targetName, name, mostRps) =>
    measureRate(running, targetName, name, Math.max(1, Math.round(mostRps / 2)));
  /**
   * An open loop at `rate` requests/s, with the CPU per request.
   * @param {import('../server.mjs').RunningServer} running @param {string} targetName @param {string} name
   * @param {number} rate
   */
  const measureRate = (running, targetName, name, rate) =>
    openLoop({
      origin: running.origin,
      scenario: name,
      targets: [/** @type {import('../scenarios.mjs').Target} */ (targets[targetName])],
      rate,
      warmupSeconds: FLOOR_WARMUP,
      durationSeconds: DURATION,
      cpu: cpuOf(running),
    });
  /** @param {string} targetName @param {string} name */
  const measureHttp = async (targetName, name) => {
    const child = fork(fileURLToPath(new URL('../floor-http.mjs', import.meta.url)), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    try {
      child.send(routesOf(targetName, name));
      const [message] = await once(child, 'message');
      const port = /** @type {{ port: number }} */ (message).port;
      return await load({
        origin: `http://127.0.0.1:${port}`,
        scenario: name,
        target: /** @type {import('../scenarios.mjs').Target} */ (targets[targetName]),
        connections: CONNECTIONS,
        warmupSeconds: FLOOR_WARMUP,
        durationSeconds: DURATION,
      });
    } finally {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  };
  /** Lets the sync worker deliver what a write scenario queued, so the next scenario does not pay for it. */
  const drainOutbox = async () => {
    for (let i = 0; i < 120; i++) {
      const [row] = await admin`SELECT count(*)::int AS n FROM marketplace_sync_jobs WHERE state = 'pending'`;
      if (!row || row.n === 0) return;
      await sleep(250);
    }
  };
  return {
    startMeasuredServer,
    measureServer,
    measureDb,
    measureDbFloor,
    measureResourceFloor,
    measureOpenLoop,
    measureRate,
    measureHttp,
    drainOutbox,
  };
}

/**
 * Every measurement of the run, scenario by scenario and back to back, so the machine's noise hits the server and
 * its floors alike: the main scenarios (reads, the changes feed's catch-up and the export, then deep pages and
 * scaling, then writes and the mix), then one server process against two.
 * @param {Parameters<typeof measurements>[0]} run
 */
export async function measureScenarios(run) {
  const { targets } = run;
  const helpers = await measurements(run);
  const {
    startMeasuredServer,
    measureServer,
    measureDb,
    measureDbFloor,
    measureResourceFloor,
    measureOpenLoop,
    measureRate,
    measureHttp,
    drainOutbox,
  } = helpers;
  const deep = DEEP_PAGES.map(pageScenario);
  /**
   * @typedef {object} ScenarioFigures
   * @property {string} name
   * @property {string} label
   * @property {'read' | 'write' | 'mixed'} kind
   * @property {ServerFigures} server
   * @property {DbFigures} dbFloor
   * @property {DbFigures} resourceFloor
   * @property {HttpFigures} httpFloor
   * @property {import('../open-loop.mjs').OpenLoopResult | null} openLoop   reads: at half the server's most
   */
  /** @type {ScenarioFigures[]} */
  const main = [];
  /** @type {Array<{ size: number, scenario: string, label: string, server: ServerFigures, dbFloor: DbFigures }>} */
  const scaling = [];
  /** @type {Array<{ page: number, server: ServerFigures, dbFloor: DbFigures }>} */
  const pages = [];
  /** @type {Array<{ scenario: string, label: string, workers: number, server: ServerFigures }>} */
  const workers = [];

  const one = await startMeasuredServer(1);
  /** @param {import('../scenarios.mjs').Scenario} s */
  const measureMain = async (s) => {
    log(`${s.label}: server`);
    const serverFigures = await measureServer(one, 'measured', s.name);
    if (s.kind !== 'read') await drainOutbox();
    log(`${s.label}: database floor`);
    const dbFloor = await measureDbFloor('measured', s.name);
    if (s.kind !== 'read') await drainOutbox();
    log(`${s.label}: resource floor`);
    const resourceFloor = await measureResourceFloor('measured', s.name);
    if (s.kind !== 'read') await drainOutbox();
    log(`${s.label}: HTTP floor`);
    const httpFloor = await measureHttp('measured', s.name);
    let open = null;
    if (s.kind === 'read') {
      log(`${s.label}: open loop at ${Math.round(serverFigures.rps / 2)} req/s`);
      open = await measureOpenLoop(one, 'measured', s.name, serverFigures.rps);
    }
    main.push({
      name: s.name,
      label: s.label,
      kind: s.kind,
      server: serverFigures,
      dbFloor,
      resourceFloor,
      httpFloor,
      openLoop: open,
    });
  };
  for (const s of SCENARIOS.filter((x) => x.kind === 'read')) await measureMain(s);
  // On the measuring server, warm from the reads, with no load beside it.
  const catchUp = await measureCatchUp(one.origin, /** @type {import('../scenarios.mjs').Target} */ (targets.measured));
  // The export of the measured workspace on the same server with nothing beside it, before the write scenarios add
  // their items (the catch-up's creates were deleted again).
  const exports = await measureExports(
    one,
    /** @type {import('../scenarios.mjs').Target} */ (targets.measured),
    run.admin,
  );

  for (const [i, s] of deep.entries()) {
    log(`${s.label}: server and database floor`);
    pages.push({
      page: /** @type {number} */ (DEEP_PAGES[i]),
      server: await measureServer(one, 'measured', s.name),
      dbFloor: await measureDb('measured', s.name),
    });
  }
  for (const targetName of ['small', 'large']) {
    for (const name of SCALING_SCENARIOS) {
      const s = scenario(name);
      log(`${s.label} at ${targets[targetName]?.items.toLocaleString('en-US')} items: server and database floor`);
      scaling.push({
        size: /** @type {import('../scenarios.mjs').Target} */ (targets[targetName]).items,
        scenario: name,
        label: s.label,
        server: await measureServer(one, targetName, name),
        dbFloor: await measureDb(targetName, name),
      });
    }
  }
  for (const s of [...SCENARIOS.filter((x) => x.kind === 'write'), MIXED]) await measureMain(s);
  /** The worker scenarios against a server of `count` processes, which is then stopped. @param {import('../server.mjs').RunningServer} running @param {number} count */
  const measureWorkers = async (running, count) => {
    for (const name of WORKER_SCENARIOS) {
      const s = scenario(name);
      log(`${s.label}: ${count} worker${count === 1 ? '' : 's'}`);
      const server = await measureServer(running, 'measured', name);
      workers.push({ scenario: name, label: s.label, workers: count, server });
      if (name === 'mixed') await drainOutbox();
    }
    await running.stop();
  };
  // One process and two, back to back on the same data (the write scenarios above have added their items).
  await measureWorkers(one, 1);
  log('two server processes (WEB_CONCURRENCY=2)');
  await measureWorkers(await startMeasuredServer(2), 2);
  const baseline = run.baseline ? await measureBaseline(run.baseline, run.admin, helpers) : null;
  return {
    figures: { main, pages, scaling, workers, catchUp, exports, baseline },
    startMeasuredServer,
    measureServer,
    measureRate,
  };
}

/**
 * `--only=cpu`: the read scenarios on the server alone (the closed loop, with CPU per request; no floors, no open
 * loop), then the baseline build beside this one with --baseline: what optimising the server's CPU needs, in minutes.
 * @param {Parameters<typeof measurements>[0]} run
 */
export async function measureServerOnly(run) {
  const helpers = await measurements(run);
  const { startMeasuredServer, measureServer, measureRate } = helpers;
  /** @type {Array<{ name: string, label: string, kind: string, server: ServerFigures }>} */
  const main = [];
  const one = await startMeasuredServer(1);
  for (const s of SCENARIOS.filter((x) => x.kind === 'read')) {
    log(`${s.label}: server`);
    main.push({ name: s.name, label: s.label, kind: s.kind, server: await measureServer(one, 'measured', s.name) });
  }
  await one.stop();
  const baseline = run.baseline ? await measureBaseline(run.baseline, run.admin, helpers) : null;
  return { figures: { main, baseline }, startMeasuredServer, measureServer, measureRate };
}
