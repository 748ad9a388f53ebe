import postgres from 'postgres';

/** PostgreSQL's SQLSTATE codes the services react to. */
const UNIQUE_VIOLATION = '23505';
const FOREIGN_KEY_VIOLATION = '23503';

const isPostgresError = (error: unknown): error is postgres.PostgresError => error instanceof postgres.PostgresError;

/** The constraint a unique violation broke, or null when the error is something else. */
export const violatedUniqueConstraint = (error: unknown): string | null =>
  isPostgresError(error) && error.code === UNIQUE_VIOLATION ? (error.constraint_name ?? '') : null;

/** The foreign key a write broke, or null when the error is something else. */
export const violatedForeignKey = (error: unknown): string | null =>
  isPostgresError(error) && error.code === FOREIGN_KEY_VIOLATION ? (error.constraint_name ?? '') : null;

/** PostgreSQL gave up the transaction for another's sake (a serialization failure, a deadlock): run it again. */
export const isTransactionConflict = (error: unknown): boolean =>
  isPostgresError(error) && (error.code === '40001' || error.code === '40P01');
