import { BATCH, type BatchMode } from '@coinventory/contract/constants';
import { ITEM_BODY_FIELD_KINDS, ITEM_COLUMN_BODY_FIELDS, type ItemBodyFieldType } from '@coinventory/contract/csv';
import { REQUIRED_FIELDS } from './rows.js';

// The columns `items import --help` lists, from the definitions the importer reads rows with (the contract's column
// map and field kinds, and the fields each mode requires), so the help cannot name a column the import refuses.

/**
 * The sample file the package ships (package.json `files`), a copy the build makes of the repository's
 * packages/server/samples/imports/items.csv, which the guides import; the path is the package's own.
 */
export const SAMPLE_FILE = 'samples/items.csv';

/** How a value of each kind is written in a CSV field. */
const FORMATS: Readonly<Record<ItemBodyFieldType, string>> = {
  text: 'text',
  integer: 'integer',
  datetime: 'date-time',
  uuid: 'UUID',
  json: 'JSON object',
};

type Column = keyof typeof ITEM_COLUMN_BODY_FIELDS;

/** The example header: a few columns an inventory sheet has (typed, so a column the import drops is a compile error). */
export const EXAMPLE_HEADER: readonly Column[] = [
  'sku',
  'title',
  'quantity.available',
  'valueInCents',
  'grading.service',
  'grading.grade',
  'attributes',
];

/** One line of the table: what a column is called, what else it may be called, and what it takes. */
export interface ColumnHelp {
  column: string;
  /** The body field name a header may use instead, when it differs. */
  field: string | undefined;
  /** `yes`, or the mode that needs it (`create`), or `no`. */
  required: string;
  format: string;
  /** What an empty field does: clears the item's value (null) or is left out. */
  empty: 'clears' | 'left out';
}

/** `yes` when every mode needs the field, the modes that do when some do, else `no`. */
function requiredIn(field: (typeof ITEM_COLUMN_BODY_FIELDS)[Column]): string {
  const modes = BATCH.modes.filter((mode: BatchMode) => REQUIRED_FIELDS[mode].includes(field));
  if (modes.length === BATCH.modes.length) return 'yes';
  return modes.length === 0 ? 'no' : modes.join(', ');
}

/** Every column the import reads, in the export's order. */
export function importColumns(): ColumnHelp[] {
  return (Object.entries(ITEM_COLUMN_BODY_FIELDS) as Array<[Column, (typeof ITEM_COLUMN_BODY_FIELDS)[Column]]>).map(
    ([column, field]) => {
      const kind = ITEM_BODY_FIELD_KINDS[field];
      return {
        column,
        field: field === column ? undefined : field,
        required: requiredIn(field),
        format: FORMATS[kind.type],
        empty: kind.nullable ? 'clears' : 'left out',
      };
    },
  );
}

/** The table of the columns, aligned, two spaces in. */
export function columnsTable(): string {
  const rows = [
    ['COLUMN', 'OR FIELD', 'REQUIRED', 'FORMAT', 'EMPTY'],
    ...importColumns().map((c) => [c.column, c.field ?? '-', c.required, c.format, c.empty]),
  ];
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => row[i]?.length ?? 0))) ?? [];
  return rows.map((row) => `  ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd()).join('\n');
}
