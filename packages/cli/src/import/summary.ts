import { basename } from 'node:path';
import type { BatchMode } from '@coinventory/contract/constants';
import type { IO } from '../io.js';
import { groupDigits } from '../output/format.js';
import type { Reject } from './input.js';
import { formatElapsed } from './progress.js';
import type { InputFormat, InputRow } from './rows.js';

// How an import ends: its summary, as `--json` prints it and as stderr tells it.

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

const plural = (n: number, one: string, many = `${one}s`): string => `${groupDigits(n)} ${n === 1 ? one : many}`;

/** ` (SKU …)` when the row has one, to tell rows apart in messages. */
export const skuOf = (row: InputRow): string => (row.sku ? ` (SKU ${JSON.stringify(row.sku)})` : '');

/** The end of an import on stderr: what was done, the rate limit, and where the refused rows are. */
export function printSummary(
  io: IO,
  summary: ImportSummary,
  examples: readonly Reject[],
  listed: number,
  resumeCommand: (mode: BatchMode) => string,
  statePath: string,
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
        : `Stopped after ${groupDigits(summary.rowsDone)} ${of} (${counts}); the place is saved in ${statePath}.`,
    );
    if (!dryRun) lines.push(`Resume with: ${resumeCommand(summary.mode)}`);
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
