/**
 * CSV for lists (RFC 4180): a header row, records ending in CRLF, fields quoted when they hold `"`, `,`, CR or LF
 * (and when they start or end with a space), a quote doubled inside quotes.
 *
 * Nested objects are flattened to dotted columns (`quantity.available`, `grading.service`); arrays (`images`,
 * `lines`, `payments`, `comps`) and free-form maps (`attributes`) stay one column holding their JSON. Values are the
 * API's own: money in integer cents, date-times in ISO 8601 UTC, booleans `true`/`false`, null an empty field.
 */

/**
 * The CSV columns of `T`, in column order, shaped like `T`: `true` for a column, the nested fields for an object that
 * is flattened (arrays and string-keyed maps are one column). Every field must appear, so a field added to the
 * contract is a compile error here until it has its column.
 */
export type CsvColumns<T> = {
  [K in keyof T & string]-?: NonNullable<T[K]> extends readonly unknown[]
    ? true
    : NonNullable<T[K]> extends object
      ? string extends keyof NonNullable<T[K]>
        ? true
        : CsvColumns<NonNullable<T[K]>>
      : true;
};

/** The column paths of a spec: `{ grading: { service: true } }` gives `grading.service`. */
export function csvColumns<T>(columns: CsvColumns<T>): string[] {
  return Object.entries<true | object>(columns).flatMap(([key, nested]) =>
    nested === true ? [key] : csvColumns(nested as CsvColumns<unknown>).map((path) => `${key}.${path}`),
  );
}

/** Reads a dotted path; a missing or null step gives null. */
export function valueAt(row: unknown, path: string): unknown {
  let value: unknown = row;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value ?? null;
}

/** One CSV field for an API value. */
export function csvField(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'string') text = value;
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else text = JSON.stringify(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const CRLF = '\r\n';

export function csvRecord(fields: readonly unknown[]): string {
  return fields.map(csvField).join(',') + CRLF;
}

export function csvHeader(columns: readonly string[]): string {
  return csvRecord(columns);
}

export function csvRows(columns: readonly string[], rows: readonly unknown[]): string {
  return rows.map((row) => csvRecord(columns.map((column) => valueAt(row, column)))).join('');
}
