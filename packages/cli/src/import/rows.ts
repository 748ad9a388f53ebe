import type { BatchMode } from '@coinventory/contract/constants';
import type { CsvRecord } from '@coinventory/contract/csv';
import {
  ITEM_BODY_FIELD_KINDS,
  ITEM_COLUMN_BODY_FIELDS,
  ITEM_CSV_COLUMNS,
  ITEM_READ_ONLY_COLUMNS,
} from '@coinventory/contract/csv';
import type { ErrorBody } from '@coinventory/sdk';
import { CliError, EXIT } from '../errors.js';

// What `items import` reads from each row of its file: the body of a `POST /items/batch` entry, or why the row is
// refused before anything is sent. A CSV's columns (or an NDJSON line's fields) are the item's, as `items export`
// and `items list --output csv` write them, or the body's own field names, so an export imports back unchanged and
// a sheet made by hand works too.

export type BodyField = keyof typeof ITEM_BODY_FIELD_KINDS;
export type InputFormat = 'csv' | 'ndjson';

/**
 * The columns a CSV rejects file puts before the row as given: where it was and why it was refused. An import skips
 * them, so a rejects file, once corrected, imports as it is.
 */
export const REJECT_COLUMNS = ['rejected.row', 'rejected.reason'] as const;
/** The key an NDJSON rejects line adds (`{ line, reason }`), skipped by an import likewise. */
export const REJECT_KEY = 'rejected';

/** One row (CSV) or line (NDJSON) of the input. */
export interface InputRow {
  /** Its row (CSV, the header being row 1) or line (NDJSON) number in the file. */
  number: number;
  /** What the rejects file repeats: the CSV fields as given, or the NDJSON line's text. */
  source: string[] | string;
  /** The entry to send; absent when the row is refused without sending it. */
  body?: Record<string, unknown>;
  /** Why it is refused without sending it. */
  error?: string;
  /** Its SKU, when it has one: messages name the row by it too. */
  sku?: string;
  /** The name this row gives each field it sets (`quantity.available` for `quantity`), for the reasons of refusals. */
  names: ReadonlyMap<BodyField, string>;
}

/** The fields a file must have a column for, by mode: a new item needs a SKU and a title; upsert finds by SKU. */
export const REQUIRED_FIELDS: Readonly<Record<BatchMode, readonly BodyField[]>> = {
  create: ['sku', 'title'],
  upsert: ['sku'],
};

const has = (object: object, key: string): boolean => Object.hasOwn(object, key);

/** The body field a column or field name sets; null for a column an import skips; undefined for an unknown name. */
export function fieldOf(name: string): BodyField | null | undefined {
  if (has(ITEM_COLUMN_BODY_FIELDS, name)) return ITEM_COLUMN_BODY_FIELDS[name as keyof typeof ITEM_COLUMN_BODY_FIELDS];
  if (has(ITEM_BODY_FIELD_KINDS, name)) return name as BodyField;
  if (ITEM_READ_ONLY_COLUMNS.includes(name)) return null;
  return undefined;
}

const quoted = (names: readonly string[]): string => names.map((name) => JSON.stringify(name)).join(', ');

/** The names an import accepts, for the message that refuses others. */
function acceptedNames(): string {
  const columns = Object.keys(ITEM_COLUMN_BODY_FIELDS);
  const fields = Object.keys(ITEM_BODY_FIELD_KINDS).filter((field) => !columns.includes(field));
  return [
    `Accepted: the item columns 'coinventory items export --format csv' writes (${columns.join(', ')}),`,
    `or the body field names of 'items create' (${fields.join(', ')}).`,
    `Read-only columns are skipped: ${ITEM_READ_ONLY_COLUMNS.join(', ')}.`,
  ].join('\n');
}

/** How a CSV's columns read into a body: each read column's position and field. */
export interface CsvPlan {
  /** The header as given (names trimmed). */
  header: string[];
  columns: ReadonlyArray<{ index: number; field: BodyField }>;
  names: ReadonlyMap<BodyField, string>;
}

/**
 * Checks a CSV header: every column an item column or a body field name (read-only columns skipped), none twice, and
 * the columns the mode needs (`sku`; `title` too to create). Anything wrong stops the import before any request.
 */
export function planHeader(record: CsvRecord, mode: BatchMode, file: string): CsvPlan {
  const stop = (message: string, hint?: string): never => {
    throw new CliError(`${file}: ${message} Nothing was imported.`, EXIT.USAGE, hint ? [hint] : []);
  };
  if (record.problem) stop(`its header row is not valid CSV: ${record.problem}.`);
  const header = record.fields.map((name) => name.trim());
  const unnamed = header.flatMap((name, i) => (name === '' ? [i + 1] : []));
  if (unnamed.length > 0) {
    stop(
      `column${unnamed.length > 1 ? 's' : ''} ${unnamed.join(', ')} of the header ha${unnamed.length > 1 ? 've' : 's'} no name.`,
    );
  }
  const unknown = header.filter(
    (name) => fieldOf(name) === undefined && !(REJECT_COLUMNS as readonly string[]).includes(name),
  );
  if (unknown.length > 0) {
    stop(`unknown column${unknown.length > 1 ? 's' : ''} ${quoted(unknown)} in the header.`, acceptedNames());
  }
  const seen = new Map<string, string>();
  const columns: Array<{ index: number; field: BodyField }> = [];
  const names = new Map<BodyField, string>();
  header.forEach((name, index) => {
    const field = fieldOf(name);
    const key = field ?? name;
    const earlier = seen.get(key);
    if (earlier !== undefined) {
      stop(
        earlier === name
          ? `the column ${JSON.stringify(name)} appears twice in the header.`
          : `the columns ${quoted([earlier, name])} both set ${field}: keep one.`,
      );
    }
    seen.set(key, name);
    if (field) {
      columns.push({ index, field });
      names.set(field, name);
    }
  });
  const missing = REQUIRED_FIELDS[mode].filter((field) => !names.has(field));
  if (missing.length > 0) {
    const why = mode === 'create' ? 'each new item needs a SKU and a title' : 'upsert finds each item by its SKU';
    stop(`no ${quoted(missing)} column: ${why}.`);
  }
  return { header, columns, names };
}

/** Plain decimal notation: what a number in a CSV field looks like. */
const DECIMAL = /^-?[0-9]+(\.[0-9]+)?$/;

/**
 * A CSV field as the body field's value: empty is null where the field takes null and absent elsewhere; an integer
 * field's number in plain notation is a number (the API says if it is not a whole number in range), and anything
 * else is sent as the text it is, for the API to refuse with its own reason; attributes are JSON.
 */
function fieldValue(text: string, field: BodyField): { value?: unknown; error?: string } {
  const kind = ITEM_BODY_FIELD_KINDS[field];
  if (text === '') return kind.nullable ? { value: null } : {};
  if (kind.type === 'integer' && DECIMAL.test(text)) {
    const n = Number(text);
    // Digits beyond 2^53 would lose their exact value as a number: sent as text, the API refuses them.
    return { value: text.includes('.') || Number.isSafeInteger(n) ? n : text };
  }
  if (kind.type === 'json') {
    try {
      return { value: JSON.parse(text) };
    } catch (error) {
      return { error: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
    }
  }
  return { value: text };
}

/** A CSV record (after the header) as an input row. */
export function csvInputRow(record: CsvRecord, plan: CsvPlan): InputRow {
  const skuColumn = plan.columns.find(({ field }) => field === 'sku');
  const sku = skuColumn ? record.fields[skuColumn.index] : undefined;
  const row: InputRow = { number: record.row, source: record.fields, names: plan.names, ...(sku ? { sku } : {}) };
  if (record.problem) return { ...row, error: `Not valid CSV: ${record.problem}.` };
  if (record.fields.length !== plan.header.length) {
    return {
      ...row,
      error: `Not valid CSV: the row has ${record.fields.length} field${record.fields.length === 1 ? '' : 's'} where the header has ${plan.header.length}.`,
    };
  }
  const body: Record<string, unknown> = {};
  const errors: string[] = [];
  for (const { index, field } of plan.columns) {
    const { value, error } = fieldValue(record.fields[index] ?? '', field);
    if (error) errors.push(`${plan.header[index]}: ${error}`);
    else if (value !== undefined) body[field] = value;
  }
  return errors.length > 0 ? { ...row, error: errors.join('; ') } : { ...row, body };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The export's last line, `{ count, nextCursor }`: not an item. */
const isExportEnd = (value: Record<string, unknown>): boolean =>
  has(value, 'nextCursor') && Object.keys(value).every((key) => key === 'count' || key === 'nextCursor');

/**
 * An object's values by dotted path: nested objects are walked (an Item's `grading.service`), except a field that
 * holds JSON (`attributes`), which is one value.
 */
function flatten(object: Record<string, unknown>, prefix: string, out: Array<[string, unknown]>): void {
  for (const [key, value] of Object.entries(object)) {
    const path = prefix ? `${prefix}.${key}` : key;
    const field = fieldOf(path);
    if (isObject(value) && !(field && ITEM_BODY_FIELD_KINDS[field].type === 'json')) flatten(value, path, out);
    else out.push([path, value]);
  }
}

/** The item columns under a dotted prefix (`category` → `category.id`, `category.name`). */
const columnsUnder = (prefix: string): string[] => ITEM_CSV_COLUMNS.filter((c) => c.startsWith(`${prefix}.`));

/**
 * An NDJSON line as an input row: an Item as exported (nested), or an object of body fields; undefined for a line to
 * skip (blank, or the export's end line).
 */
export function ndjsonRow(text: string, line: number): InputRow | undefined {
  if (text.trim() === '') return undefined;
  const row: InputRow = { number: line, source: text, names: new Map() };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ...row, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}.` };
  }
  if (!isObject(parsed)) return { ...row, error: 'Not a JSON object: each line must be one item.' };
  if (isExportEnd(parsed)) return undefined;
  if (typeof parsed.sku === 'string' && parsed.sku !== '') row.sku = parsed.sku;
  const paths: Array<[string, unknown]> = [];
  flatten(Object.fromEntries(Object.entries(parsed).filter(([key]) => key !== REJECT_KEY)), '', paths);
  const body: Record<string, unknown> = {};
  const names = new Map<BodyField, string>();
  const unknown: string[] = [];
  const twice: string[] = [];
  const set = (path: string, field: BodyField, value: unknown) => {
    const earlier = names.get(field);
    if (earlier !== undefined) twice.push(`${quoted([earlier, path])} both set ${field}`);
    names.set(field, path);
    body[field] = value;
  };
  for (const [path, value] of paths) {
    const field = fieldOf(path);
    if (field) set(path, field, value);
    else if (field === null) continue;
    else if (value === null && columnsUnder(path).length > 0) {
      // `category: null`: no category, so each writable field under it is null.
      for (const column of columnsUnder(path)) {
        const under = fieldOf(column);
        if (under) set(column, under, null);
      }
    } else unknown.push(path);
  }
  const errors: string[] = [];
  if (unknown.length > 0) {
    errors.push(
      `Unknown field${unknown.length > 1 ? 's' : ''} ${quoted(unknown)}: a line is an Item as 'items export' writes it, or the fields of 'items create'.`,
    );
  }
  if (twice.length > 0) errors.push(`${twice.join('; ')}: keep one.`);
  return errors.length > 0 ? { ...row, error: errors.join(' '), names } : { ...row, body, names };
}

/**
 * Why the API refused an entry, in the file's own terms: its message and code, then each issue with the entry's
 * location (`body.items.3.`) dropped and the field named as the file names it (`quantity.available`).
 */
export function refusalReason(error: ErrorBody | null, status: number, names: ReadonlyMap<BodyField, string>): string {
  if (!error) return `Refused (HTTP ${status}).`;
  const issues = (error.issues ?? []).map(({ message }) => {
    const local = message.replace(/^body\.items\.\d+\./, '');
    const match = /^([A-Za-z]+)(?=[.:\s])/.exec(local);
    const name = match ? names.get(match[1] as BodyField) : undefined;
    return name ? `${name}${local.slice(match?.[1]?.length ?? 0)}` : local;
  });
  const head = `${error.message} (${error.code})`;
  return issues.length > 0 ? `${head}: ${issues.join('; ')}` : head;
}
