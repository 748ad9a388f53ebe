import { escapeCsvFormula } from './csv-formulas.js';
import type { CreateItemBody, Item } from './types.js';

export * from './csv-formulas.js';
export * from './csv-reader.js';

/**
 * CSV as Coinventory writes it, the same bytes from the CLI's `--output csv` and the server's export (RFC 4180): a
 * header row, records ending in CRLF, fields quoted when they hold `"`, `,`, CR or LF (and when they start or end
 * with a space), a quote doubled inside quotes.
 *
 * Nested objects are flattened to dotted columns (`quantity.available`, `grading.service`); arrays (`images`,
 * `lines`, `payments`, `comps`) and free-form maps (`attributes`) stay one column holding their JSON. Values are the
 * API's own: money in integer cents, date-times in ISO 8601 UTC, booleans `true`/`false`, null an empty field.
 *
 * Text that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, tab or CR) gets a leading `'`
 * (see csv-formulas.ts), which the reader removes again.
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

/** One CSV field for an API value: text that would be a formula neutralised, then quoted where RFC 4180 needs it. */
export function csvField(value: unknown): string {
  let text: string;
  if (value === null || value === undefined) text = '';
  else if (typeof value === 'string') text = escapeCsvFormula(value);
  else if (typeof value === 'number' || typeof value === 'boolean') text = String(value);
  else text = JSON.stringify(value);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const CRLF = '\r\n';

/** One CSV record (a line ending in CRLF) of the given fields. */
export function csvRecord(fields: readonly unknown[]): string {
  return fields.map(csvField).join(',') + CRLF;
}

/** One CSV record of `row`'s values at `columns`. */
export function csvRow(columns: readonly string[], row: unknown): string {
  return csvRecord(columns.map((column) => valueAt(row, column)));
}

/** An item's CSV columns: every field of Item, nested ones dotted. The export and `items list --output csv` use them. */
export const ITEM_CSV_COLUMNS: readonly string[] = csvColumns<Item>({
  id: true,
  sku: true,
  title: true,
  description: true,
  category: { id: true, name: true },
  quantity: { available: true, sold: true, reserved: true },
  valueInCents: true,
  acquisition: { priceInCents: true, date: true, from: true, notes: true },
  grading: { service: true, grade: true, certificateNumber: true, notes: true },
  attributes: true,
  location: { warehouseId: true, zoneId: true, details: true },
  consignmentId: true,
  isAtAuction: true,
  images: true,
  createdAt: true,
  updatedAt: true,
});

/**
 * How an item's columns (as exported) read back into a write: the body field each writable column sets. Every
 * field `POST /items` takes appears once, so an export re-imports unchanged.
 */
export const ITEM_COLUMN_BODY_FIELDS = {
  sku: 'sku',
  title: 'title',
  description: 'description',
  'category.id': 'categoryId',
  'quantity.available': 'quantity',
  valueInCents: 'valueInCents',
  'acquisition.priceInCents': 'acquisitionPriceInCents',
  'acquisition.date': 'acquisitionDate',
  'acquisition.from': 'acquiredFrom',
  'acquisition.notes': 'acquisitionNotes',
  'grading.service': 'gradingService',
  'grading.grade': 'grade',
  'grading.certificateNumber': 'certificateNumber',
  'grading.notes': 'gradingNotes',
  attributes: 'attributes',
  'location.warehouseId': 'warehouseId',
  'location.zoneId': 'zoneId',
  'location.details': 'locationDetails',
} as const satisfies Record<string, keyof CreateItemBody>;

/**
 * The item columns no write sets (the server keeps them: ids, counts of sold and reserved, timestamps, images):
 * an import skips them.
 */
export const ITEM_READ_ONLY_COLUMNS: readonly string[] = ITEM_CSV_COLUMNS.filter(
  (column) => !(column in ITEM_COLUMN_BODY_FIELDS),
);

// Every field POST /items takes has its column: a field added to the body is a compile error here until it has one.
type Unmapped = Exclude<keyof CreateItemBody, (typeof ITEM_COLUMN_BODY_FIELDS)[keyof typeof ITEM_COLUMN_BODY_FIELDS]>;
const everyBodyFieldHasAColumn: [Unmapped] extends [never] ? true : Unmapped = true;
void everyBodyFieldHasAColumn;

/** What kind of value a field of `POST /items` takes, for reading it from a CSV field (text) into JSON. */
export type ItemBodyFieldType = 'text' | 'integer' | 'json' | 'datetime' | 'uuid';

/**
 * Each field of `POST /items` with the kind of value it takes and whether it accepts null, so an import can turn a
 * CSV field into the body's value: an empty field is null for a nullable field (which clears it) and left out for
 * the others; an integer field reads digits as a number; `attributes` holds JSON. Checked against the body's type
 * here (a field added to the body is a compile error until it has its kind, and `nullable` must be what the type
 * says) and against its zod schema in the contract's tests, so neither can drift.
 */
export const ITEM_BODY_FIELD_KINDS = {
  sku: { type: 'text', nullable: false },
  title: { type: 'text', nullable: false },
  description: { type: 'text', nullable: true },
  quantity: { type: 'integer', nullable: false },
  valueInCents: { type: 'integer', nullable: false },
  acquisitionPriceInCents: { type: 'integer', nullable: true },
  acquisitionDate: { type: 'datetime', nullable: true },
  acquiredFrom: { type: 'text', nullable: true },
  acquisitionNotes: { type: 'text', nullable: true },
  gradingService: { type: 'text', nullable: true },
  grade: { type: 'text', nullable: true },
  certificateNumber: { type: 'text', nullable: true },
  gradingNotes: { type: 'text', nullable: true },
  categoryId: { type: 'uuid', nullable: true },
  attributes: { type: 'json', nullable: false },
  warehouseId: { type: 'uuid', nullable: false },
  zoneId: { type: 'uuid', nullable: false },
  locationDetails: { type: 'text', nullable: true },
} as const satisfies {
  [K in keyof CreateItemBody]-?: { type: ItemBodyFieldType; nullable: null extends CreateItemBody[K] ? true : false };
};
