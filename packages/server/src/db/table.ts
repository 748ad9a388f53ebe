import type postgres from 'postgres';
import { type ColumnType, text } from './column-types.js';
import { type JsonText, jsonTextOf, listText } from './json-text.js';
import { type ListPage, listPage } from './sql-helpers.js';
import type { Fragment, Queryable } from './types.js';

/**
 * One declaration per table: each column once, with the API field it fills and the body field that writes it.
 * The select list, the row type, the row → API mapping and the writable columns all derive from it, so adding a
 * field to a resource is one line here (plus its migration).
 */

/**
 * Every table declared here is an organization's: its key (the organization, and the row's own id, shown as `id`)
 * comes first, added by defineTable rather than restated by each table. The shared reads (organization-rows.ts) rely
 * on it.
 */
const organizationRowKey = {
  organization_id: { type: text },
  id: { type: text, field: 'id' },
} as const;
type Keyed<C> = typeof organizationRowKey & C;

export type { Fragment } from './types.js';

/** Dotted paths into an API object, two levels deep (`quantity.available`), for where a column's value goes. */
export type FieldPath<A> = {
  [K in keyof A & string]: NonNullable<A[K]> extends readonly unknown[]
    ? K
    : NonNullable<A[K]> extends object
      ? K | `${K}.${keyof NonNullable<A[K]> & string}`
      : K;
}[keyof A & string];

export interface ColumnSpec<A, B, T> {
  readonly type: ColumnType<T>;
  /** Where the value is shown in the API object; absent: never shown. */
  readonly field?: FieldPath<A>;
  /** The request body field that writes it; absent: the API cannot set it. */
  readonly body?: keyof B & string;
  /** An expression selected instead of a stored column (a join's value, an aggregate), named after its key. */
  readonly computed?: (sql: Queryable) => Fragment;
}

/** Any column, its paths widened to text; each is checked against A and B where it is declared. */
interface AnyColumn {
  readonly type: ColumnType<unknown>;
  readonly field?: string;
  readonly body?: string;
  readonly computed?: (sql: Queryable) => Fragment;
}
type Columns = Record<string, AnyColumn>;

type ValueOf<C> = C extends { type: ColumnType<infer T> } ? T : never;

/** A row as selected: every column that is shown, stored or computed. */
export type RowOf<C extends Columns> = { [K in keyof C]: ValueOf<C[K]> };
type StoredKey<C extends Columns> = { [K in keyof C]: C[K] extends { computed: unknown } ? never : K }[keyof C];
/** A row as inserted: the stored columns (a test seeding rows, the demo). */
export type StoredRowOf<C extends Columns> = { [K in StoredKey<C>]: ValueOf<C[K]> };
/** Columns a write sets: values as postgres.js takes them (a date as text, JSON wrapped by sql.json). */
export type WriteOf<C extends Columns> = { [K in StoredKey<C>]?: ValueOf<C[K]> | string | postgres.Parameter };

export interface Table<A, B, C extends Columns> {
  readonly name: string;
  readonly alias: string;
  readonly columns: C;
  /** The select list of the API's fields, table columns qualified by the alias. */
  select(sql: Queryable): Fragment;
  /** The API object of a selected row. */
  toApi(row: RowOf<C>): A;
  /** The API objects of a query's rows; the query selects this table's `select` list. */
  all(rows: Promise<readonly postgres.Row[]>): Promise<A[]>;
  /** A list answer from a query that fetched one page's rows plus one (which says whether another page follows). */
  page(rows: Promise<readonly postgres.Row[]>, query: { page: number; limit: number }): Promise<ListPage<A>>;
  /**
   * The select list of the API's fields as JSON text written by PostgreSQL (db/json-text.ts). The bytes match
   * `JSON.stringify` for the column types items have (text, uuid, integer, bigint within 2^53, boolean, timestamptz,
   * json); a table that lists this way needs the same test as items (test/db/json-text.test.ts): a `numeric` column,
   * say, arrives from postgres.js as a string but is a number in `row_to_json`.
   */
  selectText(sql: Queryable): Fragment;
  /** `page`'s answer as JSON text, from a query that selects `selectText`: the same bytes, without the objects. */
  pageText(
    rows: Promise<readonly postgres.Row[]>,
    query: { page: number; limit: number },
  ): Promise<JsonText<ListPage<A>>>;
  /** The API object of a query's first row, or null when it returned none. */
  first(rows: Promise<readonly postgres.Row[]>): Promise<A | null>;
  /**
   * The API object of a row that PostgreSQL gave as JSON (`row_to_json` of the `select` list), as a statement that
   * reads it along with something else returns it; null for SQL NULL. Timestamps arrive as text there.
   */
  fromJson(row: unknown): A | null;
  /** The columns a body writes: only the fields present (a null kept, an absent field left alone). */
  writes(sql: Queryable, body: Partial<B>): WriteOf<C>;
  /** Every column that is stored, in declaration order (the insert list). */
  readonly stored: readonly StoredKey<C>[];
}

/**
 * Declares an organization's table for the API object `A` written by bodies of type `B`: its columns after the key.
 * Called in two steps so the column map's own types are inferred while `A` and `B` are given.
 */
export function defineTable<A, B = never>() {
  return <C extends { [K in keyof C]: ColumnSpec<A, B, ValueOf<C[K]>> } & Columns>(declaration: {
    name: string;
    alias: string;
    columns: C;
  }): Table<A, B, Keyed<C>> => {
    const columns: Keyed<C> = { ...organizationRowKey, ...declaration.columns };
    const entries = Object.entries(columns) as [string, AnyColumn][];
    const shown = entries.filter(([, spec]) => spec.field !== undefined);
    const qualified = shown.filter(([, spec]) => !spec.computed).map(([name]) => `${declaration.alias}.${name}`);
    const computed = shown.filter(([, spec]) => spec.computed);
    const written = entries.filter(([, spec]) => spec.body !== undefined);
    // Each field's place worked out once, not per row: lists map every row of every page through this.
    const places = shown.map(([name, spec]) => placeOf(name, spec));
    const timestamps = shown.filter(([, spec]) => spec.type.kind === 'timestamp').map(([name]) => name);
    let selectList: Fragment | undefined;
    const jsonText = jsonTextOf(
      shown.map(([name, spec]) => ({
        field: spec.field as string,
        kind: spec.type.kind,
        expression: (sql: Queryable) => spec.computed?.(sql) ?? sql`${sql(`${declaration.alias}.${name}`)}`,
      })),
    );
    // Every object is a copy of one template, its fields in the API's order, so all of a table's objects share one
    // shape (V8 keeps them fast to fill and to serialise) rather than growing a field at a time.
    const { topShape, nestedShapes } = shapesOf(places);
    const toApi = (row: RowOf<Keyed<C>>): A => {
      const api: Record<string, unknown> = { ...topShape };
      for (const [top, shape] of nestedShapes) api[top] = { ...shape };
      for (const { column, top, nested, timestamp } of places) {
        const value = (row as Record<string, unknown>)[column];
        const shownValue = timestamp && value instanceof Date ? value.toISOString() : value;
        if (nested === undefined) api[top] = shownValue;
        else (api[top] as Record<string, unknown>)[nested] = shownValue;
      }
      // The declaration names a path for every field of A; a test checks it against the contract's schema.
      return api as A;
    };
    return {
      name: declaration.name,
      alias: declaration.alias,
      columns,
      stored: entries.filter(([, spec]) => !spec.computed).map(([name]) => name) as StoredKey<Keyed<C>>[],
      // Built once and reused: a fragment is never run itself, only read into each query that interpolates it, so
      // one made through any connection serves all (and a list request does not rebuild it as a dozen fragments).
      select: (sql) => {
        selectList ??= computed.reduce<Fragment>(
          (list, [name, spec]) => sql`${list}, ${spec.computed?.(sql) ?? sql``} AS ${sql(name)}`,
          sql`${sql(qualified)}`,
        );
        return selectList;
      },
      toApi,
      all: async (rows) => (await rows).map((row) => toApi(row as RowOf<Keyed<C>>)),
      page: async (rows, query) =>
        listPage(
          (await rows).map((row) => toApi(row as RowOf<Keyed<C>>)),
          query,
        ),
      selectText: (sql) => jsonText.select(sql),
      pageText: async (rows, query) => {
        const { items, ...rest } = listPage(
          (await rows).map((row) => jsonText.text(row)),
          query,
        );
        return listText<ListPage<A>>(items, rest);
      },
      first: async (rows) => {
        const [row] = await rows;
        return row === undefined ? null : toApi(row as RowOf<Keyed<C>>);
      },
      fromJson: (json) => {
        if (json === null || json === undefined) return null;
        const row = { ...(json as Record<string, unknown>) };
        for (const name of timestamps) {
          const value = row[name];
          if (typeof value === 'string') row[name] = new Date(value);
        }
        return toApi(row as RowOf<Keyed<C>>);
      },
      writes: (sql, body) => {
        const values: Record<string, unknown> = {};
        for (const [name, spec] of written) {
          if (!Object.hasOwn(body, spec.body as string)) continue;
          const value = (body as Record<string, unknown>)[spec.body as string];
          values[name] = spec.type.kind === 'json' ? sql.json(value as postgres.JSONValue) : value;
        }
        return values as WriteOf<Keyed<C>>;
      },
    };
  };
}

/** Where a selected column goes in the API object: a top-level field, or one field of a nested object. */
interface Place {
  column: string;
  top: string;
  nested: string | undefined;
  timestamp: boolean;
}

/** The API object's fields in order, and each nested object's, every one null until a row fills it. */
function shapesOf(places: readonly Place[]) {
  const topShape: Record<string, unknown> = {};
  const nestedShapes = new Map<string, Record<string, unknown>>();
  for (const { top, nested } of places) {
    topShape[top] = null;
    if (nested === undefined) continue;
    const shape = nestedShapes.get(top) ?? {};
    shape[nested] = null;
    nestedShapes.set(top, shape);
  }
  return { topShape, nestedShapes: [...nestedShapes] };
}

function placeOf(column: string, spec: AnyColumn): Place {
  const [top = '', nested] = (spec.field as string).split('.');
  return { column, top, nested, timestamp: spec.type.kind === 'timestamp' };
}
