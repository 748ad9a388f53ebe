import { BATCH, type BatchMode, MAX_BODY_BYTES } from '@coinventory/contract/constants';
import { CliError, reportError } from '../errors.js';
import type { IO } from '../io.js';
import { groupDigits } from '../output/format.js';
import type { Reject, RejectsFile } from './input.js';
import type { ImportProgress } from './progress.js';
import { type InputFormat, type InputRow, refusalReason } from './rows.js';
import type { BatchSender } from './sender.js';
import { type ImportPaths, type ImportState, writeState } from './state.js';
import { skuOf } from './summary.js';

// The import's rows, read in order into batches of up to 100 items and at most MAX_BODY_BYTES, each batch sent and
// what became of each of its rows recorded (counts, rejects, the state file) before the next is read.

/** Refusals a dry run lists on stderr (a real run writes every one to the rejects file). */
const DRY_RUN_LISTED = 100;
/** Refusals a real run's summary quotes. */
const SUMMARY_EXAMPLES = 3;
/** Rows read and held before they are written out, however many of them were refused before sending. */
const MAX_ROWS_HELD = 10 * BATCH.maxItems;
/** Room in a request body for `{"mode":"upsert","items":[…]}` around the items. */
const BODY_OVERHEAD = 64;

/** A batch being filled: the rows read for it (in order, `entry` -1 for one refused before sending), and the items. */
interface Pending {
  rows: Array<{ row: InputRow; entry: number }>;
  items: Array<Record<string, unknown>>;
  bytes: number;
}

const newPending = (): Pending => ({ rows: [], items: [], bytes: BODY_OVERHEAD });

/** How the sending ended: stopped part-way (Ctrl-C, SIGTERM), and whether every row was read (and so hashed again). */
export interface Sent {
  stopped: boolean;
  readAll: boolean;
}

export interface BatchesOptions {
  state: ImportState;
  paths: ImportPaths;
  format: InputFormat;
  dryRun: boolean;
  io: IO;
  signal: AbortSignal;
  progress: ImportProgress;
  /** Where refused rows go; none in a dry run. */
  rejects: RejectsFile | undefined;
  sender: BatchSender;
  /** The command line that resumes the import in `mode`. */
  resumeCommand(mode: BatchMode): string;
}

export class ImportBatches {
  readonly #options: BatchesOptions;
  /** The first refusals, for the summary. */
  readonly examples: Reject[] = [];
  /** Refusals a dry run has listed on stderr. */
  listed = 0;

  constructor(options: BatchesOptions) {
    this.#options = options;
  }

  /**
   * Sends the rows after the first `doneBefore` (an interrupted run's). A failure ends it with where the place is
   * saved and how to resume; Ctrl-C meanwhile says the batch in flight is waited for.
   */
  async run(rows: AsyncIterable<InputRow>, doneBefore: number): Promise<Sent> {
    const { io, signal, progress, rejects, dryRun, state, paths, sender } = this.#options;
    const onStop = () => {
      if (sender.inFlight) {
        io.notice(
          io.errStyle.yellow(
            'Stopping after the batch in flight… (Ctrl-C again quits at once; the import still resumes without duplicates)',
          ),
        );
      }
    };
    signal.addEventListener('abort', onStop, { once: true });
    try {
      return await this.#sendRows(rows, doneBefore);
    } catch (error) {
      progress.clear();
      await rejects?.close();
      if (dryRun) throw error;
      const { lines, exitCode } = reportError(error);
      const [first = '', ...rest] = lines;
      throw new CliError(first, exitCode, [
        ...rest,
        `Stopped after ${groupDigits(state.rowsDone)} of ${groupDigits(state.rows)} rows; the place is saved in ${paths.state}.`,
        `Resume with: ${this.#options.resumeCommand(state.mode)}`,
      ]);
    } finally {
      signal.removeEventListener('abort', onStop);
      progress.clear();
    }
  }

  async #sendRows(rows: AsyncIterable<InputRow>, doneBefore: number): Promise<Sent> {
    const { state, signal, progress } = this.#options;
    let stopped = false;
    let index = 0;
    let pending = newPending();
    progress.update(state.rowsDone);
    for await (const row of rows) {
      index += 1;
      if (index <= doneBefore) continue;
      const json = sendable(row);
      const size = json === undefined ? 0 : Buffer.byteLength(json) + 1;
      if (json !== undefined && pending.bytes + size > MAX_BODY_BYTES) {
        if (!(await this.#flush(pending)) || signal.aborted) {
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
        if (!(await this.#flush(pending)) || signal.aborted) {
          stopped = true;
          break;
        }
        pending = newPending();
      }
    }
    const readAll = !stopped;
    if (!stopped && pending.rows.length > 0) stopped = !(await this.#flush(pending));
    // Stopped just after the last batch: nothing is left to do.
    if (stopped && state.rowsDone >= state.rows) stopped = false;
    return { stopped, readAll };
  }

  /** Sends a filled batch and records what became of each of its rows; false when stopped before sending it. */
  async #flush(pending: Pending): Promise<boolean> {
    const { state, dryRun, io, rejects, paths, progress, sender } = this.#options;
    const result = pending.items.length > 0 ? await sender.send(pending.items) : undefined;
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
      if (this.examples.length < SUMMARY_EXAMPLES) this.examples.push(reject);
      if (dryRun && this.listed < DRY_RUN_LISTED) {
        this.listed += 1;
        io.notice(`${this.#rowLabel(reject.row)}: ${reject.reason}`);
      }
    }
    if (rejects) state.rejectsBytes = await rejects.write(refused);
    state.rowsDone += pending.rows.length;
    if (pending.items.length > 0) state.batchesDone += 1;
    if (!dryRun) await writeState(paths.state, state);
    progress.update(state.rowsDone);
    return true;
  }

  #rowLabel(row: InputRow): string {
    return `${this.#options.format === 'csv' ? 'Row' : 'Line'} ${row.number}${skuOf(row)}`;
  }
}

/** The row's item as JSON, to send; undefined when it has none, or (refused, with why) too large for a request. */
function sendable(row: InputRow): string | undefined {
  const json = row.body ? JSON.stringify(row.body) : undefined;
  if (json !== undefined && Buffer.byteLength(json) + BODY_OVERHEAD > MAX_BODY_BYTES) {
    row.error = `Too large to send: ${groupDigits(Buffer.byteLength(json))} bytes as JSON, where a request to the API may hold at most ${groupDigits(MAX_BODY_BYTES)}.`;
    return undefined;
  }
  return json;
}
