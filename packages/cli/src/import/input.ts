import type { Hash } from 'node:crypto';
import { type FileHandle, open, rm, stat, truncate } from 'node:fs/promises';
import type { BatchMode } from '@coinventory/contract/constants';
import { type CsvRecord, csvRecord, isBlank, readCsv } from '@coinventory/contract/csv';
import { CliError, EXIT, errorMessage, isErrno } from '../errors.js';
import { readText } from './read-text.js';
import {
  type CsvPlan,
  csvInputRow,
  type InputFormat,
  type InputRow,
  ndjsonRow,
  planHeader,
  REJECT_COLUMNS,
  REJECT_KEY,
} from './rows.js';

// The input file as rows, read as a stream; and the rejects file, which repeats each refused row with why.

export interface Input {
  /** A CSV's header, checked. */
  plan: CsvPlan | undefined;
  rows: AsyncGenerator<InputRow>;
}

async function* csvRows(records: AsyncGenerator<CsvRecord>, plan: CsvPlan): AsyncGenerator<InputRow> {
  for await (const record of records) if (!isBlank(record)) yield csvInputRow(record, plan);
}

async function* ndjsonRows(chunks: AsyncIterable<string>): AsyncGenerator<InputRow> {
  let buffer = '';
  let line = 0;
  const rowOf = (text: string) => {
    line += 1;
    return ndjsonRow(text.endsWith('\r') ? text.slice(0, -1) : text, line);
  };
  for await (const chunk of chunks) {
    buffer += chunk;
    let start = 0;
    for (let end = buffer.indexOf('\n'); end !== -1; end = buffer.indexOf('\n', start)) {
      const row = rowOf(buffer.slice(start, end));
      start = end + 1;
      if (row) yield row;
    }
    buffer = buffer.slice(start);
  }
  const last = buffer ? rowOf(buffer) : undefined;
  if (last) yield last;
}

/**
 * Opens the input: a CSV's header is read and checked first (a bad one stops the import before any request). `hash`
 * is fed every byte read.
 */
export async function openInput(path: string, format: InputFormat, mode: BatchMode, hash?: Hash): Promise<Input> {
  const text = readText(path, hash);
  if (format === 'ndjson') return { plan: undefined, rows: ndjsonRows(text) };
  const records = readCsv(text);
  try {
    const first = await records.next();
    if (first.done || isBlank(first.value)) {
      throw new CliError(
        `${path} has no header row: its first line must name the columns (sku,title,…). Nothing was imported.`,
        EXIT.USAGE,
      );
    }
    const plan = planHeader(first.value, mode, path);
    return { plan, rows: csvRows(records, plan) };
  } catch (error) {
    await records.return(undefined);
    throw error;
  }
}

/** One row refused, and why. */
export interface Reject {
  row: InputRow;
  reason: string;
}

/**
 * The rejects file beside the input (`items.rejects.csv` or `.ndjson`): each refused row as given, after its row
 * number and reason (CSV: the columns `rejected.row`, `rejected.reason`; NDJSON: a `rejected` key). Written as rows
 * are refused, flushed to disk before the import's state says they were done.
 */
export class RejectsFile {
  readonly path: string;
  readonly #format: InputFormat;
  readonly #plan: CsvPlan | undefined;
  #handle: FileHandle | undefined;
  #size: number;

  private constructor(path: string, format: InputFormat, plan: CsvPlan | undefined, size: number) {
    this.path = path;
    this.#format = format;
    this.#plan = plan;
    this.#size = size;
  }

  /** Bytes written so far (what the import's state records). */
  get size(): number {
    return this.#size;
  }

  /**
   * The rejects file of an import: a new one (a file left by an earlier import is removed), or, resuming, the one the
   * interrupted run wrote, cut back to `bytes` (anything after was written for rows it had not saved as done). Says
   * on `warn` when that file is gone.
   */
  static async open(
    path: string,
    format: InputFormat,
    plan: CsvPlan | undefined,
    bytes: number,
    warn: (message: string) => void,
  ): Promise<RejectsFile> {
    try {
      if (bytes > 0) {
        const size = await stat(path).then(
          (s) => s.size,
          (error: unknown) => {
            if (isErrno(error, 'ENOENT')) return -1;
            throw error;
          },
        );
        if (size >= bytes) {
          await truncate(path, bytes);
          return new RejectsFile(path, format, plan, bytes);
        }
        warn(
          `Warning: ${path}, which listed the rows the interrupted run refused, is ${size < 0 ? 'gone' : 'shorter than it wrote'}; it is started again with the rows refused from here on.`,
        );
      }
      await rm(path, { force: true });
      return new RejectsFile(path, format, plan, 0);
    } catch (error) {
      throw new CliError(`Cannot prepare the rejects file ${path}: ${errorMessage(error)}`);
    }
  }

  /** Appends the rows, flushed to disk; returns the file's size. */
  async write(rejects: readonly Reject[]): Promise<number> {
    if (rejects.length === 0) return this.#size;
    let text = this.#size === 0 ? this.#heading() : '';
    for (const reject of rejects) text += this.#line(reject);
    try {
      this.#handle ??= await open(this.path, 'a');
      await this.#handle.write(text);
      await this.#handle.sync();
    } catch (error) {
      throw new CliError(`Cannot write the rejects file ${this.path}: ${errorMessage(error)}`);
    }
    this.#size += Buffer.byteLength(text);
    return this.#size;
  }

  async close(): Promise<void> {
    await this.#handle?.close();
    this.#handle = undefined;
  }

  /** The CSV header: the two reject columns, then the input's own (without reject columns it had). */
  #heading(): string {
    if (this.#format === 'ndjson' || !this.#plan) return '';
    return csvRecord([...REJECT_COLUMNS, ...this.#kept(this.#plan.header)]);
  }

  /** A row's fields without the input's own reject columns (when it has the header's number of fields). */
  #kept(fields: readonly string[]): string[] {
    const header = this.#plan?.header ?? [];
    if (fields.length !== header.length) return [...fields];
    return fields.filter((_, i) => !(REJECT_COLUMNS as readonly string[]).includes(header[i] ?? ''));
  }

  #line({ row, reason }: Reject): string {
    if (Array.isArray(row.source)) return csvRecord([row.number, reason, ...this.#kept(row.source)]);
    const rejected = { line: row.number, reason };
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.source);
    } catch {
      parsed = undefined;
    }
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const { [REJECT_KEY]: _earlier, ...rest } = parsed as Record<string, unknown>;
      return `${JSON.stringify({ [REJECT_KEY]: rejected, ...rest })}\n`;
    }
    return `${JSON.stringify({ [REJECT_KEY]: rejected, text: row.source })}\n`;
  }
}
