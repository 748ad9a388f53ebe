/**
 * CSV for lists (RFC 4180): a header row, records ending in CRLF, fields quoted when they hold `"`, `,`, CR or LF
 * (and when they start or end with a space), a quote doubled inside quotes.
 *
 * Nested objects are flattened to dotted columns (`quantity.available`, `grading.service`); arrays (`images`,
 * `lines`, `payments`, `comps`) and free-form maps (`attributes`) stay one column holding their JSON. Values are the
 * API's own: money in integer cents, date-times in ISO 8601 UTC, booleans `true`/`false`, null an empty field.
 */

/**
 * Every column path of `T`: nested object fields joined with dots, arrays and string-keyed maps as leaves.
 * Column lists are typed with it, and checked against the contract's types to be complete (see `Missing`).
 */
export type LeafPath<T> = {
  [K in keyof T & string]: NonNullable<T[K]> extends readonly unknown[]
    ? K
    : NonNullable<T[K]> extends object
      ? string extends keyof NonNullable<T[K]>
        ? K
        : `${K}.${LeafPath<NonNullable<T[K]>>}`
      : K;
}[keyof T & string];

/** The paths of `T` that `Columns` lacks: `never` when the column list is complete. */
export type Missing<T, Columns extends readonly string[]> = Exclude<LeafPath<T>, Columns[number]>;

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
