import { csvRecord, csvRow } from '@coinventory/contract/csv';

// The CSV encoding lives in the contract, so `--output csv` and the server's export write the same bytes.
export { CRLF, type CsvColumns, csvColumns, csvField, csvRecord, valueAt } from '@coinventory/contract/csv';

export function csvHeader(columns: readonly string[]): string {
  return csvRecord(columns);
}

export function csvRows(columns: readonly string[], rows: readonly unknown[]): string {
  return rows.map((row) => csvRow(columns, row)).join('');
}
