import type { Fragment } from './table.js';
import type { Queryable } from './types.js';

/**
 * Copying an organization's rows into a sandbox (test mode), one table at a time, set-based. The owning module writes
 * the statement (`(rows) => sql\`INSERT INTO <table> ${rows}\``), so the write stays its own; this gives it the rows.
 *
 * - Every stored column is copied: the columns are read from the catalog, so a column a later migration adds is
 *   copied too; generated columns are computed again.
 * - The organization becomes the sandbox.
 * - Every other uuid column (the row's own id, and the ids it references: in a tenant table, every uuid but the
 *   organization is the id of one of the organization's rows) becomes `sandbox_copy_id(sandbox, id)` (migration
 *   0014), a function of the sandbox and the id only: the tables copied one after another point at each other's
 *   copies without a shared map, and no id of the workspace is an id in its sandbox. A NULL stays NULL.
 * - `set` gives some columns another value (an expression over the source row's columns).
 * - `ids: 'kept'` keeps the ids instead, for rows that move from one sandbox to the next (webhook endpoints).
 */
export interface SandboxCopy {
  from: string;
  to: string;
  set?: Readonly<Record<string, Fragment>>;
  ids?: 'mapped' | 'kept';
}

interface CopiedColumn {
  name: string;
  isId: boolean;
}

/**
 * Runs `insert` with `(<columns>) SELECT <values> FROM <table> WHERE organization_id = <from>`, the copies of the
 * table's rows; returns how many it wrote.
 */
export async function sandboxCopy(
  sql: Queryable,
  table: string,
  copy: SandboxCopy,
  insert: (rows: Fragment) => Fragment,
): Promise<number> {
  const columns = await sql<CopiedColumn[]>`
    SELECT a.attname AS name, a.atttypid = 'uuid'::regtype AS "isId"
    FROM pg_attribute a
    WHERE a.attrelid = ${table}::regclass AND a.attnum > 0 AND NOT a.attisdropped
      AND a.attgenerated = '' AND a.attidentity = ''
    ORDER BY a.attnum
  `;
  const [first, ...rest] = columns;
  if (first === undefined) throw new Error(`sandboxCopy: no table ${table}`);
  const set = copy.set ?? {};
  const copiedValue = ({ name, isId }: CopiedColumn): Fragment => {
    if (name === 'organization_id') return sql`${copy.to}::uuid`;
    const replaced = set[name];
    if (replaced !== undefined) return replaced;
    if (isId && copy.ids !== 'kept') return sql`sandbox_copy_id(${copy.to}::uuid, ${sql(name)})`;
    return sql`${sql(name)}`;
  };
  const strangers = Object.keys(set).filter((name) => !columns.some((column) => column.name === name));
  if (strangers.length > 0) throw new Error(`sandboxCopy: ${table} has no column ${strangers.join(', ')}`);
  const values = rest.reduce<Fragment>((list, column) => sql`${list}, ${copiedValue(column)}`, copiedValue(first));
  const written = await insert(sql`
    (${sql(columns.map((column) => column.name))})
    SELECT ${values} FROM ${sql(table)} WHERE organization_id = ${copy.from}
  `);
  return written.count;
}
