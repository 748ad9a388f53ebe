import { int, mean, ms, pct } from './format.mjs';

/**
 * The report's CPU parts (issue 40): CPU per request cells, the one-key scenario, the server at 1, 2, 4 … processes,
 * the search at scale with its plans, and their targets. Nothing here is measured: every figure comes from the JSON.
 */

/**
 * @typedef {{ rps: number, p50Ms: number, p99Ms: number, errors: number, rssMaxMB?: number,
 *   cpu?: import('./cpu.mjs').CpuFigures }} Figures
 * @typedef {{ offeredRps: number, achievedRps: number, p50Ms: number, p99Ms: number, maxMs: number, errors: number,
 *   cpu?: import('./cpu.mjs').CpuFigures }} OpenLoopFigures
 * @typedef {{ build: 'baseline' | 'this', processes: number, scenario: string, label: string, server: Figures }} ProcessRow
 * @typedef {{ connections: number, oneKey: { rows: ProcessRow[] },
 *   scaling: { keys: number, processes: number[], rows: ProcessRow[] } | null }} Processes
 * @typedef {{ label: string, items: number, rate: number,
 *   rows: Array<{ build: 'baseline' | 'this', server: Figures, openLoop: OpenLoopFigures }>,
 *   plans: Array<{ build: 'baseline' | 'this', statements: Array<{ sql: string, ms: number }>,
 *     search: Array<{ sql: string, ms: number, plan: string }> }> }} Search
 * @typedef {{ scenario: string, label: string, build: 'baseline' | 'this', round: number, server: Figures }} BaselineRow
 * @typedef {{ target: string, scenario: string, measured: string, met: boolean }} Target
 */

/** @param {'baseline' | 'this'} build */
const buildName = (build) => (build === 'this' ? 'this build' : 'baseline');

/** The line every CPU table carries, once per report section. */
export const CPU_NOTE =
  'CPU ms/req: CPU time per request answered, read from /proc (utime + stime) before and after the measured run: ' +
  "server = the server's processes (cluster workers included), DB = every process of the benchmark's PostgreSQL cluster.";

/**
 * A measurement's server and database CPU per request, as two table cells ('–' when not read).
 * @param {{ cpu?: import('./cpu.mjs').CpuFigures }} f
 */
export const cpuCells = (f) =>
  f.cpu ? `${ms(f.cpu.serverMsPerRequest)} | ${ms(f.cpu.databaseMsPerRequest)}` : '– | –';

/**
 * The same, in a sentence's words.
 * @param {{ cpu?: import('./cpu.mjs').CpuFigures }} f
 */
export const cpuText = (f) =>
  f.cpu ? `CPU ${ms(f.cpu.serverMsPerRequest)} + ${ms(f.cpu.databaseMsPerRequest)} ms/req` : 'CPU not read';

/** Mean server CPU per request over rows (0: none read). @param {Array<{ server: Figures }>} rows */
const serverCpu = (rows) => mean(rows.flatMap((r) => (r.server.cpu ? [r.server.cpu.serverMsPerRequest] : [])));
/** Mean database CPU per request over rows (0: none read). @param {Array<{ server: Figures }>} rows */
const databaseCpu = (rows) => mean(rows.flatMap((r) => (r.server.cpu ? [r.server.cpu.databaseMsPerRequest] : [])));

/**
 * The before-and-after table: each round's req/s and p99, the ratio of the means, and the CPU per request of each
 * build (mean over its rounds) with its ratio.
 * @param {BaselineRow[]} rows
 * @returns {string[]}
 */
export function baselineTable(rows) {
  const lines = [
    '| Scenario | baseline (req/s, p99 ms per round) | this build | req/s ratio | server CPU ms/req, baseline → this | ratio | DB CPU ms/req, baseline → this | ratio |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const label of [...new Set(rows.map((r) => r.label))]) {
    const of = (/** @type {'baseline' | 'this'} */ build) => rows.filter((r) => r.label === label && r.build === build);
    const cell = (/** @type {'baseline' | 'this'} */ build) =>
      of(build)
        .map((r) => `${int(r.server.rps)}, ${ms(r.server.p99Ms)} ms`)
        .join(' / ');
    const rps = mean(of('this').map((r) => r.server.rps)) / mean(of('baseline').map((r) => r.server.rps));
    const [sb, st, db, dt] = [
      serverCpu(of('baseline')),
      serverCpu(of('this')),
      databaseCpu(of('baseline')),
      databaseCpu(of('this')),
    ];
    lines.push(
      `| ${label} | ${cell('baseline')} | ${cell('this')} | ${rps.toFixed(2)}× | ${ms(sb)} → ${ms(st)} | ${(st / sb).toFixed(2)}× | ` +
        `${ms(db)} → ${ms(dt)} | ${(dt / db).toFixed(2)}× |`,
    );
  }
  return lines;
}

/**
 * One key against many, and the server at 1, 2, 4 … processes.
 * @param {Processes} p
 * @returns {string[]}
 */
export function processesLines(p) {
  const lines = [
    '',
    `**One key** (one server process, all ${p.connections} connections on one key of the measured workspace, its limit ` +
      'raised as for every measuring server; a read that runs while the key’s admission holds its row lock shows as ' +
      'GET /items/{id} falling behind GET /me):',
    '',
    '| Build | Scenario | req/s | p50 ms | p99 ms | server CPU ms/req | DB CPU ms/req | errors |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...p.oneKey.rows.map(
      (r) =>
        `| ${buildName(r.build)} | ${r.label} | ${int(r.server.rps)} | ${ms(r.server.p50Ms)} | ${ms(r.server.p99Ms)} | ` +
        `${cpuCells(r.server)} | ${r.server.errors} |`,
    ),
  ];
  const ratios = [...new Set(p.oneKey.rows.map((r) => r.build))].map((build) => {
    const { item, me } = oneKeyPair(p, build);
    return item && me ? `${buildName(build)} ${pct(item.server.rps / me.server.rps)}` : '';
  });
  lines.push('', `GET /items/{id} as a share of GET /me's req/s on one key: ${ratios.filter(Boolean).join(', ')}.`);
  lines.push('', closedLoopFloor(p));
  if (!p.scaling) {
    lines.push('', '**Server processes with many keys**: not measured (`--scaling` measures them).');
    return lines;
  }
  const s = p.scaling;
  lines.push(
    '',
    `**Server processes with many keys** (\`--scaling\`: WEB_CONCURRENCY ${s.processes.join(', ')}; ${p.connections} ` +
      `connections spread over ${s.keys} keys of the measured workspace; cores busy = the server's and PostgreSQL's ` +
      'CPU seconds per second of the run, and beside them the load generator’s own, on the same cores):',
    '',
    '| Build | Processes | Scenario | req/s | p99 ms | server CPU ms/req | DB CPU ms/req | cores busy: server + DB | load generator | errors |',
    '| --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...s.rows.map((r) => {
      const c = r.server.cpu;
      const cores = c
        ? `${(c.serverCores + c.databaseCores).toFixed(2)} (${c.serverCores.toFixed(2)} + ${c.databaseCores.toFixed(2)}) | ${c.generatorCores?.toFixed(2) ?? '–'}`
        : '– | –';
      return (
        `| ${buildName(r.build)} | ${r.processes} | ${r.label} | ${int(r.server.rps)} | ${ms(r.server.p99Ms)} | ` +
        `${cpuCells(r.server)} | ${cores} | ${r.server.errors} |`
      );
    }),
  );
  return lines;
}

/**
 * What a closed loop allows: each connection sends its next request when the last is answered, so a request takes
 * connections ÷ req/s on average (Little's law). Under 100 ms on average needs more than connections ÷ 0.1 s answered
 * a second, and a p99 under 100 ms all but needs that: a machine whose cores the server shares with PostgreSQL and the
 * load generator may not reach that rate however little a request waits for anything but a core.
 * @param {Processes} p
 */
function closedLoopFloor(p) {
  const needed = p.connections / 0.1;
  const { item } = oneKeyPair(p, 'this');
  const mean =
    item && item.server.rps > 0
      ? `; this build's GET /items/{id}: ${int(item.server.rps)} req/s, so ${ms((1000 * p.connections) / item.server.rps)} ms on average`
      : '';
  return (
    `With ${p.connections} connections a request takes ${p.connections} ÷ req/s on average (Little's law): for the ` +
    `average alone to stay under 100 ms the one process must answer more than ${int(needed)} req/s${mean}.`
  );
}

/**
 * A build's GET /items/{id} and GET /me on one key.
 * @param {Processes} p
 * @param {'baseline' | 'this'} build
 */
function oneKeyPair(p, build) {
  const of = (/** @type {string} */ name) => p.oneKey.rows.find((r) => r.build === build && r.scenario === name);
  return { item: of('item'), me: of('me') };
}

/**
 * The search at scale: each build's closed loop and open loop, then its statements' plans.
 * @param {Search} s
 * @returns {string[]}
 */
export function searchLines(s) {
  const lines = [
    '',
    `**Search at scale** (${s.label} in a workspace of ${int(s.items)} items, one server process: the closed loop, then ` +
      `an open loop at ${int(s.rate)} req/s, the same rate for every build):`,
    '',
    '| Build | closed loop req/s | p99 ms | server CPU ms/req | DB CPU ms/req | open loop answered req/s | p50 ms | p99 ms | max ms | errors | server CPU ms/req | DB CPU ms/req |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...s.rows.map(
      (r) =>
        `| ${buildName(r.build)} | ${int(r.server.rps)} | ${ms(r.server.p99Ms)} | ${cpuCells(r.server)} | ` +
        `${int(r.openLoop.achievedRps)} of ${int(r.openLoop.offeredRps)} | ${ms(r.openLoop.p50Ms)} | ${ms(r.openLoop.p99Ms)} | ` +
        `${ms(r.openLoop.maxMs)} | ${r.openLoop.errors} | ${cpuCells(r.openLoop)} |`,
    ),
  ];
  for (const plan of s.plans) {
    lines.push(
      '',
      `${plan.build === 'baseline' ? 'The baseline' : 'This build'}'s statements for it (EXPLAIN (ANALYZE, BUFFERS), the second of two executions): ` +
        plan.statements.map((st) => `${ms(st.ms)} ms \`${st.sql}\``).join('; '),
    );
    for (const st of plan.search) {
      lines.push('', `The search statement's plan (${ms(st.ms)} ms):`, '', '```text', st.plan, '```');
    }
  }
  return lines;
}

/**
 * Issue 40's targets, judged from the figures (reported, never asserted): the server's CPU per request at most half
 * the baseline's, one key saturating one process, the search at 1,000,000 items.
 * @param {{ scenarios: Array<{ name: string, label: string }>, baseline?: { rows: BaselineRow[] } | null,
 *   processes?: Processes, search?: Search }} report
 * @returns {Target[]}
 */
export function cpuTargets(report) {
  /** @type {Target[]} */
  const targets = [];
  for (const name of ['me', 'item', 'items']) {
    const rows = report.baseline?.rows.filter((r) => r.scenario === name) ?? [];
    const before = serverCpu(rows.filter((r) => r.build === 'baseline'));
    const after = serverCpu(rows.filter((r) => r.build === 'this'));
    const measured = before > 0 && after > 0;
    targets.push({
      target: "server CPU per request ≤ half the baseline's, same run",
      scenario: report.scenarios.find((r) => r.name === name)?.label ?? name,
      measured: measured
        ? `${ms(after)} vs ${ms(before)} ms/req (${(after / before).toFixed(2)}×)`
        : 'not measured (--baseline, with the scenario in --baseline-scenarios)',
      met: measured && after <= before / 2,
    });
  }
  if (report.processes) {
    const { item, me } = oneKeyPair(report.processes, 'this');
    if (item && me) {
      const share = item.server.rps / me.server.rps;
      targets.push({
        target: "one key, one process: GET /items/{id} ≥ 80% of GET /me's req/s, p99 < 100 ms",
        scenario: `GET /items/{id}, ${report.processes.connections} connections on one key`,
        measured: `${int(item.server.rps)} vs ${int(me.server.rps)} req/s (${pct(share)}), p99 ${ms(item.server.p99Ms)} ms`,
        met: share >= 0.8 && item.server.p99Ms < 100 && item.server.errors === 0,
      });
    }
  }
  const row = report.search?.rows.find((r) => r.build === 'this');
  if (report.search && row) {
    const s = report.search;
    const full = s.items >= 1_000_000;
    const o = row.openLoop;
    targets.push({
      target: 'search over 1,000,000 items: open-loop p99 < 100 ms',
      scenario: `${s.label} at ${int(s.rate)} req/s`,
      measured:
        `${ms(o.p99Ms)} ms p99, ${int(o.achievedRps)} of ${int(o.offeredRps)} req/s answered${o.errors ? `, ${o.errors} errors` : ''}` +
        (full ? '' : ` (only ${int(s.items)} items: --search-scale seeds 1,000,000 in a --quick run)`),
      met: full && o.p99Ms < 100 && o.errors === 0 && o.achievedRps >= 0.95 * o.offeredRps,
    });
  }
  return targets;
}
