// A streaming RFC 4180 reader, which the CLI's item import and the server's operator imports share: records from
// text that arrives in chunks, so a large file is never held whole. Fields are separated by commas; a field may be
// quoted ("…"), and then holds commas, line breaks and doubled quotes (""); records end in CRLF, LF or a lone CR.
// Quoting mistakes do not stop the reading: the record is marked with the problem (an import refuses that row) and
// the next record is read as usual. A field the writer neutralised against spreadsheet formulas (a leading `'`, see
// csv-formulas.ts) is read back as the text it was, so a file Coinventory wrote imports exactly.

import { unescapeCsvFormula } from './csv-formulas.js';

/** One record, with where it is. */
export interface CsvRecord {
  fields: string[];
  /** Its number, from 1 for the first record (a header's), as a spreadsheet numbers rows. */
  row: number;
  /** What is wrong with its quoting, if anything: its fields are then not what the writer meant. */
  problem?: string;
}

type State =
  /** At the start of a field. */
  | 'start'
  /** Inside a field that is not quoted. */
  | 'plain'
  /** Inside a quoted field. */
  | 'quoted'
  /** Just after a quote inside a quoted field: a doubled quote, or the field's end. */
  | 'quote';

/** The characters that end a run of plain text. */
const PLAIN_END = /[",\r\n]/g;

export class CsvParser {
  #state: State = 'start';
  #fields: string[] = [];
  #field = '';
  #row = 0;
  #problem: string | undefined;
  /** The last record ended with CR: a LF right after it belongs to that line end. */
  #afterCr = false;

  /** The records that `text` completes. */
  push(text: string): CsvRecord[] {
    const records: CsvRecord[] = [];
    let i = 0;
    if (this.#afterCr && text.length > 0) {
      this.#afterCr = false;
      if (text[0] === '\n') i = 1;
    }
    while (i < text.length) {
      switch (this.#state) {
        case 'start':
          if (text[i] === '"') {
            this.#state = 'quoted';
            i += 1;
          } else this.#state = 'plain';
          break;
        case 'plain': {
          PLAIN_END.lastIndex = i;
          const found = PLAIN_END.exec(text);
          const end = found ? found.index : text.length;
          this.#field += text.slice(i, end);
          i = end;
          if (!found) break;
          const char = text[i] as string;
          i += 1;
          if (char === '"') {
            // A quote inside an unquoted field: kept as it is (a lenient reading that changes nothing).
            this.#field += '"';
          } else if (char === ',') this.#endField();
          else i = this.#endRecord(records, text, i, char);
          break;
        }
        case 'quoted': {
          const quote = text.indexOf('"', i);
          if (quote === -1) {
            this.#field += text.slice(i);
            i = text.length;
          } else {
            this.#field += text.slice(i, quote);
            this.#state = 'quote';
            i = quote + 1;
          }
          break;
        }
        case 'quote': {
          const char = text[i] as string;
          i += 1;
          if (char === '"') {
            this.#field += '"';
            this.#state = 'quoted';
          } else if (char === ',') this.#endField();
          else if (char === '\r' || char === '\n') i = this.#endRecord(records, text, i, char);
          else {
            this.#problem ??= `field ${this.#fields.length + 1} has text after its closing quote (a quote inside a quoted field must be doubled: "")`;
            // The field as it was written, quotes included, so the rejects file repeats what the file held.
            this.#field = `"${this.#field.replace(/"/g, '""')}"${char}`;
            this.#state = 'plain';
          }
          break;
        }
      }
    }
    return records;
  }

  /** The last record, when the text does not end with a line break. */
  end(): CsvRecord[] {
    if (this.#state === 'quoted') {
      this.#problem ??= `field ${this.#fields.length + 1} opens a quote that is never closed`;
    }
    if (this.#state === 'start' && this.#fields.length === 0) return [];
    const records: CsvRecord[] = [];
    this.#endRecord(records, '', 0, '\n');
    return records;
  }

  #endField(): void {
    this.#fields.push(unescapeCsvFormula(this.#field));
    this.#field = '';
    this.#state = 'start';
  }

  /** Ends the record at a line break `char` (just read); returns where reading goes on. */
  #endRecord(records: CsvRecord[], text: string, i: number, char: string): number {
    this.#endField();
    this.#row += 1;
    const record: CsvRecord = { fields: this.#fields, row: this.#row };
    if (this.#problem) record.problem = this.#problem;
    records.push(record);
    this.#fields = [];
    this.#problem = undefined;
    if (char !== '\r') return i;
    if (i < text.length) return text[i] === '\n' ? i + 1 : i;
    this.#afterCr = true;
    return i;
  }
}

/** Every record of the text, as it arrives. */
export async function* readCsv(chunks: AsyncIterable<string>): AsyncGenerator<CsvRecord> {
  const parser = new CsvParser();
  for await (const chunk of chunks) yield* parser.push(chunk);
  yield* parser.end();
}

/** Whether a record is an empty line (one empty field): skipped, as a blank line in a file is. */
export const isBlank = (record: CsvRecord): boolean =>
  record.fields.length === 1 && record.fields[0] === '' && !record.problem;
