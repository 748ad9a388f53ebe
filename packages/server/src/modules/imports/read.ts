import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { CsvParser, isBlank } from '@coinventory/contract/csv';
import { ProvisioningError } from '../../errors.js';

/**
 * An operator's import file as rows of named values: CSV with a header of field names, or NDJSON (one JSON object a
 * line). Each row keeps its number as an editor shows it (CSV: the record, the header being 1; NDJSON: the line), for
 * the rejects report. An empty CSV field is an absent value.
 */

export const IMPORT_FORMATS = ['.csv', '.ndjson', '.jsonl'] as const;

/** A row's values by field name, or why the row could not be read at all. */
export type FileRow = { row: number; values: Record<string, unknown> } | { row: number; problem: string };

export function readImportFile(file: string, fields: readonly string[], required: readonly string[]): FileRow[] {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file)).replace(/^\uFEFF/, '');
  } catch (error) {
    const reason = error instanceof TypeError ? 'it is not UTF-8 text' : (error as Error).message;
    throw new ProvisioningError('refused', `Cannot read ${basename(file)}: ${reason}.`);
  }
  return extname(file).toLowerCase() === '.csv'
    ? csvRows(text, basename(file), fields, required)
    : ndjsonRows(text, basename(file), required);
}

function csvRows(text: string, name: string, fields: readonly string[], required: readonly string[]): FileRow[] {
  const parser = new CsvParser();
  const records = [...parser.push(text), ...parser.end()].filter((record) => !isBlank(record));
  const [header, ...records_] = records;
  if (!header) throw new ProvisioningError('refused', `${name} is empty: it needs a header of field names.`);
  const columns = header.fields.map((field) => field.trim());
  const unknown = columns.filter((column) => !fields.includes(column));
  const missing = required.filter((field) => !columns.includes(field));
  const repeated = columns.filter((column, i) => columns.indexOf(column) !== i);
  const problems = [
    ...unknown.map((column) => `column "${column}" is not a field (fields: ${fields.join(', ')})`),
    ...missing.map((field) => `the required column "${field}" is missing`),
    ...repeated.map((column) => `column "${column}" appears twice`),
  ];
  if (problems.length > 0) throw new ProvisioningError('refused', `${name}'s header: ${problems.join('; ')}.`);
  return records_.map((record) => {
    if (record.problem) return { row: record.row, problem: record.problem };
    if (record.fields.length !== columns.length) {
      return { row: record.row, problem: `${record.fields.length} fields where the header has ${columns.length}` };
    }
    const values: Record<string, unknown> = {};
    columns.forEach((column, i) => {
      const value = record.fields[i] as string;
      if (value !== '') values[column] = value;
    });
    return { row: record.row, values };
  });
}

function ndjsonRows(text: string, name: string, required: readonly string[]): FileRow[] {
  const rows: FileRow[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const value: unknown = JSON.parse(line);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        rows.push({ row: i + 1, problem: 'not a JSON object' });
        return;
      }
      const values = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
      rows.push({ row: i + 1, values });
    } catch {
      rows.push({ row: i + 1, problem: 'not valid JSON' });
    }
  });
  if (rows.length === 0 && required.length > 0) throw new ProvisioningError('refused', `${name} has no rows.`);
  return rows;
}
