import type { BatchMode } from '@coinventory/contract/constants';
import { EXIT, type ExitCode } from '../errors.js';
import type { IO } from '../io.js';
import type { ResponseObserver, Session } from '../session.js';
import { stoppedExitCode } from '../signals.js';
import { ImportBatches } from './batches.js';
import { openInput, RejectsFile } from './input.js';
import { ImportProgress } from './progress.js';
import { RateLimitWatch } from './rate-limit.js';
import { sha256 } from './read-text.js';
import type { InputFormat } from './rows.js';
import { BatchSender } from './sender.js';
import { checkFile, saveNewState, scan, startingState } from './start.js';
import { importPaths, removeState } from './state.js';
import { type ImportSummary, printSummary } from './summary.js';

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

/** Runs the import; returns its summary and the exit code it ends with. */
export async function importItems(
  request: ImportRequest,
): Promise<{ summary: ImportSummary; exitCode: ExitCode | number }> {
  const started = performance.now();
  const { io, signal, dryRun, format, file } = request;
  const bytes = await checkFile(file);

  const limits = new RateLimitWatch();
  const { client, baseUrl } = request.connect(limits.observe);

  const scanned = await scan(file, format, request.mode, signal);
  const paths = importPaths(file, format);
  // A dry run neither reads nor writes the state file: it starts from the first row and saves nothing.
  const { state, resumed } = await startingState(
    dryRun ? { ...request, restart: true } : request,
    paths,
    { bytes, ...scanned },
    baseUrl,
  );
  /** Rows an interrupted run had done: skipped. */
  const doneBefore = state.rowsDone;

  // Hashed again as it is read: a file changed during the import is noticed at the end.
  const reread = sha256();
  const input = await openInput(file, format, state.mode, reread);
  const rejects = dryRun
    ? undefined
    : await RejectsFile.open(paths.rejects, format, input.plan, state.rejectsBytes, (message) => io.notice(message));
  if (!dryRun && !resumed) await saveNewState(paths, state, file);

  const progress = new ImportProgress(io, state.rows, state.rowsDone);
  const sender = new BatchSender({ client, state, dryRun, io, signal, progress, limits });
  const batches = new ImportBatches({
    state,
    paths,
    format,
    dryRun,
    io,
    signal,
    progress,
    rejects,
    sender,
    resumeCommand: request.resumeCommand,
  });
  const { stopped, readAll } = await batches.run(input.rows, doneBefore);
  await rejects?.close();

  const complete = !stopped;
  if (complete && !dryRun) await removeState(paths.state);
  if (readAll && reread.digest('hex') !== state.sha256) warnChanged(io, file);
  const summary: ImportSummary = {
    file,
    format,
    mode: state.mode,
    dryRun,
    complete,
    rows: state.rows,
    rowsDone: state.rowsDone,
    rowsDoneBefore: doneBefore,
    created: state.created,
    updated: state.updated,
    refused: state.refused,
    rejectsFile: !dryRun && state.refused > 0 ? paths.rejects : null,
    rateLimited: limits.rateLimited,
    pauses: sender.pauses,
    replayedBatches: sender.replayedBatches,
    elapsedMs: Math.round(performance.now() - started),
  };
  printSummary(io, summary, batches.examples, batches.listed, request.resumeCommand, paths.state);
  const exitCode = complete
    ? state.refused > 0
      ? EXIT.ROWS_REFUSED
      : EXIT.OK
    : (stoppedExitCode(signal) ?? EXIT.INTERRUPTED);
  return { summary, exitCode };
}

/** The file read again did not hash as it did at the start: the rows sent may mix two versions of it. */
function warnChanged(io: IO, file: string): void {
  io.notice(
    io.errStyle.yellow(
      `Warning: ${file} changed while it was being imported: the rows sent may mix its old and new content. Check the items, or import the file again with --mode upsert.`,
    ),
  );
}
