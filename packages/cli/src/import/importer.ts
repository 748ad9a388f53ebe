import { createHash, randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { BATCH, type BatchMode, IDEMPOTENCY, MAX_BODY_BYTES } from '@coinventory/contract/constants';
import { type BatchItemsResult, RateLimitError } from '@coinventory/sdk';
import { CliError, EXIT, type ExitCode, errorMessage, isErrno, reportError } from '../errors.js';
import type { IO } from '../io.js';
import { groupDigits } from '../output/format.js';
import type { ResponseObserver, Session } from '../session.js';
import { stoppedExitCode } from '../signals.js';
import { openInput, type Reject, RejectsFile } from './input.js';
import { formatDuration, formatElapsed, ImportProgress } from './progress.js';
import { parseRateLimit, parseRateLimitPolicy, type RateLimitPolicy, RESERVE } from './rate-limit.js';
import { sha256 } from './read-text.js';
import { type CsvPlan, type InputFormat, type InputRow, refusalReason } from './rows.js';
import {
  type ImportPaths,
  type ImportState,
  importPaths,
  readState,
  removeState,
  STATE_VERSION,
  writeState,
} from './state.js';

// `items import`: the file's rows sent in batches of up to 100 (`POST /items/batch`), in order, each batch with an
// Idempotency-Key derived from the import and the batch itself, the place kept in a state file after each batch, and
// the pace set by the rate limit headers.

export interface ImportRequest {
  file: string;
  format: InputFormat;
  mode: BatchMode;
  /** --mode was given; otherwise a resumed import keeps the mode it started with. */
  modeGiven: boolean;
  dryRun: boolean;
  restart: boolean;
  io: IO;
  /** The client, told of every response (for the 429 count and the rate limit). */
  connect(observe: ResponseObserver): Session;
  /** Aborted by Ctrl-C or SIGTERM: the import stops after the batch in flight. */
  signal: AbortSignal;
  /** The command line that resumes the import in `mode`. */
  resumeCommand(mode: BatchMode): string;
}

/** What `--json` prints, and what the summary says. */
export interface ImportSummary {
  file: string;
  format: InputFormat;
  mode: BatchMode;
  dryRun: boolean;
  /** Every row was handled (not stopped part-way). */
  complete: boolean;
  rows: number;
  /** Rows handled, by this run and an interrupted one it resumed. */
  rowsDone: number;
  /** Of those, the rows an earlier, interrupted run handled. */
  rowsDoneBefore: number;
  created: number;
  updated: number;
  refused: number;
  /** Where the refused rows are listed; null when none was refused (and always in a dry run). */
  rejectsFile: string | null;
  /** 429 answers this run got (each batch was sent again after the wait). */
  rateLimited: number;
  /** Pauses this run made to stay under the rate limit. */
  pauses: number;
  /** Batches the API had already applied (sent by the interrupted run) and answered again from its record. */
  replayedBatches: number;
  elapsedMs: number;
}

/** Refusals a dry run lists on stderr (a real run writes every one to the rejects file). */
const DRY_RUN_LISTED = 100;
/** Refusals a real run's summary quotes. */
const SUMMARY_EXAMPLES = 3;
/** Times a batch is sent again after the SDK's own retries ended in a 429. */
const RATE_LIMITED_ATTEMPTS = 5;
/** Rows read and held before they are written out, however many of them were refused before sending. */
const MAX_ROWS_HELD = 10 * BATCH.maxItems;
/** Room in a request body for `{"mode":"upsert","items":[…]}` around the items. */
const BODY_OVERHEAD = 64;

/** A batch being filled: the rows read for it (in order), and the entries to send. */
interface Pending {
  rows: Array<{ row: InputRow; entry: number }>;
  items: Array<Record<string, unknown>>;
  bytes: number;
}

const newPending = (): Pending => ({ rows: [], items: [], bytes: BODY_OVERHEAD });

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

const plural = (n: number, one: string, many = `${one}s`): string => `${groupDigits(n)} ${n === 1 ? one : many}`;

/** Whether the file exists and is a file: a missing one is a usage error, before anything else. */
async function checkFile(file: string): Promise<number> {
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CliError(`${file} is not a file.`, EXIT.USAGE);
    return info.size;
  } catch (error) {
    if (error instanceof CliError) throw error;
    if (isErrno(error, 'ENOENT')) throw new CliError(`No such file: ${file}`, EXIT.USAGE);
    throw new CliError(`Cannot read ${file}: ${errorMessage(error)}`);
  }
}

/**
 * The first pass: the header checked, the rows counted and the bytes hashed, before any request. Ctrl-C meanwhile
 * ends the command there, with nothing done.
 */
async function scan(
  file: string,
  format: InputFormat,
  mode: BatchMode,
  signal: AbortSignal,
): Promise<{ sha256: string; rows: number }> {
  const hash = sha256();
  const input = await openInput(file, format, mode, hash);
  let rows = 0;
  for await (const _ of input.rows) {
    rows += 1;
    if (signal.aborted) {
      throw new CliError(
        `Stopped while reading ${file}; nothing was imported.`,
        (stoppedExitCode(signal) ?? EXIT.INTERRUPTED) as ExitCode,
      );
    }
  }
  return { sha256: hash.digest('hex'), rows };
}

/**
 * The state to go on from: the interrupted import's when it is this one (same file, unchanged; same mode and API),
 * or a new one. Anything that does not match is refused with how to start over.
 */
async function startingState(
  request: ImportRequest,
  paths: ImportPaths,
  file: { bytes: number; sha256: string; rows: number },
  baseUrl: string,
): Promise<{ state: ImportState; resumed: boolean }> {
  const { io } = request;
  const saved = request.restart ? undefined : await readState(paths.state);
  if (saved) {
    const name = basename(paths.input);
    const done = `${groupDigits(saved.rowsDone)} of ${groupDigits(saved.rows)} rows`;
    const restart = (what: string) => `pass --restart to ${what} (from its first row; the saved place is dropped)`;
    if (saved.input !== name) {
      throw new CliError(
        `${paths.state} belongs to an interrupted import of ${saved.input} (${done} done), not of ${name}.`,
        EXIT.USAGE,
        [`Finish that one first (run the same import of ${saved.input} again), or ${restart(`import ${name}`)}.`],
      );
    }
    if (saved.sha256 !== file.sha256 || saved.bytes !== file.bytes || saved.format !== request.format) {
      throw new CliError(
        `${name} has changed since its import was interrupted (${done} had been imported). Going on from there could skip or repeat rows.`,
        EXIT.USAGE,
        [
          `To import the file as it is now, ${restart('import it all')}: in create mode the rows already imported are then refused as SKUs in use (and listed in the rejects file); upsert updates them again.`,
        ],
      );
    }
    if (request.modeGiven && saved.mode !== request.mode) {
      throw new CliError(
        `The interrupted import of ${name} ran with --mode ${saved.mode} (${done} done); this run asks for --mode ${request.mode}.`,
        EXIT.USAGE,
        [`Run it with --mode ${saved.mode} to finish it, or ${restart(`import it all with --mode ${request.mode}`)}.`],
      );
    }
    if (saved.baseUrl !== baseUrl) {
      throw new CliError(
        `The interrupted import of ${name} went to ${saved.baseUrl} (${done} done); this run would send the rest to ${baseUrl}.`,
        EXIT.USAGE,
        [`Use --base-url ${saved.baseUrl} to finish it, or ${restart(`import it all to ${baseUrl}`)}.`],
      );
    }
    io.notice(`Resuming: ${done} already imported (${paths.state}).`);
    return { state: saved, resumed: true };
  }
  const now = new Date().toISOString();
  const state: ImportState = {
    version: STATE_VERSION,
    input: basename(paths.input),
    bytes: file.bytes,
    sha256: file.sha256,
    format: request.format,
    mode: request.mode,
    baseUrl,
    runId: randomUUID(),
    rows: file.rows,
    rowsDone: 0,
    batchesDone: 0,
    created: 0,
    updated: 0,
    refused: 0,
    rejectsBytes: 0,
    startedAt: now,
    savedAt: now,
  };
  return { state, resumed: false };
}

/**
 * The Idempotency-Key of one batch: the same for the same batch of the same import, so sending it again (after a
 * lost answer, or on resuming) gets the API's first answer rather than applying it twice.
 */
function batchKey(state: ImportState, index: number, body: string): string {
  const digest = createHash('sha256')
    .update(`${state.runId}\n${state.sha256}\n${state.mode}\n${index}\n${body}`)
    .digest('hex');
  const key = `coinventory-import-${digest}`;
  if (!IDEMPOTENCY.keyPattern.test(key)) throw new Error('unreachable: an Idempotency-Key out of pattern');
  return key;
}

/** Runs the import; returns its summary and the exit code it ends with. */
export async function importItems(
  request: ImportRequest,
): Promise<{ summary: ImportSummary; exitCode: ExitCode | number }> {
  const started = performance.now();
  const { io, signal, dryRun, format, file } = request;
  const bytes = await checkFile(file);

  let rateLimited = 0;
  let latestPolicy: RateLimitPolicy | undefined;
  const session = request.connect((response) => {
    if (response.status === 429) rateLimited += 1;
    latestPolicy = parseRateLimitPolicy(response.headers.get('ratelimit-policy')) ?? latestPolicy;
  });
  const { client, baseUrl } = session;

  const scanned = await scan(file, format, request.mode, signal);
  const paths = importPaths(file, format);
  // A dry run neither reads nor writes the state file: it starts from the first row and saves nothing.
  const { state, resumed } = await startingState(
    dryRun ? { ...request, restart: true } : request,
    paths,
    { bytes, ...scanned },
    baseUrl,
  );
  const mode = state.mode;
  /** Rows an interrupted run had done: skipped. */
  const doneBefore = state.rowsDone;

  // Hashed again as it is read: a file changed during the import is noticed at the end.
  const reread = sha256();
  const input = await openInput(file, format, mode, reread);
  const plan: CsvPlan | undefined = input.plan;
  const rejects = dryRun
    ? undefined
    : await RejectsFile.open(paths.rejects, format, plan, state.rejectsBytes, (message) => io.notice(message));
  // Saved before the first request: from then on, however the run ends, running it again resumes it.
  if (!dryRun && !resumed) {
    try {
      await writeState(paths.state, state);
    } catch (error) {
      throw new CliError(
        `${errorMessage(error)}. The import keeps its place there, beside ${file}. Nothing was imported.`,
      );
    }
  }

  const progress = new ImportProgress(io, state.rows, state.rowsDone);
  const examples: Reject[] = [];
  let listed = 0;
  let pauses = 0;
  let replayedBatches = 0;
  let pauseUntil = 0;
  /** The pause is the rate limit's (counted and announced), not a Retry-After's (announced with its 429). */
  let pauseForLimit = false;
  let inFlight = false;
  const onStop = () => {
    if (inFlight) {
      io.notice(
        io.errStyle.yellow(
          'Stopping after the batch in flight… (Ctrl-C again quits at once; the import still resumes without duplicates)',
        ),
      );
    }
  };
  signal.addEventListener('abort', onStop, { once: true });

  /** Waits out a pause the rate limit asked for; false when stopped meanwhile. */
  const paced = async (): Promise<boolean> => {
    const wait = pauseUntil - Date.now();
    if (wait > 0) {
      if (pauseForLimit) {
        pauses += 1;
        const policy = latestPolicy
          ? ` (${groupDigits(latestPolicy.quota)} requests per ${latestPolicy.windowSeconds} s)`
          : '';
        progress.waiting(`Waiting ${formatDuration(wait)} for the rate limit${policy}…`);
      }
      await pause(wait, signal);
    }
    return !signal.aborted;
  };

  /** Sends one batch, paced, again after a 429 with the same key; undefined when stopped before it was sent. */
  const send = async (pending: Pending): Promise<BatchItemsResult | undefined> => {
    const body = { mode, items: pending.items };
    const key = dryRun ? undefined : batchKey(state, state.batchesDone, JSON.stringify(body.items));
    for (let attempt = 1; ; attempt += 1) {
      if (!(await paced())) return undefined;
      inFlight = true;
      try {
        const { data, response } = await client.items
          .batch(body, dryRun ? { dryRun: true } : {}, key ? { idempotencyKey: key } : {})
          .withResponse();
        const limit = parseRateLimit(response.headers.get('ratelimit'));
        if (limit && limit.remaining <= RESERVE) {
          pauseUntil = Date.now() + limit.resetSeconds * 1000;
          pauseForLimit = true;
        }
        if (response.headers.get(IDEMPOTENCY.replayedHeader.toLowerCase()) === 'true') replayedBatches += 1;
        if (data.results.length !== pending.items.length) {
          throw new CliError(
            `The API answered ${data.results.length} results for a batch of ${pending.items.length} items.`,
          );
        }
        return data;
      } catch (error) {
        if (!(error instanceof RateLimitError) || attempt >= RATE_LIMITED_ATTEMPTS || signal.aborted) throw error;
        const wait = error.retryAfter ?? 1;
        pauseUntil = Date.now() + wait * 1000;
        pauseForLimit = false;
        io.notice(
          io.errStyle.yellow(
            `Rate limited (429): sending the same batch again in ${wait} s (the API applies it once).`,
          ),
        );
      } finally {
        inFlight = false;
      }
    }
  };

  /** Sends a filled batch and records what became of each of its rows; false when stopped before sending it. */
  const flush = async (pending: Pending): Promise<boolean> => {
    const result = pending.items.length > 0 ? await send(pending) : undefined;
    if (pending.items.length > 0 && !result) return false;
    const refused: Reject[] = [];
    for (const { row, entry } of pending.rows) {
      if (entry < 0) {
        refused.push({ row, reason: row.error ?? 'Refused.' });
        continue;
      }
      const outcome = result?.results[entry];
      if (outcome?.action === 'created') state.created += 1;
      else if (outcome?.action === 'updated') state.updated += 1;
      else refused.push({ row, reason: refusalReason(outcome?.error ?? null, outcome?.status ?? 0, row.names) });
    }
    state.refused += refused.length;
    for (const reject of refused) {
      if (examples.length < SUMMARY_EXAMPLES) examples.push(reject);
      if (dryRun && listed < DRY_RUN_LISTED) {
        listed += 1;
        io.notice(`${rowLabel(reject.row)}: ${reject.reason}`);
      }
    }
    if (rejects) state.rejectsBytes = await rejects.write(refused);
    state.rowsDone += pending.rows.length;
    if (pending.items.length > 0) state.batchesDone += 1;
    if (!dryRun) await writeState(paths.state, state);
    progress.update(state.rowsDone);
    return true;
  };

  const rowLabel = (row: InputRow) => `${format === 'csv' ? 'Row' : 'Line'} ${row.number}${skuOf(row)}`;
  let stopped = false;
  /** The whole file was read (and so hashed again). */
  let readAll = false;
  try {
    let index = 0;
    let pending = newPending();
    progress.update(state.rowsDone);
    for await (const row of input.rows) {
      index += 1;
      if (index <= doneBefore) continue;
      let json = row.body ? JSON.stringify(row.body) : undefined;
      if (json !== undefined && Buffer.byteLength(json) + BODY_OVERHEAD > MAX_BODY_BYTES) {
        row.error = `Too large to send: ${groupDigits(Buffer.byteLength(json))} bytes as JSON, where a request to the API may hold at most ${groupDigits(MAX_BODY_BYTES)}.`;
        json = undefined;
      }
      const size = json === undefined ? 0 : Buffer.byteLength(json) + 1;
      if (json !== undefined && pending.bytes + size > MAX_BODY_BYTES) {
        if (!(await flush(pending)) || signal.aborted) {
          stopped = true;
          break;
        }
        pending = newPending();
      }
      if (json !== undefined && row.body) {
        pending.rows.push({ row, entry: pending.items.length });
        pending.items.push(row.body);
        pending.bytes += size;
      } else pending.rows.push({ row, entry: -1 });
      // A batch is full at 100 entries; rows refused before sending are written out at least every 1,000 rows.
      if (pending.items.length === BATCH.maxItems || pending.rows.length >= MAX_ROWS_HELD) {
        if (!(await flush(pending)) || signal.aborted) {
          stopped = true;
          break;
        }
        pending = newPending();
      }
    }
    readAll = !stopped;
    if (!stopped && pending.rows.length > 0) stopped = !(await flush(pending));
    // Stopped just after the last batch: nothing is left to do.
    if (stopped && state.rowsDone >= state.rows) stopped = false;
  } catch (error) {
    progress.clear();
    await rejects?.close();
    if (dryRun) throw error;
    const { lines, exitCode } = reportError(error);
    const [first = '', ...rest] = lines;
    throw new CliError(first, exitCode, [
      ...rest,
      `Stopped after ${groupDigits(state.rowsDone)} of ${groupDigits(state.rows)} rows; the place is saved in ${paths.state}.`,
      `Resume with: ${request.resumeCommand(mode)}`,
    ]);
  } finally {
    signal.removeEventListener('abort', onStop);
    progress.clear();
  }
  await rejects?.close();

  const complete = !stopped;
  if (complete && !dryRun) await removeState(paths.state);
  if (readAll && reread.digest('hex') !== state.sha256) {
    io.notice(
      io.errStyle.yellow(
        `Warning: ${file} changed while it was being imported: the rows sent may mix its old and new content. Check the items, or import the file again with --mode upsert.`,
      ),
    );
  }
  const summary: ImportSummary = {
    file,
    format,
    mode,
    dryRun,
    complete,
    rows: state.rows,
    rowsDone: state.rowsDone,
    rowsDoneBefore: doneBefore,
    created: state.created,
    updated: state.updated,
    refused: state.refused,
    rejectsFile: !dryRun && state.refused > 0 ? paths.rejects : null,
    rateLimited,
    pauses,
    replayedBatches,
    elapsedMs: Math.round(performance.now() - started),
  };
  printSummary(io, summary, examples, listed, request, paths);
  const exitCode = complete
    ? state.refused > 0
      ? EXIT.ROWS_REFUSED
      : EXIT.OK
    : (stoppedExitCode(signal) ?? EXIT.INTERRUPTED);
  return { summary, exitCode };
}

/** ` (SKU …)` when the row has one, to tell rows apart in messages. */
const skuOf = (row: InputRow): string => (row.sku ? ` (SKU ${JSON.stringify(row.sku)})` : '');

/** The end of an import on stderr: what was done, the rate limit, and where the refused rows are. */
function printSummary(
  io: IO,
  summary: ImportSummary,
  examples: readonly Reject[],
  listed: number,
  request: ImportRequest,
  paths: ImportPaths,
): void {
  const { dryRun, refused } = summary;
  const name = basename(summary.file);
  const counts = dryRun
    ? `${groupDigits(summary.created)} would be created, ${groupDigits(summary.updated)} updated, ${groupDigits(refused)} refused`
    : `${groupDigits(summary.created)} created, ${groupDigits(summary.updated)} updated, ${groupDigits(refused)} refused`;
  const of = `of ${plural(summary.rows, 'row')}`;
  const earlier =
    summary.rowsDoneBefore > 0 ? ` (${groupDigits(summary.rowsDoneBefore)} rows by the interrupted run)` : '';
  const elapsed = formatElapsed(summary.elapsedMs);
  const lines: string[] = [];
  if (!summary.complete) {
    lines.push(
      dryRun
        ? `Dry run stopped after ${groupDigits(summary.rowsDone)} ${of}: ${counts} so far; nothing was written.`
        : `Stopped after ${groupDigits(summary.rowsDone)} ${of} (${counts}); the place is saved in ${paths.state}.`,
    );
    if (!dryRun) lines.push(`Resume with: ${request.resumeCommand(summary.mode)}`);
  } else if (dryRun) {
    lines.push(`Dry run of ${name} (--mode ${summary.mode}), nothing written: ${counts}, ${of}, in ${elapsed}.`);
  } else {
    lines.push(`Imported ${name} (--mode ${summary.mode}) in ${elapsed}: ${counts}, ${of}${earlier}.`);
  }
  lines.push(
    `Rate limit: ${plural(summary.rateLimited, 'request')} refused (429), ${plural(summary.pauses, 'pause')} to stay under it.`,
  );
  if (summary.replayedBatches > 0) {
    lines.push(
      `${plural(summary.replayedBatches, 'batch', 'batches')} the interrupted run had sent ${summary.replayedBatches === 1 ? 'was' : 'were'} already applied: the API answered again from its record, and applied nothing twice.`,
    );
  }
  if (dryRun && refused > listed) lines.push(`(${groupDigits(refused - listed)} more refused rows not listed.)`);
  if (summary.rejectsFile && summary.complete) {
    lines.push(
      `${plural(refused, 'refused row is', 'refused rows are')} in ${summary.rejectsFile}, each with its ${summary.format === 'csv' ? 'row' : 'line'} number and reason${examples.length > 0 ? ', e.g.' : '.'}`,
    );
    for (const { row, reason } of examples) {
      lines.push(`  ${summary.format === 'csv' ? 'row' : 'line'} ${row.number}${skuOf(row)}: ${reason}`);
    }
    lines.push(
      summary.format === 'csv'
        ? 'Correct them there and import that file as it is: its two "rejected." columns are skipped.'
        : 'Correct them there and import that file as it is: the "rejected" key of each line is skipped.',
    );
  }
  for (const line of lines) io.notice(line);
}
