import { int, mean, ms, pct } from './format.mjs';
import { baselineTable, CPU_NOTE, cpuCells, cpuTargets, cpuText, processesLines, searchLines } from './report-cpu.mjs';

/**
 * The results as a markdown report (stdout, bench/results/latest.md, the docs' Benchmarks page) and the targets judged from them.
 * Nothing here is measured: every figure comes from the run's JSON.
 */

/**
 * @typedef {import('./report-cpu.mjs').Figures} Figures
 * @typedef {{ tps: number, p50Ms: number, p99Ms: number, errors: number, sessions?: number }} DbFigures
 * @typedef {{ offeredRps: number, achievedRps: number, p50Ms: number, p99Ms: number, maxMs: number, errors: number, requests: number, behindMs: number, sockets: number, cpu?: import('./cpu.mjs').CpuFigures }} OpenLoopFigures
 * @typedef {{ name: string, label: string, kind: string, server: Figures, dbFloor: DbFigures, resourceFloor?: DbFigures, httpFloor: Figures, openLoop?: OpenLoopFigures | null }} ScenarioRow
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
 * @property {import('./run/bulk-step.mjs').BulkFigures} bulk
 * @property {ManyKeys} [manyKeys]
 * @property {Baseline | null} [baseline]
 * @property {import('./report-cpu.mjs').Processes} [processes]   the one-key scenario, and --scaling's
 * @property {import('./report-cpu.mjs').Search} [search]   the search at scale
 * @property {import('./run/inventory-step.mjs').InventoryFigures} [inventory]
 */

/**
 * The many-keys part (run/many-keys-step.mjs).
 * @typedef {object} ManyKeys
 * @property {number} keys
 * @property {number} workspaces
 * @property {{ maxRequests: number, windowSeconds: number }} limit
 * @property {Figures} closed
 * @property {Array<OpenLoopFigures & { label: string }>} openLoop
 * @property {{ sessions: number, keys: number, lookup: DbFigures, unlogged: DbFigures & { addedUs: number }, logged: DbFigures & { addedUs: number } }} limiter
 * @property {{ idleMB: number, maxMB: number }} rss
 * @property {{ items: number, itemsTableBytesPerItem: number, itemsIndexBytesPerItem: number, databaseBytesPerItem: number, databaseBytes: number, tables: Array<{ name: string, tableBytes: number, indexBytes: number, rows: number }> }} database
 */

/**
 * An earlier build measured beside this one (--baseline).
 * @typedef {{ main: string, commit?: string | null, limiterTables?: 'logged' | 'unlogged', rounds?: number, rows: Array<{ scenario: string, label: string, build: 'baseline' | 'this', round: number, server: Figures }> }} Baseline
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

/** @param {number} bytes */
const mib = (bytes) => `${(bytes / 2 ** 20).toLocaleString('en-US', { maximumFractionDigits: 0 })} MiB`;

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
  for (const row of report.scenarios.filter((r) => r.kind === 'read')) {
    const db = row.server.rps / row.dbFloor.tps;
    targets.push({
      target: '≥ 85% of the database floor (reads)',
      scenario: row.label,
      measured: pct(db),
      met: db >= 0.85,
    });
    if (row.resourceFloor) {
      const resource = row.server.rps / row.resourceFloor.tps;
      targets.push({
        target: '≥ 60% of the resource floor (reads)',
        scenario: row.label,
        measured: pct(resource),
        met: resource >= 0.6,
      });
    }
  }
  for (const name of ['me', 'item']) {
    const rows = report.baseline?.rows.filter((r) => r.scenario === name) ?? [];
    const before = mean(rows.filter((r) => r.build === 'baseline').map((r) => r.server.rps));
    const after = mean(rows.filter((r) => r.build === 'this').map((r) => r.server.rps));
    const label = report.scenarios.find((r) => r.name === name)?.label ?? name;
    targets.push({
      target: '≥ 2× the baseline build, same run',
      scenario: label,
      measured: rows.length
        ? `${int(after)} vs ${int(before)} req/s (${(after / before).toFixed(2)}×)`
        : 'not measured (no --baseline)',
      met: rows.length > 0 && after >= 2 * before,
    });
  }
  for (const row of report.scenarios.filter((r) => r.kind === 'read' && r.openLoop)) {
    const o = /** @type {OpenLoopFigures} */ (row.openLoop);
    targets.push({
      target: 'open-loop p99 < 50 ms at 50% of the most',
      scenario: row.label,
      measured: `${ms(o.p99Ms)} ms at ${int(o.offeredRps)} req/s${o.errors ? `, ${o.errors} errors` : ''}`,
      met: o.p99Ms < 50 && o.errors === 0,
    });
  }
  if (report.manyKeys) {
    const k = report.manyKeys;
    const at = /** @type {OpenLoopFigures & { label: string }} */ (k.openLoop[0]);
    targets.push({
      target: `${int(k.keys)} keys × ${(k.limit.maxRequests / k.limit.windowSeconds).toFixed(0)} req/s: p99 < 100 ms, no errors`,
      scenario: 'Many keys, open loop',
      measured: `${int(at.achievedRps)} of ${int(at.offeredRps)} req/s, p99 ${ms(at.p99Ms)} ms, ${at.errors} errors`,
      met: at.p99Ms < 100 && at.errors === 0 && at.achievedRps >= 0.95 * at.offeredRps,
    });
  }
  targets.push(...cpuTargets(report));
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
  if (report.inventory) targets.push(...inventoryTargets(report.inventory));
  targets.push(...bulkTargets(report.bulk));
  return targets;
}

/**
 * The inventory part's targets: the issue's 50 concurrent sellers of 10 units (10 sold, 40 refused, none oversold,
 * in every round), and every one of the holds made due at once given back (its time is reported, with no target).
 * @param {import('./run/inventory-step.mjs').InventoryFigures} inventory
 * @returns {Target[]}
 */
export function inventoryTargets(inventory) {
  const s = inventory.sellers;
  const x = inventory.expiry;
  const right = (/** @type {import('./run/inventory-step.mjs').SellerRound} */ r) =>
    r.ok === s.units && r.refused === s.sellers - s.units && r.other === 0 && r.oversold === 0 && r.available === 0;
  const wrong = s.rounds.filter((r) => !right(r));
  return [
    {
      target: `${s.sellers} concurrent sellers of ${s.units} units: ${s.units} sold, ${s.sellers - s.units} refused, 0 oversold`,
      scenario: `POST /items/{id}/adjustments, ${s.rounds.length} rounds`,
      measured:
        `${wrong.length === 0 ? `every round ${s.units} × 200, ${s.sellers - s.units} × 409, 0 oversold` : `**${wrong.length} of ${s.rounds.length} rounds off**: ${wrong.map(sellerRoundText).join('; ')}`}` +
        `; p50 ${ms(s.p50Ms)} ms, p99 ${ms(s.p99Ms)} ms`,
      met: s.rounds.length > 0 && wrong.length === 0,
    },
    {
      target: `${int(x.holds)} holds due at once all given back (the time is reported)`,
      scenario: 'the reservation expiry worker',
      measured:
        x.releasedMs === null
          ? `**${int(x.held)} still held** after the timeout`
          : `in ${secs(x.releasedMs)} s; ${int(x.expired)} expired, reserved ${int(x.reserved)}, available ${x.availableRestored ? 'restored' : '**not restored**'}`,
      met:
        x.releasedMs !== null &&
        x.create.notOk === 0 &&
        x.expired === x.holds &&
        x.reserved === 0 &&
        x.availableRestored,
    },
  ];
}

/**
 * At most about `most` of a series' entries, evenly spaced, the last always kept.
 * @template T
 * @param {T[]} series
 * @param {number} most
 * @returns {T[]}
 */
const thinned = (series, most) => {
  const every = Math.max(1, Math.ceil(series.length / most));
  return series.filter((_, i) => i % every === 0 || i === series.length - 1);
};

/** @param {import('./run/inventory-step.mjs').SellerRound} r */
const sellerRoundText = (r) =>
  `${r.ok} × 200, ${r.refused} × 409${r.other ? `, ${r.other} other` : ''}, ${r.oversold} oversold, available ${r.available}`;

/**
 * The inventory part: adjustments per second, the concurrent sellers, the reservation expiry.
 * @param {import('./run/inventory-step.mjs').InventoryFigures} inventory
 * @param {number} connections
 * @returns {string[]}
 */
export function inventoryLines(inventory, connections) {
  const s = inventory.sellers;
  const x = inventory.expiry;
  const lines = [
    '',
    `**Adjustments** (\`POST /items/{id}/adjustments\` \`{ available: -1, sold: 1, reason: 'sale' }\`, in the organization ` +
      `${inventory.organization} of its own, its ${int(inventory.items)} items made through the API with ${int(inventory.stock)} units each, so no sale ` +
      `is refused; ${inventory.server}; ${connections} connections):`,
    '',
    '| Scenario | items | req/s | p50 ms | p99 ms | errors | server CPU ms/req | DB CPU ms/req | units sold (warm-up too) | quantities add up | RSS MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | :---: | ---: |',
    ...inventory.adjustments.map(
      (r) =>
        `| ${r.label} | ${int(r.items)} | ${int(r.server.rps)} | ${ms(r.server.p50Ms)} | ${ms(r.server.p99Ms)} | ${r.server.errors} | ${cpuCells(r.server)} | ` +
        `${int(r.sold)} | ${r.unitsKept ? 'yes' : '**no**'} | ${r.server.rssMaxMB} |`,
    ),
    '',
    `**${s.sellers} concurrent sellers of ${s.units} units** (an item with available ${s.units}, ${s.sellers} sales sent at once, each on a ` +
      `connection of its own; a fresh item each round, after a round of warm-up; the item read from the database afterwards; ` +
      `latency per request as its seller saw it):`,
    '',
    '| Round | 200 | 409 | other | oversold | available | sold | adjustment movements | p50 ms | p99 ms | max ms | all answered ms |',
    '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...[s.warmup, ...s.rounds].map(
      (r) =>
        `| ${r.round === 0 ? 'warm-up' : r.round} | ${r.ok} | ${r.refused} | ${r.other} | ${r.oversold ? `**${r.oversold}**` : 0} | ${r.available} | ` +
        `${r.sold} | ${r.movements} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} | ${ms(r.maxMs)} | ${ms(r.wallMs)} |`,
    ),
    '',
    `Over the ${s.rounds.length} rounds: p50 ${ms(s.p50Ms)} ms, p99 ${ms(s.p99Ms)} ms.`,
    '',
    `**Reservation expiry**: ${int(x.holds)} holds of one unit on ${int(x.items)} items, made through \`POST /items/{id}/reservations\` ` +
      `by ${x.create.clients} clients at once (${int(x.create.perSecond)} holds/s, p50 ${ms(x.create.p50Ms)} ms, p99 ${ms(x.create.p99Ms)} ms` +
      `${x.create.notOk ? `, **${x.create.notOk} refused**` : ''}), then ${int(x.due)} made due at once in the database (\`expires_at\` a second ` +
      `in the past: through the API a hold lasts 60 s at least); the server's own worker (every ${int(x.intervalMs)} ms) gave them back: ` +
      (x.releasedMs === null
        ? `**${int(x.held)} still held after the timeout**`
        : `**all in ${secs(x.releasedMs)} s** (the first after ${ms(x.firstMs ?? 0)} ms; ${x.perSecond === null ? '–' : int(x.perSecond)} holds/s from the first to the last)`) +
      `; then ${int(x.held)} held, the items' reserved ${int(x.reserved)}, their available ${x.availableRestored ? 'as before the holds' : '**not as before the holds**'}, ` +
      `${int(x.expired)} reservations expired and ${int(x.movements)} \`expire\` movements in the ledger. Held left over time ` +
      `(every sample, about once a second, in the JSON): ${thinned(x.progress, 12)
        .map(([t, held]) => `${secs(t)} s ${int(held)}`)
        .join(', ')}.`,
    '',
    "The machine's 1-minute load average before each measurement: adjustments " +
      `${inventory.adjustments.map((r) => r.loadAverage.toFixed(1)).join(', ')}, sellers ${s.loadAverage.toFixed(1)}, ` +
      `expiry ${x.loadAverage.toFixed(1)}.`,
  ];
  return lines;
}

/**
 * The median time of an export's complete runs, and their spread.
 * @param {import('./run/bulk-step.mjs').ExportFormatFigures} f
 */
const exportTime = (f) =>
  f.ms === null
    ? 'no run complete'
    : `${secs(f.ms)} s median of ${f.complete}${f.complete > 1 ? ` (${secs(f.msSpread[0] ?? 0)}–${secs(f.msSpread[1] ?? 0)})` : ''}`;

/**
 * The runs the server cut short, and when.
 * @param {import('./run/bulk-step.mjs').ExportFormatFigures} f
 */
const cutShort = (f) =>
  f.cutAtMs.length === 0
    ? ''
    : `; **${f.cutAtMs.length} of ${f.runs.length} cut short by the server** at ${f.cutAtMs.map((t) => secs(t)).join(', ')} s`;

/** @param {'ndjson' | 'csv'} format */
const formatLabel = (format) => (format === 'csv' ? 'CSV' : 'NDJSON');
/** @param {number} ms */
const secs = (ms) => (ms / 1000).toFixed(2);

/**
 * The bulk part's targets: the CLI's import under the real limit in under 60 s, the export in under 5 s with the
 * server's memory growing by under 50 MB.
 * @param {import('./run/bulk-step.mjs').BulkFigures} bulk
 * @returns {Target[]}
 */
export function bulkTargets(bulk) {
  /** @type {Target[]} */
  const targets = [];
  for (const run of bulk.imports.runs) {
    targets.push({
      target: `CLI import of ${int(run.rows)} items under the real limit < 60 s`,
      scenario: `coinventory items import (${run.database === 'embedded' ? 'embedded database' : 'PostgreSQL'})`,
      measured:
        `${run.seconds.toFixed(1)} s, ${int(run.rowsPerSecond)} rows/s, ${int(run.imported)} imported, ` +
        `${run.rateLimited} × 429, exit ${run.exitCode}${run.timedOut ? ' (timed out)' : ''}`,
      met: run.seconds < 60 && run.exitCode === 0 && run.imported === run.rows,
    });
  }
  if (bulk.imports.skipped) {
    targets.push({
      target: 'CLI import of 10,000 items under the real limit < 60 s',
      scenario: 'coinventory items import',
      measured: `not measured: ${bulk.imports.skipped}`,
      met: false,
    });
  }
  const e = bulk.export;
  for (const format of /** @type {const} */ (['ndjson', 'csv'])) {
    const f = e.formats[format];
    targets.push({
      target: `export of ${int(e.seeded)} items < 5 s`,
      scenario: `GET /exports/items (${formatLabel(format)})`,
      measured: `${exportTime(f)}${cutShort(f)}${f.runs.some((r) => r.complete && (r.count !== e.items || r.lines !== e.items + 1)) ? ', **count or lines wrong**' : ''}`,
      met: f.ms !== null && f.ms < 5000 && f.countsMatch,
    });
  }
  const growth = Math.max(e.formats.ndjson.rssGrowthMB, e.formats.csv.rssGrowthMB, e.slowReader?.rss.growthMB ?? 0);
  const firstGrowth = Math.max(e.first.ndjson.rss.growthMB, e.first.csv.rss.growthMB);
  targets.push({
    target: 'server RSS growth during an export < 50 MB',
    scenario: `GET /exports/items (${int(e.seeded)} items), the repeats${e.slowReader ? ' and the slow reader' : ''}`,
    measured: `${growth.toFixed(1)} MB at most (the first export on the server: ${firstGrowth.toFixed(1)} MB)`,
    met: growth < 50,
  });
  return targets;
}

/**
 * The bulk part: the export, the batches and the CLI's import.
 * @param {import('./run/bulk-step.mjs').BulkFigures} bulk
 * @returns {string[]}
 */
export function bulkLines(bulk) {
  const e = bulk.export;
  const lines = [
    '',
    `**Export** (\`GET /exports/items\`, the measured workspace's ${int(e.items)} items${e.items === e.seeded ? '' : ` (${int(e.seeded)} seeded, ${int(e.items - e.seeded)} written through the API before)`} read to the end and counted, ` +
      `nothing kept; ${e.server}; ${e.repeats} runs per format, the time the median of those complete [min–max]; ` +
      `the server's RSS sampled every ${e.sampleMs} ms, growth = peak − the RSS before the request, the largest of the runs):`,
    '',
    '| Format | Time s | First byte ms | MB | items/s | MB/s | RSS growth MB (before → peak) | Runs |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ];
  for (const format of /** @type {const} */ (['ndjson', 'csv'])) {
    const f = e.formats[format];
    const worst = [...f.runs].sort((a, b) => b.rss.growthMB - a.rss.growthMB)[0];
    const runs = f.runs
      .map((r) =>
        r.complete
          ? `${r.count === e.items && r.lines === e.items + 1 ? 'complete' : `**count ${r.count}, ${int(r.lines)} lines**`}`
          : `**cut short at ${secs(r.ms)} s** (${int(r.lines)} lines)`,
      )
      .join(', ');
    lines.push(
      `| ${formatLabel(format)} | ${f.ms === null ? '–' : `${secs(f.ms)} [${secs(f.msSpread[0] ?? 0)}–${secs(f.msSpread[1] ?? 0)}]`} | ${ms(f.firstByteMs)} | ` +
        `${(f.bytes / 2 ** 20).toFixed(1)} | ${f.itemsPerSecond === null ? '–' : int(f.itemsPerSecond)} | ${f.mbPerSecond ?? '–'} | ` +
        `${f.rssGrowthMB.toFixed(1)} (${worst?.rss.baselineMB} → ${worst?.rss.peakMB}) | ${runs} |`,
    );
  }
  const firsts = /** @type {const} */ (['ndjson', 'csv']).map((format) => {
    const r = e.first[format];
    const end = r.complete ? '' : `, **cut short** (${int(r.lines)} lines)`;
    return `${formatLabel(format)} ${secs(r.ms)} s${end}, RSS +${r.rss.growthMB.toFixed(1)} MB (${r.rss.baselineMB} → ${r.rss.peakMB})`;
  });
  lines.push(
    '',
    `Each format's first export on this server ran before these, apart (the first use of its code paths): ${firsts.join('; ')}.`,
  );
  if (e.slowReader) {
    const s = e.slowReader;
    const how =
      s.ended === 'left'
        ? `read for ${s.seconds} s and left`
        : s.ended === 'cut'
          ? `meant to read for ${s.seconds} s, but **the server cut the answer short** (it saw the end at ${secs(s.ms)} s, after what was buffered)`
          : `read the whole export in ${secs(s.ms)} s`;
    const taken = s.ms ? `, ${(s.bytes / 2 ** 20 / (s.ms / 1000)).toFixed(1)} MB/s as it turned out` : '';
    lines.push(
      '',
      `A slow reader (${(s.bytesPerSecond / 2 ** 20).toFixed(0)} MB/s asked${taken}) ${how}, taking ${(s.bytes / 2 ** 20).toFixed(1)} MB; ` +
        `the server's RSS grew ${s.rss.growthMB.toFixed(1)} MB (${s.rss.baselineMB} → ${s.rss.peakMB}); ` +
        `${s.transactionEndedMs === null ? '**a session of the server was still in a transaction 10 s later**' : `no session of the server was in a transaction ${int(s.transactionEndedMs)} ms later`}.` +
        (s.note ? ` (${s.note})` : ''),
    );
  }
  const b = bulk.batches;
  lines.push(
    '',
    `**Batches** (\`POST /items/batch\`, ${b.size} coins each, ${b.server}; every client sends its batches one after ` +
      'another; latency per batch request as the client saw it):',
    '',
    '| Run | Batches | Items | s | items/s | p50 ms | p99 ms | max ms | errors | RSS MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of b.runs) {
    const errors = r.notOk + r.failedEntries;
    lines.push(
      `| ${r.label} | ${r.batches} | ${int(r.items)} | ${r.seconds.toFixed(1)} | ${int(r.itemsPerSecond)} | ${ms(r.p50Ms)} | ` +
        `${ms(r.p99Ms)} | ${ms(r.maxMs)} | ${errors ? `**${r.notOk} answers, ${r.failedEntries} entries**` : 0} | ${r.rssMaxMB} |`,
    );
  }
  const im = bulk.imports;
  lines.push(
    '',
    `**CLI import** (\`${im.command}\`, CLI ${im.cliVersion}; a CSV with the item columns of \`items list --output csv\`, ` +
      "the seeder's coins; a server under the API's real limit, 120 requests per 60 s, and a new key):",
    '',
  );
  if (im.skipped) lines.push(`Not measured: ${im.skipped}.`);
  else {
    lines.push(
      '| Database | Rows | Wall s | rows/s | Imported | Requests (server log) | 429 | batch p50 / max ms (server) | Exit |',
      '| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |',
    );
    for (const r of im.runs) {
      const requests = Object.entries(r.requests)
        .map(([k, n]) => `${n} × ${k}`)
        .join(', ');
      lines.push(
        `| ${r.database === 'embedded' ? 'embedded (PGlite)' : 'PostgreSQL'} | ${int(r.rows)} | ${r.seconds.toFixed(1)}${r.timedOut ? ' (timed out)' : ''} | ` +
          `${int(r.rowsPerSecond)} | ${int(r.imported)} | ${requests} | ${r.rateLimited} | ${ms(r.batchP50Ms)} / ${ms(r.batchMaxMs)} | ${r.exitCode} |`,
      );
    }
    const last = im.runs.map((r) => `${r.database}: "${r.summary.join(' / ')}"`).join('; ');
    if (last) lines.push('', `What the CLI printed last: ${last}.`);
  }
  /** @param {number[]} values */
  const range = (values) =>
    values.length === 0 ? '–' : `${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)}`;
  const exportLoads = [...e.formats.ndjson.runs, ...e.formats.csv.runs].map((r) => r.loadAverage ?? 0);
  lines.push(
    '',
    "The machine's 1-minute load average before each measurement (the cores are shared with anything else running): " +
      `exports ${range(exportLoads)}, batches ${range(b.runs.map((r) => r.loadAverage ?? 0))}, ` +
      `imports ${range(im.runs.map((r) => r.loadAverage ?? 0))}.`,
  );
  return lines;
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
    '| Scenario | req/s | p50 ms | p99 ms | errors | server CPU ms/req | DB CPU ms/req | DB floor tx/s (p50 ms) | resource floor tx/s | HTTP floor req/s | of DB floor | of resource floor | of HTTP floor | RSS MB |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  /** @param {DbFigures} f */
  const dbCell = (f) =>
    `${int(f.tps)} (${ms(f.p50Ms)}${f.sessions ? `; ${f.sessions} sessions` : ''})${f.errors ? ` ⚠ ${f.errors} errors` : ''}`;
  // pgbench logs a transaction of a few microseconds as 0 µs (it reuses a clock reading), so the resource floor's
  // fast statements have no trustworthy percentile: its cell gives the rate and sessions only.
  /** @param {DbFigures} f */
  const resourceCell = (f) =>
    `${int(f.tps)}${f.sessions ? ` (${f.sessions} sessions)` : ''}${f.errors ? ` ⚠ ${f.errors} errors` : ''}`;
  for (const row of report.scenarios) {
    const r = row.resourceFloor;
    lines.push(
      `| ${row.label} | ${int(row.server.rps)} | ${ms(row.server.p50Ms)} | ${ms(row.server.p99Ms)} | ${row.server.errors} | ` +
        `${cpuCells(row.server)} | ${dbCell(row.dbFloor)} | ${r ? resourceCell(r) : '–'} | ${int(row.httpFloor.rps)} | ${pct(row.server.rps / row.dbFloor.tps)} | ` +
        `${r ? pct(row.server.rps / r.tps) : '–'} | ${pct(row.server.rps / row.httpFloor.rps)} | ${row.server.rssMaxMB ?? ''} |`,
    );
  }
  lines.push('', CPU_NOTE);
  const open = report.scenarios.filter((r) => r.openLoop);
  if (open.length > 0) {
    lines.push(
      '',
      '**Open loop at half the most** (each read at half the req/s the closed loop above reached; requests leave on a ' +
        'fixed schedule and each latency counts from when the request was due, so waiting for a connection counts too):',
      '',
      '| Scenario | offered req/s | answered req/s | p50 ms | p99 ms | max ms | errors | server CPU ms/req | DB CPU ms/req |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    );
    for (const row of open) {
      const o = /** @type {OpenLoopFigures} */ (row.openLoop);
      lines.push(
        `| ${row.label} | ${int(o.offeredRps)} | ${int(o.achievedRps)} | ${ms(o.p50Ms)} | ${ms(o.p99Ms)} | ${ms(o.maxMs)} | ${o.errors} | ${cpuCells(o)} |`,
      );
    }
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
  lines.push(
    '',
    '**Server processes** (`WEB_CONCURRENCY`; req/s, p99 ms, RSS of all processes, server + DB CPU ms/req):',
    '',
  );
  lines.push('| Scenario | 1 process | 2 processes |');
  lines.push('| --- | ---: | ---: |');
  for (const label of [...new Set(report.workers.map((w) => w.label))]) {
    const cell = (/** @type {number} */ n) => {
      const w = report.workers.find((x) => x.label === label && x.workers === n);
      const cpu = w?.server.cpu
        ? `, ${ms(w.server.cpu.serverMsPerRequest)} + ${ms(w.server.cpu.databaseMsPerRequest)} ms`
        : '';
      return w ? `${int(w.server.rps)}, ${ms(w.server.p99Ms)} ms, ${w.server.rssMaxMB ?? '?'} MB${cpu}` : '';
    };
    lines.push(`| ${label} | ${cell(1)} | ${cell(2)} |`);
  }
  if (report.manyKeys) lines.push(...manyKeysLines(report.manyKeys, s.connections));
  if (report.baseline) lines.push(...baselineLines(report.baseline));
  if (report.processes) lines.push(...processesLines(report.processes));
  if (report.search) lines.push(...searchLines(report.search));
  if (report.inventory) lines.push(...inventoryLines(report.inventory, s.connections));
  lines.push(...bulkLines(report.bulk));
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

/**
 * The many-keys part: the server under many keys, the limiter's cost, and the capacity figures.
 * @param {ManyKeys} k
 * @param {number} connections
 * @returns {string[]}
 */
function manyKeysLines(k, connections) {
  const d = k.database;
  const l = k.limiter;
  const lines = [
    '',
    `**Many keys** (${int(k.keys)} keys over ${k.workspaces} workspaces, each key an integration of its own workspace: ` +
      "60% GET /items/{id}, 20% GET /items, 10% GET /me, 10% PATCH quantity; one server process under the API's real " +
      `limit, ${k.limit.maxRequests} per ${k.limit.windowSeconds} s, which no key reaches). Closed loop at ${connections} connections: ` +
      `${int(k.closed.rps)} req/s, p50 ${ms(k.closed.p50Ms)} ms, p99 ${ms(k.closed.p99Ms)} ms, ${k.closed.errors} errors, ` +
      `${cpuText(k.closed)} (server + DB). Open loop:`,
    '',
    '| Offered | req/s offered | answered req/s | p50 ms | p99 ms | max ms | errors | server CPU ms/req | DB CPU ms/req |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...k.openLoop.map(
      (o) =>
        `| ${o.label} | ${int(o.offeredRps)} | ${int(o.achievedRps)} | ${ms(o.p50Ms)} | ${ms(o.p99Ms)} | ${ms(o.maxMs)} | ${o.errors} | ${cpuCells(o)} |`,
    ),
    '',
    `**The rate limiter's cost** (pgbench at ${l.sessions} sessions, a random key of ${int(l.keys)} per call): ` +
      `the key lookup alone ${int(l.lookup.tps)} tx/s (p50 ${ms(l.lookup.p50Ms)} ms); with rate_limit_admit, its tables unlogged ` +
      `${int(l.unlogged.tps)} tx/s (p50 ${ms(l.unlogged.p50Ms)} ms, +${int(l.unlogged.addedUs)} µs of database time per request), ` +
      `logged as before ${int(l.logged.tps)} tx/s (p50 ${ms(l.logged.p50Ms)} ms, +${int(l.logged.addedUs)} µs).`,
    '',
    `**Capacity**: ${int(d.items)} items in the database; the items table ${int(d.itemsTableBytesPerItem)} bytes per item ` +
      `and its indexes ${int(d.itemsIndexBytesPerItem)}; the whole database ${mib(d.databaseBytes)}, ` +
      `${int(d.databaseBytesPerItem)} bytes per item with every workspace's images, valuations, sales and invoices. ` +
      `One server process: ${k.rss.idleMB} MB RSS idle, ${k.rss.maxMB} MB at most under the many-keys load; ` +
      `it sustained ${int(k.closed.rps)} req/s of the mix (closed loop).`,
    '',
    '| Table | rows | table | indexes |',
    '| --- | ---: | ---: | ---: |',
    ...d.tables.map((t) => `| ${t.name} | ${int(t.rows)} | ${mib(t.tableBytes)} | ${mib(t.indexBytes)} |`),
  ];
  return lines;
}

/**
 * An earlier build beside this one, back to back.
 * @param {Baseline} b
 * @returns {string[]}
 */
function baselineLines(b) {
  return [
    '',
    `**Before and after** (\`--baseline\`: ${b.commit ? `commit ${b.commit.slice(0, 7)}, ` : ''}${b.main}, with the ` +
      `limiter's tables ${b.limiterTables ?? 'logged'} as it had them, against this build, on the same data, alternating ` +
      `${b.rounds === 1 ? 'once' : b.rounds === 2 || b.rounds === undefined ? 'twice' : `${b.rounds} times`}; CPU per request the mean of the rounds):`,
    '',
    ...baselineTable(b.rows),
  ];
}
