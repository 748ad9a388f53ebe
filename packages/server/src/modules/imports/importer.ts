import { basename } from 'node:path';
import type { z } from 'zod';
import { actAs, moveAs, OPERATOR } from '../../db/actor.js';
import type { Sql, TransactionSql } from '../../db/types.js';
import { ProvisioningError } from '../../errors.js';
import { requireOrganization } from '../organizations/index.js';
import { type FileRow, readImportFile } from './read.js';

/**
 * One kind of record an operator imports (`coinventory-server import <kind> FILE`): its fields, the rules of one row
 * (the API's bounds), the natural key a re-import updates by, and how a batch of valid rows is written.
 */
export interface ImportKind<Row> {
  name: string;
  /** Every field, in the order a CSV header lists them. */
  fields: readonly string[];
  required: readonly string[];
  row: z.ZodType<Row, z.ZodTypeDef, unknown>;
  /** The natural key of a row, and what it is made of (for the message on a row that repeats another). */
  key(row: Row): string;
  keyFields: string;
  /**
   * Upserts the rows by their natural key; says how many were created and updated (the rest were unchanged), and what
   * the created and updated ones concern (for `revalue`).
   */
  write(tx: TransactionSql, organizationId: string, rows: Row[]): Promise<Written>;
  /** Rules that need the database (an item the row names must exist): the rows they refuse, with the reason. */
  check?(sql: Sql, organizationId: string, rows: ReadonlyArray<{ row: number; value: Row }>): Promise<Reject[]>;
  /**
   * For what the valuation engine reads (sales, a price guide): once the import has committed, values again the items
   * that what it created or updated concerns (`Written.touched`).
   */
  revalue?(sql: Sql, organizationId: string, touched: ReadonlySet<string>): Promise<Revalued>;
}

/**
 * A kind whose rows are a zod object: its fields (in the order a CSV header lists them) and which of them are
 * required, read off the row's schema.
 */
export function kindOf<Shape extends z.ZodRawShape, Row>(
  row: z.ZodObject<Shape, z.UnknownKeysParam, z.ZodTypeAny, Row>,
  kind: Omit<ImportKind<Row>, 'fields' | 'required' | 'row'>,
): ImportKind<Row> {
  const fields = Object.entries(row.shape);
  return {
    ...kind,
    row,
    fields: fields.map(([name]) => name),
    required: fields.filter(([, field]) => !field.isOptional()).map(([name]) => name),
  };
}

export interface Written {
  created: number;
  updated: number;
  touched: ReadonlySet<string>;
  /** Kinds whose file is the whole of what it names (an invoice's lines): the records it no longer has, removed. */
  removed?: number;
}

export interface Revalued {
  /** Items that got a new valuation. */
  valued: number;
  /** Items whose estimate is the same as their latest valuation's: it still stands, nothing is recorded. */
  unchanged: number;
  /** Items concerned that nothing could value. */
  withoutBasis: number;
}

export interface Reject {
  row: number;
  reason: string;
}

export interface ImportResult {
  kind: string;
  file: string;
  organization: { id: string; slug: string };
  dryRun: boolean;
  /** Rows read (blank lines aside). */
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  /** Kinds whose file is the whole of what it names: the records removed because the file no longer has them. */
  removed?: number;
  rejected: Reject[];
  /** Kinds the valuation engine reads: the items valued again after an import that changed something. */
  revalued?: Revalued;
}

export interface ImportOptions {
  org: string;
  file: string;
  dryRun: boolean;
  /** Import the valid rows even when others are refused (otherwise a file is all or nothing). */
  partial: boolean;
}

/** Shown in a refusal's message; `--json` of a partial import has them all. */
const REJECTS_SHOWN = 20;

export async function runImport<Row>(sql: Sql, kind: ImportKind<Row>, options: ImportOptions): Promise<ImportResult> {
  const org = await requireOrganization(sql, options.org);
  const name = basename(options.file);
  const rows = readImportFile(options.file, kind.fields, kind.required);
  const read = parseRows(kind, rows);
  const { valid, rejected } = kind.check && read.valid.length > 0 ? await checkRows(sql, kind, org.id, read) : read;
  if (rejected.length > 0 && !options.partial) throw refusal(rejected, rows.length, name);
  const counts =
    valid.length > 0
      ? await writeRows(
          sql,
          kind,
          org.id,
          valid.map((entry) => entry.value),
          options.dryRun,
        )
      : { created: 0, updated: 0, touched: new Set<string>() };
  const revalued =
    kind.revalue && !options.dryRun && counts.touched.size > 0
      ? await kind.revalue(sql, org.id, counts.touched)
      : undefined;
  return {
    kind: kind.name,
    file: name,
    organization: { id: org.id, slug: org.slug },
    dryRun: options.dryRun,
    rows: rows.length,
    created: counts.created,
    updated: counts.updated,
    unchanged: valid.length - counts.created - counts.updated,
    ...(counts.removed !== undefined && { removed: counts.removed }),
    rejected,
    ...(revalued && { revalued }),
  };
}

/** The rows a file gives, sorted into those valid by the kind's rules and those rejected (in the file's order). */
interface Sorted<Row> {
  valid: Array<{ row: number; value: Row }>;
  rejected: Reject[];
}

/** Each row by the kind's rules, and against the rows before it: a row repeating another's natural key is refused. */
function parseRows<Row>(kind: ImportKind<Row>, rows: readonly FileRow[]): Sorted<Row> {
  const valid: Array<{ row: number; value: Row }> = [];
  const rejected: Reject[] = [];
  const seen = new Map<string, number>();
  for (const read of rows) {
    if ('problem' in read) {
      rejected.push({ row: read.row, reason: read.problem });
      continue;
    }
    const parsed = kind.row.safeParse(read.values);
    if (!parsed.success) {
      const reason = parsed.error.issues
        .map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
        .join('; ');
      rejected.push({ row: read.row, reason });
      continue;
    }
    const key = kind.key(parsed.data);
    const first = seen.get(key);
    if (first !== undefined) {
      rejected.push({ row: read.row, reason: `repeats row ${first} (the same ${kind.keyFields})` });
      continue;
    }
    seen.set(key, read.row);
    valid.push({ row: read.row, value: parsed.data });
  }
  return { valid, rejected };
}

/** The valid rows through the kind's checks against the database: those refused join the rejected, by row. */
async function checkRows<Row>(
  sql: Sql,
  kind: ImportKind<Row>,
  organizationId: string,
  { valid, rejected }: Sorted<Row>,
): Promise<Sorted<Row>> {
  const refused = oneByRow((await kind.check?.(sql, organizationId, valid)) ?? []);
  const refusedRows = new Set(refused.map((reject) => reject.row));
  return {
    valid: valid.filter((entry) => !refusedRows.has(entry.row)),
    rejected: [...rejected, ...refused].sort((a, b) => a.row - b.row),
  };
}

/** Why nothing is imported (without --partial): the count and the first of the refused rows. */
function refusal(rejected: readonly Reject[], rows: number, name: string): ProvisioningError {
  const shown = rejected.slice(0, REJECTS_SHOWN).map((reject) => `  row ${reject.row}: ${reject.reason}`);
  const more = rejected.length > REJECTS_SHOWN ? [`  … and ${rejected.length - REJECTS_SHOWN} more`] : [];
  return new ProvisioningError(
    'refused',
    [
      `Nothing imported: ${rejected.length} of ${rows} rows of ${name} are refused (--partial imports the others).`,
      ...shown,
      ...more,
    ].join('\n'),
  );
}

/**
 * Writes the rows in one transaction. A dry run writes them after a savepoint and rolls back to it: everything is
 * checked against the real tables, the counts are what the import would do, and what commits is empty.
 */
async function writeRows<Row>(
  sql: Sql,
  kind: ImportKind<Row>,
  organizationId: string,
  rows: Row[],
  dryRun: boolean,
): Promise<Written> {
  const written = await sql.begin(async (tx) => {
    await actAs(tx, OPERATOR);
    await moveAs(tx, { kind: 'import' });
    if (!dryRun) return kind.write(tx, organizationId, rows);
    await tx`SAVEPOINT dry_run`;
    const counts = await kind.write(tx, organizationId, rows);
    await tx`ROLLBACK TO SAVEPOINT dry_run`;
    return counts;
  });
  return written as Written;
}

/**
 * One reject per row: a row several checks refuse (an unknown invoice and an unknown SKU) gets their reasons together,
 * as a row's field errors are, so the count of refused rows and the report's lines are of rows.
 */
function oneByRow(rejects: readonly Reject[]): Reject[] {
  const reasons = new Map<number, string[]>();
  for (const reject of rejects) reasons.set(reject.row, [...(reasons.get(reject.row) ?? []), reject.reason]);
  return [...reasons].map(([row, reasonsOfRow]) => ({ row, reason: reasonsOfRow.join('; ') }));
}

/** The rows naming another record (`name`, null for none) that `known` lacks, refused with `reason`. */
export function refuseUnknown<Row>(
  rows: ReadonlyArray<{ row: number; value: Row }>,
  name: (row: Row) => string | null,
  known: { has(name: string): boolean },
  reason: (name: string) => string,
): Reject[] {
  return rows.flatMap((entry) => {
    const wanted = name(entry.value);
    return wanted === null || known.has(wanted) ? [] : [{ row: entry.row, reason: reason(wanted) }];
  });
}

/** The distinct names the rows give (`name`, null for none): what a check or a write looks up. */
export function namesIn<Row>(rows: readonly Row[], name: (row: Row) => string | null): string[] {
  return [...new Set(rows.flatMap((row) => (name(row) === null ? [] : [name(row) as string])))];
}

/** `refuseUnknown` of what `lookUp` finds of the names the rows give. */
export async function refuseUnfound<Row>(
  rows: ReadonlyArray<{ row: number; value: Row }>,
  name: (row: Row) => string | null,
  lookUp: (names: string[]) => Promise<{ has(name: string): boolean }>,
  reason: (name: string) => string,
): Promise<Reject[]> {
  const known = await lookUp(
    namesIn(
      rows.map((entry) => entry.value),
      name,
    ),
  );
  return refuseUnknown(rows, name, known, reason);
}
