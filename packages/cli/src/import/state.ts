import { open, readFile, rename, rm } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { BatchMode } from '@coinventory/contract/constants';
import { CliError, EXIT, errorMessage, isErrno } from '../errors.js';
import type { InputFormat } from './rows.js';

// Where an import keeps its place: a state file beside the input, replaced atomically after each batch, so a run
// that stops (Ctrl-C, a crash, a lost connection) is resumed by running the same command again.

/** The files an import writes beside its input: `items.csv` → `items.import-state.json`, `items.rejects.csv`. */
export interface ImportPaths {
  input: string;
  state: string;
  rejects: string;
}

export function importPaths(input: string, format: InputFormat): ImportPaths {
  const extension = extname(input);
  const stem = extension ? input.slice(0, -extension.length) : input;
  return { input, state: `${stem}.import-state.json`, rejects: `${stem}.rejects.${format}` };
}

export const STATE_VERSION = 1;

/** What an import has done, saved after each batch. */
export interface ImportState {
  version: typeof STATE_VERSION;
  /** The input's file name, size and SHA-256: a different or changed file is not resumed. */
  input: string;
  bytes: number;
  sha256: string;
  format: InputFormat;
  mode: BatchMode;
  /** The API it went to. */
  baseUrl: string;
  /**
   * Made anew for each import started from the first row, and part of every batch's Idempotency-Key: a batch sent
   * again on resuming gets the API's first answer instead of being applied twice, while importing the same file
   * again later (after deleting its items, say) is a new import.
   */
  runId: string;
  /** Rows in the file (blank lines and an export's end line not counted). */
  rows: number;
  /** Rows handled (applied, or refused and written to the rejects file), in file order. */
  rowsDone: number;
  batchesDone: number;
  created: number;
  updated: number;
  refused: number;
  /** The rejects file's size once those rows were written: a run that stopped just after writing more is cut back. */
  rejectsBytes: number;
  startedAt: string;
  savedAt: string;
}

const COUNTS = ['bytes', 'rows', 'rowsDone', 'batchesDone', 'created', 'updated', 'refused', 'rejectsBytes'] as const;
const TEXTS = ['input', 'sha256', 'format', 'mode', 'baseUrl', 'runId', 'startedAt', 'savedAt'] as const;

/** The state in the file; undefined when there is none. A file that is not one this CLI wrote is an error. */
export async function readState(path: string): Promise<ImportState | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw new CliError(`Cannot read ${path}: ${errorMessage(error)}`);
  }
  const unusable = (why: string) =>
    new CliError(`${path} is not a state file this CLI can resume from (${why}).`, EXIT.USAGE, [
      `Pass --restart to import the file from its first row (the state file is then replaced), or remove ${basename(path)}.`,
    ]);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw unusable('it is not JSON');
  }
  if (typeof value !== 'object' || value === null) throw unusable('it is not a JSON object');
  const state = value as Record<string, unknown>;
  if (state.version !== STATE_VERSION) throw unusable(`version ${String(state.version)}, not ${STATE_VERSION}`);
  for (const key of COUNTS) {
    if (!Number.isSafeInteger(state[key]) || (state[key] as number) < 0) throw unusable(`no valid "${key}"`);
  }
  for (const key of TEXTS) if (typeof state[key] !== 'string') throw unusable(`no valid "${key}"`);
  return value as ImportState;
}

/**
 * Replaces the state file in one step: written to a temporary file, flushed to disk, then renamed over it, so a crash
 * at any moment leaves either the old state or the new one.
 */
export async function writeState(path: string, state: ImportState): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(`${JSON.stringify({ ...state, savedAt: new Date().toISOString() }, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => {});
    throw new CliError(`Cannot write the import's state file ${path}: ${errorMessage(error)}`);
  }
}

export async function removeState(path: string): Promise<void> {
  await rm(path, { force: true });
}
