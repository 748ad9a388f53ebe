import type { Fragment } from '../../db/table.js';
import type { Queryable, TransactionSql } from '../../db/types.js';
import { type ImportKind, namesIn, refuseUnfound, type Written } from './importer.js';

/**
 * How imports write: each kind's records are upserted by their natural key (the unique index a re-import finds them
 * by), a chunk of rows a statement, and only a record whose values differ is updated, so the same file imported
 * again changes nothing.
 */

/** How many rows one statement upserts. */
const CHUNK = 500;

/**
 * What an upsert returns for each record it inserted or changed: `created` true for an insert, and what the record
 * concerns (`Written.touched`). A record the file leaves as it was returns nothing (the upsert's WHERE … IS DISTINCT
 * FROM), and is counted unchanged.
 */
export type Upserted = Array<{ created: boolean; touched: string }>;

/** Upserts `rows` a chunk at a time with `write`, counting what it created and updated. */
export async function upsertInChunks<T>(rows: T[], write: (chunk: T[]) => Promise<Upserted>): Promise<Written> {
  let created = 0;
  let updated = 0;
  const touched = new Set<string>();
  for (let start = 0; start < rows.length; start += CHUNK) {
    for (const row of await write(rows.slice(start, start + CHUNK))) {
      if (row.created) created += 1;
      else updated += 1;
      touched.add(row.touched);
    }
  }
  return { created, updated, touched };
}

/** A table's natural key: the columns of the unique index an import finds its records by. */
export interface NaturalKey {
  table: string;
  /** The unique index's columns, organization_id first. */
  key: readonly string[];
  /** The column of a partial index's `IS NOT NULL` (records created through the API have none, and no key). */
  partial?: string;
}

/** Every column the values write except the natural key's: what a re-import updates, unless told otherwise. */
const updatable = (target: NaturalKey, values: readonly object[]): string[] =>
  Object.keys(values[0] ?? {}).filter((column) => !target.key.includes(column));

/**
 * Inserts `values` (objects of one column list), or updates the record with the same natural key: its `update`
 * columns (by default every column written but the key's), and only when one of them differs. Returns, for each
 * record inserted or updated, whether it was created, its id as `touched`, and the `returning` columns.
 */
export function upsertByKey<Extra extends object = object>(
  tx: TransactionSql,
  target: NaturalKey,
  values: object[],
  update: readonly string[] = updatable(target, values),
  returning: ReadonlyArray<keyof Extra & string> = [],
): Promise<Array<{ created: boolean; touched: string } & Extra>> {
  const table = tx(target.table);
  const extra: string[] = [...returning];
  const list = (each: (column: string) => Fragment) => update.map(each).reduce((all, one) => tx`${all}, ${one}`);
  return tx<Array<{ created: boolean; touched: string } & Extra>>`
    INSERT INTO ${table} ${tx(values)}
    ON CONFLICT (${tx(target.key as string[])}) ${target.partial ? tx`WHERE ${tx(target.partial)} IS NOT NULL` : tx``}
    DO UPDATE SET ${list((column) => tx`${tx(column)} = EXCLUDED.${tx(column)}`)}
    WHERE (${list((column) => tx`${table}.${tx(column)}`)})
      IS DISTINCT FROM (${list((column) => tx`EXCLUDED.${tx(column)}`)})
    RETURNING (xmax = 0) AS created, id::text AS touched
      ${extra.length > 0 ? tx`, ${tx(extra)}` : tx``}
  `;
}

const EXTERNAL_ID: NaturalKey['key'] = ['organization_id', 'external_id'];

/**
 * The organization's imported records of `table` among `externalIds`: their ids by externalId; locked, in one order,
 * when `lock` (what the import adds to them must wait for no one).
 */
export async function idsByExternalId(
  sql: Queryable,
  table: string,
  organizationId: string,
  externalIds: readonly string[],
  lock = false,
): Promise<Map<string, string>> {
  const rows = await sql<{ id: string; external_id: string }[]>`
    SELECT id, external_id FROM ${sql(table)}
    WHERE organization_id = ${organizationId} AND external_id = ANY(${externalIds as string[]})
    ${lock ? sql`ORDER BY id FOR UPDATE` : sql``}
  `;
  return new Map(rows.map((row) => [row.external_id, row.id]));
}

/** `idsByExternalId` of the records the rows refer to by `reference` (a consignment's consignor, a zone's warehouse). */
export function idsReferencedBy<Row>(
  sql: Queryable,
  table: string,
  organizationId: string,
  rows: readonly Row[],
  reference: (row: Row) => string | null,
  lock = false,
): Promise<Map<string, string>> {
  return idsByExternalId(sql, table, organizationId, namesIn(rows, reference), lock);
}

/**
 * The check of a kind whose rows name a record of `table` by its externalId (`name`, null for none): a `what` the
 * organization has not imported yet refuses the row.
 */
export const importedFirst =
  <Row>(table: string, what: string, name: (row: Row) => string | null): NonNullable<ImportKind<Row>['check']> =>
  (sql, organizationId, rows) =>
    refuseUnfound(
      rows,
      name,
      (names) => idsByExternalId(sql, table, organizationId, names),
      (externalId) => `${what}: no ${what} with externalId "${externalId}" (import ${table} first)`,
    );

/**
 * Upserts records an import finds by their externalId (unique in the organization): `update` names the row's fields
 * that are columns of the same name, which a re-import updates.
 */
export function upsertByExternalId<Row extends { externalId: string }>(
  tx: TransactionSql,
  table: string,
  organizationId: string,
  rows: Row[],
  update: ReadonlyArray<keyof Row & string>,
): Promise<Written> {
  const target = { table, key: EXTERNAL_ID, partial: 'external_id' };
  return upsertInChunks(rows, (chunk) =>
    upsertByKey(
      tx,
      target,
      chunk.map((row) => ({
        organization_id: organizationId,
        external_id: row.externalId,
        ...Object.fromEntries(update.map((field) => [field, row[field]])),
      })),
      update,
    ),
  );
}

/**
 * Upserts records whose `created_at` a file may give: a row with one sets the record's; a row without creates a new
 * record now and leaves an existing one's as it is, so the two go in separate statements (`created_at` in the values,
 * and so updated, only in the dated one). Says what was created and what updated, by id (`touched`), for the changes
 * to record.
 */
export async function upsertWithCreatedAt<Row>(
  tx: TransactionSql,
  target: NaturalKey,
  rows: Row[],
  valuesOf: (row: Row) => { created_at: Date | null },
): Promise<Written & { createdIds: string[]; updatedIds: string[] }> {
  const createdIds: string[] = [];
  const updatedIds: string[] = [];
  const written = await upsertInChunks(rows, async (chunk) => {
    const values = chunk.map(valuesOf);
    const dated = values.filter((value) => value.created_at !== null);
    const undated = values.filter((value) => value.created_at === null).map(({ created_at, ...value }) => value);
    const upserted: Upserted = [];
    if (undated.length > 0) upserted.push(...(await upsertByKey(tx, target, undated)));
    if (dated.length > 0) upserted.push(...(await upsertByKey(tx, target, dated)));
    for (const row of upserted) (row.created ? createdIds : updatedIds).push(row.touched);
    return upserted;
  });
  return { ...written, createdIds, updatedIds };
}
