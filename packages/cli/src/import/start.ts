import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { BatchMode } from '@coinventory/contract/constants';
import { CliError, EXIT, type ExitCode, errorMessage, isErrno } from '../errors.js';
import { groupDigits } from '../output/format.js';
import { stoppedExitCode } from '../signals.js';
import type { ImportRequest } from './importer.js';
import { openInput } from './input.js';
import { sha256 } from './read-text.js';
import type { InputFormat } from './rows.js';
import { type ImportPaths, type ImportState, readState, STATE_VERSION, writeState } from './state.js';

// Where an import starts, before any row is sent: the file checked and read once through, and the place to start
// from (an interrupted import's, or the first row).

/** What the start needs of the request. */
type StartRequest = Pick<ImportRequest, 'io' | 'format' | 'mode' | 'modeGiven' | 'restart'>;

/** Whether the file exists and is a file: a missing one is a usage error, before anything else. */
export async function checkFile(file: string): Promise<number> {
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
export async function scan(
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
export async function startingState(
  request: StartRequest,
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

/** A new import's state, saved before the first request: from then on, however the run ends, running it again resumes it. */
export async function saveNewState(paths: ImportPaths, state: ImportState, file: string): Promise<void> {
  try {
    await writeState(paths.state, state);
  } catch (error) {
    throw new CliError(
      `${errorMessage(error)}. The import keeps its place there, beside ${file}. Nothing was imported.`,
    );
  }
}
