import { asPool } from '../../db/nested.js';
import type { Sql } from '../../db/types.js';

/** Thrown to roll a dry run back once its answer is known. */
class DryRun<T> {
  constructor(readonly answer: T) {}
}

/**
 * Runs `work` in one transaction, and for a dry run rolls it back after it has answered: everything it checks is
 * checked against the real tables (SKUs taken, ids of the workspace), and nothing it wrote remains.
 */
export async function maybeDry<T>(sql: Sql, dryRun: boolean, work: (sql: Sql) => Promise<T>): Promise<T> {
  if (!dryRun) return work(sql);
  try {
    await sql.begin(async (tx) => {
      throw new DryRun(await work(asPool(tx)));
    });
  } catch (error) {
    if (error instanceof DryRun) return error.answer as T;
    throw error;
  }
  throw new Error('a dry run ended without its answer');
}
