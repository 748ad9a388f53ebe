import type { Queryable } from '../../src/db/types.js';

/** What the schema-facts test reads from the live catalog and from the code, each as a plain comparable value. */

/** A table declaration as the checks see it (every declaration fits). */
export interface AnyTable {
  readonly name: string;
  readonly columns: Record<string, { readonly type: unknown; readonly field?: string; readonly computed?: unknown }>;
  readonly stored: readonly string[];
  toApi(row: Record<string, unknown>): unknown;
}

/** A zod schema node, read through its definition (the contract's zod is another copy than this package's). */
interface ZodNode {
  _def: { typeName: string; innerType?: ZodNode; schema?: ZodNode; shape?: () => Record<string, ZodNode> };
}

/** The sorted string literals of the CHECK constraints on `table.column` alone (an `IN (…)` list, an array). */
export async function checkedValues(sql: Queryable, table: string, column: string): Promise<string[]> {
  const rows = await sql<{ definition: string }[]>`
    SELECT pg_get_constraintdef(c.oid) AS definition
    FROM pg_constraint c
    JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    WHERE c.contype = 'c' AND c.conrelid = to_regclass(${table}) AND cardinality(c.conkey) = 1
      AND a.attname = ${column}
  `;
  if (rows.length === 0) throw new Error(`no CHECK constraint on ${table}.${column}`);
  const literals = rows.flatMap((row) => [...row.definition.matchAll(/'((?:[^']|'')*)'/g)].map((m) => m[1] ?? ''));
  return [...new Set(literals.map((literal) => literal.replaceAll("''", "'")))].sort();
}

/** The expression of a generated column, as PostgreSQL prints it. */
export async function generatedExpression(sql: Queryable, table: string, column: string): Promise<string> {
  const [row] = await sql<{ expression: string | null }[]>`
    SELECT generation_expression AS expression FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table} AND column_name = ${column}
  `;
  if (!row?.expression) throw new Error(`${table}.${column} is not a generated column`);
  return row.expression;
}

/** The table's columns, and whether the database generates each. */
export async function columnsOf(sql: Queryable, table: string): Promise<{ name: string; generated: boolean }[]> {
  const rows = await sql<{ name: string; generated: string }[]>`
    SELECT column_name AS name, is_generated AS generated FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name = ${table}
    ORDER BY ordinal_position
  `;
  if (rows.length === 0) throw new Error(`no table ${table}`);
  return rows.map((row) => ({ name: row.name, generated: row.generated === 'ALWAYS' }));
}

/**
 * The stored columns that show the search fields, and the fields shown by no column at all. A field under a
 * computed field (`consignor.name` under `consignor`) is neither: it comes from a joined row.
 */
export function searchColumns(table: AnyTable, fields: readonly string[]): { stored: string[]; unshown: string[] } {
  const columns = Object.entries(table.columns);
  const stored: string[] = [];
  const unshown: string[] = [];
  for (const field of fields) {
    const column = columns.find(([, spec]) => spec.field === field && !spec.computed);
    if (column) stored.push(column[0]);
    else if (!columns.some(([, spec]) => spec.computed && field.startsWith(`${spec.field}.`))) unshown.push(field);
  }
  return { stored, unshown };
}

/** The API paths a declaration fills, in its order. */
export const declaredPaths = (table: AnyTable): string[] =>
  Object.values(table.columns).flatMap((spec) => (spec.field === undefined ? [] : [spec.field]));

/**
 * The leaves of a schema, in its key order: a field holding an object that is always present is its fields
 * (`quantity.available`); any other field (a value, a list, a map, an object that may be null) is one leaf.
 */
export function schemaPaths(schema: ZodNode, prefix = ''): string[] {
  const shape = unwrapped(schema)._def.shape?.() ?? {};
  return Object.entries(shape).flatMap(([key, node]) =>
    unwrapped(node)._def.typeName === 'ZodObject' ? schemaPaths(node, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}

/** The node under refinements and descriptions; an optional or nullable node is kept, as it is not always there. */
function unwrapped(node: ZodNode): ZodNode {
  const inner = node._def.typeName === 'ZodEffects' ? node._def.schema : undefined;
  return inner ? unwrapped(inner) : node;
}

/** Every key path of a value, in key order: objects are walked, anything else (null, arrays) is a leaf. */
export function keyPaths(value: unknown, prefix = ''): string[] {
  return Object.entries(value as Record<string, unknown>).flatMap(([key, inner]) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? keyPaths(inner, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

/** A row with every declared column, each null: enough for toApi to show where each one goes. */
export const rowFor = (table: AnyTable): Record<string, unknown> =>
  Object.fromEntries(Object.keys(table.columns).map((column) => [column, null]));

export interface StatusMix {
  available: number;
  sold: number;
  reserved: number;
  isAtAuction: boolean;
}

/**
 * The statuses whose rule (as the contract words it, ITEM_STATUS_RULES) holds for the mix. A rule is clauses
 * joined by commas and "and": "`quantity.available` > 0", "`isAtAuction` is false"; a parenthesis is a comment.
 * A clause worded otherwise throws, so a rule reworded past this reading fails the test rather than passing it.
 */
export function statusByRules(rules: Record<string, string>, mix: StatusMix): string[] {
  const item: Record<string, number | boolean> = {
    'quantity.available': mix.available,
    'quantity.sold': mix.sold,
    'quantity.reserved': mix.reserved,
    isAtAuction: mix.isAtAuction,
  };
  const holds = (clause: string): boolean => {
    const compared = /^`([\w.]+)` (>|=|<) (\d+)$/.exec(clause);
    const flag = /^`([\w.]+)` is (true|false)$/.exec(clause);
    const value = item[(compared ?? flag)?.[1] ?? ''];
    if (compared && typeof value === 'number') {
      const bound = Number(compared[3]);
      return compared[2] === '>' ? value > bound : compared[2] === '<' ? value < bound : value === bound;
    }
    if (flag && typeof value === 'boolean') return value === (flag[2] === 'true');
    throw new Error(`cannot read the status rule clause "${clause}"`);
  };
  return Object.entries(rules)
    .filter(([, rule]) =>
      rule
        .replace(/\(.*?\)/g, '')
        .replace(/\.\s*$/, '')
        .split(/,| and /)
        .map((clause) => clause.trim())
        .every(holds),
    )
    .map(([status]) => status);
}
