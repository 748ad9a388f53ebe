import { InvalidArgumentError, Option } from 'commander';
import { valueAt } from './csv.js';
import { formatDate, formatMoney, formatText, NONE, type Style } from './format.js';
import type { PageLike, View } from './render.js';
import { type Column, renderDetails } from './table.js';

// `--fields a,b,c`: the fields a list or get shows, named as the API names them (nested ones dotted:
// `quantity.available`). A table or CSV gets one column per field, JSON keeps only those keys (nested ones nested).

/**
 * The fields `--fields` names, checked against the object's fields: its CSV columns (every field, nested ones
 * dotted), an object holding some of them (`quantity`), or a path inside a one-column value (`attributes.year`,
 * `images.0.url`). Commas separate; spaces around names are ignored; a name given twice counts once.
 */
export function parseFields(text: string, columns: readonly string[]): string[] {
  const names = [...new Set(text.split(',').map((name) => name.trim()))];
  if (names.some((name) => name === '')) throw new InvalidArgumentError('Give field names separated by commas.');
  const unknown = names.filter((name) => !isField(name, columns));
  if (unknown.length > 0) {
    const them = unknown.length === 1 ? `Unknown field '${unknown[0]}'` : `Unknown fields ${quoted(unknown)}`;
    throw new InvalidArgumentError(
      `${them}. The fields are: ${topLevel(columns).join(', ')} (nested ones dotted, e.g. ${example(columns)}).`,
    );
  }
  return names;
}

function isField(name: string, columns: readonly string[]): boolean {
  return columns.some((column) => column === name || column.startsWith(`${name}.`) || name.startsWith(`${column}.`));
}

const quoted = (names: readonly string[]) => names.map((name) => `'${name}'`).join(', ');

/** The top-level fields, in column order. */
function topLevel(columns: readonly string[]): string[] {
  return [...new Set(columns.map((column) => column.split('.')[0] ?? column))];
}

function example(columns: readonly string[]): string {
  return columns.find((column) => column.includes('.')) ?? columns[0] ?? 'id';
}

/** The columns the fields make in a table or CSV: an object field (`quantity`) is each of its own columns. */
export function fieldColumns(fields: readonly string[], columns: readonly string[]): string[] {
  return fields.flatMap((field) => {
    const inside = columns.filter((column) => column.startsWith(`${field}.`));
    return inside.length > 0 ? inside : [field];
  });
}

/** The object with only the fields named, nested as in the API's object; a field it lacks is null. */
export function pickFields(value: unknown, fields: readonly string[]): Record<string, unknown> {
  const picked: Record<string, unknown> = {};
  for (const field of fields) {
    const keys = field.split('.');
    let target = picked;
    for (const key of keys.slice(0, -1)) {
      const next = target[key];
      target[key] = typeof next === 'object' && next !== null ? next : {};
      target = target[key] as Record<string, unknown>;
    }
    target[keys[keys.length - 1] ?? field] = valueAt(value, field);
  }
  return picked;
}

/** A field's name over its values: amounts show in dollars, as in every table, so theirs drops its `InCents`. */
function label(field: string): string {
  return field.replace(/InCents$/, '');
}

/** How a table cell shows a field's value: amounts in dollars and date-times local, as the default views do. */
function fieldText(field: string, value: unknown): string {
  const name = field.split('.').pop() ?? field;
  if (value === null || value === undefined) return NONE;
  if (typeof value === 'number' && name.endsWith('InCents')) return formatMoney(value);
  if (typeof value === 'string' && /(?:At|^date|Date)$/.test(name) && !Number.isNaN(Date.parse(value))) {
    return formatDate(value);
  }
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return formatText(value);
  return JSON.stringify(value);
}

/** `--fields <names>` for a list or get of objects with these CSV columns (every field, nested ones dotted). */
export function fieldsOption(columns: readonly string[]): Option {
  return new Option(
    '--fields <names>',
    `only these fields, comma-separated: table and CSV columns, JSON keys (e.g. ${columns.slice(0, 2).join(',')},${example(columns)})`,
  ).argParser((text: string) => parseFields(text, columns));
}

/** The pages with each object cut down to `fields`. */
export async function* pickPages<T>(
  pages: AsyncIterable<PageLike<T>>,
  fields: readonly string[],
): AsyncGenerator<PageLike<Record<string, unknown>>> {
  for await (const page of pages) yield { ...page, items: page.items.map((item) => pickFields(item, fields)) };
}

/** A view showing only `fields`: one table column and one CSV column per field (object fields spread out). */
export function fieldsView<T>(view: Pick<View<unknown>, 'noun' | 'csv'>, fields: readonly string[]): View<T> {
  const columns = fieldColumns(fields, view.csv);
  return {
    noun: view.noun,
    columns: columns.map(
      (field): Column<T> => ({
        header: label(field).toUpperCase(),
        value: (row) => fieldText(field, valueAt(row, field)),
        align: field.endsWith('InCents') ? 'right' : 'left',
        shrink: field === 'id' || field.endsWith('Id') ? 'never' : 'normal',
      }),
    ),
    csv: columns,
  };
}

/** The detail view of one object showing only `fields`: one line per column. */
export function fieldDetails(
  value: unknown,
  fields: readonly string[],
  columns: readonly string[],
  style: Style,
): string {
  return renderDetails(
    fieldColumns(fields, columns).map((field) => [label(field), fieldText(field, valueAt(value, field))] as const),
    style,
  );
}
