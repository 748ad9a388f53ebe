import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, existsSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { batchClient, bodyOf, coins, itemsCsv, readExport, sampleRss } from '../bulk.mjs';
import { createWorkspace, operator } from '../provision.mjs';
import { startServer } from '../server.mjs';
import { freePort, log, percentile, seconds } from '../util.mjs';
import { BULK, CLI, MAIN } from './options.mjs';

/**
 * The bulk endpoints, as the issue measures them:
 *
 * - the export of the measured workspace (`GET /v1/exports/items`, NDJSON and CSV) read to its end, against the
 *   measuring server, with the server's memory sampled while it streams; and a slow reader that leaves part-way;
 * - batches of 100 items (`POST /v1/items/batch`) with the limit raised: one client, four clients on one workspace
 *   and on four, and upserts of existing SKUs, in workspaces of their own so the other scenarios' data stay as seeded;
 * - the CLI's import of a 10,000-row CSV (`coinventory items import`, the real binary) under the API's real limit
 *   (120 requests per 60 s), with a fresh key, on PostgreSQL and on the embedded database.
 */

const exec = promisify(execFile);
const MB = 2 ** 20;
/** @param {number} bytes */
const mb = (bytes) => Math.round((bytes / MB) * 10) / 10;
/** The middle value (of an even count, the mean of the two middle ones). @param {number[]} values */
export const median = (values) => {
  const sorted = Float64Array.from(values).sort();
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};
/** The machine's 1-minute load average (2 cores: above 2, something else wants the CPU too). */
const load = () => Math.round((loadavg()[0] ?? 0) * 100) / 100;
/** @param {number[]} values */
const spread = (values) => [Math.min(...values), Math.max(...values)];

/**
 * An NDJSON line as an object ({} when it is not one: an export cut short ends mid-line).
 * @param {string} line
 */
function parsed(line) {
  try {
    const value = JSON.parse(line);
    return typeof value === 'object' && value !== null ? value : {};
  } catch {
    return {};
  }
}

/** @typedef {import('../server.mjs').RunningServer} RunningServer */
/** @typedef {import('../scenarios.mjs').Target} Target */

/**
 * @typedef {object} ExportRun
 * @property {number} ms
 * @property {number} firstByteMs
 * @property {number} bytes
 * @property {number} lines
 * @property {number | null} count      the end line's (NDJSON) or the count header's (CSV)
 * @property {boolean} complete
 * @property {'complete' | 'cut' | 'left'} ended   'cut': the server closed the connection before the end
 * @property {{ baselineMB: number, peakMB: number, endMB: number, growthMB: number, samples: number }} rss
 * @property {number} loadAverage     the machine's 1-minute load average before the export
 */

/**
 * @typedef {object} ExportFormatFigures
 * @property {ExportRun[]} runs
 * @property {number} complete           runs that reached the end (the figures below are theirs)
 * @property {number[]} cutAtMs          when the others were cut short by the server, as the client saw it
 * @property {number | null} ms          median of the complete runs (null: none)
 * @property {number[]} msSpread         [min, max] of the complete runs
 * @property {number} firstByteMs        median, every run
 * @property {number} bytes              of a complete run
 * @property {number | null} itemsPerSecond     items ÷ the median time
 * @property {number | null} mbPerSecond
 * @property {number} rssGrowthMB        the largest of the runs
 * @property {number[]} rssGrowthSpread  [min, max]
 * @property {boolean} countsMatch       every run complete, with count = the workspace's items and a line per item
 */

/**
 * @typedef {object} ExportFigures
 * @property {number} items          the workspace's items when exported (counted in the database just before)
 * @property {number} seeded         of which seeded
 * @property {number} repeats
 * @property {number} sampleMs
 * @property {string} server
 * @property {Record<'ndjson' | 'csv', ExportFormatFigures>} formats   the repeats
 * @property {Record<'ndjson' | 'csv', ExportRun>} first   each format's first export on this server, before the
 *   repeats and kept out of their figures: it pays for the code paths' first use (its RSS growth is mostly that)
 * @property {null | SlowReader} slowReader
 */

/**
 * @typedef {object} SlowReader
 * @property {number} bytesPerSecond
 * @property {number} seconds        how long it meant to read before leaving
 * @property {'complete' | 'cut' | 'left'} ended   'left': it read until it left; 'cut': the server ended the
 *   answer first (no end line)
 * @property {number} ms             until it left, or saw the answer end (after taking what was buffered)
 * @property {number} bytes
 * @property {ExportRun['rss']} rss
 * @property {number | null} transactionEndedMs   from then until no session of the server was in a transaction
 * @property {string} [note]
 */

/**
 * One export, with the server's resident memory sampled while it runs.
 * @param {RunningServer} server
 * @param {string} key
 * @param {'ndjson' | 'csv'} format
 * @param {Parameters<typeof readExport>[3]} [slow]
 */
async function sampledExport(server, key, format, slow) {
  const sampler = sampleRss(server.rssBytes, BULK.export.sampleMs);
  const read = await readExport(server.origin, key, format, slow);
  const rss = sampler.stop();
  if (read.status !== 200) throw new Error(`GET /v1/exports/items (${format}) answered ${read.status}`);
  return {
    read,
    rss: {
      baselineMB: mb(rss.baseline),
      peakMB: mb(rss.peak),
      endMB: mb(rss.end),
      growthMB: mb(rss.peak - rss.baseline),
      samples: rss.samples,
    },
  };
}

/**
 * The export of the target workspace, NDJSON and CSV alternately (so the machine's noise hits both alike), each
 * BULK.export.repeats times; then a slow reader that leaves part-way.
 * @param {RunningServer} server  the measuring server, with nothing else running against it
 * @param {Target} target
 * @param {import('postgres').Sql} admin
 * @returns {Promise<ExportFigures>}
 */
export async function measureExports(server, target, admin) {
  // What the export must count: the workspace's items now (in the full run, the seeded ones and the one the capture
  // run's POST /items made; the feed's creates were deleted again).
  const [counted] = await admin`
    SELECT count(*)::int AS n FROM items i JOIN organizations o ON o.id = i.organization_id WHERE o.slug = ${target.slug}
  `;
  const items = Number(counted?.n ?? -1);
  /** @type {Record<'ndjson' | 'csv', ExportRun[]>} */
  const runs = { ndjson: [], csv: [] };
  /** @type {Partial<Record<'ndjson' | 'csv', ExportRun>>} */
  const first = {};
  for (let i = -1; i < BULK.export.repeats; i++) {
    for (const format of /** @type {const} */ (['ndjson', 'csv'])) {
      const which = i < 0 ? 'the first on this server, apart' : `${i + 1} of ${BULK.export.repeats}`;
      log(`export of ${items.toLocaleString('en-US')} items, ${format} (${which})`);
      const loadAverage = load();
      const { read, rss } = await sampledExport(server, target.key, format);
      const header = read.headers['coinventory-export-count'];
      /** @type {{ count?: number }} */
      const end = format === 'ndjson' ? parsed(read.lastLine) : {};
      const count = format === 'ndjson' ? (end.count ?? null) : typeof header === 'string' ? Number(header) : null;
      /** @type {ExportRun} */
      const run = {
        ms: read.ms,
        firstByteMs: read.firstByteMs,
        bytes: read.bytes,
        lines: read.lines,
        count,
        complete: read.complete,
        ended: read.ended,
        rss,
        loadAverage,
      };
      if (i < 0) first[format] = run;
      else runs[format].push(run);
    }
  }
  /** @param {ExportRun[]} list @returns {ExportFormatFigures} */
  const summary = (list) => {
    // Times and rates of the complete runs only: a run cut short has no completion time.
    const complete = list.filter((r) => r.complete);
    const ms = complete.length > 0 ? median(complete.map((r) => r.ms)) : null;
    const bytes = complete[0]?.bytes ?? 0;
    return {
      runs: list,
      complete: complete.length,
      cutAtMs: list.filter((r) => !r.complete).map((r) => Math.round(r.ms)),
      ms,
      msSpread: complete.length > 0 ? spread(complete.map((r) => r.ms)) : [],
      firstByteMs: median(list.map((r) => r.firstByteMs)),
      bytes,
      itemsPerSecond: ms === null ? null : Math.round(items / (ms / 1000)),
      mbPerSecond: ms === null ? null : Math.round((bytes / MB / (ms / 1000)) * 10) / 10,
      rssGrowthMB: Math.max(...list.map((r) => r.rss.growthMB)),
      rssGrowthSpread: spread(list.map((r) => r.rss.growthMB)),
      // A line per item and one more: NDJSON's end line, CSV's header (no field of the data set holds a line break).
      countsMatch: list.every((r) => r.complete && r.count === items && r.lines === items + 1),
    };
  };
  const slowReader = BULK.export.slowReader ? await slowExport(server, target, admin) : null;
  return {
    items,
    seeded: target.items,
    repeats: BULK.export.repeats,
    sampleMs: BULK.export.sampleMs,
    server: 'the measuring server (one process), warm from the read scenarios, nothing else running',
    formats: { ndjson: summary(runs.ndjson), csv: summary(runs.csv) },
    first: /** @type {Record<'ndjson' | 'csv', ExportRun>} */ (first),
    slowReader,
  };
}

/**
 * A reader taking BULK.export.slowReader.bytesPerSecond (a slow link: the whole export would take minutes), which
 * means to leave after its seconds (longer than the server's STATEMENT_TIMEOUT_MS default, 10 s): whether the server
 * serves it until it leaves, the server's memory while it waits for the reader, and how soon after the answer ended
 * no session of the server was left in a transaction.
 * @param {RunningServer} server
 * @param {Target} target
 * @param {import('postgres').Sql} admin
 * @returns {Promise<SlowReader>}
 */
async function slowExport(server, target, admin) {
  const { bytesPerSecond, seconds: forSeconds } = BULK.export.slowReader;
  log(`export read slowly (${mb(bytesPerSecond)} MB/s, the reader leaving after ${forSeconds} s)`);
  const { read, rss } = await sampledExport(server, target.key, 'ndjson', {
    bytesPerSecond,
    leaveAfterMs: forSeconds * 1000,
  });
  const left = performance.now();
  /** @type {number | null} */
  let transactionEndedMs = null;
  for (let quiet = 0; performance.now() - left < 10_000; ) {
    const [row] = await admin`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE application_name = 'coinventory-server' AND xact_start IS NOT NULL
    `;
    quiet = row?.n === 0 ? quiet + 1 : 0;
    if (quiet === 2) {
      transactionEndedMs = Math.round(performance.now() - left);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    bytesPerSecond,
    seconds: forSeconds,
    ended: read.ended,
    ms: Math.round(read.ms),
    bytes: read.bytes,
    rss,
    transactionEndedMs,
  };
}

// --- Batches. ---------------------------------------------------------------------------------------------------

/**
 * @typedef {object} BatchRun
 * @property {string} name
 * @property {string} label
 * @property {'create' | 'upsert'} mode
 * @property {number} clients
 * @property {number} workspaces
 * @property {number} batches
 * @property {number} items
 * @property {number} seconds          from the first request sent to the last answer
 * @property {number} itemsPerSecond
 * @property {number} p50Ms            of a batch's request, as its client saw it
 * @property {number} p99Ms
 * @property {number} maxMs
 * @property {number} notOk            answers other than 200
 * @property {number} failedEntries    entries refused inside 200 answers
 * @property {number} rssMaxMB
 * @property {number} loadAverage      the machine's 1-minute load average before the run
 */

/**
 * @typedef {object} BatchFigures
 * @property {number} size             items per batch
 * @property {string} server
 * @property {BatchRun[]} runs
 */

/**
 * Batches of BULK.batch.size coins from as many clients as `keys`, all at once, each client sending its own batches
 * one after another with its own key (clients with the same key write to the same workspace).
 * @param {RunningServer} server
 * @param {{ name: string, label: string, mode: 'create' | 'upsert', batches: Array<Array<Array<Record<string, unknown>>>>,
 *   keys: string[] }} run  per client, its batches and its key
 * @returns {Promise<BatchRun>}
 */
async function runBatches(server, { name, label, mode, batches, keys }) {
  log(`batches: ${label}`);
  const clients = keys.map((key) => batchClient(server.origin, key));
  /** @type {number[]} */
  const latencies = [];
  let notOk = 0;
  let failedEntries = 0;
  let items = 0;
  let rssMax = server.rssBytes();
  const loadAverage = load();
  const sampler = setInterval(() => {
    rssMax = Math.max(rssMax, server.rssBytes());
  }, 250);
  const started = performance.now();
  try {
    await Promise.all(
      clients.map(async (client, c) => {
        for (const batch of batches[c] ?? []) {
          const answer = await client.send(mode, batch);
          latencies.push(answer.ms);
          if (answer.status !== 200) notOk += 1;
          failedEntries += answer.status === 200 ? answer.failed : 0;
          items += answer.created + answer.updated;
        }
      }),
    );
  } finally {
    clearInterval(sampler);
    for (const client of clients) client.close();
  }
  const ms = performance.now() - started;
  const sorted = Float64Array.from(latencies).sort();
  return {
    name,
    label,
    mode,
    clients: clients.length,
    workspaces: new Set(keys).size,
    batches: latencies.length,
    items,
    seconds: Math.round(ms) / 1000,
    itemsPerSecond: Math.round(items / (ms / 1000)),
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: percentile(sorted, 100),
    notOk,
    failedEntries,
    rssMaxMB: Math.round(rssMax / MB),
    loadAverage,
  };
}

/**
 * Splits coins into batches of BULK.batch.size bodies.
 * @param {Array<Record<string, unknown>>} bodies
 */
const inBatches = (bodies) =>
  Array.from({ length: Math.ceil(bodies.length / BULK.batch.size) }, (_, i) =>
    bodies.slice(i * BULK.batch.size, (i + 1) * BULK.batch.size),
  );

/**
 * The batch runs, against a server with the measuring settings (the limit raised), in workspaces made for them.
 * @param {{ databaseUrl: string, work: string, cleanup: Array<() => unknown> }} step
 * @returns {Promise<BatchFigures>}
 */
export async function measureBatches({ databaseUrl, work, cleanup }) {
  const { clients, batches: concurrentBatches } = BULK.batch.concurrent;
  log(`batches: ${clients} workspaces of their own`);
  const workspaces = await Promise.all(
    Array.from({ length: clients }, (_, i) =>
      createWorkspace(MAIN, databaseUrl, { slug: `bulk-dealer-${i + 1}`, name: `Bulk Dealer ${i + 1}` }),
    ),
  );
  const keys = workspaces.map((w) => w.key);
  const first = /** @type {string} */ (keys[0]);
  const server = await startServer({
    main: MAIN,
    databaseUrl,
    port: await freePort(),
    workers: 1,
    logFile: join(work, 'batch-server.log'),
  });
  cleanup.push(() => server.stop());
  /** The next coin number per workspace, so every SKU of a workspace is new. */
  const next = keys.map(() => 1);
  /** @param {number} w  workspace @param {number} count  batches */
  const newBatches = (w, count) => {
    const from = /** @type {number} */ (next[w]);
    next[w] = from + count * BULK.batch.size;
    return inBatches(coins({ seed: 1000 + w, from, count: count * BULK.batch.size }).map(bodyOf));
  };
  /** @type {BatchRun[]} */
  const runs = [];
  try {
    // Warm-up, not counted: the server's first batches compile its code paths.
    await runBatches(server, {
      name: 'warmup',
      label: 'warm-up',
      mode: 'create',
      batches: [newBatches(0, BULK.batch.warmup)],
      keys: [first],
    });
    const sequentialFrom = next[0] ?? 1;
    runs.push(
      await runBatches(server, {
        name: 'create-1',
        label: 'create, 1 client',
        mode: 'create',
        batches: [newBatches(0, BULK.batch.sequential)],
        keys: [first],
      }),
    );
    runs.push(
      await runBatches(server, {
        name: 'create-4-same',
        label: `create, ${clients} clients, one workspace`,
        mode: 'create',
        batches: keys.map(() => newBatches(0, concurrentBatches)),
        keys: keys.map(() => first),
      }),
    );
    runs.push(
      await runBatches(server, {
        name: 'create-4-apart',
        label: `create, ${clients} clients, ${clients} workspaces`,
        mode: 'create',
        batches: keys.map((_, w) => newBatches(w, concurrentBatches)),
        keys,
      }),
    );
    // The coins of the one-client run again, each with a new quantity and value: every entry updates its item.
    const upserts = coins({ seed: 1000, from: sequentialFrom, count: BULK.batch.sequential * BULK.batch.size })
      .map(bodyOf)
      .map((body) => ({
        ...body,
        quantity: Number(body.quantity ?? 0) + 1,
        valueInCents: Math.round(Number(body.valueInCents ?? 0) * 1.05),
      }));
    runs.push(
      await runBatches(server, {
        name: 'upsert-1',
        label: 'upsert of existing SKUs, 1 client',
        mode: 'upsert',
        batches: [inBatches(upserts)],
        keys: [first],
      }),
    );
  } finally {
    await server.stop();
  }
  return {
    size: BULK.batch.size,
    server:
      'the measuring settings (RATE_LIMIT_MAX_REQUESTS=1000000, DATABASE_POOL_SIZE=4, one process), each batch with an Idempotency-Key as the SDK sends',
    runs,
  };
}

// --- The CLI's import. ------------------------------------------------------------------------------------------

/**
 * @typedef {object} ImportRun
 * @property {'postgres' | 'embedded'} database
 * @property {number} rows
 * @property {number | null} exitCode
 * @property {boolean} timedOut
 * @property {number} seconds          the CLI's wall time, from spawn to exit
 * @property {number} rowsPerSecond
 * @property {number} imported         items the workspace holds afterwards (its export's count)
 * @property {Record<string, number>} requests   the server's log of the import: "METHOD path status" → count
 * @property {number} rateLimited      429 answers in the server's log
 * @property {number} retryNotices     "Rate limited; retrying" lines the CLI printed
 * @property {number} batchP50Ms       the batch requests' time in the server (its log)
 * @property {number} batchMaxMs
 * @property {string[]} summary        the last lines the CLI printed (stderr, then stdout)
 * @property {number} loadAverage      the machine's 1-minute load average before the import
 */

/**
 * @typedef {object} ImportFigures
 * @property {null | string} skipped   why the import was not measured (the CLI has no `items import`)
 * @property {string} command
 * @property {string} cliVersion
 * @property {ImportRun[]} runs
 */

/**
 * Whether the CLI build has `items import`, and its version.
 * @returns {Promise<{ ok: true, version: string } | { ok: false, reason: string }>}
 */
async function cliAvailable() {
  if (!existsSync(CLI))
    return { ok: false, reason: `${CLI} is missing: build the CLI (turbo run build --filter=@coinventory/cli)` };
  const env = { PATH: process.env.PATH ?? '' };
  try {
    // An unknown subcommand's --help prints its parent's help: the import's own starts with its usage line.
    const { stdout: help } = await exec(process.execPath, [CLI, 'items', 'import', '--help'], { env });
    if (!/^Usage: coinventory items import\b/m.test(help)) {
      return { ok: false, reason: `the CLI at ${CLI} has no \`items import\` (is its build current?)` };
    }
    const { stdout } = await exec(process.execPath, [CLI, '--version'], { env });
    return { ok: true, version: stdout.trim() };
  } catch (error) {
    const text = error instanceof Error ? error.message.split('\n').slice(0, 2).join(' ') : String(error);
    return { ok: false, reason: `the CLI at ${CLI} did not run (${text})` };
  }
}

/**
 * The server's log lines of requests, counted by method, path and status, and the batch requests' durations.
 * @param {string} file
 * @param {number} from  offset where the import's requests start
 */
function requestsLogged(file, from) {
  /** @type {Record<string, number>} */
  const requests = {};
  /** @type {number[]} */
  const batchMs = [];
  for (const line of readFileSync(file, 'utf8').slice(from).split('\n')) {
    if (!line.includes('"msg":"request"')) continue;
    const entry = /** @type {{ method: string, path: string, status: number, durationMs: number }} */ (
      JSON.parse(line)
    );
    const key = `${entry.method} ${entry.path} ${entry.status}`;
    requests[key] = (requests[key] ?? 0) + 1;
    if (entry.path === '/v1/items/batch' && entry.status === 200) batchMs.push(entry.durationMs);
  }
  return { requests, batchMs: Float64Array.from(batchMs).sort() };
}

/**
 * Runs the CLI's import of `file` against `origin` with `key`, as a dealer runs it: its own config directory (no
 * saved profile), the key and base URL from the environment.
 * @param {{ origin: string, key: string, file: string, work: string, name: string }} job
 */
async function runCli({ origin, key, file, work, name }) {
  const stdoutFile = join(work, `${name}.stdout`);
  const stderrFile = join(work, `${name}.stderr`);
  const out = openSync(stdoutFile, 'w');
  const err = openSync(stderrFile, 'w');
  const started = performance.now();
  const child = spawn(process.execPath, [CLI, 'items', 'import', file], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: work,
      COINVENTORY_CONFIG_DIR: join(work, `${name}-config`),
      COINVENTORY_API_KEY: key,
      COINVENTORY_BASE_URL: `${origin}/v1`,
      NO_COLOR: '1',
    },
    stdio: ['ignore', out, err],
  });
  closeSync(out);
  closeSync(err);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
  }, BULK.import.timeoutSeconds * 1000);
  const [exitCode] = /** @type {[number | null]} */ (await once(child, 'exit'));
  clearTimeout(timer);
  const ms = performance.now() - started;
  const stderr = readFileSync(stderrFile, 'utf8');
  const stdout = readFileSync(stdoutFile, 'utf8');
  // Its last lines, without the progress lines ("9,800/10,000 rows (98%), …") before the summary.
  const lastLines = (/** @type {string} */ text) =>
    text
      .split(/[\r\n]+/)
      .filter((line) => line.trim() !== '' && !/^\s*[\d,]+\/[\d,]+ rows\b/.test(line))
      .slice(-3);
  return {
    exitCode,
    timedOut,
    ms,
    retryNotices: (stderr.match(/Rate limited/g) ?? []).length,
    summary: [...lastLines(stderr), ...lastLines(stdout)],
  };
}

/**
 * One import of the CSV into a new workspace (a fresh key, so nothing else spent its limit), on a server under the
 * API's real limit started for it alone.
 * @param {{ database: 'postgres' | 'embedded', databaseUrl: string | null, work: string, file: string, rows: number,
 *   cleanup: Array<() => unknown> }} job
 * @returns {Promise<ImportRun>}
 */
async function importInto({ database, databaseUrl, work, file, rows, cleanup }) {
  const dataDir = join(work, 'embedded-data');
  const logFile = join(work, `import-${database}-server.log`);
  const server = await startServer({
    main: MAIN,
    databaseUrl,
    ...(databaseUrl === null ? { dataDir } : {}),
    port: await freePort(),
    workers: 1,
    logFile,
    // The API's real limit, 120 requests per 60 s per key (and the embedded database's one connection).
    unset: [
      'RATE_LIMIT_MAX_REQUESTS',
      'RATE_LIMIT_WINDOW_SECONDS',
      ...(databaseUrl === null ? /** @type {const} */ (['DATABASE_POOL_SIZE']) : []),
    ],
  });
  cleanup.push(() => server.stop());
  try {
    const workspace = await createWorkspace(MAIN, databaseUrl ?? { dataDir }, {
      slug: `import-${database}`,
      name: `First Import (${database})`,
    });
    const from = statSync(logFile).size;
    const loadAverage = load();
    log(`CLI import of ${rows.toLocaleString('en-US')} rows, ${database} (the real limit: 120 requests per 60 s)`);
    const cli = await runCli({ origin: server.origin, key: workspace.key, file, work, name: `import-${database}` });
    const { requests, batchMs } = requestsLogged(logFile, from);
    // What the workspace holds now, by its export's count, read with a second key (the import's may be spent).
    const check = /** @type {{ key: string }} */ (
      await operator(MAIN, databaseUrl ?? { dataDir }, [
        'key',
        'create',
        '--org',
        workspace.slug,
        '--creator',
        `owner@${workspace.slug}.example`,
        '--name',
        'Benchmark import check',
        '--scopes',
        'read',
      ])
    );
    const exported = await readExport(server.origin, check.key, 'ndjson');
    const imported = exported.status === 200 ? Number(parsed(exported.lastLine).count ?? -1) : -1;
    log(`CLI import, ${database}: ${seconds(cli.ms)}, exit ${cli.exitCode}, ${imported} items`);
    return {
      database,
      rows,
      exitCode: cli.exitCode,
      timedOut: cli.timedOut,
      seconds: Math.round(cli.ms) / 1000,
      rowsPerSecond: Math.round(rows / (cli.ms / 1000)),
      imported,
      requests,
      rateLimited: Object.entries(requests)
        .filter(([k]) => k.endsWith(' 429'))
        .reduce((sum, [, n]) => sum + n, 0),
      retryNotices: cli.retryNotices,
      batchP50Ms: percentile(batchMs, 50),
      batchMaxMs: percentile(batchMs, 100),
      summary: cli.summary,
      loadAverage,
    };
  } finally {
    await server.stop();
  }
}

/**
 * The CLI's import of BULK.import.rows coins, on PostgreSQL and on the embedded database.
 * @param {{ databaseUrl: string, work: string, cleanup: Array<() => unknown> }} step
 * @returns {Promise<ImportFigures>}
 */
export async function measureImports({ databaseUrl, work, cleanup }) {
  const command = `node ${CLI.replace(/^.*\/packages\//, 'packages/')} items import <file.csv>`;
  const available = await cliAvailable();
  if (!available.ok) {
    log(`CLI import skipped: ${available.reason}`);
    return { skipped: available.reason, command, cliVersion: 'unknown', runs: [] };
  }
  const rows = BULK.import.rows;
  const file = join(work, `import-${rows}.csv`);
  writeFileSync(file, itemsCsv(coins({ seed: 2000, from: 1, count: rows })));
  /** @type {ImportRun[]} */
  const runs = [];
  runs.push(await importInto({ database: 'postgres', databaseUrl, work, file, rows, cleanup }));
  if (BULK.import.embedded)
    runs.push(await importInto({ database: 'embedded', databaseUrl: null, work, file, rows, cleanup }));
  return { skipped: null, command, cliVersion: available.version, runs };
}

/**
 * @typedef {object} BulkFigures
 * @property {ExportFigures} export
 * @property {BatchFigures} batches
 * @property {ImportFigures} imports
 */

/**
 * The writing half of the bulk part (batches, then the CLI's import), at the end of the run: in workspaces of their
 * own, after everything that reads the seeded ones.
 * @param {{ databaseUrl: string, work: string, cleanup: Array<() => unknown> }} step
 */
export async function measureBulkWrites(step) {
  const batches = await measureBatches(step);
  const imports = await measureImports(step);
  return { batches, imports };
}

/**
 * `--only=bulk`: the export against a server with the measuring settings started for it (cold, where the full run's
 * is warm from the read scenarios), then the writing half.
 * @param {{ databaseUrl: string, admin: import('postgres').Sql, work: string, target: Target,
 *   cleanup: Array<() => unknown> }} step
 * @returns {Promise<BulkFigures>}
 */
export async function measureBulkAlone({ databaseUrl, admin, work, target, cleanup }) {
  const server = await startServer({
    main: MAIN,
    databaseUrl,
    port: await freePort(),
    workers: 1,
    logFile: join(work, 'export-server.log'),
  });
  cleanup.push(() => server.stop());
  /** @type {ExportFigures} */
  let exported;
  try {
    exported = await measureExports(server, target, admin);
    exported.server = 'a server with the measuring settings (one process) started for it, nothing else running';
  } finally {
    await server.stop();
  }
  return { export: exported, ...(await measureBulkWrites({ databaseUrl, work, cleanup })) };
}
