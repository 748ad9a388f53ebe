/**
 * The results as a markdown report (stdout, bench/results/latest.md, the README) and the targets judged from them.
 * Nothing here is measured: every figure comes from the run's JSON.
 */

/**
 * @typedef {{ rps: number, p50Ms: number, p99Ms: number, errors: number, rssMaxMB?: number }} Figures
 * @typedef {{ tps: number, p50Ms: number, p99Ms: number, errors: number, sessions?: number }} DbFigures
 * @typedef {{ name: string, label: string, kind: string, server: Figures, dbFloor: DbFigures, httpFloor: Figures }} ScenarioRow
 */

/**
 * @typedef {object} Report
 * @property {string} date
 * @property {number} wallSeconds
 * @property {boolean} quick
 * @property {{ cpu: string, cores: number, memoryGiB: number, kernel: string, os: string }} machine
 * @property {Record<string, string>} versions
 * @property {{ connections: number, dbSessions: number, warmupSeconds: number, durationSeconds: number, postgres: Record<string, string>, server: Record<string, string> }} settings
 * @property {{ seconds: number, rows: Record<string, number>, workspaces: { measured: number, scaling: number[] } }} seed
 * @property {ScenarioRow[]} scenarios
 * @property {Array<{ page: number, server: Figures, dbFloor: DbFigures }>} deepPages
 * @property {Array<{ size: number, scenario: string, label: string, server: Figures, dbFloor: DbFigures }>} scaling
 * @property {Array<{ scenario: string, label: string, workers: number, server: Figures }>} workers
 * @property {ChangesFeed} changesFeed
 * @property {null | { label: string, server: Figures, summary: import('./profile.mjs').ProfileSummary, explain: Array<{ sql: string, ms: number, plan: string }> }} profile
 */

/**
 * The changes feed: the `changes` scenario's throughput counted in changes, and a consumer's catch-up.
 * @typedef {object} ChangesFeed
 * @property {string} scenario
 * @property {string} label
 * @property {number} changesPerPage            every response of the scenario is a full page
 * @property {number} changesPerSecond          the server's requests/s × changesPerPage
 * @property {number} dbFloorChangesPerSecond   the database floor's transactions/s × changesPerPage
 * @property {import('./run/feed-step.mjs').CatchUp} catchUp
 */

/**
 * @typedef {object} Target
 * @property {string} target
 * @property {string} scenario
 * @property {string} measured
 * @property {boolean} met
 */

/** @param {number} n */
const int = (n) => Math.round(n).toLocaleString('en-US');
/** @param {number} ms */
const ms = (ms) => (ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
/** @param {number} r */
const pct = (r) => `${Math.round(r * 100)}%`;

/**
 * The tighter floor of a scenario and the server's throughput as a share of it.
 * @param {ScenarioRow} row
 */
export function ratioOf(row) {
  const db = row.dbFloor.tps;
  const http = row.httpFloor.rps;
  const floor = Math.min(db, http);
  return { floor: db <= http ? 'database' : 'HTTP', floorRps: floor, ratio: row.server.rps / floor };
}

/**
 * Mean time a request takes at the benchmark's concurrency (connections / throughput): the deep-page cost.
 * @param {Figures} f
 * @param {number} connections
 */
const meanMs = (f, connections) => (1000 * connections) / f.rps;

/**
 * One request brings a consumer up to date after `writes` changes: every change written, each once, in commit
 * order and with its data, and nothing more to read.
 * @param {import('./run/feed-step.mjs').CatchUp} c
 * @returns {Target}
 */
function catchUpTarget(c) {
  const complete = c.received === c.writes && c.seenOnce === c.writes && c.notWritten === 0;
  const faults = [
    c.notWritten > 0 ? `${c.notWritten} not written` : '',
    c.inOrder ? '' : 'out of commit order',
    c.dataAsWritten ? '' : 'data not as written',
  ].filter(Boolean);
  return {
    target: `after ${c.writes} changes a consumer catches up in one request`,
    scenario: `GET /changes?after=… (${int(c.items)} items)`,
    measured:
      `${c.requests} request${c.requests === 1 ? '' : 's'}: ${c.received} changes, ${c.seenOnce} of ${c.writes} written seen once` +
      `${faults.length > 0 ? ` (${faults.join(', ')})` : ''}, hasMore ${c.hasMore}; ` +
      `${ms(c.p50Ms)} ms p50, ${ms(c.maxMs)} ms max of ${c.repeats}`,
    met: c.requests === 1 && complete && c.inOrder && c.dataAsWritten && !c.hasMore,
  };
}

/**
 * The issue's targets, judged from the figures (reported, never asserted).
 * @param {Report} report
 * @returns {Target[]}
 */
export function targetsOf(report) {
  /** @type {Target[]} */
  const targets = [];
  for (const row of report.scenarios) {
    const { ratio, floor } = ratioOf(row);
    if (row.kind === 'read') {
      targets.push({
        target: '≥ 50% of the tighter floor (reads)',
        scenario: row.label,
        measured: `${pct(ratio)} of the ${floor} floor`,
        met: ratio >= 0.5,
      });
    }
    if (row.name === 'item' || row.name === 'me') {
      targets.push({
        target: '> 70% of the tighter floor',
        scenario: row.label,
        measured: `${pct(ratio)} of the ${floor} floor`,
        met: ratio > 0.7,
      });
    }
  }
  for (const row of report.scenarios) {
    if (row.name === 'items-deep') continue;
    targets.push({
      target: `p99 < 50 ms at ${report.settings.connections} connections`,
      scenario: row.label,
      measured: `${ms(row.server.p99Ms)} ms`,
      met: row.server.p99Ms < 50,
    });
  }
  targets.push(catchUpTarget(report.changesFeed.catchUp));
  const pages = [...report.deepPages].sort((a, b) => a.page - b.page);
  const first = pages[0];
  const last = pages[pages.length - 1];
  if (first && last && last.page > first.page) {
    const c = report.settings.connections;
    const growth = meanMs(last.server, c) / meanMs(first.server, c);
    targets.push({
      target: `deep page cost not growing linearly (page ${last.page} costs < 2× page ${first.page})`,
      scenario: `GET /items?page=${last.page}&limit=50`,
      measured: `${ms(meanMs(last.server, c))} ms vs ${ms(meanMs(first.server, c))} ms per request (${growth.toFixed(1)}×, pages ${last.page / first.page}×)`,
      met: growth < 2,
    });
  }
  const rss = Math.max(...report.scenarios.map((r) => r.server.rssMaxMB ?? 0));
  targets.push({
    target: 'server memory < 250 MB RSS under load',
    scenario: 'all scenarios, one process',
    measured: `${int(rss)} MB at most`,
    met: rss < 250,
  });
  return targets;
}

/**
 * The changes feed's throughput in changes, and the consumer's catch-up.
 * @param {ChangesFeed} feed
 * @param {number} connections
 */
function changesFeedLines(feed, connections) {
  const c = feed.catchUp;
  const written = Object.entries(c.written)
    .map(([type, n]) => `${n} ${type}`)
    .join(', ');
  return [
    '',
    `**Changes feed** (measured workspace): ${feed.label} serves ${int(feed.changesPerSecond)} changes/s at ` +
      `${connections} connections (req/s × ${feed.changesPerPage}; the database floor ${int(feed.dbFloorChangesPerSecond)}). ` +
      `After ${c.writes} changes through the API (${written}) a consumer caught up in ${c.requests} ` +
      `request${c.requests === 1 ? '' : 's'} (${ms(c.catchUpMs)} ms), receiving ${c.received} changes, hasMore ${c.hasMore}; ` +
      `that request repeated ${c.repeats} times: ${ms(c.p50Ms)} ms p50, ${ms(c.maxMs)} ms max.`,
  ];
}

/**
 * @param {Report & { targets: Target[] }} report
 * @returns {string}
 */
export function markdownReport(report) {
  const m = report.machine;
  const v = report.versions;
  const s = report.settings;
  const lines = [];
  lines.push(
    `### Benchmark ${report.date.slice(0, 10)}${report.quick ? ' (--quick: a tenth of the data, not the benchmark)' : ''}`,
    '',
    `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, Linux ${m.kernel} (${m.os}). Node ${v.node}, ${v.postgres}, ` +
      `commit ${v.commit}. ${s.connections} HTTP connections (the server's pool: ${s.dbSessions} database sessions; ` +
      `the database floor: pgbench at ${s.dbSessions} and at ${s.connections} sessions, the faster), ${s.warmupSeconds} s warm-up and ${s.durationSeconds} s per run; load generator, server and ` +
      'PostgreSQL share the cores. ' +
      `Seeded ${int(report.seed.rows.items ?? 0)} items (the measured workspace: ${int(report.seed.workspaces.measured)}) ` +
      `in ${report.seed.seconds} s; whole run ${int(report.wallSeconds)} s.`,
    '',
    '| Scenario | req/s | p50 ms | p99 ms | errors | DB floor tx/s (p50 ms) | HTTP floor req/s | vs tighter floor | RSS MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const row of report.scenarios) {
    const { ratio, floor } = ratioOf(row);
    lines.push(
      `| ${row.label} | ${int(row.server.rps)} | ${ms(row.server.p50Ms)} | ${ms(row.server.p99Ms)} | ${row.server.errors} | ` +
        `${int(row.dbFloor.tps)} (${ms(row.dbFloor.p50Ms)}${row.dbFloor.sessions ? `; ${row.dbFloor.sessions} sessions` : ''})${row.dbFloor.errors ? ` ⚠ ${row.dbFloor.errors} errors` : ''} | ` +
        `${int(row.httpFloor.rps)} | ${pct(ratio)} of ${floor} | ${row.server.rssMaxMB ?? ''} |`,
    );
  }
  lines.push(...changesFeedLines(report.changesFeed, s.connections));
  lines.push('', '**Deep pages** (limit 50, newest first, measured workspace):', '');
  lines.push('| Page | req/s | p50 ms | p99 ms | mean ms per request | DB floor tx/s (p50 ms) |');
  lines.push('| ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const p of [...report.deepPages].sort((a, b) => a.page - b.page)) {
    lines.push(
      `| ${int(p.page)} | ${int(p.server.rps)} | ${ms(p.server.p50Ms)} | ${ms(p.server.p99Ms)} | ` +
        `${ms(meanMs(p.server, s.connections))} | ${int(p.dbFloor.tps)} (${ms(p.dbFloor.p50Ms)}) |`,
    );
  }
  const sizes = [...new Set(report.scaling.map((r) => r.size))].sort((a, b) => a - b);
  lines.push('', "**Scaling with the workspace's size** (req/s, p99 ms; DB floor tx/s):", '');
  lines.push(`| Scenario | ${sizes.map((n) => `${int(n)} items`).join(' | ')} |`);
  lines.push(`| --- | ${sizes.map(() => '---:').join(' | ')} |`);
  for (const label of [...new Set(report.scaling.map((r) => r.label))]) {
    const cells = sizes.map((size) => {
      const r = report.scaling.find((x) => x.label === label && x.size === size);
      return r ? `${int(r.server.rps)}, ${ms(r.server.p99Ms)} ms; DB ${int(r.dbFloor.tps)}` : '';
    });
    lines.push(`| ${label} | ${cells.join(' | ')} |`);
  }
  lines.push('', '**Server processes** (`WEB_CONCURRENCY`; req/s, p99 ms, RSS of all processes):', '');
  lines.push('| Scenario | 1 process | 2 processes |');
  lines.push('| --- | ---: | ---: |');
  for (const label of [...new Set(report.workers.map((w) => w.label))]) {
    const cell = (/** @type {number} */ n) => {
      const w = report.workers.find((x) => x.label === label && x.workers === n);
      return w ? `${int(w.server.rps)}, ${ms(w.server.p99Ms)} ms, ${w.server.rssMaxMB ?? '?'} MB` : '';
    };
    lines.push(`| ${label} | ${cell(1)} | ${cell(2)} |`);
  }
  lines.push('', '**Targets** (reported, not asserted):', '');
  lines.push('| Target | Scenario | Measured | Met |');
  lines.push('| --- | --- | --- | :---: |');
  for (const t of report.targets)
    lines.push(`| ${t.target} | ${t.scenario} | ${t.measured} | ${t.met ? 'yes' : '**no**'} |`);
  if (report.profile) {
    const p = report.profile;
    lines.push(
      '',
      `**Profile of ${p.label}** (\`node --cpu-prof\`, ${int(p.server.rps)} req/s while profiled): ` +
        `${p.summary.idlePercent}% idle (waiting for PostgreSQL or the network), ${p.summary.gcPercent}% garbage collection. ` +
        'Top self time:',
      '',
      '| Function | Where | Self ms | Share |',
      '| --- | --- | ---: | ---: |',
      ...p.summary.top.slice(0, 10).map((e) => `| \`${e.fn}\` | ${e.where} | ${int(e.selfMs)} | ${e.percent}% |`),
      '',
      `By package: ${p.summary.byPackage.map((b) => `${b.where} ${b.percent}%`).join(', ')}.`,
    );
    if (p.explain.length > 0) {
      lines.push('', 'Its statements in PostgreSQL (EXPLAIN ANALYZE, one execution):', '');
      for (const e of p.explain) lines.push(`- ${ms(e.ms)} ms: \`${e.sql}\``);
    }
  }
  lines.push('');
  return lines.join('\n');
}
