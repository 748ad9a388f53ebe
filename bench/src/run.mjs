import { execFileSync, fork } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { capture } from './capture.mjs';
import { findPostgresBin, startCluster, TUNING } from './cluster.mjs';
import { runPgbench, toScript } from './pgbench.mjs';
import { summarizeProfile } from './profile.mjs';
import { createWorkspace } from './provision.mjs';
import { markdownReport, targetsOf } from './report.mjs';
import { DEEP_PAGE, MIX, MIXED, pageScenario, SCENARIOS, scenario } from './scenarios.mjs';
import { seed } from './seed.mjs';
import { SERVER_SETTINGS, startServer } from './server.mjs';
import { freePort, log, seconds, sleep } from './util.mjs';

/**
 * `pnpm bench`: every endpoint against the machine's own limits, in one run.
 *
 * 1. A PostgreSQL cluster of its own (this machine's binaries), migrated by the server, workspaces made by the
 *    operator commands, the data set loaded by COPY.
 * 2. A capture run: one request per scenario with every statement logged, giving the SQL the pgbench floor
 *    replays and the response bytes the HTTP floor sends.
 * 3. Per scenario, back to back so the machine's noise hits all three alike: the real server under autocannon,
 *    pgbench on the scenario's SQL, a bare node:http server sending the same bytes, all at one concurrency.
 * 4. Scaling (workspaces of 10,000 and 1,000,000 items, and deeper pages), one against two server processes, and
 *    with --profile a CPU profile of the slowest scenario.
 * 5. A markdown table on stdout, everything in bench/results/latest.json.
 */

const USAGE = `usage: pnpm bench [--] [--quick] [--connections=N] [--duration=S] [--warmup=S]
                  [--profile=<scenario> | --no-profile] [--output=<file.json>] [--main=<dist/main.js>]
(bench/README.md says what each option does)`;

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
      },
      allowPositionals: false,
    });
    for (const name of /** @type {const} */ (['connections', 'duration', 'warmup'])) {
      const value = values[name];
      const min = name === 'warmup' ? 0 : 1;
      if (!/^\d+$/.test(value) || Number(value) < min) {
        throw new Error(`--${name} must be a whole number${min ? ' of at least 1' : ''}, not "${value}"`);
      }
    }
    // Checked now rather than after ten minutes of measuring.
    if (values.profile !== undefined) scenario(values.profile);
    return values;
  } catch (error) {
    console.error(`bench: ${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
    process.exit(2);
  }
}
const args = readArgs();

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = args.main ?? join(ROOT, 'packages/server/dist/main.js');
const RESULTS = join(ROOT, 'bench/results');
const CONNECTIONS = Number(args.connections);
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
// The floors need less warming: pgbench has no JIT to warm and the bare server has nothing to cache.
const FLOOR_WARMUP = Math.min(1, WARMUP);
/** --quick: a tenth of the data and short runs, to try the harness; its figures are not the benchmark's. */
const QUICK = args.quick === true;
const SCALE = QUICK ? 0.1 : 1;
const PROFILE = args['no-profile'] ? null : (args.profile ?? 'slowest');

/**
 * pgbench sessions: as many as the server has database connections, so PostgreSQL sees the same concurrency from
 * the floor as from the server (the server never has more statements in flight than its pool).
 */
const DB_SESSIONS = Number(SERVER_SETTINGS.DATABASE_POOL_SIZE);

/** The measured workspace and the two scaling ones; ninety-eight more hold the rest of the first million. */
const SIZES = { small: 10_000 * SCALE, measured: 100_000 * SCALE, large: 1_000_000 * SCALE };
const OTHERS = { count: 98, items: 890_000 * SCALE };
const SALES = { consignments: 2_000, consignors: 400, invoices: 10_000, customers: 2_500, listings: 2_000 };
const SCALING_SCENARIOS = ['items', 'items-q', 'items-status-value', 'item'];
const DEEP_PAGES = [1, 20, 200];
const WORKER_SCENARIOS = ['me', 'items', 'item', 'mixed'];

/**
 * Sizes of the other workspaces: a long tail, as a SaaS's customers are, adding up to exactly `total`.
 * @param {number} count
 * @param {number} total
 */
function tail(count, total) {
  const weights = Array.from({ length: count }, (_, i) => 1 / (i + 8) ** 0.9);
  const sum = weights.reduce((a, b) => a + b, 0);
  const sizes = weights.map((w) => Math.max(1, Math.floor((w / sum) * total)));
  sizes[0] = (sizes[0] ?? 0) + total - sizes.reduce((a, b) => a + b, 0);
  return sizes;
}

/** @param {string} command @param {string[]} argv */
const text = (command, argv) => {
  try {
    return execFileSync(command, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
};

/** @param {string} path */
const versionOf = (path) => {
  try {
    return String(JSON.parse(readFileSync(join(ROOT, path), 'utf8')).version);
  } catch {
    return 'unknown';
  }
};

function machine() {
  const osRelease = existsSync('/etc/os-release') ? readFileSync('/etc/os-release', 'utf8') : '';
  return {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    os: /PRETTY_NAME="([^"]*)"/.exec(osRelease)?.[1] ?? 'unknown',
  };
}

/**
 * @typedef {import('./load.mjs').LoadResult & { rssMaxMB: number }} ServerFigures
 * @typedef {import('./pgbench.mjs').PgbenchResult} DbFigures
 * @typedef {import('./load.mjs').LoadResult} HttpFigures
 */

/**
 * Runs the load generator in its own process and returns its figures.
 * @param {import('./load.mjs').LoadJob} job
 * @returns {Promise<import('./load.mjs').LoadResult>}
 */
async function load(job) {
  const child = fork(fileURLToPath(new URL('./load.mjs', import.meta.url)), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  /** @type {import('./load.mjs').LoadResult | undefined} */
  let result;
  child.once('message', (message) => {
    result = /** @type {import('./load.mjs').LoadResult} */ (message);
  });
  child.send(job);
  const [code] = await once(child, 'exit');
  if (code !== 0 || !result) throw new Error(`the load generator exited with ${code} and no figures`);
  return result;
}

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

    log(`PostgreSQL cluster from ${bin}`);
    const cluster = await startCluster(bin);
    cleanup.push(() => cluster.stop());
    execFileSync(process.execPath, [MAIN, 'migrate'], {
      env: { PATH: process.env.PATH ?? '', DATABASE_URL: cluster.url },
    });

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

    // --- Capture: the SQL and the response bytes of every scenario. ----------------------------------------------
    log('capture run (log_statement = all)');
    const admin = postgres(cluster.url, { max: 1, onnotice: () => {} });
    cleanup.push(() => admin.end({ timeout: 1 }));
    const captureServer = await startServer({
      main: MAIN,
      databaseUrl: cluster.url,
      port: await freePort(),
      workers: 1,
      logFile: join(work, 'capture-server.log'),
      // One connection and no sync worker: the log then holds this request's statements and nothing else.
      env: { DATABASE_POOL_SIZE: '1', SYNC_WORKER: 'off' },
    });
    await admin`ALTER SYSTEM SET log_statement = 'all'`;
    await admin`SELECT pg_reload_conf()`;
    await sleep(500);
    /** @type {Map<string, import('./capture.mjs').Capture & { variations: import('./scenarios.mjs').Variation[] }>} */
    const captures = new Map();
    const deep = DEEP_PAGES.map(pageScenario);
    /** @type {Array<[string, import('./scenarios.mjs').Scenario]>} */
    const toCapture = [
      ...SCENARIOS.map((s) => /** @type {[string, typeof s]} */ (['measured', s])),
      ...deep.map((s) => /** @type {[string, typeof s]} */ (['measured', s])),
      ...['small', 'large'].flatMap((t) =>
        SCALING_SCENARIOS.map(
          (name) => /** @type {[string, import('./scenarios.mjs').Scenario]} */ ([t, scenario(name)]),
        ),
      ),
    ];
    try {
      for (const [targetName, s] of toCapture) {
        const target = /** @type {import('./scenarios.mjs').Target} */ (targets[targetName]);
        const { request, variations } = s.capture(target);
        const captured = await capture({ origin: captureServer.origin, csvLog: cluster.csvLog }, request, target.key);
        if (captured.statements.length === 0) throw new Error(`no SQL captured for ${s.name}`);
        captures.set(`${targetName}/${s.name}`, { ...captured, variations });
      }
    } finally {
      await admin`ALTER SYSTEM RESET log_statement`;
      await admin`SELECT pg_reload_conf()`;
      await captureServer.stop();
    }
    log(`captured ${captures.size} scenarios`);

    /** @param {string} key */
    const captured = (key) => {
      const found = captures.get(key);
      if (!found) throw new Error(`nothing captured for ${key}`);
      return found;
    };
    /** The floor scripts of a scenario (the mix: one per part, weighted). @param {string} targetName @param {string} name */
    const scriptsOf = (targetName, name) => {
      const parts = name === 'mixed' ? MIX : [/** @type {const} */ ([name, 1])];
      return parts.map(([part, weight], i) => {
        const c = captured(`${targetName}/${part}`);
        return { script: toScript(c.statements, c.variations, `p${i}_`), weight };
      });
    };
    /** @param {string} targetName @param {string} name */
    const routesOf = (targetName, name) => {
      const parts = name === 'mixed' ? MIX.map(([part]) => part) : [name];
      return parts.map((part) => {
        const s = scenario(part);
        const { response } = captured(`${targetName}/${part}`);
        return {
          method: s.method,
          pattern: s.pattern.source,
          status: response.status,
          headers: response.headers,
          body: response.body.toString('base64'),
        };
      });
    };

    // --- Measurements. ----------------------------------------------------------------------------------------
    let runs = 0;
    /** @type {import('./server.mjs').RunningServer | null} */
    let server = null;
    const serverPort = await freePort();
    /** @param {number} workers @param {string} [profileDir] */
    const startMeasuredServer = async (workers, profileDir) => {
      runs += 1;
      server = await startServer({
        main: MAIN,
        databaseUrl: cluster.url,
        port: serverPort,
        workers,
        logFile: join(work, `server-${runs}.log`),
        ...(profileDir ? { cpuProfileDir: profileDir } : {}),
      });
      cleanup.push(() => server?.stop());
      return server;
    };
    /** @param {import('./server.mjs').RunningServer} running @param {string} targetName @param {string} name */
    const measureServer = async (running, targetName, name) => {
      let rssMax = 0;
      const sampler = setInterval(() => {
        rssMax = Math.max(rssMax, running.rssBytes());
      }, 250);
      try {
        const figures = await load({
          origin: running.origin,
          scenario: name,
          target: /** @type {import('./scenarios.mjs').Target} */ (targets[targetName]),
          connections: CONNECTIONS,
          warmupSeconds: WARMUP,
          durationSeconds: DURATION,
        });
        return { ...figures, rssMaxMB: Math.round(rssMax / 2 ** 20) };
      } finally {
        clearInterval(sampler);
      }
    };
    /** @param {string} targetName @param {string} name @param {number} [clients] */
    const measureDb = async (targetName, name, clients = DB_SESSIONS) => ({
      ...(await runPgbench({
        pgbench,
        database: { host: cluster.host, port: cluster.port },
        scripts: scriptsOf(targetName, name),
        clients,
        warmupSeconds: FLOOR_WARMUP,
        durationSeconds: DURATION,
        workDir: join(work, 'pgbench', `${targetName}-${name}-${clients}`),
      })),
      sessions: clients,
    });
    /**
     * The main scenarios' database floor, at the server's pool size and at the load's own concurrency: postgres.js
     * pipelines many requests' statements over its few connections, which a few pgbench sessions (each waiting for
     * its answer) cannot, so the floor is whichever of the two PostgreSQL serves faster; both are kept.
     * @param {string} targetName @param {string} name
     */
    const measureDbFloor = async (targetName, name) => {
      const atPool = await measureDb(targetName, name, DB_SESSIONS);
      const atLoad = await measureDb(targetName, name, CONNECTIONS);
      const best = atLoad.tps > atPool.tps ? atLoad : atPool;
      return { ...best, bySessions: { [DB_SESSIONS]: atPool, [CONNECTIONS]: atLoad } };
    };
    /** @param {string} targetName @param {string} name */
    const measureHttp = async (targetName, name) => {
      const child = fork(fileURLToPath(new URL('./floor-http.mjs', import.meta.url)), [], {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
      try {
        child.send(routesOf(targetName, name));
        const [message] = await once(child, 'message');
        const port = /** @type {{ port: number }} */ (message).port;
        return await load({
          origin: `http://127.0.0.1:${port}`,
          scenario: name,
          target: /** @type {import('./scenarios.mjs').Target} */ (targets[targetName]),
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

    /**
     * @typedef {object} ScenarioFigures
     * @property {string} name
     * @property {string} label
     * @property {'read' | 'write' | 'mixed'} kind
     * @property {ServerFigures} server
     * @property {DbFigures} dbFloor
     * @property {HttpFigures} httpFloor
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
    /** @param {import('./scenarios.mjs').Scenario} s */
    const measureMain = async (s) => {
      log(`${s.label}: server`);
      const serverFigures = await measureServer(one, 'measured', s.name);
      if (s.kind !== 'read') await drainOutbox();
      log(`${s.label}: database floor`);
      const dbFloor = await measureDbFloor('measured', s.name);
      if (s.kind !== 'read') await drainOutbox();
      log(`${s.label}: HTTP floor`);
      const httpFloor = await measureHttp('measured', s.name);
      main.push({ name: s.name, label: s.label, kind: s.kind, server: serverFigures, dbFloor, httpFloor });
    };
    for (const s of SCENARIOS.filter((x) => x.kind === 'read')) await measureMain(s);

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
          size: /** @type {import('./scenarios.mjs').Target} */ (targets[targetName]).items,
          scenario: name,
          label: s.label,
          server: await measureServer(one, targetName, name),
          dbFloor: await measureDb(targetName, name),
        });
      }
    }
    for (const s of [...SCENARIOS.filter((x) => x.kind === 'write'), MIXED]) await measureMain(s);
    // One process and two, back to back on the same data (the write scenarios above have added their items).
    for (const name of WORKER_SCENARIOS) {
      const s = scenario(name);
      log(`${s.label}: 1 worker`);
      workers.push({ scenario: name, label: s.label, workers: 1, server: await measureServer(one, 'measured', name) });
      if (name === 'mixed') await drainOutbox();
    }
    await one.stop();

    log('two server processes (WEB_CONCURRENCY=2)');
    const two = await startMeasuredServer(2);
    for (const name of WORKER_SCENARIOS) {
      const s = scenario(name);
      log(`${s.label}: 2 workers`);
      workers.push({ scenario: name, label: s.label, workers: 2, server: await measureServer(two, 'measured', name) });
      if (name === 'mixed') await drainOutbox();
    }
    await two.stop();

    // --- Profile. ------------------------------------------------------------------------------------------------
    /** @type {null | { scenario: string, label: string, server: ServerFigures, summary: import('./profile.mjs').ProfileSummary, explain: { sql: string, ms: number, plan: string }[] }} */
    let profile = null;
    if (PROFILE) {
      const slowest = [...main].sort((a, b) => a.server.rps - b.server.rps)[0];
      const name = PROFILE === 'slowest' ? slowest?.name : PROFILE;
      const s = scenario(name ?? 'me');
      log(`profiling ${s.label} (node --cpu-prof)`);
      const dir = join(RESULTS, 'profiles');
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      const profiled = await startMeasuredServer(1, dir);
      const figures = await measureServer(profiled, 'measured', s.name);
      await profiled.stop();
      const summary = summarizeProfile(dir);
      // And what PostgreSQL does for it: each statement's plan, run for real (EXPLAIN ANALYZE).
      const explain = [];
      if (s.name !== 'mixed') {
        const statements = captured(`measured/${s.name}`).statements.filter(
          (st) => !/^\s*(begin|commit)/i.test(st.sql),
        );
        const connection = await admin.reserve();
        try {
          for (const [i, st] of statements.entries()) {
            await connection.unsafe(`PREPARE bench_${i} AS ${st.sql}`);
            const args = st.params.map((p) => (p === null ? 'NULL' : `'${p.replaceAll("'", "''")}'`)).join(', ');
            const rows = await connection.unsafe(
              `EXPLAIN (ANALYZE, BUFFERS) EXECUTE bench_${i}${args ? `(${args})` : ''}`,
            );
            const plan = rows.map((r) => String(r['QUERY PLAN'])).join('\n');
            const ms = Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? 0);
            explain.push({ sql: st.sql.trim().replace(/\s+/g, ' ').slice(0, 160), ms, plan });
          }
        } finally {
          connection.release();
        }
      }
      profile = { scenario: s.name, label: s.label, server: figures, summary, explain };
    }

    // --- Report. -------------------------------------------------------------------------------------------------
    const report = {
      date: new Date().toISOString(),
      wallSeconds: Math.round((Date.now() - started) / 1000),
      quick: QUICK,
      machine: machine(),
      versions: {
        node: process.version,
        postgres: cluster.version,
        pgbench: text(pgbench, ['--version']),
        autocannon: versionOf('bench/node_modules/autocannon/package.json'),
        postgresJs: versionOf('bench/node_modules/postgres/package.json'),
        server: versionOf('packages/server/package.json'),
        contract: versionOf('packages/contract/package.json'),
        commit: text('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD']),
      },
      settings: {
        connections: CONNECTIONS,
        dbSessions: DB_SESSIONS,
        warmupSeconds: WARMUP,
        durationSeconds: DURATION,
        floorWarmupSeconds: FLOOR_WARMUP,
        loadGenerator: `autocannon in its own process, ${CONNECTIONS} keep-alive connections, no pipelining`,
        dbFloor: `pgbench -M prepared -j 2 over TCP, the captured statements of each scenario; main scenarios at -c ${DB_SESSIONS} (the server's pool) and -c ${CONNECTIONS} (the load's connections), the faster taken; deep pages and scaling at -c ${DB_SESSIONS}`,
        httpFloor: 'a bare node:http server (one process) sending the captured response bytes',
        server: { ...SERVER_SETTINGS, WEB_CONCURRENCY: '1 (2 in the workers table)', SYNC_WORKER: 'on' },
        postgres: TUNING,
        cores: 'the load generator, the server and PostgreSQL share the same cores',
      },
      seed: {
        seconds: Math.round(seeded.ms / 100) / 10,
        rows: seeded.rows,
        phasesMs: seeded.phasesMs,
        workspaces: {
          measured: SIZES.measured,
          scaling: [SIZES.small, SIZES.measured, SIZES.large],
          others: `${OTHERS.count} workspaces holding ${OTHERS.items.toLocaleString('en-US')} items`,
        },
      },
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
      profile,
    };
    const withTargets = { ...report, targets: targetsOf(report) };
    const output = args.output ?? join(RESULTS, QUICK ? 'quick.json' : 'latest.json');
    mkdirSync(RESULTS, { recursive: true });
    writeFileSync(output, `${JSON.stringify(withTargets, null, 2)}\n`);
    const markdown = markdownReport(withTargets);
    writeFileSync(output.replace(/\.json$/, '.md'), markdown);
    process.stdout.write(markdown);
    log(`done in ${seconds(Date.now() - started)}; figures in ${output}`);
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

/**
 * The server and database figures of a main scenario.
 * @param {Array<{ name: string, server: ServerFigures, dbFloor: DbFigures }>} main
 * @param {string} name
 */
function pick(main, name) {
  const found = main.find((m) => m.name === name);
  if (!found) throw new Error(`no figures for ${name}`);
  return { server: found.server, dbFloor: found.dbFloor };
}

main().catch((error) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
