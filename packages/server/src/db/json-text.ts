import type { Fragment, Queryable } from './types.js';

/**
 * An answer already written as JSON text: the entity-tag middleware sends its text as it is instead of serialising an
 * object (http/middleware/etag.ts). Lists use it so that PostgreSQL writes most of each row's JSON and the server
 * neither decodes every column nor maps and serialises the object again.
 */
export class JsonText<T = unknown> {
  /** Phantom: the API object the text is the JSON of. */
  declare readonly of?: T;
  constructor(readonly text: string) {}

  /** The object again (the text is JSON.stringify's of a `T`). */
  parse(): T {
    return JSON.parse(this.text) as T;
  }
}

/** How a list answer's JSON begins, up to its first item. */
const EMPTY_ITEMS = '{"items":[';

/**
 * A list answer `{ items, …rest }` as JSON text: the items' texts put into what JSON.stringify writes of the answer
 * with no items, so the other fields are in their order and written as JSON.stringify writes them.
 */
export function listText<L extends { items: readonly unknown[] }>(
  items: readonly string[],
  rest: Omit<L, 'items'>,
): JsonText<L> {
  const envelope = JSON.stringify({ items: [], ...rest });
  return new JsonText(`${EMPTY_ITEMS}${items.join(',')}${envelope.slice(EMPTY_ITEMS.length)}`);
}

/** One API field in order: a column's value, a nested object's columns, or a JSON column (spliced from JS). */
type Field =
  | { kind: 'value'; key: string; value: (sql: Queryable) => Fragment }
  | { kind: 'object'; key: string; members: { key: string; value: (sql: Queryable) => Fragment }[] }
  | { kind: 'json'; key: string; value: (sql: Queryable) => Fragment };

/** A column of a table declaration, as the JSON text needs it. */
export interface TextColumn {
  /** The API path, `top` or `top.nested`. */
  field: string;
  kind: 'value' | 'timestamp' | 'json';
  /** The column's expression: the qualified stored column, or the computed one. */
  expression: (sql: Queryable) => Fragment;
}

/**
 * A timestamp as `Date.prototype.toISOString` writes it: UTC, milliseconds truncated as a Date holds them. The same
 * text for every year the API stores (1000 to 9999, DATE_TIME_YEARS): outside them the two would differ.
 */
const isoTimestamp = (sql: Queryable, value: Fragment) =>
  sql`to_char(${value} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const joined = (sql: Queryable, parts: Fragment[]) =>
  parts.slice(1).reduce<Fragment>((list, part) => sql`${list}, ${part}`, parts[0] ?? sql``);

/**
 * The JSON text of a table's API objects, written by PostgreSQL: the select list and the row → text assembly. Runs of
 * plain fields become one `row_to_json` each (compact, escaped as `JSON.stringify` escapes, keys from column aliases);
 * a JSON column comes as its text and is parsed and written again here, since PostgreSQL writes `jsonb` with spaces
 * and in an order of its own. Timestamps are formatted as `toISOString` does. So the bytes are those of
 * `JSON.stringify(toApi(row))`, which a test checks on every kind of field.
 */
export function jsonTextOf(columns: readonly TextColumn[]) {
  const fields: Field[] = [];
  // Told when the JSON text is first asked for, not when a table that never lists this way is declared.
  let unsupported: string | undefined;
  for (const { field, kind, expression } of columns) {
    const [top = '', nested] = field.split('.');
    const value =
      kind === 'timestamp'
        ? (sql: Queryable) => isoTimestamp(sql, expression(sql))
        : (sql: Queryable) => expression(sql);
    if (nested === undefined) {
      fields.push(kind === 'json' ? { kind: 'json', key: top, value } : { kind: 'value', key: top, value });
      continue;
    }
    if (kind === 'json') {
      unsupported ??= `JSON text: a JSON column inside a nested object is not supported (${field})`;
      continue;
    }
    const object = fields.find((f): f is Extract<Field, { kind: 'object' }> => f.kind === 'object' && f.key === top);
    if (object) object.members.push({ key: nested, value });
    else fields.push({ kind: 'object', key: top, members: [{ key: nested, value }] });
  }

  // Consecutive plain fields form one run; each run and each JSON column is one selected column, `json_text_<n>`.
  const parts: ({ run: Field[] } | { json: Extract<Field, { kind: 'json' }> })[] = [];
  for (const field of fields) {
    const last = parts[parts.length - 1];
    if (field.kind === 'json') parts.push({ json: field });
    else if (last && 'run' in last) last.run.push(field);
    else parts.push({ run: [field] });
  }
  const names = parts.map((_, i) => `json_text_${i}`);

  const runItem = (sql: Queryable, field: Field): Fragment =>
    field.kind === 'object'
      ? sql`(SELECT o FROM (SELECT ${joined(
          sql,
          field.members.map((m) => sql`${m.value(sql)} AS ${sql(m.key)}`),
        )}) o) AS ${sql(field.key)}`
      : sql`${field.value(sql)} AS ${sql(field.key)}`;

  let selectList: Fragment | undefined;
  /** The select list (built once, as a table's `select` is): one text column per run and per JSON column. */
  const select = (sql: Queryable): Fragment => {
    if (unsupported !== undefined) throw new Error(unsupported);
    selectList ??= joined(
      sql,
      parts.map((part, i) =>
        'run' in part
          ? sql`(SELECT row_to_json(r) FROM (SELECT ${joined(
              sql,
              part.run.map((field) => runItem(sql, field)),
            )}) r)::text AS ${sql(names[i] as string)}`
          : sql`(${part.json.value(sql)})::text AS ${sql(names[i] as string)}`,
      ),
    );
    return selectList;
  };

  const pieces = parts.map((part, i) => ({
    name: names[i] as string,
    // A JSON column's key as JSON.stringify writes it; a run's text is an object whose braces are dropped.
    key: 'json' in part ? `${JSON.stringify(part.json.key)}:` : undefined,
  }));
  /** One row's object as JSON text. */
  const text = (row: Record<string, unknown>): string => {
    let out = '{';
    for (let i = 0; i < pieces.length; i++) {
      const { name, key } = pieces[i] as (typeof pieces)[number];
      const value = row[name];
      if (i > 0) out += ',';
      if (key === undefined) out += (value as string).slice(1, -1);
      else out += key + (typeof value === 'string' ? JSON.stringify(JSON.parse(value)) : 'null');
    }
    return `${out}}`;
  };
  return { select, text };
}
